"""`check` on evalscope's own output (tests/fixtures/evalscope/run/, its mock_llm over five problems),
and on copies of it edited the way a run goes wrong: each verdict from the files evalscope wrote."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.harness_packs import (
    EVALSCOPE_CONFIG,
    EVALSCOPE_REPORT,
    EVALSCOPE_RUN,
    MOCK_GATES,
    MOCK_GENERATION,
    check_report,
    edit_json,
    edit_text,
    evalscope_copy,
    gate_rows,
    regenerate,
    resolved_file,
    without_integrity_gates,
)
from tests.helpers import run_cli, write
from tests.run_results import resealed


@pytest.fixture
def resolved(tmp_path: Path) -> Path:
    return resolved_file(tmp_path, "gsm8k-evalscope")


GOOD_RUN = [
    ("evalscope version (evalscope_version) vs runner.version", "pass", ">=1.14,<2", "1.14.1"),
    ("gsm8k evaluation_version", "pass", "v1.1", "v1.1"),
    ("gsm8k few_shot_num", "pass", 2, 2),
    ("limit", "pass", "none", "none"),
    ("repeats", "pass", 1, 1),
    ("samples requested", "pass", 5, 5),
    ("samples errored", "pass", 0, 0),
    ("incomplete", "pass", False, False),
    ("metric accuracy:mean", "pass", "reported", 0.8),
    ("primary metric", "pass", "accuracy:mean", "accuracy:mean"),
]


def test_the_output_folder_evalscope_wrote_is_graded_on_every_gate(resolved: Path) -> None:
    report = check_report(resolved, EVALSCOPE_RUN)
    assert report["layout"] == "evalscope"
    assert report["source"] == f"evalscope output {EVALSCOPE_RUN} (gsm8k)"
    assert [(g["name"], g["verdict"]) for g in report["gates"]] == [*MOCK_GATES, ("evalscope_run", "pass")]
    assert gate_rows(report, "evalscope_run")[1] == GOOD_RUN
    assert gate_rows(report, "generation_integrity")[1] == MOCK_GENERATION
    assert gate_rows(report, "accuracy_gate")[1] == [("accuracy:mean", "pass", 0.792, 0.8)]
    assert gate_rows(report, "requirements")[1] == [("accuracy samples scored", "pass", 5, 5)]
    assert not report["valid"]  # no sha256 of the data, no model revision: evalscope records neither


def test_a_pack_whose_gates_the_run_can_show_is_valid(tmp_path: Path) -> None:
    resolved = without_integrity_gates(tmp_path, "gsm8k-evalscope")
    assert check_report(resolved, EVALSCOPE_RUN, code=0)["valid"]
    text = run_cli("check", resolved, EVALSCOPE_RUN).stdout
    assert text.splitlines()[-1] == "gsm8k-evalscope: VALID"


def test_the_report_alone_leaves_what_only_the_task_config_records_unknown(resolved: Path, tmp_path: Path) -> None:
    alone = Path(shutil.copy(EVALSCOPE_RUN / EVALSCOPE_REPORT, tmp_path / "gsm8k.json"))
    report = check_report(resolved, alone)
    assert report["layout"] == "evalscope"
    assert report["source"] == f"evalscope report {alone} (gsm8k)"
    verdict, rows = gate_rows(report, "evalscope_run")
    assert verdict == "not-evaluable"
    assert rows == [
        ("evalscope version (evalscope_version) vs runner.version", "unknown", ">=1.14,<2", None),
        ("gsm8k evaluation_version", "unknown", "v1.1", None),
        ("gsm8k few_shot_num", "unknown", 2, None),
        ("limit", "unknown", "none", None),
        ("repeats", "unknown", 1, None),
        *GOOD_RUN[5:],
    ]
    assert gate_rows(report, "generation_integrity")[1][1] == ("accuracy gsm8k-mini temperature", "unknown", 0.0, None)


def test_the_report_inside_its_output_folder_is_read_with_the_task_config(resolved: Path) -> None:
    report = check_report(resolved, EVALSCOPE_RUN / EVALSCOPE_REPORT)
    assert report["source"] == f"evalscope output {EVALSCOPE_RUN} (gsm8k)"
    assert gate_rows(report, "evalscope_run") == ("pass", GOOD_RUN)


def _score(value: float) -> Any:
    def change(data: dict[str, Any]) -> None:
        metric = data["metrics"][0]
        metric["score"] = metric["macro_score"] = value
        for category in metric["categories"]:
            category["score"] = category["macro_score"] = value
            for subset in category["subsets"]:
                subset["score"] = value

    return change


def test_a_lower_score_fails_the_accuracy_gate(resolved: Path, tmp_path: Path) -> None:
    run = evalscope_copy(tmp_path)
    edit_json(run / EVALSCOPE_REPORT, _score(0.6))
    report = check_report(resolved, run)
    assert gate_rows(report, "accuracy_gate") == ("fail", [("accuracy:mean", "fail", 0.792, 0.6)])
    assert ("metric accuracy:mean", "pass", "reported", 0.6) in gate_rows(report, "evalscope_run")[1]


def test_a_limited_run_is_never_valid(resolved: Path, tmp_path: Path) -> None:
    run = evalscope_copy(tmp_path)
    edit_text(run / EVALSCOPE_CONFIG, "limit: null", "limit: 3")
    verdict, rows = gate_rows(check_report(resolved, run), "evalscope_run")
    assert verdict == "fail"
    assert ("limit", "fail", "none", 3) in rows


def test_fewer_samples_than_the_dataset_fail_the_count_and_the_requirement(resolved: Path, tmp_path: Path) -> None:
    run = evalscope_copy(tmp_path)

    def four(data: dict[str, Any]) -> None:
        data["metrics"][0]["num"] = data["metrics"][0]["categories"][0]["num"] = 4
        data["metrics"][0]["categories"][0]["subsets"][0]["num"] = 4
        data["num"] = 4
        data["execution_summary"]["requested"] = data["execution_summary"]["succeeded"] = 4

    edit_json(run / EVALSCOPE_REPORT, four)
    report = check_report(resolved, run)
    assert ("samples requested", "fail", 5, 4) in gate_rows(report, "evalscope_run")[1]
    assert gate_rows(report, "requirements") == ("fail", [("accuracy samples scored", "fail", 5, 4)])


@pytest.mark.parametrize(
    ("old", "new", "row"),
    [
        ("evaluation_version: v1.1", "evaluation_version: v1.0", ("gsm8k evaluation_version", "fail", "v1.1", "v1.0")),
        ("    few_shot_num: 2\n    few_shot_prompt", "    few_shot_num: 4\n    few_shot_prompt", None),
        ("repeats: 1\nrerun", "repeats: 2\nrerun", ("repeats", "fail", 1, 2)),
        (
            "evalscope_version: 1.14.1",
            "evalscope_version: 0.17.1",
            ("evalscope version (evalscope_version) vs runner.version", "fail", ">=1.14,<2", "0.17.1"),
        ),
    ],
)
def test_a_setting_the_contract_fixes_recorded_otherwise_fails(
    resolved: Path, tmp_path: Path, old: str, new: str, row: tuple[str, str, Any, Any] | None
) -> None:
    run = evalscope_copy(tmp_path)
    edit_text(run / EVALSCOPE_CONFIG, old, new)
    verdict, rows = gate_rows(check_report(resolved, run), "evalscope_run")
    assert verdict == "fail"
    assert (row or ("gsm8k few_shot_num", "fail", 2, 4)) in rows


def test_another_temperature_fails_generation_integrity(resolved: Path, tmp_path: Path) -> None:
    run = evalscope_copy(tmp_path)
    edit_text(run / EVALSCOPE_CONFIG, "  temperature: 0.0\n", "  temperature: 0.7\n")
    rows = gate_rows(check_report(resolved, run), "generation_integrity")[1]
    assert ("accuracy gsm8k-mini temperature", "fail", 0.0, 0.7) in rows


def test_a_report_of_another_benchmark_is_refused(resolved: Path, tmp_path: Path) -> None:
    run = evalscope_copy(tmp_path)
    edit_json(run / EVALSCOPE_REPORT, lambda data: data.update(dataset_name="math_500"))
    result = run_cli("check", resolved, run / EVALSCOPE_REPORT, code=2)
    assert "the report is of benchmark `math_500`; its task config ran gsm8k" in result.stderr


def test_a_run_of_a_task_the_contract_does_not_name_is_refused(resolved: Path, tmp_path: Path) -> None:
    alone = edit_json(
        Path(shutil.copy(EVALSCOPE_RUN / EVALSCOPE_REPORT, tmp_path / "r.json")),
        lambda data: data.update(dataset_name="math_500"),
    )
    result = run_cli("check", resolved, alone, code=2)
    assert "this run is of evalscope task `math_500`; the contract's evalscope tasks are `gsm8k`" in result.stderr


def test_an_evalscope_run_is_refused_for_a_contract_of_another_runner(tmp_path: Path) -> None:
    result = run_cli("check", resolved_file(tmp_path, "gsm8k-inspect"), EVALSCOPE_RUN, code=2)
    assert "this is an evalscope run; the contract's runner is inspect" in result.stderr


def test_a_malformed_report_is_refused_naming_the_file_and_the_key(resolved: Path, tmp_path: Path) -> None:
    run = evalscope_copy(tmp_path)
    edit_json(run / EVALSCOPE_REPORT, lambda data: data["metrics"][0].update(score="0.8"))
    result = run_cli("check", resolved, run, code=2)
    assert f"{run / EVALSCOPE_REPORT}: not an evalscope report" in result.stderr
    assert "metrics.0.score: Input should be a valid number" in result.stderr


def test_a_malformed_task_config_is_refused_naming_the_file_and_the_key(resolved: Path, tmp_path: Path) -> None:
    run = evalscope_copy(tmp_path)
    edit_text(run / EVALSCOPE_CONFIG, "repeats: 1\nrerun", "repeats: many\nrerun")
    result = run_cli("check", resolved, run, code=2)
    assert f"{run / EVALSCOPE_CONFIG}: not an evalscope task config" in result.stderr
    assert "repeats: Input should be a valid integer" in result.stderr


@pytest.mark.parametrize(
    ("old", "new"), [("  temperature: 0.0\n", "  temperature: hot\n"), ("max_tokens: 256", "max_tokens: 25.6")]
)
def test_a_generation_setting_of_the_wrong_type_is_refused_naming_its_key(
    resolved: Path, tmp_path: Path, old: str, new: str
) -> None:
    run = evalscope_copy(tmp_path)
    edit_text(run / EVALSCOPE_CONFIG, old, new)
    key = old.split(":")[0].strip()
    result = run_cli("check", resolved, run, code=2)
    assert f"error: {run / EVALSCOPE_CONFIG}: generation_config.{key} is " in result.stderr


def test_a_resealed_contract_whose_primary_metric_is_no_name_is_refused(resolved: Path, tmp_path: Path) -> None:
    # Found by the fuzzer (tests/check_fuzz.py): `primary_metric` is no key a gate reads, so the
    # resolved contract's typing let a list through to the harness gate, which crashed on it.
    data = json.loads(resolved.read_text(encoding="utf-8"))
    data["contract"]["accuracy"]["primary_metric"] = ["accuracy:mean"]
    edited = write(tmp_path, "edited.json", json.dumps(resealed(data)))
    result = run_cli("check", edited, EVALSCOPE_RUN, code=2)
    assert "contract.accuracy.primary_metric is a list, not a string" in result.stderr


def test_a_resealed_contract_whose_dataset_has_no_id_is_refused(resolved: Path, tmp_path: Path) -> None:
    # Found by the fuzzer: the run's results are of the contract's dataset ids, which a resealed
    # contract may leave empty; they then make no results (catalogctl/results/v1), and no crash.
    data = json.loads(resolved.read_text(encoding="utf-8"))
    data["contract"]["accuracy"]["datasets"][0]["dataset"]["id"] = ""
    edited = write(tmp_path, "edited.json", json.dumps(resealed(data)))
    result = run_cli("check", edited, EVALSCOPE_RUN, code=2)
    assert f"error: evalscope output {EVALSCOPE_RUN} (gsm8k) cannot be results of this contract (" in result.stderr
    assert ".dataset: `` is not a valid id" in result.stderr


@pytest.mark.slow
def test_evalscope_itself_writes_what_check_grades_as_the_committed_run(resolved: Path, tmp_path: Path) -> None:
    """Run the fixture's script (evalscope's mock_llm, offline) and grade its fresh output."""
    pytest.importorskip("evalscope", reason="evalscope regenerates the fixture: `pip install evalscope`")
    fresh = check_report(resolved, regenerate("evalscope/generate_evalscope.py", tmp_path / "out"))
    committed = check_report(resolved, EVALSCOPE_RUN)
    assert fresh["gates"] == committed["gates"]
