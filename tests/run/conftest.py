"""A frozen, pushed release and a submission to it: what `resolve` and `preflight` tests start from."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalogctl.release.freeze import FreezeRequest, freeze
from tests.helpers import git, write
from tests.release_repo import NOW, SEEDS_A, SUBMISSION, make_freezable


@pytest.fixture
def release(catalog_repo: Path, tmp_path: Path) -> Path:
    """Cohort 2026-09-C0 (gsm8k and deepseek-r1, seed set A) frozen, pushed to a bare `origin`."""
    repo = make_freezable(catalog_repo)
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A)
    freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k", "deepseek-r1"], seeds_file=seeds, now=NOW, push="origin"))
    return repo


@pytest.fixture
def submission(tmp_path: Path) -> Path:
    return write(tmp_path, "submission.yaml", SUBMISSION)


@pytest.fixture
def output(tmp_path: Path) -> Path:
    return tmp_path / "out" / "resolved.json"
