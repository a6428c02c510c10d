"""The release the tests of `tag` and of pushing start from (a module's own `repo` wins)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.prebuilt import Prebuilt
from tests.release_repo import bare_origin


@pytest.fixture
def origin(tmp_path: Path) -> Path:
    return bare_origin(tmp_path)


@pytest.fixture
def repo(catalog_repo: Path, origin: Path, prebuilt: Prebuilt, tmp_path: Path) -> Path:
    """2026-09-C0 released and pushed; a contract change on main, pushed: 2026-09-C1 is next
    (built once per run; `origin` is this release's)."""
    return prebuilt.install("release-then-a-change", tmp_path)
