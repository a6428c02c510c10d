"""A frozen, pushed release and a submission to it: what `resolve` and `preflight` tests start from."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import write
from tests.prebuilt import Prebuilt
from tests.release_repo import SUBMISSION


@pytest.fixture
def release(catalog_repo: Path, prebuilt: Prebuilt, tmp_path: Path) -> Path:
    """Cohort 2026-09-C0 (gsm8k and deepseek-r1, seed set A) frozen, pushed to a bare `origin`
    (`tests.release_repo.frozen_and_pushed`, built once per run)."""
    return prebuilt.install("release", tmp_path)


@pytest.fixture
def submission(tmp_path: Path) -> Path:
    return write(tmp_path, "submission.yaml", SUBMISSION)


@pytest.fixture
def output(tmp_path: Path) -> Path:
    return tmp_path / "out" / "resolved.json"
