"""The harness runs against the packs that name them: what a contract pins or leaves out, and how
the harnesses' files name their model, metrics and primary metric (run/harnessrun.py and the
readers' edge cases, on the committed runs and edited copies)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from catalogctl.model.documents.evalscope import MetricIdentity
from tests.harness_packs import (
    EVALSCOPE_CONFIG,
    EVALSCOPE_REPORT,
    EVALSCOPE_RUN,
    INSPECT_LOG,
    check_report,
    edit_json,
    edit_text,
    evalscope_copy,
    gate_rows,
    inspect_copy,
    pack_catalog,
    resolved_file,
)
from tests.helpers import replace_in, run_cli

INSPECT_PACK = "benchmark_suite/benchmarks/gsm8k-inspect.yaml"


def inspect_pack(tmp_path: Path, old: str, new: str) -> Path:
    """A resolved config of gsm8k-inspect after one edit of its pack."""
    catalog = pack_catalog(tmp_path)
    replace_in(catalog, INSPECT_PACK, old, new)
    return resolved_file(tmp_path, "gsm8k-inspect", catalog)


@pytest.mark.parametrize(
    ("dimensions", "key"),
    [
        ({}, "accuracy:mean"),
        ({"k": 4}, "pass_at_k:pass_at_k[k=4]"),
        ({"k": 4.0, "subset": "main"}, 'pass_at_k:pass_at_k[k=4,subset="main"]'),
    ],
)
def test_an_evalscope_metric_is_named_by_its_identity_key(dimensions: dict[str, Any], key: str) -> None:
    name, aggregation = key.split("[")[0].split(":")
    assert MetricIdentity(name=name, aggregation=aggregation, dimensions=dimensions).key == key


def test_a_task_version_the_contract_does_not_pin_is_shown_not_judged(tmp_path: Path) -> None:
    resolved = inspect_pack(tmp_path, '  task_versions:\n    gsm8k_mini: "1"\n', "")
    verdict, rows = gate_rows(check_report(resolved, INSPECT_LOG), "inspect_run")
    assert verdict == "pass"
    assert rows[1] == ("gsm8k_mini task_version", "not-applicable", None, "1")


def test_without_thresholds_the_primary_metric_is_the_datasets_score(tmp_path: Path) -> None:
    threshold = (
        "  thresholds:\n    match/accuracy:\n      reference: 0.8\n      lower_factor: 0.99\n      scale: fraction\n"
    )
    catalog = pack_catalog(tmp_path)
    replace_in(catalog, INSPECT_PACK, threshold, "")
    replace_in(catalog, INSPECT_PACK, "    - accuracy_gate\n", "")
    report = check_report(resolved_file(tmp_path, "gsm8k-inspect", catalog), INSPECT_LOG)
    assert gate_rows(report, "inspect_run")[0] == "pass"
    assert gate_rows(report, "requirements") == ("pass", [("accuracy samples scored", "pass", 5, 5)])


def test_a_contract_without_a_primary_metric_asks_none_of_the_run(tmp_path: Path) -> None:
    resolved = inspect_pack(tmp_path, "  primary_metric: match/accuracy\n", "")
    rows = gate_rows(check_report(resolved, INSPECT_LOG), "inspect_run")[1]
    assert rows[-1] == ("metric match/stderr", "pass", "reported", 0.19999999999999998)


def test_two_ratio_thresholds_on_one_task_are_refused(tmp_path: Path) -> None:
    second = (
        "    match/stderr:\n      reference: 0.2\n      upper_factor: 1.5\n      scale: fraction\n  reported_metrics:\n"
    )
    resolved = inspect_pack(tmp_path, "  reported_metrics:\n", second)
    result = run_cli("check", resolved, INSPECT_LOG, code=2)
    assert "the contract holds 2 ratio thresholds (match/accuracy, match/stderr) on one inspect task" in result.stderr


def test_tasks_and_datasets_that_do_not_pair_up_are_refused(tmp_path: Path) -> None:
    resolved = inspect_pack(tmp_path, "  tasks: [gsm8k_mini]\n", "  tasks: [gsm8k_mini, gsm8k_other]\n")
    result = run_cli("check", resolved, INSPECT_LOG, code=2)
    assert "the contract names 2 inspect tasks and 1 accuracy datasets" in result.stderr


def test_an_evalscope_run_is_refused_for_a_contract_of_no_runner(tmp_path: Path) -> None:
    catalog = pack_catalog(tmp_path)
    text = (catalog / "benchmark_suite/benchmarks/gsm8k-evalscope.yaml").read_text(encoding="utf-8")
    replace_in(catalog, "benchmark_suite/benchmarks/gsm8k-evalscope.yaml", text[text.index("runner:") :], "")
    result = run_cli("check", resolved_file(tmp_path, "gsm8k-evalscope", catalog), EVALSCOPE_RUN, code=2)
    assert "this is an evalscope run; the contract names no runner: the endpoints client runs it" in result.stderr


@pytest.mark.parametrize(
    ("model", "args", "api_type"),
    [
        ("openai-api/together/mock-gsm8k", {}, "openai"),  # the service named after the provider
        ("openai-api/together/mock-gsm8k", {"responses_api": True}, None),
    ],
)
def test_inspects_provider_gives_the_api_type_and_not_the_model(
    tmp_path: Path, model: str, args: dict[str, Any], api_type: str | None
) -> None:
    log = edit_json(inspect_copy(tmp_path), lambda data: data["eval"].update(model=model, model_args=args))
    rows = gate_rows(check_report(resolved_file(tmp_path, "gsm8k-inspect"), log), "generation_integrity")[1]
    assert rows[0][1:] == ("pass" if api_type else "unknown", "openai", api_type)


def test_a_run_through_the_completions_api_is_no_run_of_a_chat_contract(tmp_path: Path) -> None:
    log = edit_json(inspect_copy(tmp_path), lambda data: data["eval"].update(model="vllm-completions/mock-gsm8k"))
    result = run_cli("check", resolved_file(tmp_path, "gsm8k-inspect"), log, code=2)
    assert "this run is of API type `openai_completions`; the contract is of API type `openai`" in result.stderr


@pytest.mark.parametrize(
    ("headline", "primary"),
    [(None, "match/accuracy"), ({"scorer": "match", "score": "match", "metric": "stderr"}, "match/stderr")],
)
def test_the_primary_metric_is_inspects_headline(tmp_path: Path, headline: Any, primary: str) -> None:
    log = edit_json(inspect_copy(tmp_path), lambda data: data["results"].update(headline=headline))
    rows = gate_rows(check_report(resolved_file(tmp_path, "gsm8k-inspect"), log), "inspect_run")[1]
    assert rows[-1] == ("primary metric", "pass" if primary == "match/accuracy" else "fail", "match/accuracy", primary)


def test_a_reducer_other_than_avg_is_part_of_the_metrics_name(tmp_path: Path) -> None:
    log = edit_json(inspect_copy(tmp_path), lambda data: data["results"]["scores"][0].update(reducer="mean"))
    rows = gate_rows(check_report(resolved_file(tmp_path, "gsm8k-inspect"), log), "inspect_run")[1]
    assert ("metric match/accuracy", "fail", "reported", None) in rows  # the log names it match/accuracy[mean]


def test_fewshot_false_is_no_examples(tmp_path: Path) -> None:
    log = edit_json(inspect_copy(tmp_path), lambda data: data["eval"]["task_args"].update(fewshot=False))
    rows = gate_rows(check_report(resolved_file(tmp_path, "gsm8k-inspect"), log), "inspect_run")[1]
    assert ("task_args.fewshot", "fail", 2, 0) in rows


def test_a_log_without_results_is_graded_on_nothing_it_lacks(tmp_path: Path) -> None:
    log = edit_json(inspect_copy(tmp_path), lambda data: data.update(status="error", results=None))
    verdict, rows = gate_rows(check_report(resolved_file(tmp_path, "gsm8k-inspect"), log), "inspect_run")
    assert verdict == "fail"
    assert ("samples completed", "unknown", 5, None) in rows
    assert ("metric match/accuracy", "fail", "reported", None) in rows


def test_a_report_and_a_task_config_of_other_models_are_refused(tmp_path: Path) -> None:
    run = evalscope_copy(tmp_path)
    edit_text(run / EVALSCOPE_CONFIG, "model_id: mock-gsm8k", "model_id: other")
    result = run_cli("check", resolved_file(tmp_path, "gsm8k-evalscope"), run, code=2)
    assert "the report is of model `mock-gsm8k`; its task config ran `other`" in result.stderr


@pytest.mark.parametrize("reports", [0, 2])
def test_an_output_folder_without_one_report_of_the_task_is_refused(tmp_path: Path, reports: int) -> None:
    run = evalscope_copy(tmp_path)
    if reports:
        shutil.copytree(run / "reports" / "mock-gsm8k", run / "reports" / "other-model")
    else:
        (run / EVALSCOPE_REPORT).unlink()
    result = run_cli("check", resolved_file(tmp_path, "gsm8k-evalscope"), run, code=2)
    assert ("several reports" if reports else "no report") + " of the contract's evalscope tasks (gsm8k)" in (
        result.stderr
    )


def test_files_that_are_not_json_or_yaml_are_refused_naming_them(tmp_path: Path) -> None:
    resolved = resolved_file(tmp_path, "gsm8k-evalscope")
    run = evalscope_copy(tmp_path)
    (run / EVALSCOPE_REPORT).write_text("{", encoding="utf-8")
    assert f"{run / EVALSCOPE_REPORT}: not an evalscope report: " in run_cli("check", resolved, run, code=2).stderr
    run = evalscope_copy(tmp_path / "again")
    (run / EVALSCOPE_CONFIG).write_text("limit: [\n", encoding="utf-8")
    assert f"{run / EVALSCOPE_CONFIG}:2:1: not YAML: " in run_cli("check", resolved, run, code=2).stderr


def test_a_count_the_contract_leaves_pending_is_unknown(tmp_path: Path) -> None:
    catalog = pack_catalog(tmp_path)
    replace_in(catalog, "benchmark_suite/datasets/gsm8k-mini.yaml", "samples: 5", "samples: <TBD>")
    rows = gate_rows(check_report(resolved_file(tmp_path, "gsm8k-inspect", catalog), INSPECT_LOG), "inspect_run")[1]
    assert ("dataset samples", "unknown", "<TBD>", 5) in rows
    assert ("samples completed", "unknown", "<TBD>", 5) in rows
