"""`compare` on evalscope's and inspect_ai's own output: each run's metrics by the harness's names,
each task mapped to the pack whose runner names it (tests/fixtures/evalscope, tests/fixtures/inspect)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from tests.harness_packs import (
    EVALSCOPE_REPORT,
    EVALSCOPE_RUN,
    INSPECT_LOG,
    add_packs,
    edit_json,
    evalscope_copy,
    inspect_copy,
)
from tests.helpers import copy_catalog, init_repo, run_cli


def _score(value: float) -> Any:
    def change(data: dict[str, Any]) -> None:
        data["metrics"][0]["score"] = value

    return change


def test_compare_reads_an_evalscope_run_and_an_inspect_log(tmp_path: Path) -> None:
    catalog = add_packs(copy_catalog(init_repo(tmp_path / "repo")))
    lower = evalscope_copy(tmp_path)
    edit_json(lower / EVALSCOPE_REPORT, _score(0.6))
    log = edit_json(
        inspect_copy(tmp_path), lambda d: d["results"]["scores"][0]["metrics"]["accuracy"].update(value=1.0)
    )
    runs = [f"base={EVALSCOPE_RUN}", f"base={INSPECT_LOG}", f"tuned={lower}", f"tuned={log}"]
    report = json.loads(run_cli("compare", *runs, "-C", catalog, "--format", "json").stdout)
    rows = {(row["benchmark"], row["metric"]): [cell["value"] for cell in row["cells"]] for row in report["rows"]}
    assert rows == {("gsm8k-evalscope", "accuracy:mean"): [0.8, 0.6], ("gsm8k-inspect", "match/accuracy"): [0.8, 1.0]}
    assert report["regressions"] == 1


def test_compare_reads_an_evalscope_report_alone(tmp_path: Path) -> None:
    catalog = add_packs(copy_catalog(init_repo(tmp_path / "repo")))
    report = json.loads(run_cli("compare", str(EVALSCOPE_RUN / EVALSCOPE_REPORT), "-C", catalog, "-f", "json").stdout)
    assert [(row["benchmark"], row["cells"][0]["value"]) for row in report["rows"]] == [("gsm8k-evalscope", 0.8)]


def test_an_output_folder_with_two_reports_of_a_benchmark_is_refused(tmp_path: Path) -> None:
    catalog = add_packs(copy_catalog(init_repo(tmp_path / "repo")))
    run = evalscope_copy(tmp_path)
    shutil.copytree(run / "reports" / "mock-gsm8k", run / "reports" / "other-model")
    err = run_cli("compare", str(run), "-C", catalog, code=2).stderr
    assert f"error: {run}: two reports of benchmark `gsm8k`" in err
