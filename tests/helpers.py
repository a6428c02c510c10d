"""Helpers that build real catalogs and real git repositories for tests, and run the CLI."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
import typer
from typer.testing import CliRunner

from catalogctl.cli import app

REPO_ROOT = Path(__file__).resolve().parent.parent
SHIPPED_CATALOG = REPO_ROOT / "benchmark_suite"


def git(root: Path, *args: str) -> str:
    """Run the git CLI in `root` and return its stdout."""
    done = subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True)
    return done.stdout.strip()


def init_repo(root: Path) -> Path:
    """A new repository with `main` as its branch."""
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    return root


def copy_catalog(root: Path) -> Path:
    """The shipped catalog copied into `root`."""
    shutil.copytree(SHIPPED_CATALOG, root / "benchmark_suite")
    return root


def commit_all(root: Path, message: str) -> str:
    """Stage everything and commit; returns the commit id."""
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", message)
    return git(root, "rev-parse", "HEAD")


def write(root: Path, relative: str, text: str) -> Path:
    """Write a text file (creating folders)."""
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def replace_in(root: Path, relative: str, old: str, new: str) -> Path:
    """Replace exactly one occurrence of `old` in a file."""
    path = root / relative
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {relative}"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


@dataclass(frozen=True)
class CliResult:
    """What one run of the CLI printed and how it exited."""

    command: str
    code: int
    stdout: str
    stderr: str


def _cause(exc: BaseException | None) -> BaseException | None:
    """The exception behind an exit: a command that maps an error to an exit code chains it."""
    exits = (SystemExit, click.exceptions.Exit, typer.Exit)
    seen: set[int] = set()
    while exc is not None and isinstance(exc, exits) and id(exc) not in seen:
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return exc


def _mismatch(result: CliResult, expected: int, exc: BaseException | None = None) -> str:
    """The whole story of a run that did not exit as expected: command, both streams, traceback."""
    parts = [f"`{result.command}` exited {result.code}, expected {expected}"]
    parts += ["--- stdout ---", result.stdout.rstrip("\n"), "--- stderr ---", result.stderr.rstrip("\n")]
    cause = _cause(exc)
    if cause is not None:
        parts += ["--- traceback ---", "".join(traceback.format_exception(cause)).rstrip("\n")]
    return "\n".join(parts)


def run_cli(*args: str | os.PathLike[str], code: int = 0, input: str | None = None) -> CliResult:
    """Run `catalogctl ARGS` in this process; fail with its output and traceback unless it exits `code`.

    An exception that escapes the commands fails the run even when the exit code matches: typer's
    runner reports it as exit 1, which a test expecting 1 would otherwise take for a finding.
    """
    __tracebackhide__ = True  # pytest shows the caller's line and the report, not this helper
    argv = [os.fspath(a) for a in args]
    invoked = CliRunner().invoke(app, argv, input=input)
    result = CliResult(shlex.join(["catalogctl", *argv]), invoked.exit_code, invoked.stdout, invoked.stderr)
    escaped = invoked.exception is not None and not isinstance(invoked.exception, SystemExit)
    if result.code != code or escaped:
        raise AssertionError(_mismatch(result, code, invoked.exception))
    return result


def run_console(*args: str | os.PathLike[str], code: int = 0, timeout: float | None = None) -> CliResult:
    """Run `python -m catalogctl ARGS` as a child process (the installed entry point), like `run_cli`;
    one still running after `timeout` seconds is killed and fails the test (a hang, not a stuck suite)."""
    __tracebackhide__ = True
    argv = [os.fspath(a) for a in args]
    command = shlex.join(["python", "-m", "catalogctl", *argv])
    try:
        done = subprocess.run(
            [sys.executable, "-m", "catalogctl", *argv], capture_output=True, text=True, check=False, timeout=timeout
        )
    except subprocess.TimeoutExpired as exc:
        said = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else exc.stderr or ""
        raise AssertionError(f"`{command}` was still running after {timeout:g} s; stderr: {said!r}") from None
    result = CliResult(command, done.returncode, done.stdout, done.stderr)
    if result.code != code:
        raise AssertionError(_mismatch(result, code))
    return result


def counting_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths a working tree reads from now on (each read appended), through `monkeypatch`."""
    from catalogctl.io.tree import WorkingTree

    seen: list[str] = []
    real = WorkingTree._read

    def counting(self: WorkingTree, path: str, local: Path) -> bytes:
        seen.append(path)
        return real(self, path, local)

    monkeypatch.setattr(WorkingTree, "_read", counting)
    return seen
