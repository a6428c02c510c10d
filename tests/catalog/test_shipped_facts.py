"""The shipped catalog's figures that the official MLCommons tools also state.

Each test reads the official package's own data (endpoints-submission-cli's `submission_checker`,
mlperf-logging's compliance and RCP files) where it carries the figure, so that an edit of the
catalog that drifts from the public record fails, naming the source it drifted from.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from catalogctl.catalog.index import Catalog
from catalogctl.model.benchmark import InferenceBenchmark
from tests.catalog_edit import load
from tests.helpers import SHIPPED_CATALOG

CHECKER = "endpoints-submission-cli 1.5.3.0"


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
