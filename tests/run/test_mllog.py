"""MLPerf Training result logs written by `mlperf_logging.mllog` itself, judged by catalogctl and
by the official compliance checker (mlperf-logging 4.1.68, training 6.1.0): the verdicts agree,
rule by rule."""

from __future__ import annotations

import json
import math
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
import yaml

from catalogctl.model.reports.check import CheckReport
from catalogctl.run.check import check_files
from tests.conformance import log_verdicts, logs
from tests.helpers import run_cli, write
from tests.run_results import pin_all, resolved_config

GBS = 512
# The official rule -> catalogctl's rows: the map the generated conformance sample uses.
RULES = {rule.name: rule for rule in log_verdicts.RULES}


def write_log(
    path: Path,
    gbs: int = GBS,
    evals: list[tuple[int, float]] | None = None,
    train_ms: int = 3_600_000,
    **changed: Any,
) -> Path:
    """A complete closed-division result log, written by mllog (`tests.conformance.logs`); the
    hyper-parameters `changed` as given; run_stop is `train_ms` after run_start."""
    evaluations = tuple(evals or [(5120, 0.62), (5632, 0.70)])
    return logs.write(path, logs.Log(gbs=gbs, values=changed, evals=evaluations, train_ms=train_ms))


def official_failures(path: Path) -> set[str]:
    """The rules the official compliance checker fails the log on (library use, as its __main__ does)."""
    from mlperf_logging.compliance_checker import mlp_compliance

    checker = mlp_compliance.make_checker("training", "6.1.0", False, False)
    valid = checker.check_file(str(path), "training_6.1.0/common.yaml")
    failed = set(checker.overwritable)
    for message in checker.not_overwritable:
        assert message == "Failed checks for eval_accuracy : v['value'] > s['target_accuracy']", message
        failed.add("eval_accuracy > target_accuracy")
    assert valid == (not failed)
    return failed


def catalogctl_failures(report: CheckReport) -> set[tuple[str, str]]:
    return {(g.name, c.what) for g in report.gates for c in g.checks if c.status == "fail"}


@pytest.fixture
def resolved(catalog_dir: Path, tmp_path: Path) -> Path:
    pin_all(catalog_dir)
    path = tmp_path / "resolved.json"
    path.write_text(json.dumps(resolved_config(catalog_dir, "llm-post-training").to_data()))
    return path


CASES: dict[str, tuple[dict[str, Any], set[str]]] = {
    "converged": ({}, set()),
    "ends-at-the-target": ({"evals": [(5120, 0.62), (5632, 0.69)]}, {"eval_accuracy > target_accuracy"}),
    "late-first-evaluation": ({"evals": [(5632, 0.62), (6144, 0.71)]}, {"eval_accuracy"}),
    "learning-rate-off": ({"opt_base_learning_rate": 1.1e-6}, {"opt_base_learning_rate"}),
    "batch-size-outside": ({"num_prompts_per_step": 31}, {"num_generations_per_prompt"}),
    # mllog writes a diverged evaluation's accuracy as `NaN`: the evaluation fails (0.0 <= NaN <= 1.0
    # does not hold), and it reaches no target
    "diverged-later": (
        {"evals": [(5120, 0.62), (5632, math.nan)]},
        {"eval_accuracy", "eval_accuracy > target_accuracy"},
    ),
    "diverged-throughout": (
        {"evals": [(5120, math.nan), (5632, math.nan)]},
        {"eval_accuracy", "eval_accuracy > target_accuracy"},
    ),
}


@pytest.mark.conformance
@pytest.mark.parametrize("case", sorted(CASES))
def test_catalogctl_judges_as_the_official_checker(resolved: Path, tmp_path: Path, case: str) -> None:
    changes, expected = CASES[case]
    log = write_log(tmp_path / "result_0.txt", **changes)
    official = official_failures(log)
    assert official == expected
    report = check_files(resolved, log)
    assert report.layout == "mllog"
    failed = catalogctl_failures(report)

    def judged_by(rule: str) -> set[tuple[str, str]]:
        return {(g, w) for g, w in failed if RULES[rule].judges(g, w)}

    # an official rule fails when one of its checks does: catalogctl fails one of its rows, and
    # catalogctl fails no row that is not of a rule the official checker failed
    assert all(judged_by(rule) for rule in official), (official, failed)
    assert set().union(*(judged_by(rule) for rule in official)) == failed
    mapped = {row.partition(":")[0] for rule in official for row in RULES[rule].rows}
    verdicts = {g.name: g.verdict for g in report.gates}
    for gate in log_verdicts.GATES:
        assert (verdicts[gate] == "pass") == (gate not in mapped), gate


def test_an_mllog_check_shows_every_evaluation_and_what_it_cannot_prove(resolved: Path, tmp_path: Path) -> None:
    log = write_log(tmp_path / "result_0.txt", evals=[(5120, 0.62), (5632, 0.69), (6144, 0.70)])
    report = check_files(resolved, log)
    rows = {g.name: [(c.what, c.expected, c.observed, c.status) for c in g.checks] for g in report.gates}
    assert rows["evaluation_schedule"] == [
        ("evaluation 1 at gbs 512", 5120, 5120, "pass"),
        ("evaluation 2 at gbs 512", 5632, 5632, "pass"),
        ("evaluation 3 at gbs 512", 6144, 6144, "pass"),
    ]
    assert rows["quality_target"] == [
        ("pass_at_4", 0.69, 0.70, "pass"),
        ("run_stop status", "success", "success", "pass"),
    ]
    assert rows["dataset_integrity"][0][3] == rows["model_integrity"][0][3] == "unknown"  # an MLLOG names neither
    assert not report.passed
    text = run_cli("check", str(resolved), str(log), code=1).stdout
    assert "evaluation 2 at gbs 512" in text


def test_a_late_first_evaluation_fails_every_later_one_as_the_official_checker(resolved: Path, tmp_path: Path) -> None:
    log = write_log(tmp_path / "result_0.txt", evals=[(5632, 0.62), (6144, 0.71)])
    rows = [(c.expected, c.observed, c.status) for c in check_files(resolved, log).gates[4].checks]
    assert rows == [(5120, 5632, "fail"), (5120, 6144, "fail")]  # next_validation_samples never advanced


def test_a_folder_of_no_layout_names_the_mllog_layout(resolved: Path, tmp_path: Path) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    stderr = run_cli("check", str(resolved), str(folder), code=2).stderr
    assert (
        "or an MLPerf Training MLLOG result file (`:::MLLOG {json}` lines), or a folder of them (one run each)"
        in stderr
    )


def test_a_broken_mllog_line_is_pointed_at(resolved: Path, tmp_path: Path) -> None:
    log = write(tmp_path, "result_0.txt", ':::MLLOG {"key": "run_start"}\nnoise\n:::MLLOG {"key": \n')
    assert run_cli("check", str(resolved), str(log), code=2).stderr == (
        f"error: {log}:3:1: not an MLLOG line: Expecting value\n"
        "hint: an MLLOG result file holds one `:::MLLOG {json}` line per event, as mlperf_logging.mllog writes it\n"
    )


@pytest.mark.conformance
def test_every_official_rule_of_the_benchmark_has_its_row(resolved: Path, tmp_path: Path) -> None:
    rules = (files("mlperf_logging") / "compliance_checker/training_6.1.0/closed_qwen35_397b_grpo.yaml").read_text()
    keys = [r["KEY"] for r in yaml.load(rules, Loader=yaml.BaseLoader) if "KEY" in r]
    checked = [k["NAME"] for k in keys if "CHECK" in k and k["NAME"] not in log_verdicts.OFFICIAL_ONLY]
    report = check_files(resolved, write_log(tmp_path / "result_0.txt"))
    rows = {(g.name, c.what) for g in report.gates for c in g.checks}
    assert [k for k in [*checked, log_verdicts.TARGET_RULE] if not any(RULES[k].judges(g, w) for g, w in rows)] == []


def test_the_time_to_train_is_reported_in_json_text_and_markdown(resolved: Path, tmp_path: Path) -> None:
    log = write_log(tmp_path / "result_0.txt")  # run_stop 3,600,000 ms after run_start
    data = json.loads(run_cli("check", str(resolved), str(log), "--format", "json", code=1).stdout)
    assert data["time_to_train_ms"] == 3_600_000
    text = run_cli("check", str(resolved), str(log), code=1).stdout
    assert "\ntime to train: 3600.0 s (run_start → run_stop)\nllm-post-training: INVALID" in text
    markdown = run_cli("check", str(resolved), str(log), "--format", "markdown", code=1).stdout
    assert "\nTime to train: 3600.0 s (run_start → run_stop)\n" in markdown


def test_a_run_without_run_stop_says_its_time_to_train_is_not_logged(resolved: Path, tmp_path: Path) -> None:
    lines = write_log(tmp_path / "full.txt").read_text().splitlines()
    log = write(tmp_path, "result_0.txt", "\n".join(line for line in lines if '"run_stop"' not in line) + "\n")
    assert check_files(resolved, log).time_to_train_ms is None
    text = run_cli("check", str(resolved), str(log), code=1).stdout
    assert "\ntime to train: not logged (no run_start or no run_stop)\n" in text


def test_a_nan_accuracy_is_a_failed_evaluation(resolved: Path, tmp_path: Path) -> None:
    log = write_log(tmp_path / "result_0.txt", evals=[(5120, math.nan), (5632, math.nan)])
    assert '"key": "eval_accuracy", "value": NaN,' in log.read_text()  # as mllog writes a diverged run
    data = json.loads(run_cli("check", str(resolved), str(log), "--format", "json", code=1).stdout)
    gate = next(g for g in data["gates"] if g["name"] == "quality_target")
    assert gate["verdict"] == "fail"
    assert gate["checks"][0]["observed"] == "NaN"
    assert gate["checks"][0]["note"] == "every evaluation logged its accuracy as NaN (a diverged run)"
    schedule = next(g for g in data["gates"] if g["name"] == "evaluation_schedule")
    assert [(c["observed"], c["status"], c["note"]) for c in schedule["checks"]] == [
        (5120, "fail", "accuracy logged as NaN (a diverged evaluation)"),
        (5632, "fail", "accuracy logged as NaN (a diverged evaluation)"),
    ]


def _replace_event(log: Path, key: str, change: dict[str, Any]) -> int:
    """Rewrite the first `key` event of `log` with `change` merged in; returns its line number."""
    lines = log.read_text().splitlines()
    number = next(n for n, line in enumerate(lines, 1) if f'"key": "{key}"' in line)
    event = json.loads(lines[number - 1].removeprefix(":::MLLOG "))
    lines[number - 1] = ":::MLLOG " + json.dumps({**event, **change})
    log.write_text("\n".join(lines) + "\n")
    return number


@pytest.mark.parametrize("metadata", [[], "status", 7, None], ids=["list", "string", "number", "null"])
@pytest.mark.parametrize("key", ["eval_accuracy", "seed", "run_stop"])
def test_a_metadata_of_the_wrong_type_is_refused_with_its_line(
    resolved: Path, tmp_path: Path, key: str, metadata: Any
) -> None:
    log = write_log(tmp_path / "result_0.txt")
    line = _replace_event(log, key, {"metadata": metadata})
    assert run_cli("check", str(resolved), str(log), code=2).stderr == (
        f"error: {log}:{line}:1: the `{key}` event's metadata is not an object\n"
        "hint: an MLLOG result file holds one `:::MLLOG {json}` line per event, as mlperf_logging.mllog writes it\n"
    )


def test_a_deeply_nested_value_is_refused_with_its_line(resolved: Path, tmp_path: Path) -> None:
    log = write_log(tmp_path / "result_0.txt")
    with log.open("a") as handle:
        handle.write(':::MLLOG {"key": "x", "value": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    line = len(log.read_text().splitlines())
    assert run_cli("check", str(resolved), str(log), code=2).stderr == (
        f"error: {log}:{line}:1: not an MLLOG line: nesting deeper than 64 levels\n"
        "hint: an MLLOG result file holds one `:::MLLOG {json}` line per event, as mlperf_logging.mllog writes it\n"
    )


@pytest.mark.parametrize(
    ("key", "change", "said"),
    [
        ("run_stop", {"time_ms": 10**400}, "not an MLLOG line: an integer beyond 64 bits"),
        ("opt_name", {"value": ["adamw"]}, "the `opt_name` event's value is neither a number nor a text"),
        (
            "opt_adamw_epsilon",
            {"value": math.nan},
            "the `opt_adamw_epsilon` event's value is NaN: only an eval_accuracy may be (a diverged evaluation)",
        ),
        ("seed", {"value": -1}, "the `seed` event's value is not a 64-bit unsigned integer"),
        (
            "eval_accuracy",
            {"metadata": {"samples_count": "5120"}},
            "the `eval_accuracy` event's samples_count is not an integer",
        ),
        ("eval_accuracy", {"value": "0.62"}, "the `eval_accuracy` event's value is not a number"),
        ("run_stop", {"metadata": {"status": 1}}, "the `run_stop` event's status is not a text"),
    ],
)
def test_a_value_the_reader_cannot_take_is_refused_with_its_line(
    resolved: Path, tmp_path: Path, key: str, change: dict[str, Any], said: str
) -> None:
    log = write_log(tmp_path / "result_0.txt")
    line = _replace_event(log, key, change)
    assert run_cli("check", str(resolved), str(log), code=2).stderr == (
        f"error: {log}:{line}:1: {said}\n"
        "hint: an MLLOG result file holds one `:::MLLOG {json}` line per event, as mlperf_logging.mllog writes it\n"
    )


def _line_of(log: Path, key: str, occurrence: int = 1) -> int:
    numbers = [n for n, line in enumerate(log.read_text().splitlines(), 1) if f'"key": "{key}"' in line]
    return numbers[occurrence - 1]


@pytest.mark.conformance
@pytest.mark.parametrize(
    ("key", "first", "then"),
    [("global_batch_size", 512, 1024), ("opt_base_learning_rate", 1e-6 * 2**0.5, 2e-6), ("opt_name", "adamw", "sgd")],
)
def test_a_key_logged_again_with_another_value_is_refused_as_the_official_checker_fails_it(
    resolved: Path, tmp_path: Path, key: str, first: Any, then: Any
) -> None:
    log = logs.write(tmp_path / "result_0.txt", logs.Log(again=((key, then),)))
    from mlperf_logging.compliance_checker import mlp_compliance

    checker = mlp_compliance.make_checker("training", "6.1.0", False, False)
    assert not checker.check_file(str(log), "training_6.1.0/common.yaml")
    assert checker.overwritable[key].startswith(
        f"Required EXACTLY_ONE occurrence of '{key}' but found 2 with different"
    )
    assert run_cli("check", str(resolved), str(log), code=2).stderr == (
        f"error: {log}:{_line_of(log, key, 2)}:1: `{key}` is logged again with another value: {then!r} "
        f"(first {first!r}, at line {_line_of(log, key)})\n"
        "hint: the official rules want it logged exactly once (EXACTLY_ONE); the same value again is only "
        "warned of\n"
    )


@pytest.mark.conformance
@pytest.mark.parametrize("key", ["global_batch_size", "opt_base_learning_rate", "run_stop"])
def test_a_key_logged_again_with_the_same_value_is_taken_as_the_official_checker_warns(
    resolved: Path, tmp_path: Path, key: str
) -> None:
    # mlp_compliance.py: an EXACTLY_ONE key found more than once, all of one value, is put_warning
    again = "success" if key == "run_stop" else logs.hyperparameters(512)[key]
    log = logs.write(tmp_path / "result_0.txt", logs.Log(again=((key, again),)))
    from mlperf_logging.compliance_checker import mlp_compliance

    checker = mlp_compliance.make_checker("training", "6.1.0", False, False)
    assert checker.check_file(str(log), "training_6.1.0/common.yaml")
    assert checker.warnings == {key: f"Required EXACTLY_ONE occurrence of '{key}' but found 2"}
    once = check_files(resolved, write_log(tmp_path / "once.txt"))
    twice = check_files(resolved, log)
    assert [g.model_dump(exclude={"checks"}) for g in twice.gates] == [
        g.model_dump(exclude={"checks"}) for g in once.gates
    ]
    assert twice.time_to_train_ms == once.time_to_train_ms


@pytest.mark.conformance
def test_an_integer_valued_float_batch_size_is_taken_as_the_official_checker_does(
    resolved: Path, tmp_path: Path
) -> None:
    # closed_qwen35_397b_grpo.yaml: is_integer(v['value']), which mlp_compliance.py defines as
    # abs(round(value) - value) < 0.00001
    log = logs.write(tmp_path / "result_0.txt", logs.Log(gbs=512.0, values={"num_prompts_per_step": 32.0}))
    assert '"key": "global_batch_size", "value": 512.0,' in log.read_text()
    assert official_failures(log) == set()
    report = check_files(resolved, log)
    rows = {(g.name, c.what): (c.observed, c.status) for g in report.gates for c in g.checks}
    assert rows[("training_rules", "global_batch_size")] == (512, "pass")
    assert rows[("training_rules", "global_batch_size = num_prompts_per_step x generations")] == (512, "pass")
    assert rows[("evaluation_schedule", "evaluation 2 at gbs 512")] == (5632, "pass")
    assert [g.verdict for g in report.gates if g.name not in ("dataset_integrity", "model_integrity")] == ["pass"] * 4


@pytest.mark.conformance
def test_prompts_per_step_logged_as_a_text_fail_the_batch_as_the_official_checker(
    resolved: Path, tmp_path: Path
) -> None:
    log = write_log(tmp_path / "result_0.txt", num_prompts_per_step="32")
    # is_integer("32") raises: its CHECK fails; "32" * 16 is a text, never 512
    assert official_failures(log) == {"num_prompts_per_step", "num_generations_per_prompt"}
    rows = {(g.name, c.what): (c.status, c.note) for g in check_files(resolved, log).gates for c in g.checks}
    assert rows[("training_rules", "global_batch_size = num_prompts_per_step x generations")] == (
        "fail",
        "num_prompts_per_step logged as '32', not an integer",
    )


@pytest.mark.conformance
def test_a_second_run_stop_that_says_otherwise_is_refused_where_the_official_checker_only_warns(
    resolved: Path, tmp_path: Path
) -> None:
    # The compliance checker compares run_stop's `value` (null) alone: two run_stops are all one
    # value to it, a warning. The reader takes run_stop's status: two that differ say two ends.
    log = logs.write(tmp_path / "result_0.txt", logs.Log(again=(("run_stop", "aborted"),)))
    assert official_failures(log) == set()
    first, then = _line_of(log, "run_stop"), _line_of(log, "run_stop", 2)
    time = json.loads(log.read_text().splitlines()[first - 1].removeprefix(":::MLLOG "))["time_ms"]
    assert run_cli("check", str(resolved), str(log), code=2).stderr == (
        f"error: {log}:{then}:1: `run_stop` is logged again with another value: "
        f"{{'time_ms': {time}, 'status': 'aborted'}} "
        f"(first {{'time_ms': {time}, 'status': 'success'}}, at line {first})\n"
        "hint: the official rules want it logged exactly once (EXACTLY_ONE); the same value again is only "
        "warned of\n"
    )
