"""A frozen, pushed release and a submission to it: what `resolve` and `preflight` tests start from."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import git, write
from tests.release_repo import SUBMISSION, frozen_and_pushed


@pytest.fixture
def release(catalog_repo: Path, tmp_path: Path) -> Path:
    """Cohort 2026-09-C0 (gsm8k and deepseek-r1, seed set A) frozen, pushed to a bare `origin`."""
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    return frozen_and_pushed(catalog_repo, bare, tmp_path)


@pytest.fixture
def submission(tmp_path: Path) -> Path:
    return write(tmp_path, "submission.yaml", SUBMISSION)


@pytest.fixture
def output(tmp_path: Path) -> Path:
    return tmp_path / "out" / "resolved.json"
