"""`check` on lm-eval output crafted to pass for what it is not: settings of the wrong type, a
setting the command line gave that the task config omits, a few-shot count the file contradicts,
and a score its samples are never held against. Each starts from the committed dummy run recorded
as a run through a completions endpoint (valid as it stands)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import init_repo, run_cli
from tests.lmeval_pack import DUMMY, copied, pack_catalog, resolved_pack
from tests.run.test_lmeval import STRICT, failed, report, rows
from tests.run_results import resealed


@pytest.fixture(scope="module")
def resolved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return resolved_pack(tmp_path_factory.mktemp("pack"))


def endpoint_run(into: Path) -> tuple[Path, dict[str, Any]]:
    """A copy of the dummy run as lm-eval records a run through a completions endpoint, and its data."""
    results = copied(DUMMY, into)
    data = json.loads(results.read_text())
    data["config"]["model"] = "local-completions"
    return results, data


def test_the_unedited_endpoint_run_is_valid(resolved: Path, tmp_path: Path) -> None:
    results, data = endpoint_run(tmp_path / "run")
    results.write_text(json.dumps(data))
    assert json.loads(run_cli("check", resolved, tmp_path / "run", "--format", "json").stdout)["valid"] is True


@pytest.mark.parametrize(
    ("key", "value"),
    [("temperature", "abc"), ("temperature", "0.0"), ("temperature", False), ("max_gen_toks", {"a": 1})],
)
def test_a_generation_setting_that_is_not_a_number_is_refused_naming_it(
    resolved: Path, tmp_path: Path, key: str, value: Any
) -> None:
    """Once a crash (exit 70) or a pass: `"abc"` and `{"a": 1}` were internal errors, `"0.0"` and
    `false` passed as temperature 0."""
    results, data = endpoint_run(tmp_path / "run")
    del data["config"]["gen_kwargs"]
    data["configs"]["tinymath"]["generation_kwargs"][key] = value
    results.write_text(json.dumps(data))
    error = run_cli("check", resolved, tmp_path / "run", code=2).stderr.splitlines()[0]
    assert error == f"error: {results}: configs.tinymath.generation_kwargs.{key} is not a number: {value!r}"


@pytest.mark.parametrize("given", [{"temperature": 0.7, "max_gen_toks": 256}, "temperature=0.7,max_gen_toks=256"])
def test_a_setting_the_command_line_gave_counts_where_the_task_config_omits_it(
    resolved: Path, tmp_path: Path, given: Any
) -> None:
    """lm-eval merges `--gen_kwargs` into each task's generation_kwargs: a file whose task config
    lacks the temperature the command line set ran at that temperature, not greedily."""
    results, data = endpoint_run(tmp_path / "run")
    data["config"]["gen_kwargs"] = given
    del data["configs"]["tinymath"]["generation_kwargs"]["temperature"]  # do_sample: false stays
    results.write_text(json.dumps(data))
    assert failed(report(resolved, tmp_path / "run")) == [("tinymath temperature", "fail", 0.0, 0.7)]


def test_a_few_shot_count_the_task_config_contradicts_fails(resolved: Path, tmp_path: Path) -> None:
    """lm-eval writes `n-shot` from the task's `num_fewshot` (lm-eval 0.4.13
    `lm_eval/evaluator_utils.py`): a 0-shot run whose n-shot was edited to 5 is no 5-shot run."""
    results, data = endpoint_run(tmp_path / "run")
    data["configs"]["tinymath"]["num_fewshot"] = 0
    results.write_text(json.dumps(data))
    assert failed(report(resolved, tmp_path / "run")) == [
        ("tinymath num_fewshot (configs, which n-shot contradicts)", "fail", 5, 0)
    ]


@pytest.mark.parametrize("aggregation", ["median", None])
def test_a_score_not_held_against_its_samples_is_not_evaluable(
    resolved: Path, tmp_path: Path, aggregation: str | None
) -> None:
    """A changed score whose metric_list entry was edited (another aggregation, or none) was
    never recomputed from the samples, and the run was valid."""
    results, data = endpoint_run(tmp_path / "run")
    data["results"]["tinymath"][STRICT] = 0.04  # the samples score 0.0, under the 0.05 threshold
    if aggregation is None:
        del data["configs"]["tinymath"]["metric_list"]
    else:
        data["configs"]["tinymath"]["metric_list"][0]["aggregation"] = aggregation
    results.write_text(json.dumps(data))
    gates = report(resolved, tmp_path / "run")
    recomputed = [r[:3] for r in rows(gates["lmeval_run"]) if "from the samples" in r[0]]
    assert recomputed == [
        (f"{STRICT} recomputed from the samples", "unknown", 0.04),
        ("exact_match,flexible-extract recomputed from the samples", "unknown", 0.0),
    ]
    assert gates["lmeval_run"]["verdict"] == "not-evaluable"


@pytest.mark.parametrize(("metric", "literal"), [(STRICT, "1e999"), ("exact_match,flexible-extract", "-1e999")])
def test_a_score_beyond_the_floats_is_refused_naming_it(
    resolved: Path, tmp_path: Path, metric: str, literal: str
) -> None:
    """JSON's `1e999` reads as infinity: once an internal error (exit 70), the run's model refusing it."""
    results, data = endpoint_run(tmp_path / "run")
    results.write_text(json.dumps(data).replace(f'"{metric}": 0.0', f'"{metric}": {literal}', 1))
    error = run_cli("check", resolved, tmp_path / "run", code=2).stderr.splitlines()[0]
    value = float(literal)
    assert error == f"error: {results}: results.tinymath.{metric} is not a finite number: {value!r}"


def test_a_task_version_the_task_config_contradicts_fails(resolved: Path, tmp_path: Path) -> None:
    """lm-eval writes `versions` from the task's `metadata.version` (lm-eval 0.4.13 `Task.VERSION`):
    a run of version 2.0 (a scoring fix, the same prompts and hash) edited to claim 1.0 is no run of 1.0."""
    results, data = endpoint_run(tmp_path / "run")
    data["configs"]["tinymath"]["metadata"]["version"] = 2.0
    results.write_text(json.dumps(data))
    assert failed(report(resolved, tmp_path / "run")) == [
        ("tinymath version (configs metadata, which versions contradicts)", "fail", "1.0", "2.0")
    ]


def test_compare_shows_no_score_for_one_written_as_1e999(tmp_path: Path) -> None:
    """JSON's `1e999` reads as infinity: `compare` showed it as `inf%`, "better" than the baseline."""
    root = pack_catalog(init_repo(tmp_path / "catalog"))
    results, data = endpoint_run(tmp_path / "run")
    results.write_text(json.dumps(data).replace(f'"{STRICT}": 0.0', f'"{STRICT}": 1e999', 1))
    shown = run_cli("compare", f"a={DUMMY}", f"b={tmp_path / 'run'}", "-C", root).stdout
    assert shown.splitlines() == [
        "BENCHMARK  METRIC                A (BASELINE)  B",
        "gsm8k      Exact match (strict)  0.0%          -",
        "0 regressions against a",
    ]


def test_the_max_tokens_an_endpoint_was_sent_is_the_one_compared(resolved: Path, tmp_path: Path) -> None:
    """lm-eval 0.4.13's API models send `max_tokens` where a task sets it, `max_gen_toks` only
    otherwise (`lm_eval/models/openai_completions.py`, `_create_payload`): a file setting both
    passed on its `max_gen_toks` while the endpoint was asked for 4096 tokens."""
    results, data = endpoint_run(tmp_path / "run")
    data["configs"]["tinymath"]["generation_kwargs"]["max_tokens"] = 4096
    results.write_text(json.dumps(data))
    assert failed(report(resolved, tmp_path / "run")) == [("tinymath max_new_tokens (max_tokens)", "fail", 256, 4096)]


@pytest.mark.parametrize("task", ["t" * 300, "../../../../dev/zero", "nul\u0000task"])
def test_a_task_no_file_can_be_named_after_is_read_without_samples(resolved: Path, tmp_path: Path, task: str) -> None:
    """lm-eval names a samples file after its task; a results key no file name can hold (too long
    for the file system: once an internal error, exit 70) is a task without one, and not graded."""
    results, data = endpoint_run(tmp_path / "run")
    data["results"][task] = {"exact_match,none": 1.0}
    results.write_text(json.dumps(data))
    assert json.loads(run_cli("check", resolved, tmp_path / "run", "--format", "json").stdout)["valid"] is True


def test_a_run_of_a_harness_version_the_pack_is_not_written_for_is_not_valid(resolved: Path, tmp_path: Path) -> None:
    """The gsm8k pack is written for lm-eval `>=0.4,<0.5` (runner.version); the results file
    records the harness version that ran (`lm_eval_version`): a run of 0.5.0 is not one of the pack."""
    results, data = endpoint_run(tmp_path / "run")
    data["lm_eval_version"] = "0.5.0"
    results.write_text(json.dumps(data))
    assert [row[3] for row in failed(report(resolved, tmp_path / "run"))] == ["0.5.0"]


def test_a_resealed_contract_whose_version_pin_is_no_specifier_is_refused(resolved: Path, tmp_path: Path) -> None:
    """runner.version is text in a resolved contract: one edited and resealed to no PEP 440
    specifier is refused, naming it (it made packaging raise: exit 70)."""
    data = json.loads(resolved.read_text(encoding="utf-8"))
    data["contract"]["runner"]["version"] = "<0.4x"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(resealed(data)), encoding="utf-8")
    result = run_cli("check", edited, DUMMY, code=2)
    assert "contract.runner.version: `<0.4x` is not a PEP 440 version specifier" in result.stderr
