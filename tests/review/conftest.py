"""Fixtures of the PR gate's tests: a base with a frozen cohort, a head to edit."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.prebuilt import Prebuilt


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--format github` writes its comment body into the current folder."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def frozen(catalog_repo: Path, prebuilt: Prebuilt, tmp_path: Path) -> Path:
    """A repository with cohort 2026-09-C0 (gsm8k, deepseek-r1) frozen on `main`, and a `pr`
    branch checked out to edit (`tests.review_repo.make_frozen`, built once per run)."""
    return prebuilt.install("frozen-with-a-pr-branch", tmp_path)
