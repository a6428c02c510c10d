"""A frozen, pushed release and a submission to it: what `resolve` and `preflight` tests start from."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import write
from tests.release_repo import SUBMISSION, bare_origin, frozen_and_pushed


@pytest.fixture
def release(catalog_repo: Path, tmp_path: Path) -> Path:
    """Cohort 2026-09-C0 (gsm8k and deepseek-r1, seed set A) frozen, pushed to a bare `origin`."""
    return frozen_and_pushed(catalog_repo, bare_origin(tmp_path), tmp_path)


@pytest.fixture
def submission(tmp_path: Path) -> Path:
    return write(tmp_path, "submission.yaml", SUBMISSION)


@pytest.fixture
def output(tmp_path: Path) -> Path:
    return tmp_path / "out" / "resolved.json"
