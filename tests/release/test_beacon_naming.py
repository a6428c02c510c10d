"""Attacks on which round names a set, and when, each on a real repository with a bare remote: a
round no calendar holds, a naming release edited in a later tree, a set that cites an older
release's (long public) round, a set that quietly stops being derived. Each refusal leaves the
repository and the remote as they were."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run_cli
from tests.release.test_freeze_beacon import DRAND, ROUND, named_release, state
from tests.release_repo import bare_origin


@pytest.fixture
def origin(tmp_path: Path) -> Path:
    return bare_origin(tmp_path)


@pytest.fixture
def repo(catalog_repo: Path, origin: Path) -> Path:
    """2026-09-C0 released (tagged, pushed) before round 12040883, naming it."""
    return named_release(catalog_repo, origin)


@pytest.mark.parametrize("asked", ["18446744073709551615", "999999999999"])
def test_a_round_beyond_the_calendar_is_a_message(repo: Path, origin: Path, asked: str) -> None:
    # Round 2^64-1 is due in a year no datetime holds: a refusal, not a traceback (was exit 70:
    # "internal error: OverflowError: timestamp out of range for platform time_t").
    before = state(repo, origin)
    shown = run_cli(
        "freeze", "2026-09-C1", "-C", repo, "--name-round", asked,
        "--beacon-round", str(DRAND / f"quicknet-{ROUND}.json"), code=1,
    )  # fmt: skip
    assert f"error: round {asked} of drand quicknet is due after the year 9999" in shown.stderr
    assert state(repo, origin) == before
