"""The shipped pre-commit hook, run by the real pre-commit on a real repository: a good commit
goes through, a bad one is refused with the error's position, and nothing reaches the network."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import REPO_ROOT, commit_all, git, init_repo, replace_in, write

GSM8K = "benchmark_suite/benchmarks/gsm8k.yaml"
BIN = Path(sys.executable).parent  # the venv's bin: pre-commit, and the catalogctl the hook runs


pytestmark = pytest.mark.slow  # installs the hook with the real pre-commit, commits through git


@pytest.fixture
def hooked(catalog_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The catalog repository with the hook installed from a copy of this repository's
    `.pre-commit-hooks.yaml`, pinned at its commit, as a consortium would pin a release."""
    hooks = init_repo(tmp_path / "hooks")
    shutil.copy(REPO_ROOT / ".pre-commit-hooks.yaml", hooks / ".pre-commit-hooks.yaml")
    rev = commit_all(hooks, "The hooks")
    write(
        catalog_repo,
        ".pre-commit-config.yaml",
        f"repos:\n  - repo: {hooks}\n    rev: {rev}\n    hooks: [{{id: catalogctl-validate}}]\n",
    )
    commit_all(catalog_repo, "Add the pre-commit configuration")
    monkeypatch.setenv("PATH", f"{BIN}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("PRE_COMMIT_HOME", str(tmp_path / "pre-commit-home"))
    # Anything that tried the network would fail here: every proxy is a closed loopback port,
    # pip may use no index, git may use only local files.
    for proxy in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.setenv(proxy, "http://127.0.0.1:9")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("GIT_ALLOW_PROTOCOL", "file")
    subprocess.run([BIN / "pre-commit", "install"], cwd=catalog_repo, check=True, capture_output=True)
    return catalog_repo


def commit(repo: Path, message: str) -> subprocess.CompletedProcess[str]:
    """`git commit -a` as a person types it, so git runs the hook."""
    return subprocess.run(["git", "commit", "-q", "-am", message], cwd=repo, capture_output=True, text=True)


def test_a_good_commit_passes_the_hook(hooked: Path) -> None:
    replace_in(hooked, GSM8K, "GSM8K · Grade", "GSM8K · The grade")
    done = commit(hooked, "Retitle gsm8k")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "catalogctl validate" in done.stderr
    assert "Passed" in done.stderr
    assert git(hooked, "log", "-1", "--format=%s") == "Retitle gsm8k"


def test_a_bad_commit_is_refused_with_the_error_and_its_position(hooked: Path) -> None:
    before = git(hooked, "rev-parse", "HEAD")
    replace_in(hooked, GSM8K, "num_repeats: 1", "num_repeats: true")
    done = commit(hooked, "Break gsm8k")
    assert done.returncode == 1
    # --errors-only: the error and the summary, not the 20 pending values.
    assert done.stderr.splitlines()[1:] == [
        "catalogctl validate......................................................Failed",
        "- hook id: catalogctl-validate",
        "- exit code: 1",
        "",
        "benchmark_suite/benchmarks/gsm8k.yaml:21:20: error schema-wrong-type: accuracy.datasets[0].num_repeats: "
        "should be a valid integer (got True)",
        "working tree: invalid (1 error, 20 warnings, 20 pending values)",
        "",
    ]
    assert git(hooked, "rev-parse", "HEAD") == before


def test_a_commit_outside_the_catalog_skips_the_hook(hooked: Path) -> None:
    write(hooked, "README.md", "notes\n")
    git(hooked, "add", "README.md")
    done = commit(hooked, "Notes")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "(no files to check)Skipped" in done.stderr
