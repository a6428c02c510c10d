"""The gates of a training run's rules beside the official compliance checker (mlperf-logging
4.1.68, training 6.1.0): run_stop and its status."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalogctl.run.check import check_files
from tests.conformance import logs
from tests.run.test_mllog import official_failures
from tests.run_results import pin_all, resolved_config


@pytest.fixture
def resolved(catalog_dir: Path, tmp_path: Path) -> Path:
    pin_all(catalog_dir)
    path = tmp_path / "resolved.json"
    path.write_text(json.dumps(resolved_config(catalog_dir, "llm-post-training").to_data()))
    return path


def _quality(resolved: Path, log: Path) -> tuple[str, list[tuple[str, object, object, str]]]:
    gate = next(g for g in check_files(resolved, log).gates if g.name == "quality_target")
    return gate.verdict, [(c.what, c.expected, c.observed, c.status) for c in gate.checks]


@pytest.mark.conformance
def test_a_run_stop_without_a_status_fails_as_the_official_common_rules_fail_it(resolved: Path, tmp_path: Path) -> None:
    log = logs.write(tmp_path / "result_0.txt", logs.Log(status=None))
    assert official_failures(log) == {"run_stop"}  # common.yaml: "'status' in v['metadata']"
    assert _quality(resolved, log) == (
        "fail",
        [("pass_at_4", 0.69, 0.70, "pass"), ("run_stop status", "success", None, "fail")],
    )


@pytest.mark.conformance
def test_a_run_that_says_it_aborted_has_not_converged_though_the_compliance_checker_passes_it(
    resolved: Path, tmp_path: Path
) -> None:
    log = logs.write(tmp_path / "result_0.txt", logs.Log(status="aborted"))
    assert official_failures(log) == set()  # any status passes the compliance checker today
    verdict, rows = _quality(resolved, log)
    assert (verdict, rows[1]) == ("fail", ("run_stop status", "success", "aborted", "fail"))
    assert rows[0] == ("pass_at_4", 0.69, 0.70, "pass")  # the evaluations did reach the target


def test_a_run_that_succeeded_passes_and_one_without_run_stop_is_not_evaluable(resolved: Path, tmp_path: Path) -> None:
    log = logs.write(tmp_path / "result_0.txt", logs.Log())
    assert _quality(resolved, log) == (
        "pass",
        [("pass_at_4", 0.69, 0.70, "pass"), ("run_stop status", "success", "success", "pass")],
    )
    log = logs.write(tmp_path / "result_1.txt", logs.Log(missing=frozenset({"run_stop"})))
    assert _quality(resolved, log) == (
        "not-evaluable",
        [("pass_at_4", 0.69, 0.70, "pass"), ("run_stop status", "success", None, "unknown")],
    )


def _rows(resolved: Path, log: Path, gate: str) -> list[tuple[str, object, str, str]]:
    found = next(g for g in check_files(resolved, log).gates if g.name == gate)
    return [(c.what, c.observed, c.status, c.note) for c in found.checks]


@pytest.mark.conformance
def test_an_accuracy_logged_in_percent_fails_its_evaluation_as_the_official_checker(
    resolved: Path, tmp_path: Path
) -> None:
    log = logs.write(tmp_path / "result_0.txt", logs.Log(evals=((5120, 0.62), (5632, 70.0))))
    # closed_qwen35_397b_grpo.yaml: 0.0 <= v['value'] <= 1.0 fails; 70.0 > 0.69 reaches its target
    assert official_failures(log) == {"eval_accuracy"}
    assert _rows(resolved, log, "evaluation_schedule")[1] == (
        "evaluation 2 at gbs 512",
        5632,
        "fail",
        "accuracy: 70 is not a fraction (0..1)",
    )


@pytest.mark.conformance
@pytest.mark.parametrize("key", ["opt_base_learning_rate", "opt_gradient_clip_norm"])
def test_a_formula_value_logged_as_a_text_fails_as_the_official_checker(
    resolved: Path, tmp_path: Path, key: str
) -> None:
    value = str(logs.hyperparameters(512)[key])
    log = logs.write(tmp_path / "result_0.txt", logs.Log(values={key: value}))
    assert official_failures(log) == {key}  # abs(v['value'] - ...) raises on a text: its CHECK fails
    [row] = [r for r in _rows(resolved, log, "training_rules") if r[0] == key]
    assert row == (key, value, "fail", f"logged as {value!r}, not a number")


@pytest.mark.conformance
def test_the_validation_sampling_is_compared_exactly_as_the_official_checker(resolved: Path, tmp_path: Path) -> None:
    log = logs.write(
        tmp_path / "result_0.txt", logs.Log(values={"generation_validation_rollout_temperature": 0.1 + 1e-10})
    )
    assert official_failures(log) == {"generation_validation_rollout_temperature"}  # v['value'] == 0.1
    assert _rows(resolved, log, "generation_integrity")[0][:3] == ("validation temperature", 0.1 + 1e-10, "fail")
