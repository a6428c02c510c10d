"""A generator of DeepSeek-R1 submission trees (§8.1) built from the real v6.1 NVIDIA files of
tests/fixtures/endpoints (`tests.submission_points` writes them), for the conformance campaign:
each tree is drawn from a seed, described by `TreeParams`, and laid out by `build`.

What varies, tree by tree: the seeds declared in point.yaml and those the client recorded (and
whether it recorded a model seed), the seed set bound and the target cohort, the model name
declared and the model served, the load each point ran at, C_max and the concurrencies of the
points (their number and regions), per point the whole run's duration, the steady-state window
stated and the samples completed, which points carry an accuracy run, its score, the scale the
score is written on, its samples and output length, an inline performance entry, and one missing
file. The cohort's sets are those of `tests.conformance.tree_cohort` (A resolved, B published
later, Z never published).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tests.conformance.tree_cohort import COHORT, TreeCohort
from tests.run_results import DEEPSEEK_SERVED
from tests.submission_points import Accuracy, Point, submission_tree

OTHER_SEEDS = {"scheduler_rng_seed": 11, "sample_index_rng_seed": 22, "model_seed": 33}
ACCURACY_SAMPLES = 4388  # mlperf_deepseek_r1: the contract's min_accuracy_sample_count and min_sample_count
CONCURRENCIES = (1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256)
MISSING = ("config.yaml", "result_summary.json", "point.yaml", "system_desc.json", "accuracy_results.json")
COHORTS = ("2026-10-C1", "2026-11-C0", "2026-11-C1", "2026-12-C1")  # resolved; A's; A's and B's; B's only


@dataclass(frozen=True)
class PointParams:
    """One point: its concurrency, the whole run's seconds, the steady-state window stated
    (None: no steady_state block; "no-duration": a window without duration_s; else its seconds),
    the samples the run completed, whether it carries an accuracy run."""

    concurrency: int
    duration_s: float
    window: float | str | None
    samples: int
    accuracy: bool


@dataclass(frozen=True)
class TreeParams:
    """Everything a generated tree is made of; the predicates of the table of differences read it."""

    seed: int
    c_max: int
    points: tuple[PointParams, ...]
    seed_set: str | None = "A"  # A (the resolved set), B (published, adoptable later), Z (never published)
    declared: str = "bound"  # bound (the set's seeds), resolved (A's), other, no-model-seed
    recorded: str = "declared"  # declared or other
    record_model_seed: bool = False
    target_cohort: str | None = COHORT
    model_name: str = "deepseek-r1"
    served: str = "contract"  # contract or other
    load: str = "point"  # point, other-concurrency, poisson
    score: float = 80.62898814949864  # percent, as the contract's scorer writes it
    scale: str = "percent"  # percent or fraction: the scale the score is written on
    accuracy_samples: int = ACCURACY_SAMPLES
    tokens_per_sample: float = 3825.634229717411
    inline: tuple[float, int] | None = None  # the inline performance entry's (score, samples)
    missing: str | None = None  # a file missing from the first point

    @property
    def accuracy_points(self) -> tuple[int, ...]:
        return tuple(p.concurrency for p in self.points if p.accuracy)

    def describe(self) -> str:
        """One line that rebuilds the tree in a reader's head (and, with the seed, on a machine)."""
        changed = {k: v for k, v in vars(self).items() if k not in ("seed", "c_max", "points") and v != _DEFAULT[k]}
        shown = ", ".join(f"{k}={v!r}" for k, v in changed.items()) or "the valid curve"
        return f"tree {self.seed}: c_max={self.c_max}, points=[{', '.join(map(_shown, self.points))}], {shown}"


def _shown(point: PointParams) -> str:
    """A point in a few characters: `r64 1500s window 1150s 4388 samples accuracy`."""
    window = f" window {point.window:g}s" if isinstance(point.window, float) else f" window {point.window or ''}"
    window = "" if point.window is None else window
    samples = "" if point.samples == 330_000 else f" {point.samples} samples"
    return f"r{point.concurrency} {point.duration_s:g}s{window}{samples}{' accuracy' if point.accuracy else ''}"


_DEFAULT = vars(TreeParams(seed=0, c_max=256, points=()))


def _pick(rng: random.Random, weighted: dict[Any, float]) -> Any:
    return rng.choices(list(weighted), weights=list(weighted.values()))[0]


def _point(rng: random.Random, concurrency: int) -> PointParams:
    floor = 600.0 if concurrency <= 32 else 1200.0  # §6.2 for this concurrency
    duration = _pick(rng, {floor + 300.0: 6, floor + 1200.0: 2, floor - 100.0: 1, floor - 400.0: 1})
    window = _pick(rng, {None: 5, "no-duration": 1, duration - 200.0: 2, floor - 50.0: 1, floor + 60.0: 1})
    samples = _pick(rng, {330_000: 8, ACCURACY_SAMPLES: 1, ACCURACY_SAMPLES - 388: 1})
    return PointParams(concurrency, duration, window, samples, rng.random() < 0.5)


def _banded(rng: random.Random, c_max: int) -> tuple[PointParams, ...]:
    """A curve laid out as §4.3 and §5.3 want it: a point in Ultra Low Concurrency (1) and one in
    each of Low, Medium and High (the region's middle, from the checker's own §5.5 boundaries;
    High's is C_max, elected Offline), each with the curve's one accuracy run, and a few others."""
    from submission_checker.models.regions import compute_regions

    regions = compute_regions(c_max, 1)
    middles = [(r.start + r.end) // 2 for r in (regions.low_concurrency, regions.med_concurrency)]
    runs = {1, *middles, c_max}
    others = [c for c in CONCURRENCIES if c < c_max and c not in runs]
    chosen = sorted(runs | set(rng.sample(others, rng.randint(0, 3))))
    return tuple(replace(_point(rng, c), accuracy=c in runs) for c in chosen)


def draw(seed: int) -> TreeParams:
    """The tree of generator seed `seed` (the same seed, the same tree)."""
    rng = random.Random(seed)
    c_max = rng.choice((64, 128, 256))
    if rng.random() < 0.4:
        points = _banded(rng, c_max)
    else:
        candidates = [c for c in CONCURRENCIES if c < c_max]
        chosen = sorted([*rng.sample(candidates, rng.randint(0, min(6, len(candidates)))), c_max])
        if rng.random() < 0.08:  # a point in §5.4's 10 % margin above C_max
            chosen.append(c_max + c_max // 16)
        points = tuple(_point(rng, c) for c in chosen)
    if not any(p.accuracy for p in points):
        points = (replace(points[0], accuracy=True), *points[1:])
    score = _pick(rng, {80.62898814949864: 6, 85.0: 1, 80.0: 1, 75.0: 1, 0.9: 1})
    inline = None
    if rng.random() < 0.2:
        inline = (_pick(rng, {95.0: 1, 85.0: 1, 60.0: 1, score: 1}), _pick(rng, {1388: 1, ACCURACY_SAMPLES: 1}))
    seed_set = _pick(rng, {"A": 14, "B": 2, "Z": 1.5, None: 1})
    unknown = seed_set not in ("A", "B")  # a set the checker does not know: often seeds of its own
    return TreeParams(
        seed=seed,
        c_max=c_max,
        points=points,
        seed_set=seed_set,
        declared=_pick(rng, {"bound": 14, "resolved": 1, "other": 8 if unknown else 2, "no-model-seed": 1}),
        recorded=_pick(rng, {"declared": 9, "other": 1}),
        record_model_seed=rng.random() < 0.3,
        target_cohort=_pick(rng, {COHORTS[0]: 10 if unknown else 14, **dict.fromkeys(COHORTS[1:], 1.5), None: 1}),
        model_name=_pick(rng, {"deepseek-r1": 16, "llama3_1-8b": 1, "deepseek-r1-distill": 1}),
        served=_pick(rng, {"contract": 24, "other": 1}),
        load=_pick(rng, {"point": 22, "other-concurrency": 1, "poisson": 1}),
        score=score,
        scale=_pick(rng, {"percent": 9, "fraction": 1}),
        accuracy_samples=_pick(rng, {ACCURACY_SAMPLES: 8, 3000: 1, 4000: 1}),
        tokens_per_sample=_pick(rng, {3825.634229717411: 8, 5000.0: 1, 3000.0: 1}),
        inline=inline,
        missing=_pick(rng, {None: 24, **dict.fromkeys(MISSING, 0.4)}),
    )


def declared_seeds(params: TreeParams, cohort: TreeCohort) -> dict[str, int]:
    """The seeds point.yaml declares (the `no-model-seed` kind leaves model_seed out)."""
    bound = cohort.sets.get(params.seed_set or "", cohort.sets["A"])
    found = {"bound": bound, "resolved": cohort.sets["A"], "other": OTHER_SEEDS, "no-model-seed": bound}
    return dict(found[params.declared])


def _accuracy(params: TreeParams) -> Accuracy:
    score = params.score / 100.0 if params.scale == "fraction" else params.score
    inline_score, inline_samples = params.inline if params.inline is not None else (None, None)
    if inline_score is not None and params.scale == "fraction":
        inline_score /= 100.0
    return Accuracy(
        score=score,
        samples=params.accuracy_samples,
        tokens_per_sample=params.tokens_per_sample,
        inline_samples=inline_samples,
        inline_score=inline_score,
    )


def _load(params: TreeParams, concurrency: int) -> dict[str, Any] | None:
    if params.load == "poisson":
        return {"type": "poisson", "target_qps": 170.0}
    if params.load == "other-concurrency":
        return {"type": "concurrency", "target_concurrency": concurrency + 1}
    return None


def _window(point: PointParams) -> dict[str, Any]:
    if point.window is None:
        return {}
    window: dict[str, Any] = {"super_pass_start": 1, "super_pass_end": 6, "super_pass_size": 4388}
    if isinstance(point.window, float):
        window["duration_s"] = point.window
    states = dict.fromkeys(("ttft_p50", "ttft_p90", "tpot_p50", "tpot_p90"), "Plateau")
    return {"steady_state": {"status": "windowable", "verdict": "STEADY STATE", "window": window, "state": states}}


def build(params: TreeParams, root: Path, cohort: TreeCohort) -> Path:
    """Lay the tree of `params` out under `root`; returns its submission folder."""
    declared = declared_seeds(params, cohort)
    runtime = {k: v for k, v in declared.items() if not (params.declared == "no-model-seed" and k == "model_seed")}
    recorded = OTHER_SEEDS if params.recorded == "other" else declared
    points = [
        Point(
            p.concurrency,
            declared=runtime,
            recorded={**declared, **recorded},
            record_model_seed=params.record_model_seed,
            seed_set=params.seed_set,
            target_cohort=params.target_cohort,
            model_name=params.model_name,
            max_concurrency=params.c_max,
            offline="elected" if p.concurrency == params.c_max else None,
            load=_load(params, p.concurrency),
            duration_s=p.duration_s,
            samples=p.samples,
            accuracy=_accuracy(params) if p.accuracy else None,
            served_model=DEEPSEEK_SERVED if params.served == "contract" else "deepseek-r1-distill",
            extra=_window(p),
        )
        for p in params.points
    ]
    tree = submission_tree(root, points)
    if params.missing is not None:
        (tree / "results" / "sys-8x" / "deepseek-r1" / f"r{params.points[0].concurrency}" / params.missing).unlink(
            missing_ok=True
        )
    return tree
