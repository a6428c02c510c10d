"""`check` on inspect_ai's own JSON log (tests/fixtures/inspect/gsm8k-mini.json, its mock model over
five problems), and on copies of it edited the way a run goes wrong."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.catalog_edit import problems
from tests.harness_packs import (
    INSPECT_LOG,
    MOCK_GATES,
    MOCK_GENERATION,
    check_report,
    edit_json,
    gate_rows,
    inspect_copy,
    pack_catalog,
    regenerate,
    resolved_file,
    without_integrity_gates,
)
from tests.helpers import run_cli, write
from tests.run_results import resealed


@pytest.fixture
def resolved(tmp_path: Path) -> Path:
    return resolved_file(tmp_path, "gsm8k-inspect")


def test_the_registry_names_inspects_metrics_as_inspect_shows_them(tmp_path: Path) -> None:
    # `match/accuracy`: score name / metric name, as inspect_ai 0.3.285 prints a log's metrics
    # (_display/core/results.py, task_metrics); `accuracy[mean]` with a reducer that is not avg.
    assert problems(pack_catalog(tmp_path)) == []


GOOD_RUN = [
    ("inspect_ai version (eval.packages) vs runner.version", "pass", ">=0.3.285,<0.4", "0.3.285"),
    ("gsm8k_mini task_version", "pass", "1", "1"),
    ("task_args.fewshot", "pass", 2, 2),
    ("limit", "pass", "none", "none"),
    ("epochs", "pass", 1, 1),
    ("dataset samples", "pass", 5, 5),
    ("samples completed", "pass", 5, 5),
    ("status", "pass", "success", "success"),
    ("unscored samples", "pass", 0, 0),
    ("metric match/accuracy", "pass", "reported", 0.8),
    ("metric match/stderr", "pass", "reported", 0.19999999999999998),
    ("primary metric", "pass", "match/accuracy", "match/accuracy"),
]


def test_the_log_inspect_wrote_is_graded_on_every_gate(resolved: Path) -> None:
    report = check_report(resolved, INSPECT_LOG)
    assert report["layout"] == "inspect"
    assert report["source"] == f"inspect_ai log {INSPECT_LOG} (gsm8k_mini)"
    assert [(g["name"], g["verdict"]) for g in report["gates"]] == [*MOCK_GATES, ("inspect_run", "pass")]
    assert gate_rows(report, "inspect_run") == ("pass", GOOD_RUN)
    assert gate_rows(report, "generation_integrity")[1] == MOCK_GENERATION  # inspect's mockllm
    assert gate_rows(report, "accuracy_gate")[1] == [("match/accuracy", "pass", 0.792, 0.8)]
    assert gate_rows(report, "requirements")[1] == [("accuracy samples scored", "pass", 5, 5)]
    assert not report["valid"]


def test_a_pack_whose_gates_the_log_can_show_is_valid(tmp_path: Path) -> None:
    assert check_report(without_integrity_gates(tmp_path, "gsm8k-inspect"), INSPECT_LOG, code=0)["valid"]


def _accuracy(value: float) -> Any:
    return lambda data: data["results"]["scores"][0]["metrics"]["accuracy"].update(value=value)


def test_a_lower_score_fails_the_accuracy_gate(resolved: Path, tmp_path: Path) -> None:
    log = edit_json(inspect_copy(tmp_path), _accuracy(0.6))
    assert gate_rows(check_report(resolved, log), "accuracy_gate") == ("fail", [("match/accuracy", "fail", 0.792, 0.6)])


def test_a_limited_run_is_never_valid(resolved: Path, tmp_path: Path) -> None:
    log = edit_json(inspect_copy(tmp_path), lambda data: data["eval"]["config"].update(limit=3))
    verdict, rows = gate_rows(check_report(resolved, log), "inspect_run")
    assert verdict == "fail"
    assert ("limit", "fail", "none", 3) in rows


def test_a_run_of_a_range_of_samples_is_a_limited_run(resolved: Path, tmp_path: Path) -> None:
    log = edit_json(inspect_copy(tmp_path), lambda data: data["eval"]["config"].update(limit=[1, 4]))
    assert ("limit", "fail", "none", "[1, 4]") in gate_rows(check_report(resolved, log), "inspect_run")[1]


def test_a_run_of_chosen_samples_is_a_limited_run(resolved: Path, tmp_path: Path) -> None:
    log = edit_json(inspect_copy(tmp_path), lambda data: data["eval"]["config"].update(sample_id=[1, 2]))
    assert ("limit", "fail", "none", "sample_id [1, 2]") in gate_rows(check_report(resolved, log), "inspect_run")[1]


def test_fewer_samples_fail_the_counts_and_the_requirement(resolved: Path, tmp_path: Path) -> None:
    def four(data: dict[str, Any]) -> None:
        data["eval"]["dataset"]["samples"] = 4
        data["results"]["total_samples"] = data["results"]["completed_samples"] = 4

    report = check_report(resolved, edit_json(inspect_copy(tmp_path), four))
    rows = gate_rows(report, "inspect_run")[1]
    assert ("dataset samples", "fail", 5, 4) in rows
    assert ("samples completed", "fail", 5, 4) in rows
    assert gate_rows(report, "requirements") == ("fail", [("accuracy samples scored", "fail", 5, 4)])


@pytest.mark.parametrize(
    ("change", "row"),
    [
        (lambda d: d["eval"].update(task_version=2), ("gsm8k_mini task_version", "fail", "1", "2")),
        (lambda d: d["eval"]["task_args"].update(fewshot=0), ("task_args.fewshot", "fail", 2, 0)),
        (lambda d: d["eval"]["config"].update(epochs=2), ("epochs", "fail", 1, 2)),
        (lambda d: d.update(status="error"), ("status", "fail", "success", "error")),
        (
            lambda d: d["eval"]["packages"].update(inspect_ai="0.4.0"),
            ("inspect_ai version (eval.packages) vs runner.version", "fail", ">=0.3.285,<0.4", "0.4.0"),
        ),
    ],
)
def test_a_setting_the_contract_fixes_recorded_otherwise_fails(
    resolved: Path, tmp_path: Path, change: Any, row: tuple[str, str, Any, Any]
) -> None:
    verdict, rows = gate_rows(check_report(resolved, edit_json(inspect_copy(tmp_path), change)), "inspect_run")
    assert verdict == "fail"
    assert row in rows


def test_a_version_that_is_none_of_pep_440s_fails_the_pin(resolved: Path, tmp_path: Path) -> None:
    log = edit_json(inspect_copy(tmp_path), lambda data: data["eval"]["packages"].update(inspect_ai="dev"))
    rows = gate_rows(check_report(resolved, log), "inspect_run")[1]
    assert rows[0] == ("inspect_ai version (eval.packages) vs runner.version", "fail", ">=0.3.285,<0.4", "dev")


def test_a_task_without_a_fewshot_argument_leaves_the_count_unknown(resolved: Path, tmp_path: Path) -> None:
    log = edit_json(inspect_copy(tmp_path), lambda data: data["eval"].update(task_args={}))
    rows = gate_rows(check_report(resolved, log), "inspect_run")[1]
    assert ("task_args.fewshot", "unknown", 2, None) in rows


def test_the_solvers_generation_settings_override_the_evals(resolved: Path, tmp_path: Path) -> None:
    def hot(data: dict[str, Any]) -> None:
        data["plan"]["steps"][-1]["params"]["temperature"] = 0.7

    rows = gate_rows(check_report(resolved, edit_json(inspect_copy(tmp_path), hot)), "generation_integrity")[1]
    assert ("accuracy gsm8k-mini temperature", "fail", 0.0, 0.7) in rows


def test_a_log_of_another_task_is_refused(resolved: Path, tmp_path: Path) -> None:
    log = edit_json(inspect_copy(tmp_path), lambda data: data["eval"].update(task="inspect_evals/gsm8k"))
    result = run_cli("check", resolved, log, code=2)
    assert "this run is of inspect task `inspect_evals/gsm8k`; the contract's inspect tasks are `gsm8k_mini`" in (
        result.stderr
    )


def test_a_log_of_another_model_is_refused(resolved: Path, tmp_path: Path) -> None:
    log = edit_json(inspect_copy(tmp_path), lambda data: data["eval"].update(model="vllm/Qwen/Qwen3-8B"))
    result = run_cli("check", resolved, log, code=2)
    assert "this run is of model `Qwen/Qwen3-8B`" in result.stderr


def test_a_served_api_is_the_contracts_api_type(resolved: Path, tmp_path: Path) -> None:
    log = edit_json(inspect_copy(tmp_path), lambda data: data["eval"].update(model="vllm/mock-gsm8k"))
    rows = gate_rows(check_report(resolved, log), "generation_integrity")[1]
    assert rows[0] == ("api_type", "pass", "openai", "openai")


def test_an_inspect_log_is_refused_for_a_contract_of_another_runner(tmp_path: Path) -> None:
    result = run_cli("check", resolved_file(tmp_path, "gsm8k-evalscope"), INSPECT_LOG, code=2)
    assert "this is an inspect run; the contract's runner is evalscope" in result.stderr


def test_a_malformed_log_is_refused_naming_the_file_and_the_key(resolved: Path, tmp_path: Path) -> None:
    log = edit_json(inspect_copy(tmp_path), lambda data: data["results"].update(total_samples="5"))
    result = run_cli("check", resolved, log, code=2)
    assert f"{log}: not an inspect_ai log" in result.stderr
    assert "results.total_samples: Input should be a valid integer" in result.stderr


def test_a_resealed_contract_whose_version_pin_is_no_specifier_is_refused(resolved: Path, tmp_path: Path) -> None:
    # Found by the fuzzer: runner.version is typed as text in a resolved contract; a resealed one
    # may hold no PEP 440 specifier, which packaging refuses with an exception of its own.
    data = json.loads(resolved.read_text(encoding="utf-8"))
    data["contract"]["runner"]["version"] = "<0.4x"
    edited = write(tmp_path, "edited.json", json.dumps(resealed(data)))
    result = run_cli("check", edited, INSPECT_LOG, code=2)
    assert "contract.runner.version: `<0.4x` is not a PEP 440 version specifier" in result.stderr


@pytest.mark.slow
def test_inspect_itself_writes_what_check_grades_as_the_committed_log(resolved: Path, tmp_path: Path) -> None:
    """Run the fixture's script (inspect's mockllm, offline) and grade its fresh log."""
    pytest.importorskip("inspect_ai", reason="inspect_ai regenerates the fixture: `pip install inspect_ai`")
    fresh = check_report(resolved, regenerate("inspect/generate_inspect.py", tmp_path / "log.json"))
    committed = check_report(resolved, INSPECT_LOG)
    assert fresh["gates"] == committed["gates"]
