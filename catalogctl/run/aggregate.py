"""Scores: per dataset over repeats, then across datasets, on the threshold's scale.

pass@k uses the unbiased estimator of Chen et al. (2021): for a task attempted n times with c
successes, 1 - C(n-c, k) / C(n, k), averaged over tasks, computed exactly.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from catalogctl import words
from catalogctl.model.documents.resolved import DatasetMethod, RepeatMethod, ResolvedContract, Weighting
from catalogctl.model.documents.results import AccuracyResult


class NotEvaluable(Exception):
    """A figure cannot be computed from what the run reported."""


def pass_at_k(n: int, c: int, k: int) -> Fraction:
    """The unbiased pass@k estimate of one task: n attempts, c correct."""
    if not 0 <= c <= n:
        raise ValueError(f"c={c} correct out of n={n} attempts is impossible")
    if n < k:
        raise ValueError(f"pass@{k} needs at least {k} attempts per task, got {n}")
    if n - c < k:
        return Fraction(1)
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


_RANGES = {"fraction": 1.0, "percent": 100.0}


def in_range(value: float, scale: str, what: str) -> float:
    """`value`, when it can be a score on `scale` (0-1 for a fraction, 0-100 for percent): a run
    that labels a percentage a fraction must not pass a threshold a hundred times too easily."""
    top = _RANGES.get(scale)
    if top is not None and not 0 <= value <= top:
        raise NotEvaluable(f"{what}: {value:g} is not a {scale} (0..{top:g})")
    return value


def to_scale(value: float, source: str, target: str) -> float:
    """A ratio score moved between fraction (0-1) and percent (0-100)."""
    if source == target or target == "absolute":
        return value
    if source == "fraction" and target == "percent":
        return value * 100
    if source == "percent" and target == "fraction":
        return value / 100
    raise ValueError(f"cannot convert a {source} score to {target}")


@dataclass(frozen=True)
class DatasetScore:
    """A dataset's score (in `scale`) and how it was obtained."""

    dataset: str
    value: float
    scale: str
    how: str


def dataset_score(
    result: AccuracyResult, method: RepeatMethod, k: int, num_repeats: int, tasks: int | None = None
) -> DatasetScore:
    """Aggregate one dataset's repeats: mean_of_k, best_of_k or pass_at_k (over `tasks` tasks
    when the dataset's size is known: a run reporting fewer tasks is not scored on them)."""
    if method == "pass_at_k":
        if not result.task_attempts:
            raise NotEvaluable(
                f"{result.dataset}: pass@{k} needs per-task attempt outcomes, which the run did not report"
            )
        if tasks is not None and len(result.task_attempts) != tasks:
            raise NotEvaluable(
                f"{result.dataset}: the run reported {words.count(len(result.task_attempts), 'task')}, "
                f"the dataset has {tasks}"
            )
        try:
            per_task = [pass_at_k(len(o), sum(o), k) for o in result.task_attempts.values()]
        except ValueError as exc:
            raise NotEvaluable(f"{result.dataset}: {exc}") from None
        value = float(sum(per_task, Fraction(0)) / len(per_task))
        return DatasetScore(result.dataset, value, "fraction", f"pass@{k} over {words.count(len(per_task), 'task')}")
    scores = result.repeat_scores
    if scores:
        if len(scores) < k:
            raise NotEvaluable(
                f"{result.dataset}: {method} needs {words.count(k, 'repeat')}, the run reported {len(scores)}"
            )
        chosen = [in_range(score, result.scale, f"{result.dataset} repeat score") for score in scores[:k]]
        value = statistics.fmean(chosen) if method == "mean_of_k" else max(chosen)
        return DatasetScore(result.dataset, value, result.scale, f"{method} of {words.count(k, 'repeat')}")
    if method == "mean_of_k" and k == num_repeats and result.pooled_score is not None:
        # The pooled score over all repeats equals the mean of the repeats' scores, as every
        # repeat scores the same samples.
        pooled = in_range(result.pooled_score, result.scale, f"{result.dataset} pooled score")
        return DatasetScore(result.dataset, pooled, result.scale, f"pooled over {words.count(num_repeats, 'repeat')}")
    raise NotEvaluable(f"{result.dataset}: {method} needs per-repeat scores, which the run did not report")


def combine(
    scores: Sequence[DatasetScore],
    method: DatasetMethod,
    weighting: Weighting | None,
    weights: Mapping[str, int],
    scale: str,
) -> dict[str, float]:
    """Across datasets, on `scale`: one value (key "") or, for per_dataset, one per dataset."""
    values = {s.dataset: to_scale(s.value, s.scale, scale) for s in scores}
    if method == "per_dataset":
        return values
    if method == "single_dataset":
        if len(values) != 1:
            raise NotEvaluable(f"single_dataset aggregation over {len(values)} datasets")
        return {"": next(iter(values.values()))}
    if method == "unweighted_mean":
        return {"": statistics.fmean(values.values())}
    if method == "micro_average":
        total = sum(weights[d] for d in values)
        if not total:
            raise NotEvaluable("micro_average with no weight")
        return {"": sum(values[d] * weights[d] for d in values) / total}
    raise ValueError(f"unknown aggregation method {method}")


def weights_of(contract: ResolvedContract, weighting: Weighting | None) -> dict[str, int]:
    """The weight of each accuracy dataset: its base questions, or its samples times repeats."""
    weights: dict[str, int] = {}
    for entry in contract["accuracy"]["datasets"]:
        samples = entry["dataset"]["samples"]
        if not isinstance(samples, int):
            raise NotEvaluable(f"{entry['dataset']['id']}: its sample count is pending")
        weights[entry["dataset"]["id"]] = samples * (entry["num_repeats"] if weighting == "samples" else 1)
    return weights
