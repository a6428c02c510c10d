"""The shipped catalog's figures that the official MLCommons tools also state.

Each test reads the official package's own data (endpoints-submission-cli's `submission_checker`,
mlperf-logging's compliance and RCP files) where it carries the figure, so that an edit of the
catalog that drifts from the public record fails, naming the source it drifted from.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from catalogctl.catalog.index import Catalog
from catalogctl.model.documents.benchmark import ByConcurrency, InferenceBenchmark, TrainingBenchmark
from tests.catalog_edit import load
from tests.helpers import SHIPPED_CATALOG

CHECKER = "endpoints-submission-cli 1.5.3.0"
LOGGING = "mlperf-logging 4.1.68"
TRAINING_RULES = "mlperf_logging/compliance_checker/training_6.1.0/closed_qwen35_397b_grpo.yaml"
TRAINING_RCPS = "mlperf_logging/rcp_checker/training_6.1.0/rcps_qwen35_397b_grpo.json"


pytestmark = pytest.mark.conformance


@pytest.fixture(scope="module")
def shipped() -> Catalog:
    """The shipped catalog, as the loader reads it."""
    result = load(SHIPPED_CATALOG.parent)
    assert result.catalog is not None
    return result.catalog


def checker_data(name: str) -> dict[str, object]:
    """A data file the official checker bundles (submission_checker/data/NAME)."""
    import submission_checker

    path = Path(submission_checker.__file__).parent / "data" / name
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_deepseek_r1_pins_the_checkpoint_the_checker_approves(shipped: Catalog) -> None:
    model = shipped.models["deepseek-r1"]
    approved = [
        entry
        for entry in checker_data("approved_drafters.yaml")["drafters"]  # type: ignore[attr-defined]
        if entry["benchmark"] == "deepseek-r1" and entry["model_id"] == model.reference_id
    ]
    source = f"{CHECKER}, submission_checker/data/approved_drafters.yaml"
    assert approved, f"{model.reference_id} is not a deepseek-r1 checkpoint of {source}"
    assert f"git-sha1:{model.sha}" == approved[0]["weight_checksum"], source


def test_llama3_1_8b_cnn_dailymail_is_gated_as_the_checker_gates_it(shipped: Catalog) -> None:
    from submission_checker.accuracy_targets import get_thresholds

    source = f"{CHECKER}, submission_checker/accuracy_targets.py"
    bench = shipped.benchmarks["llama3-1-8b"]
    assert isinstance(bench, InferenceBenchmark)
    model = shipped.models[bench.model]
    targets = get_thresholds(model.mlperf_name or model.id)
    assert targets is not None, f"{source} has no target for {model.mlperf_name}"
    bounds, min_queries = targets
    assert bench.accuracy is not None
    ours = {
        key.lower(): (
            threshold.reference * (threshold.lower_factor or 0),
            None if threshold.upper_factor is None else threshold.reference * threshold.upper_factor,
        )
        for key, threshold in bench.accuracy.thresholds.items()
    }
    assert sorted(ours) == sorted(bounds), source
    for key, (lower, upper) in bounds.items():
        assert ours[key][0] == pytest.approx(lower), f"{key}: {source}"
        assert ours[key][1] == (None if upper is None else pytest.approx(upper)), f"{key}: {source}"
    assert bench.accuracy.requirements.min_accuracy_sample_count == min_queries, source
    [dataset] = [shipped.datasets[d.dataset] for d in bench.accuracy.datasets]
    assert dataset.mlperf_name == "cnn_dailymail"
    assert dataset.samples == min_queries, source


def inference(shipped: Catalog, ident: str) -> InferenceBenchmark:
    """An inference benchmark of the shipped catalog."""
    bench = shipped.benchmarks[ident]
    assert isinstance(bench, InferenceBenchmark)
    return bench


@pytest.mark.parametrize("ident", ["deepseek-r1", "gpt-oss-120b"])
def test_the_reasoning_benchmarks_are_gated_as_the_checker_gates_them(shipped: Catalog, ident: str) -> None:
    from submission_checker.accuracy_targets import get_thresholds

    source = f"{CHECKER}, submission_checker/accuracy_targets.py"
    bench = inference(shipped, ident)
    assert bench.accuracy is not None
    targets = get_thresholds(ident)
    assert targets is not None, f"{source} has no target for {ident}"
    bounds, min_queries = targets
    # The checker gates exact_match only (TOKENS_PER_SAMPLE is not in results.json, it says).
    [(metric, (lower, upper))] = bounds.items()
    threshold = bench.accuracy.thresholds[metric]
    assert threshold.reference * (threshold.lower_factor or 0) == pytest.approx(lower), f"{ident} {metric}: {source}"
    assert upper is None, f"{ident} {metric}: {source}"
    assert threshold.upper_factor is None, f"{ident} {metric}: {source}"
    assert bench.accuracy.requirements.min_accuracy_sample_count == min_queries, f"{ident}: {source}"


def test_dataset_sizes_are_the_checkers_minimum_query_counts(shipped: Catalog) -> None:
    from submission_checker.models.aggregate.point_result import MIN_QUERY_COUNT

    source = f"{CHECKER}, submission_checker/models/aggregate/point_result.py MIN_QUERY_COUNT"
    named = {d.mlperf_name or ident: d for ident, d in shipped.datasets.items()}
    # livecodebench is left out: the checker's 880 contradicts its own gpt-oss accuracy count
    # (mlperf_gpt_oss_accuracy 4395 = 8 x 30 + 5 x 198 + 3 x 1055), which the catalog follows.
    checked = sorted(set(named) & set(MIN_QUERY_COUNT) - {"livecodebench"})
    assert checked == ["aime25", "cnn_dailymail", "gpqa", "mlperf_gpt_oss_performance"]
    for name in checked:
        assert named[name].samples == MIN_QUERY_COUNT[name], f"dataset {named[name].id}: {source}[{name!r}]"
    gpt = inference(shipped, "gpt-oss-120b")
    assert gpt.accuracy is not None
    assert gpt.accuracy.requirements.min_accuracy_sample_count == MIN_QUERY_COUNT["mlperf_gpt_oss_accuracy"], source
    for ident in ("gpt-oss-120b", "llama3-1-8b"):
        perf = inference(shipped, ident).performance
        assert perf is not None
        [dataset] = [named[shipped.datasets[d].mlperf_name or d] for d in perf.datasets]
        assert perf.requirements.min_sample_count == MIN_QUERY_COUNT[dataset.mlperf_name or dataset.id], source


def tier_value(tiers: ByConcurrency, concurrency: int) -> int:
    """The value of the first tier whose up_to the concurrency does not exceed."""
    return next(t.value for t in tiers.by_concurrency if t.up_to is None or concurrency <= t.up_to)


def test_minimum_durations_are_the_checkers(shipped: Catalog) -> None:
    from submission_checker.models.regions import ULTRA_LOW_CONCURRENCY_MAX, min_duration_ms

    source = f"{CHECKER}, submission_checker/models/regions.py min_duration_ms"
    loads = (1, ULTRA_LOW_CONCURRENCY_MAX, ULTRA_LOW_CONCURRENCY_MAX + 1, 512, 4096)
    timed = [b for b in shipped.benchmarks.values() if isinstance(b, InferenceBenchmark) and b.performance]
    assert sorted(b.id for b in timed) == ["deepseek-r1", "gpt-oss-120b", "llama3-1-8b"]
    for bench in timed:
        assert bench.performance is not None
        tiers = bench.performance.requirements.min_duration_ms
        assert isinstance(tiers, ByConcurrency)
        for concurrency in loads:
            # Above concurrency 32 every non-agentic region takes the same minimum.
            expected = min_duration_ms("high_concurrency", concurrency, agentic=False)
            assert tier_value(tiers, concurrency) == expected, f"{bench.id} at concurrency {concurrency}: {source}"


def logging_file(relative: str) -> str:
    """A file mlperf-logging ships, as text."""
    import mlperf_logging

    return (Path(mlperf_logging.__file__).parent / relative.removeprefix("mlperf_logging/")).read_text(encoding="utf-8")


def compliance_value(name: str) -> str:
    """The value a compliance rule of the post-training benchmark requires (`v['value'] == X`)."""
    rules = YAML(typ="safe").load(logging_file(TRAINING_RULES))
    [check] = [rule["KEY"]["CHECK"] for rule in rules if "KEY" in rule and rule["KEY"]["NAME"] == name]
    found = re.fullmatch(r"\s*v\['value'\] == (\S+)\s*", check)
    assert found, f"{LOGGING}, {TRAINING_RULES}: {name} is checked as {check!r}"
    return found.group(1)


def post_training(shipped: Catalog) -> TrainingBenchmark:
    """The post-training benchmark of the shipped catalog."""
    bench = shipped.benchmarks["llm-post-training"]
    assert isinstance(bench, TrainingBenchmark)
    return bench


def test_post_training_figures_are_the_compliance_checkers(shipped: Catalog) -> None:
    source = f"{LOGGING}, {TRAINING_RULES}"
    bench = post_training(shipped)
    validation = shipped.datasets[bench.dataset].splits
    assert validation is not None
    assert validation[bench.validation.split].samples == int(compliance_value("eval_samples")), source
    assert bench.limits.max_context_tokens == int(compliance_value("max_sequence_length")), source
    generations = YAML(typ="safe").load(logging_file(TRAINING_RULES))
    [per_prompt] = [
        r["KEY"]["CHECK"] for r in generations if "KEY" in r and r["KEY"]["NAME"] == "num_generations_per_prompt"
    ]
    assert f"v['value'] == {bench.limits.generations_per_prompt}" in per_prompt, source
    assert bench.validation.generation.temperature == float(
        compliance_value("generation_validation_rollout_temperature")
    ), source
    assert bench.validation.generation.top_p == float(compliance_value("generation_validation_rollout_top_p")), source
    target = re.search(r"'target_accuracy': ([0-9.]+)", logging_file(TRAINING_RULES))
    assert target is not None, source
    assert bench.quality_target.target == float(target.group(1)), source
    # The schedule: validation starts at gbs * ceil(2.5 + 3840 / gbs) samples.
    assert bench.evaluation_schedule.first_evaluation_samples == "gbs * ceil(2.5 + 3840 / gbs)"
    assert "v['value'] * math.ceil(2.5 + 3840 / v['value'])" in logging_file(TRAINING_RULES), source


def test_post_training_reference_points_are_the_rcps(shipped: Catalog) -> None:
    source = f"{LOGGING}, {TRAINING_RCPS}"
    rcps = json.loads(logging_file(TRAINING_RCPS))
    converged = {entry["BS"]: set(entry["Epochs to converge"]) for entry in rcps.values()}
    points = post_training(shipped).evaluation_schedule.reference_points
    assert {p.gbs for p in points} == set(converged), source
    for point in points:
        # Every reference run converged at its first evaluation: the schedule's first point.
        assert converged[point.gbs] == {point.samples}, f"gbs {point.gbs}: {source}"
        assert point.samples == point.gbs * math.ceil(2.5 + 3840 / point.gbs), f"gbs {point.gbs}: {source}"
