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
