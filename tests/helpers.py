"""Helpers that build real catalogs and real git repositories for tests."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

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
