"""This repository's own pre-commit configuration (`.pre-commit-config.yaml`, for working on
catalogctl; `.pre-commit-hooks.yaml` is the hook it offers to catalog repositories): run by the
real pre-commit on a clean clone of HEAD, every hook passes; a file broken as each hook is meant
to catch fails that hook. Nothing reaches the network: every hook is a tool of this venv."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from catalogctl.io.yamlio import parse_document
from tests.helpers import REPO_ROOT, replace_in

BIN = Path(sys.executable).parent  # the venv's bin: pre-commit and every tool its hooks run


def _append(relative: str, text: str) -> Callable[[Path], object]:
    def append(root: Path) -> None:
        with (root / relative).open("a", encoding="utf-8") as file:
            file.write(text)

    return append


def _replace(relative: str, old: str, new: str) -> Callable[[Path], object]:
    return lambda root: replace_in(root, relative, old, new)


def _mistyped(relative: str) -> Callable[[Path], object]:
    """A schema whose own `type` is no JSON Schema type."""

    def mistype(root: Path) -> None:
        path = root / relative
        schema = json.loads(path.read_text(encoding="utf-8"))
        path.write_text(json.dumps({**schema, "type": "objekt"}, indent=2), encoding="utf-8")

    return mistype


@dataclass(frozen=True)
class Break:
    """A change that the hook must refuse, and a line of what it says."""

    change: Callable[[Path], object]
    says: str


WORKFLOW = ".github/workflows/tests.yml"
BREAKS = {
    "ruff": Break(_append("catalogctl/words.py", "\nimport os\n"), "F401 [*] `os` imported but unused"),
    "ruff-format": Break(_append("catalogctl/words.py", "\nSCRATCH = [1,2]\n"), "1 file reformatted"),
    "mypy": Break(
        _append("catalogctl/words.py", '\n\ndef _scratch() -> int:\n    return "x"\n'),
        'error: Incompatible return value type (got "str", expected "int")  [return-value]',
    ),
    "lint-imports": Break(_append("catalogctl/words.py", "\nimport typer\n"), "- catalogctl.words -> typer"),
    "check-schemas": Break(_mistyped("schemas/benchmark.schema.json"), "schemas/benchmark.schema.json::$.type"),
    "check-workflows": Break(
        _replace(WORKFLOW, "runs-on: ubuntu-latest", "runs_on: ubuntu-latest"),
        "$.jobs.tests: 'runs-on' is a required property",
    ),
    "check-action": Break(
        _replace("action.yml", "using: composite", "using: kompozit"), "$.runs.using: 'kompozit' is not one of"
    ),
    "actionlint": Break(
        _replace(WORKFLOW, "run: bash .ci/run", "run: bash .ci/run ${{ github.evnt }}"),
        'property "evnt" is not defined',
    ),
    "catalogctl-validate": Break(
        _replace("benchmark_suite/benchmarks/gsm8k.yaml", "num_repeats: 1", "num_repeats: true"),
        "benchmark_suite/benchmarks/gsm8k.yaml:21:20: error schema-wrong-type",
    ),
}


def load(path: Path) -> Any:
    return parse_document(path.name, path.read_bytes()).data


def hooks(root: Path) -> list[dict[str, Any]]:
    return [hook for repo in load(root / ".pre-commit-config.yaml")["repos"] for hook in repo["hooks"]]


def sealed(home: Path) -> dict[str, str]:
    """The environment of every run: the venv's tools first, no user configuration, and anything
    that tried the network would fail (proxies on a closed loopback port, no package index)."""
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "HOME": str(home)}
    env |= {"XDG_CACHE_HOME": str(home / ".cache"), "XDG_CONFIG_HOME": str(home / ".config")}
    env |= {"PRE_COMMIT_HOME": str(home / "pre-commit"), "CATALOGCTL_CACHE_DIR": str(home / "catalogctl-cache")}
    env |= {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "GIT_ALLOW_PROTOCOL": "file"}
    env |= dict.fromkeys(("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"), "http://127.0.0.1:9")
    env |= {"PIP_NO_INDEX": "1", "NO_COLOR": "1"}
    return env


def pre_commit(root: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    argv = [str(BIN / "pre-commit"), "run", "--all-files", "--verbose", *args]
    return subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, check=False)


def outcomes(output: str) -> dict[str, str]:
    """Each hook's id and its outcome (Passed, Failed, Skipped), from `--verbose` output."""
    lines = output.splitlines()
    return {
        line.removeprefix("- hook id: "): lines[i - 1].rsplit(".", 1)[-1].removeprefix("(no files to check)")
        for i, line in enumerate(lines)
        if line.startswith("- hook id: ")
    }


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], subprocess.CompletedProcess[str]]:
    """A clone of HEAD and the run of every hook on it (which leaves mypy's cache warm for the
    copies below)."""
    if not (REPO_ROOT / ".git").exists():
        pytest.skip("not a git checkout: there is no HEAD to clone")
    if not (BIN / "actionlint").is_file() and shutil.which("actionlint") is None:
        pytest.skip("actionlint has no PyPI wheel for this platform: install a release binary on PATH")
    base = tmp_path_factory.mktemp("pre-commit")
    env = sealed(base / "home")
    root = base / "catalogctl"
    # A checkout owned by another user (CI's container runs as root on the runner's files) is
    # cloned only if trusted: a global configuration of the clone's own says so.
    trusting = base / "trusting.gitconfig"
    trusting.write_text("[safe]\n\tdirectory = *\n", encoding="utf-8")
    clone = ["git", "clone", "-q", "--no-hardlinks", str(REPO_ROOT), str(root)]
    subprocess.run(clone, env={**env, "GIT_CONFIG_GLOBAL": str(trusting)}, check=True)
    # mypy trusts a cached module only if its source has the hash the cache recorded: the
    # checkout's cache (warm after the test command's own mypy) gives a cold run's verdict, in
    # about a second of CPU instead of ~13. Untracked, it is not part of what the hooks check.
    if (REPO_ROOT / ".mypy_cache").is_dir():
        shutil.copytree(REPO_ROOT / ".mypy_cache", root / ".mypy_cache", symlinks=True)
    return root, env, pre_commit(root, env)


def test_every_hook_is_a_local_tool_of_the_venv() -> None:
    found = hooks(REPO_ROOT)
    assert {hook["id"] for hook in found} == set(BREAKS)
    assert all(hook["language"] == "unsupported" for hook in found)
    assert [repo["repo"] for repo in load(REPO_ROOT / ".pre-commit-config.yaml")["repos"]] == ["local"]


def test_the_catalog_hook_is_the_one_this_repository_offers() -> None:
    (offered,) = load(REPO_ROOT / ".pre-commit-hooks.yaml")
    (mine,) = (hook for hook in hooks(REPO_ROOT) if hook["id"] == offered["id"])
    assert {k: mine[k] for k in ("entry", "files", "pass_filenames")} == {
        k: offered[k] for k in ("entry", "files", "pass_filenames")
    }


@pytest.mark.slow
def test_a_clean_clone_passes_every_hook(clean: tuple[Path, dict[str, str], subprocess.CompletedProcess[str]]) -> None:
    _, _, done = clean
    assert done.returncode == 0, done.stdout + done.stderr
    assert outcomes(done.stdout) == dict.fromkeys(BREAKS, "Passed")


@pytest.mark.slow
@pytest.mark.parametrize("hook", sorted(BREAKS))
def test_a_broken_file_fails_its_hook(
    clean: tuple[Path, dict[str, str], subprocess.CompletedProcess[str]], tmp_path: Path, hook: str
) -> None:
    source, env, _ = clean
    root = tmp_path / "catalogctl"
    shutil.copytree(source, root, symlinks=True)
    BREAKS[hook].change(root)
    done = pre_commit(root, env, hook)
    assert done.returncode == 1, done.stdout + done.stderr
    assert outcomes(done.stdout) == {hook: "Failed"}
    assert BREAKS[hook].says in done.stdout
