"""`check` on lm-eval output: real runs of lm-eval 0.4.13 (tests/fixtures/lmeval, its `dummy`
model over the tests' task), the same files edited by hand, and a results file someone published."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import copy_catalog, init_repo, run_cli, write
from tests.lmeval_pack import DUMMY, FIXTURES, LIMITED, PUBLISHED, TINYMATH_HASH, copied, pack_catalog, resolved_pack
from tests.run_results import resolved_config

STRICT, FLEXIBLE = "exact_match,strict-match", "exact_match,flexible-extract"
FORGED = "0" * 64


@pytest.fixture(scope="module")
def resolved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return resolved_pack(tmp_path_factory.mktemp("pack"))


def report(resolved: Path, run: Path, code: int = 1) -> dict[str, Any]:
    """`check --format json`, its gates by name."""
    found = json.loads(run_cli("check", resolved, run, "--format", "json", code=code).stdout)
    assert found["layout"] == "lm-eval"
    return {gate["name"]: gate for gate in found["gates"]}


def rows(gate: dict[str, Any]) -> list[tuple[str, str, Any, Any]]:
    return [(c["what"], c["status"], c["expected"], c["observed"]) for c in gate["checks"]]


def failed(gates: dict[str, Any]) -> list[tuple[str, str, Any, Any]]:
    return [row for gate in gates.values() for row in rows(gate) if row[1] == "fail"]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path.name}"
    path.write_text(text.replace(old, new))


def test_the_packs_invocation_run_by_the_dummy_model_passes_every_row_but_its_api(resolved: Path) -> None:
    gates = report(resolved, DUMMY)
    samples = next(DUMMY.glob("*/samples_tinymath_*.jsonl")).name
    assert rows(gates["lmeval_run"]) == [
        ("limit (config.limit)", "pass", "none", "none"),
        ("lm-eval version (lm_eval_version) vs runner.version", "pass", ">=0.4,<0.5", "0.4.13"),
        ("tinymath n-shot", "pass", 5, 5),
        ("tinymath documents evaluated (n-samples)", "pass", 20, 20),
        ("tinymath version vs runner.task_versions", "pass", "1.0", "1.0"),
        ("tinymath task hash vs runner.task_hashes", "pass", TINYMATH_HASH, TINYMATH_HASH),
        (f"tinymath task hash recomputed from {samples}", "pass", TINYMATH_HASH, TINYMATH_HASH),
        (f"{STRICT} recomputed from the samples", "pass", 0.0, 0.0),
        (f"{FLEXIBLE} recomputed from the samples", "pass", 0.0, 0.0),
        (f"{STRICT} (tinymath)", "pass", "reported", 0.0),
        (f"{FLEXIBLE} (tinymath)", "pass", "reported", 0.0),
    ]
    assert rows(gates["accuracy_gate"]) == [(STRICT, "pass", 0.05, 0.0)]
    assert rows(gates["requirements"]) == [("accuracy samples scored", "pass", 20, 20)]
    # lm-eval records no sha256 of the data: the pinned task hash stands for it
    assert [r[:2] for r in rows(gates["dataset_integrity"])] == [("gsm8k sha256", "not-applicable")]
    # the dummy model is no API: the one fact that keeps this run from being valid
    assert rows(gates["generation_integrity"]) == [
        ("api_type", "unknown", "openai_completions", None),
        ("tinymath temperature", "pass", 0.0, 0.0),
        ("tinymath max_new_tokens (max_gen_toks)", "pass", 256, 256),
    ]
    assert gates["generation_integrity"]["checks"][0]["note"] == "lm-eval model `dummy` calls no OpenAI API"
    assert failed(gates) == []


def test_the_results_file_is_read_by_its_name_as_by_its_folder(resolved: Path) -> None:
    by_file = report(resolved, next(DUMMY.glob("*/results_*.json")))
    assert by_file == report(resolved, DUMMY)
    assert by_file == report(resolved, next(DUMMY.glob("*/")))  # the model's folder


def test_a_changed_score_fails_the_threshold_and_its_samples(resolved: Path, tmp_path: Path) -> None:
    results = copied(DUMMY, tmp_path / "run")
    edit(results, f'"{STRICT}": 0.0,', f'"{STRICT}": 0.85,')
    assert failed(report(resolved, tmp_path / "run")) == [
        (STRICT, "fail", 0.05, 0.85),
        (f"{STRICT} recomputed from the samples", "fail", 0.85, 0.0),
    ]


def test_a_changed_few_shot_count_fails_it(resolved: Path, tmp_path: Path) -> None:
    results = copied(DUMMY, tmp_path / "run")
    data = json.loads(results.read_text())
    data["n-shot"]["tinymath"] = 3
    results.write_text(json.dumps(data))
    assert failed(report(resolved, tmp_path / "run")) == [("tinymath n-shot", "fail", 5, 3)]


def test_a_hash_its_samples_do_not_have_fails(resolved: Path, tmp_path: Path) -> None:
    results = copied(DUMMY, tmp_path / "run")
    edit(results, f'"tinymath": "{TINYMATH_HASH}"', f'"tinymath": "{FORGED}"')
    samples = next((tmp_path / "run").glob("*/samples_*.jsonl")).name
    assert failed(report(resolved, tmp_path / "run")) == [
        ("tinymath task hash vs runner.task_hashes", "fail", TINYMATH_HASH, FORGED),
        (f"tinymath task hash recomputed from {samples}", "fail", FORGED, TINYMATH_HASH),
    ]


def test_samples_edited_under_their_hash_fail_the_recomputation(resolved: Path, tmp_path: Path) -> None:
    copied(DUMMY, tmp_path / "run")
    samples = next((tmp_path / "run").glob("*/samples_*.jsonl"))
    lines = samples.read_text().splitlines()
    first = json.loads(lines[0])
    first["prompt_hash"] = FORGED  # another prompt in the first document's place
    samples.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    found = failed(report(resolved, tmp_path / "run"))
    assert [(what, status, expected) for what, status, expected, _ in found] == [
        (f"tinymath task hash recomputed from {samples.name}", "fail", TINYMATH_HASH)
    ]


def test_a_limit_run_is_never_valid(resolved: Path) -> None:
    gates = report(resolved, LIMITED)
    limited = [row for row in failed(gates) if "hash" not in row[0]]
    assert limited == [
        ("accuracy samples scored", "fail", 20, 5),
        ("limit (config.limit)", "fail", "none", 5.0),
        ("tinymath documents evaluated (n-samples)", "fail", 20, 5),
    ]
    # five documents are other data than twenty: the pinned hash is not theirs, and says so
    assert [row[:3] for row in failed(gates) if "hash" in row[0]] == [
        ("tinymath task hash vs runner.task_hashes", "fail", TINYMATH_HASH)
    ]


def test_a_published_results_file_is_read_and_judged(tmp_path: Path) -> None:
    """A real run someone published: Llama 3.1 8B Instruct on asdiv_cot_llama, 8-shot, --limit 512,
    without samples. As a pack of that task (the model's old hub name declared as served), every
    setting the pack fixes that the run did otherwise fails, and what it did not record is unknown."""
    catalog = pack_catalog(tmp_path / "catalog", task="asdiv_cot_llama", pin=FORGED)
    config = resolved_config(catalog, "gsm8k", None, served_model="meta-llama/Meta-Llama-3.1-8B-Instruct")
    gates = report(write(tmp_path, "resolved.json", json.dumps(config.to_data())), PUBLISHED)
    assert failed(gates) == [
        ("model sha", "fail", "0e9e39f249a16976918f6564b8830bc894c89659", "5206a32e0bd3067aef1ce90f5528ade7d866253f"),
        ("asdiv_cot_llama max_new_tokens (max_gen_toks)", "fail", 256, 512),
        (STRICT, "fail", 0.05, 0.92578125),
        ("limit (config.limit)", "fail", "none", 512.0),
        ("asdiv_cot_llama n-shot", "fail", 5, 8),
        ("asdiv_cot_llama documents evaluated (n-samples)", "fail", 2305, 512),
        (
            "asdiv_cot_llama task hash vs runner.task_hashes",
            "fail",
            FORGED,
            "6d0e329e02d0592effd51b46a280781926c3171e545da7fc8ad7c414e3779c98",
        ),
    ]
    unknown = [row[0] for gate in gates.values() for row in rows(gate) if row[1] == "unknown"]
    assert unknown == [
        "api_type",  # hf: no API
        "lm-eval version (lm_eval_version) vs runner.version",  # this file records only git_hash 59170e85
        "asdiv_cot_llama task hash recomputed from samples_asdiv_cot_llama_2024-08-21T04-31-41.160720.jsonl",
    ]


def test_the_published_file_is_no_run_of_the_shipped_gsm8k(tmp_path: Path) -> None:
    config = resolved_config(copy_catalog(tmp_path / "catalog"), "gsm8k")
    resolved = write(tmp_path, "resolved.json", json.dumps(config.to_data()))
    error = run_cli("check", resolved, PUBLISHED, code=2).stderr.splitlines()[0]
    assert error == (
        "error: this run is of lm-eval task(s) `asdiv_cot_llama`; the contract is of task(s) `gsm8k`: "
        f"{next(PUBLISHED.glob('*/results_*.json'))} has no results for gsm8k"
    )


def test_a_folder_of_two_runs_is_refused(resolved: Path, tmp_path: Path) -> None:
    copied(DUMMY, tmp_path / "results")  # lm-eval's --output_path is often results/: not a submission
    copied(LIMITED, tmp_path / "more")
    (tmp_path / "results" / "again").mkdir()
    for path in (tmp_path / "more").glob("*/*"):
        path.rename(tmp_path / "results" / "again" / path.name)
    error = run_cli("check", resolved, tmp_path / "results", code=2).stderr.splitlines()[0]
    assert re.fullmatch(
        rf"error: {tmp_path / 'results'} holds 2 lm-eval results files \(again/results_.*\.json, "
        r"meta-llama__Llama-3\.1-8B-Instruct/results_.*\.json\): which run to check is unknown",
        error,
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["n-shot"].update(tinymath="5"), "n-shot.tinymath: Input should be a valid integer"),
        (lambda d: d["task_hashes"].update(tinymath="abc"), "task_hashes.tinymath: `abc` is not a sha256"),
        (
            lambda d: d["results"]["tinymath"].update({STRICT: "0.0"}),
            f"results.tinymath.{STRICT} is not a number: '0.0'",
        ),
        (lambda d: d["config"].update(gen_kwargs={"temperature": 0.7}), "config.gen_kwargs sets temperature=0.7"),
    ],
)
def test_a_malformed_results_file_is_refused_naming_the_key(
    resolved: Path, tmp_path: Path, change: Any, message: str
) -> None:
    results = copied(DUMMY, tmp_path / "run")
    data = json.loads(results.read_text())
    change(data)
    results.write_text(json.dumps(data))
    error = run_cli("check", resolved, results, code=2).stderr.splitlines()[0]
    assert error.startswith(f"error: {results}")
    assert message in error


def test_drift_across_04x_is_read(resolved: Path, tmp_path: Path) -> None:
    """model_args as a string, a stderr of "N/A", and no n-samples or config.limit (older 0.4.x)."""
    results = copied(DUMMY, tmp_path / "run")
    data = json.loads(results.read_text())
    data["config"]["model_args"] = "pretrained=meta-llama/Llama-3.1-8B-Instruct,dtype=bfloat16"
    data["results"]["tinymath"][f"exact_match_stderr,{FLEXIBLE.split(',')[1]}"] = "N/A"
    del data["n-samples"], data["config"]["limit"]
    results.write_text(json.dumps(data))
    gates = report(resolved, tmp_path / "run")
    assert failed(gates) == []
    unknown = [(row[0], row[1]) for gate in gates.values() for row in rows(gate) if row[1] == "unknown"]
    assert unknown == [
        ("model sha", "unknown"),
        ("api_type", "unknown"),
        ("accuracy samples scored", "unknown"),
        ("limit (config.limit)", "unknown"),
        ("tinymath documents evaluated (n-samples)", "unknown"),
    ]


def test_a_contract_of_another_runner_refuses_lm_eval_output(tmp_path: Path) -> None:
    config = resolved_config(copy_catalog(tmp_path / "catalog"), "deepseek-r1")
    resolved = write(tmp_path, "resolved.json", json.dumps(config.to_data()))
    error = run_cli("check", resolved, DUMMY, code=2).stderr.splitlines()[0]
    assert error == "error: this is lm-eval output; the contract of deepseek-r1 is run by `endpoints`"


def stamped(gates: dict[str, Any]) -> list[tuple[str, str, Any, Any]]:
    """Every row, the samples file's timestamp in its name left out (it differs run to run)."""
    return [
        (re.sub(r"_\d{4}-\d\d-\d\dT[\d.-]+\.jsonl", "_<timestamp>.jsonl", r[0]), *r[1:])
        for g in gates.values()
        for r in rows(g)
    ]


@pytest.mark.conformance
def test_the_packs_invocation_run_now_is_judged_as_the_committed_run(resolved: Path, tmp_path: Path) -> None:
    """lm-eval itself, offline (regenerate.py): a fresh run of the pack's invocation gets the
    committed run's rows, its task hash the one the pack pins. lm-eval is the `conformance`
    extra's (0.4.13), so the test command runs it: found on PATH, or beside this Python (a venv's
    bin, which `.venv/bin/python -m pytest` does not put on PATH). Skipped where it is not installed."""
    lm_eval = shutil.which("lm_eval") or shutil.which("lm_eval", path=str(Path(sys.executable).parent))
    if lm_eval is None:
        pytest.skip("lm-eval is not installed (the conformance extra installs it)")
    command = [sys.executable, str(FIXTURES / "regenerate.py"), "--out", str(tmp_path), "--lm-eval", lm_eval]
    subprocess.run(command, check=True, timeout=600, capture_output=True)
    assert stamped(report(resolved, tmp_path / "dummy")) == stamped(report(resolved, DUMMY))
    assert stamped(report(resolved, tmp_path / "dummy-limit")) == stamped(report(resolved, LIMITED))


def test_the_run_through_an_api_endpoint_is_valid(resolved: Path, tmp_path: Path) -> None:
    """The dummy run recorded as lm-eval records a run through an OpenAI-compatible completions
    endpoint (its model `local-completions`): every gate of the pack clears."""
    results = copied(DUMMY, tmp_path / "run")
    edit(results, '"model": "dummy"', '"model": "local-completions"')
    found = json.loads(run_cli("check", resolved, tmp_path / "run", "--format", "json", code=0).stdout)
    assert found["valid"] is True
    assert rows(found["gates"][2])[0] == ("api_type", "pass", "openai_completions", "openai_completions")


def test_a_chat_endpoint_is_no_run_of_a_completions_contract(resolved: Path, tmp_path: Path) -> None:
    results = copied(DUMMY, tmp_path / "run")
    edit(results, '"model": "dummy"', '"model": "local-chat-completions"')
    error = run_cli("check", resolved, tmp_path / "run", code=2).stderr.splitlines()[0]
    assert error == "error: this run is of API type `openai`; the contract is of API type `openai_completions`"


@pytest.mark.parametrize(
    ("model_args", "model_name", "named"),
    [
        ({"pretrained": "meta-llama/Llama-3.1-8B-Instruct", "peft": "someone/adapter"}, None, "someone/adapter"),
        ("pretrained=/models/llama,dtype=bfloat16", "/models/llama", "/models/llama"),
        ("base_url=http://127.0.0.1:8000/v1/completions,model=other/model", None, "other/model"),
        ({}, "another/model", "another/model"),
    ],
)
def test_a_run_of_another_model_is_refused_naming_it(
    resolved: Path, tmp_path: Path, model_args: Any, model_name: str | None, named: str
) -> None:
    """An adapter names the model evaluated, as lm-eval names it; a local path names no checkpoint."""
    results = copied(DUMMY, tmp_path / "run")
    data = json.loads(results.read_text())
    data["config"]["model_args"], data["model_name"] = model_args, model_name
    results.write_text(json.dumps(data))
    error = run_cli("check", resolved, tmp_path / "run", code=2).stderr.splitlines()[0]
    assert error.startswith(f"error: this run is of model `{named}`; the contract is of model `llama3-1-8b`")


def test_two_names_of_the_model_are_refused(resolved: Path, tmp_path: Path) -> None:
    results = copied(DUMMY, tmp_path / "run")
    edit(results, '"model_name": "meta-llama/Llama-3.1-8B-Instruct"', '"model_name": "other/model"')
    error = run_cli("check", resolved, tmp_path / "run", code=2).stderr.splitlines()[0]
    assert error.endswith(
        "names model `meta-llama/Llama-3.1-8B-Instruct` in config.model_args and `other/model` in model_name: "
        "which one ran is unknown"
    )


def test_a_run_without_samples_is_not_evaluable_where_they_were_needed(resolved: Path, tmp_path: Path) -> None:
    copied(DUMMY, tmp_path / "run")
    next((tmp_path / "run").glob("*/samples_*.jsonl")).unlink()
    gates = report(resolved, tmp_path / "run")
    assert failed(gates) == []
    assert [(r[0], r[1]) for r in rows(gates["lmeval_run"]) if r[1] != "pass"] == [
        ("tinymath task hash recomputed from samples_tinymath_2026-12-02T11-10-58.461002.jsonl", "unknown")
    ]


def test_a_broken_samples_line_is_refused_with_its_number(resolved: Path, tmp_path: Path) -> None:
    copied(DUMMY, tmp_path / "run")
    samples = next((tmp_path / "run").glob("*/samples_*.jsonl"))
    lines = samples.read_text().splitlines()
    samples.write_text("\n".join([lines[0], '{"doc_id": 1}', *lines[2:]]) + "\n")
    error = run_cli("check", resolved, tmp_path / "run", code=2).stderr.splitlines()[0]
    assert error == f"error: {samples}:2: not a sample: filter: Field required"


def test_unrecorded_and_nan_facts_are_unknown(resolved: Path, tmp_path: Path) -> None:
    """No n-shot anywhere, no version, a version written as an integer, a score written as NaN."""
    results = copied(DUMMY, tmp_path / "run")
    data = json.loads(results.read_text())
    del data["n-shot"], data["configs"]["tinymath"]["num_fewshot"], data["versions"]["tinymath"]
    data["results"]["tinymath"][FLEXIBLE] = float("nan")
    results.write_text(json.dumps(data))
    unknown = [(r[0], r[1]) for g in report(resolved, tmp_path / "run").values() for r in rows(g) if r[1] == "unknown"]
    assert unknown == [
        ("model sha", "unknown"),
        ("api_type", "unknown"),
        ("tinymath n-shot", "unknown"),
        ("tinymath version vs runner.task_versions", "unknown"),
        (f"{FLEXIBLE} (tinymath)", "unknown"),
    ]
    data["versions"]["tinymath"] = 1  # YAML's `version: 1`: the pin "1.0" is the same number
    results.write_text(json.dumps(data))
    assert rows(report(resolved, tmp_path / "run")["lmeval_run"])[4] == (
        "tinymath version vs runner.task_versions",
        "pass",
        "1.0",
        "1",
    )


def test_a_results_file_under_another_name_is_read_by_what_it_holds(resolved: Path, tmp_path: Path) -> None:
    """Renamed, it is still lm-eval's (`results` and `versions`), but its samples cannot be paired."""
    renamed = tmp_path / "run.json"
    renamed.write_bytes(next(DUMMY.glob("*/results_*.json")).read_bytes())
    hashes = [r for r in rows(report(resolved, renamed)["lmeval_run"]) if "recomputed" in r[0]]
    assert hashes == [("tinymath task hash recomputed from its samples file", "unknown", TINYMATH_HASH, None)]


def test_a_results_file_that_is_not_json_is_refused(resolved: Path, tmp_path: Path) -> None:
    results = copied(DUMMY, tmp_path / "run")
    results.write_text('{"results": ')
    error = run_cli("check", resolved, results, code=2).stderr.splitlines()[0]
    assert error.startswith(f"error: {results}: not an lm-eval results file: ")


def test_without_a_pinned_hash_the_data_is_not_evaluable(tmp_path: Path) -> None:
    resolved = resolved_pack(tmp_path, pin=TINYMATH_HASH)
    data = json.loads(resolved.read_text())
    assert data["contract"]["runner"]["task_hashes"] == {"tinymath": TINYMATH_HASH}
    catalog = tmp_path / "unpinned"
    pack_catalog(catalog)
    edit(catalog / "benchmark_suite/benchmarks/gsm8k.yaml", f'  task_hashes:\n    tinymath: "{TINYMATH_HASH}"\n', "")
    config = resolved_config(catalog, "gsm8k")
    gates = report(write(tmp_path, "unpinned.json", json.dumps(config.to_data())), DUMMY)
    assert [(r[0], r[1]) for r in rows(gates["dataset_integrity"])] == [("gsm8k sha256", "unknown")]
    assert all("runner.task_hashes" not in r[0] for r in rows(gates["lmeval_run"]))


def test_compare_reads_lm_eval_output_by_the_packs_task(tmp_path: Path) -> None:
    """`compare` maps each task lm-eval reports to the benchmark whose runner.tasks names it."""
    root = pack_catalog(init_repo(tmp_path / "catalog"))
    shown = run_cli("compare", f"full={DUMMY}", f"limited={LIMITED}", "-C", root, "--all-metrics").stdout
    assert shown.splitlines() == [
        "BENCHMARK  METRIC                  FULL (BASELINE)  LIMITED",
        "gsm8k      Exact match (strict)    0.0%             0.0% (same)",
        "gsm8k      Exact match (flexible)  0.0%             0.0% (same)",
        "0 regressions against full",
    ]
