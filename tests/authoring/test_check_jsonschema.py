"""The documents the tool writes pass check-jsonschema (PyPI) against the schemas committed in
`schemas/`: a ruleset `freeze` wrote, the resolved configs of `resolve`, and the JSON of `diff`,
`check`, `ci` and `validate`. (`freeze` once wrote `frozen_at: 2026-12-01 07:11:59+00:00`, which
the ruleset schema refuses as no `date-time`.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from catalogctl.release.freeze import FreezeRequest, freeze
from tests.helpers import REPO_ROOT, git, run_cli, write
from tests.release_repo import NOW, SEEDS_A, SUBMISSION, make_freezable

CHECK_JSONSCHEMA = Path(sys.executable).parent / "check-jsonschema"
RESULTS = {
    "schema": "catalogctl/results/v1",
    "benchmark": "gsm8k",
    "api_type": "openai_completions",
    "model": "meta-llama/Llama-3.1-8B-Instruct",
    "accuracy": [{"dataset": "gsm8k", "scale": "percent", "pooled_score": 80.0, "samples_scored": 1319}],
}


pytestmark = pytest.mark.conformance


def schema_errors(schema: str, *documents: Path) -> str:
    """What check-jsonschema says of `documents` against `schemas/<schema>.schema.json` ('' when all pass)."""
    done = subprocess.run(
        [
            str(CHECK_JSONSCHEMA),
            "--schemafile",
            str(REPO_ROOT / "schemas" / f"{schema}.schema.json"),
            *map(str, documents),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    return "" if done.returncode == 0 else done.stdout + done.stderr


@pytest.fixture
def outputs(catalog_repo: Path, tmp_path: Path) -> dict[str, list[Path]]:
    """The real outputs of each verb, written to files, by the schema they must follow."""
    repo = make_freezable(catalog_repo)
    freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k"], seeds_file=write(tmp_path, "a.yaml", SEEDS_A), now=NOW))
    git(repo, "checkout", "-q", "-b", "pr")
    submission = write(tmp_path, "submission.yaml", SUBMISSION)
    resolved = [tmp_path / "resolved.yaml", tmp_path / "resolved.json"]
    for path in resolved:
        run_cli("resolve", submission, "-C", repo, "-o", path)
    results = write(tmp_path, "results.json", json.dumps(RESULTS))
    run_cli("site", "-o", tmp_path / "site", "-C", repo)

    def saved(name: str, *args: str | Path, code: int = 0) -> Path:
        return write(tmp_path, name, run_cli(*args, "--format", "json", code=code).stdout)

    return {
        "ruleset": [repo / "rulesets/2026-09-C0.yaml"],
        "resolved": resolved,
        "results": [results],
        "diff": [saved("diff.json", "diff", "2026-09-C0", "-C", repo)],
        "check": [saved("check.json", "check", resolved[1], results, "--catalog", repo, code=1)],
        "ci": [saved("ci.json", "ci", "--base", "main", "-C", repo, "--today", "2026-08-30")],
        "diagnostics": [saved("validate.json", "validate", repo)],
        "site-manifest": [tmp_path / "site" / ".catalogctl-site.json"],
    }


def test_every_written_document_passes_check_jsonschema(outputs: dict[str, list[Path]]) -> None:
    assert CHECK_JSONSCHEMA.exists(), "the test extra installs check-jsonschema"
    failures = {schema: errors for schema, paths in outputs.items() if (errors := schema_errors(schema, *paths))}
    assert failures == {}


def test_check_jsonschema_catches_a_document_that_does_not_fit(tmp_path: Path) -> None:
    # The same tool on a ruleset with YAML's own timestamp form: what freeze wrote before.
    ruleset = write(tmp_path, "ruleset.yaml", "frozen_at: 2026-12-01 07:11:59+00:00\n")
    assert "is not a 'date-time'" in schema_errors("ruleset", ruleset)
