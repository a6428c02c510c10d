"""The exit codes' promise, verb by verb: a file the user named that is not there is exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import run_cli
from tests.release_repo import make_freezable
from tests.run_results import gpt_oss_results, resolved_config

MISSING = "no-such-file"


@pytest.mark.parametrize(
    "args",
    [
        ["check", "{missing}", "{results}"],
        ["check", "{resolved}", "{missing}"],
        ["resolve", "{missing}", "-C", "{repo}"],
        ["preflight", "{missing}", "-C", "{repo}", "--offline"],
        ["freeze", "2026-09-C0", "--add", "gsm8k", "--seeds", "{missing}", "-C", "{repo}"],
        ["datasets", "pin", "gsm8k", "{missing}", "-C", "{repo}"],
        ["comment", "--repo", "o/r", "--pr", "7", "--body", "{missing}"],
    ],
)
def test_a_missing_file_is_exit_2(args: list[str], catalog_repo: Path, tmp_path: Path) -> None:
    make_freezable(catalog_repo)
    results = tmp_path / "results.json"
    results.write_text(gpt_oss_results().model_dump_json(by_alias=True))
    resolved = tmp_path / "resolved.json"
    resolved.write_text(json.dumps(resolved_config(catalog_repo, "gsm8k").to_data()))
    missing = tmp_path / MISSING
    names = {"missing": missing, "results": results, "resolved": resolved, "repo": catalog_repo}
    done = run_cli(*(arg.format(**names) for arg in args), code=2)
    assert done.stdout == ""
    assert done.stderr == f"error: cannot read {missing}: No such file or directory\n"


def test_a_missing_local_folder_is_exit_2(catalog_repo: Path, tmp_path: Path) -> None:
    make_freezable(catalog_repo)
    missing = tmp_path / MISSING
    done = run_cli("datasets", "verify", "gsm8k", "-C", str(catalog_repo), "--local", str(missing), code=2)
    assert done.stdout == ""  # was 1, with an error row
    assert done.stderr.startswith(f"error: {missing} does not exist\n")
