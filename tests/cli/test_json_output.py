"""Every verb's `--format json`, on real repositories, validates against its committed schema."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from catalogctl.cli import app
from catalogctl.release.freeze import FreezeRequest, freeze
from tests.helpers import REPO_ROOT, commit_all, copy_catalog, git, replace_in, write
from tests.release_repo import SEEDS_A, make_freezable
from tests.run_results import gpt_oss_results, pin_all, resolved_config

NOW = dt.datetime(2026, 8, 28, 12, 0, tzinfo=dt.UTC)
ENDPOINTS = REPO_ROOT / "tests" / "fixtures" / "endpoints"
VERBS = {"validate", "ls", "show", "cohorts", "verify", "check", "gates", "metrics", "datasets verify", "ci", "diff"}
AIME_BYTES = b'{"question": "1+1?", "answer": "2"}\n'


def schema_errors(kind: str, data: Any) -> list[str]:
    """Where `data` breaks the committed `schemas/<kind>.schema.json`."""
    schema = json.loads((REPO_ROOT / "schemas" / f"{kind}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    return sorted(f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(data))


@pytest.fixture
def released(catalog_repo: Path, tmp_path: Path) -> Path:
    """Cohorts 2026-09-C0 and 2026-09-C1 frozen on `main`; on branch `pr`, uncommitted edits: a
    frozen ruleset changed, a contract changed, aime25 pinned to the bytes of a local file."""
    repo = make_freezable(catalog_repo)
    seeds = write(tmp_path, "seeds-a.yaml", SEEDS_A)
    freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k", "deepseek-r1"], seeds_file=seeds, now=NOW))
    replace_in(repo, "benchmark_suite/benchmarks/gsm8k.yaml", "max_new_tokens: 256", "max_new_tokens: 512")
    commit_all(repo, "gsm8k: longer answers")
    freeze(repo, FreezeRequest("2026-09-C1", now=NOW))
    git(repo, "checkout", "-q", "-b", "pr")
    replace_in(repo, "rulesets/2026-09-C0.yaml", "model_seed: 42", "model_seed: 43")
    replace_in(repo, "benchmark_suite/benchmarks/gsm8k.yaml", "max_new_tokens: 512", "max_new_tokens: 1024")
    sha = hashlib.sha256(AIME_BYTES).hexdigest()
    replace_in(repo, "benchmark_suite/datasets/aime25.yaml", "  sha256: <TBD>", f"  sha256: {sha}")
    return repo


@pytest.fixture
def runs(tmp_path: Path) -> dict[str, tuple[Path, Path]]:
    """Resolved configs and the results of their runs: an endpoints run folder (deepseek-r1), a
    results file (gpt-oss-120b) and a training run that reported too little (llm-post-training)."""
    catalog = copy_catalog(tmp_path / "pinned")
    pin_all(catalog)
    folder = tmp_path / "run"
    (folder / "performance").mkdir(parents=True)
    (folder / "accuracy").mkdir()
    shutil.copy(ENDPOINTS / "v6.1-nvidia-deepseek-r1-interactive.config.yaml", folder / "config.yaml")
    shutil.copy(
        ENDPOINTS / "v6.1-nvidia-deepseek-r1-interactive.result_summary.json",
        folder / "performance" / "result_summary.json",
    )
    shutil.copy(
        ENDPOINTS / "v6.1-nvidia-deepseek-r1-interactive.accuracy_results.json",
        folder / "accuracy" / "accuracy_results.json",
    )
    out: dict[str, tuple[Path, Path]] = {}
    for benchmark, results in (
        ("deepseek-r1", folder),
        ("gpt-oss-120b", write(tmp_path, "gpt.json", gpt_oss_results().model_dump_json(by_alias=True))),
        (
            "llm-post-training",
            write(tmp_path, "training.json", '{"benchmark": "llm-post-training", "model": "qwen3-5-397b-a17b"}'),
        ),
    ):
        resolved = write(
            tmp_path, f"{benchmark}.resolved.json", json.dumps(resolved_config(catalog, benchmark).to_data())
        )
        out[benchmark] = (resolved, results)
    return out


def invocations(repo: Path, runs: dict[str, tuple[Path, Path]], local: Path) -> list[tuple[str, str, list[str]]]:
    """(verb, schema, arguments) of every verb with --format json, in the situations that fill
    most of its fields."""
    r = str(repo)
    calls: list[tuple[str, str, list[str]]] = [
        ("validate", "diagnostics", ["validate", r]),
        ("validate", "diagnostics", ["validate", r, "--ref", "2026-09-C0"]),
        *(("ls", "ls", ["ls", kind, "-C", r]) for kind in ("benchmarks", "models", "datasets", "metrics")),
        ("show", "show", ["show", "gsm8k", "-C", r, "--resolved"]),
        ("show", "show", ["show", "deepseek-r1", "-C", r]),  # a benchmark and a model: a note
        ("show", "show", ["show", "metric/pass_at_4", "-C", r]),
        ("cohorts", "cohorts", ["cohorts", "-C", r]),
        ("verify", "verify", ["verify", "2026-09-C1", "-C", r]),
        ("verify", "verify", ["verify", "2026-09-C0", "-C", r, "--ref", "2026-09-C1"]),  # a digest differs
        *(("check", "check", ["check", str(c), str(res)]) for c, res in runs.values()),
        ("gates", "gates", ["gates"]),
        ("metrics", "ls", ["metrics", "-C", r]),
        (
            "datasets verify",
            "datasets-verify",
            ["datasets", "verify", "aime25", "gsm8k", "-C", r, "--local", str(local)],
        ),
        ("ci", "ci", ["ci", "--base", "main", "-C", r, "--today", "2026-08-30"]),
        ("diff", "diff", ["diff", "2026-09-C0", "-C", r]),
        ("diff", "diff", ["diff", "2026-09-C0", "2026-09-C1", "-C", r]),
    ]
    return [(verb, kind, [*args, "--format", "json"]) for verb, kind, args in calls]


@pytest.mark.slow
def test_every_json_output_validates_against_its_committed_schema(
    released: Path, runs: dict[str, tuple[Path, Path]], tmp_path: Path
) -> None:
    local = tmp_path / "local"
    local.mkdir()
    (local / "aime25").write_bytes(AIME_BYTES)  # ok
    (local / "gsm8k.parquet").write_bytes(b"other bytes")  # mismatch (a missing file is a usage error, not JSON)
    calls = invocations(released, runs, local)
    assert {verb for verb, _, _ in calls} == VERBS
    failures: dict[str, list[str]] = {}
    for _, kind, args in calls:
        done = CliRunner().invoke(app, args)
        if done.exception is not None and not isinstance(done.exception, SystemExit):
            raise AssertionError(f"{' '.join(args)} raised") from done.exception
        try:
            data = json.loads(done.stdout)
        except ValueError:
            failures[" ".join(args)] = [f"exit {done.exit_code}, not JSON: {done.stdout!r} {done.stderr!r}"]
            continue
        problems = schema_errors(kind, data)
        if problems:
            failures[" ".join(args)] = problems
    assert failures == {}


def test_a_schema_refuses_what_the_tool_never_writes() -> None:
    """The check is not vacuous: a string where a number is documented, an unknown key, a
    missing field each fail."""
    report = {"schema": "catalogctl/gates/v1", "gates": [{"name": "seeds", "severity": "hard", "kinds": ["x"]}]}
    assert schema_errors("gates", report) == ["gates/0: 'description' is a required property"]
    report["gates"][0]["description"] = "d"  # type: ignore[index]
    assert schema_errors("gates", {**report, "extra": 1}) == [
        ": Additional properties are not allowed ('extra' was unexpected)"
    ]
    summary = {"errors": "0", "warnings": 0, "pending": 0, "not_selected": 0}
    document = {
        "schema": "catalogctl/diagnostics/v1",
        "tree": "t",
        "summary": summary,
        "diagnostics": [],
        "valid": True,
    }
    assert schema_errors("diagnostics", document) == ["summary/errors: '0' is not of type 'integer'"]
