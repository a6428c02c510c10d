"""The release the tests of `tag` and of pushing start from (a module's own `repo` wins)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import commit_all, git, replace_in
from tests.release_repo import bare_origin, frozen_and_pushed


@pytest.fixture
def origin(tmp_path: Path) -> Path:
    return bare_origin(tmp_path)


@pytest.fixture
def repo(catalog_repo: Path, origin: Path, tmp_path: Path) -> Path:
    """2026-09-C0 released and pushed; a contract change on main, pushed: 2026-09-C1 is next."""
    root = frozen_and_pushed(catalog_repo, origin, tmp_path)
    replace_in(root, "benchmark_suite/benchmarks/gsm8k.yaml", "max_new_tokens: 256", "max_new_tokens: 512")
    commit_all(root, "gsm8k: longer answers")
    git(root, "push", "-q", "origin", "main")
    return root
