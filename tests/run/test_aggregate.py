"""Aggregation: pass@k (checked against published values), repeats, datasets, scales."""

from __future__ import annotations

from fractions import Fraction

import pytest

from catalogctl.model.documents.results import AccuracyResult
from catalogctl.run.aggregate import DatasetScore, NotEvaluable, combine, dataset_score, pass_at_k, to_scale


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        (1, 1, 1, Fraction(1)),
        (10, 3, 1, Fraction(3, 10)),  # pass@1 is the success rate
        (10, 3, 5, Fraction(11, 12)),  # 1 - C(7,5)/C(10,5) = 1 - 21/252
        (10, 0, 5, Fraction(0)),
        (4, 1, 4, Fraction(1)),  # pass@4 of four attempts: solved at least once
        (4, 0, 4, Fraction(0)),
        (200, 2, 100, 1 - Fraction(99, 199) * Fraction(1, 2)),  # 1 - C(198,100)/C(200,100)
        (16, 4, 4, 1 - Fraction(495, 1820)),  # 1 - C(12,4)/C(16,4)
    ],
)
def test_pass_at_k_matches_the_unbiased_estimator(n: int, c: int, k: int, expected: Fraction) -> None:
    assert pass_at_k(n, c, k) == expected


def test_pass_at_k_against_the_numerically_stable_form() -> None:
    # Chen et al. (2021): 1 - prod(1 - k / arange(n - c + 1, n + 1))
    for n, c, k in [(20, 5, 3), (50, 10, 10), (7, 2, 7), (100, 37, 25)]:
        stable = 1.0
        for i in range(n - c + 1, n + 1):
            stable *= 1 - k / i
        assert float(pass_at_k(n, c, k)) == pytest.approx(1 - stable, rel=1e-12)


def test_pass_at_k_needs_k_attempts() -> None:
    with pytest.raises(ValueError, match="pass@4 needs at least 4 attempts per task, got 3"):
        pass_at_k(3, 1, 4)
    with pytest.raises(ValueError, match="impossible"):
        pass_at_k(3, 4, 1)


def test_repeat_aggregation_methods() -> None:
    result = AccuracyResult(dataset="aime25", scale="fraction", repeat_scores=[0.5, 0.7, 0.6, 0.9])
    assert dataset_score(result, "mean_of_k", 4, 4).value == pytest.approx(0.675)
    assert dataset_score(result, "mean_of_k", 2, 4).value == pytest.approx(0.6)
    assert dataset_score(result, "best_of_k", 3, 4).value == 0.7
    with pytest.raises(NotEvaluable, match="mean_of_k needs 5 repeats, the run reported 4"):
        dataset_score(result, "mean_of_k", 5, 5)


def test_pooled_score_serves_mean_of_all_repeats_only() -> None:
    pooled = AccuracyResult(dataset="d", scale="percent", pooled_score=80.6)
    assert dataset_score(pooled, "mean_of_k", 1, 1).value == 80.6
    with pytest.raises(NotEvaluable, match="best_of_k needs per-repeat scores"):
        dataset_score(pooled, "best_of_k", 1, 1)
    with pytest.raises(NotEvaluable, match="mean_of_k needs per-repeat scores"):
        dataset_score(pooled, "mean_of_k", 2, 3)


def test_pass_at_k_over_tasks() -> None:
    tasks = {"t1": [True, False, False, False], "t2": [False] * 4, "t3": [False, False, True, True]}
    result = AccuracyResult(dataset="r2e", scale="fraction", task_attempts=tasks)
    assert dataset_score(result, "pass_at_k", 4, 4).value == pytest.approx(2 / 3)
    assert dataset_score(result, "pass_at_k", 1, 4).value == pytest.approx((1 / 4 + 0 + 2 / 4) / 3)
    with pytest.raises(NotEvaluable, match="pass@8 needs at least 8 attempts per task, got 4"):
        dataset_score(result, "pass_at_k", 8, 8)
    with pytest.raises(NotEvaluable, match="per-task attempt outcomes"):
        dataset_score(AccuracyResult(dataset="x", scale="fraction"), "pass_at_k", 4, 4)


def test_across_datasets() -> None:
    scores = [DatasetScore("a", 0.9, "fraction", ""), DatasetScore("b", 60.0, "percent", "")]
    assert combine(scores, "unweighted_mean", None, {}, "percent") == {"": pytest.approx(75.0)}
    assert combine(scores, "micro_average", "base_questions", {"a": 30, "b": 90}, "percent") == {
        "": pytest.approx((90 * 30 + 60 * 90) / 120)
    }
    assert combine(scores, "per_dataset", None, {}, "fraction") == {"a": 0.9, "b": pytest.approx(0.6)}
    with pytest.raises(NotEvaluable, match="single_dataset aggregation over 2 datasets"):
        combine(scores, "single_dataset", None, {}, "percent")


def test_scales() -> None:
    assert to_scale(0.8313, "fraction", "percent") == pytest.approx(83.13)
    assert to_scale(83.13, "percent", "fraction") == pytest.approx(0.8313)
    assert to_scale(3825.6, "tokens", "absolute") == 3825.6
