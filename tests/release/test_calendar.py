"""`freeze` against the cohort calendar: a passed submission date and skipped cohorts are
warnings (stderr), in a dry run too; never errors."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from catalogctl.catalog.cohorts import Cohort
from catalogctl.release.calendar import freeze_warnings, upcoming
from tests.helpers import run_cli, write
from tests.release_repo import SEEDS_A, make_freezable, tags

DAY = dt.date(2026, 12, 1)  # a Tuesday: 2026-12-C0 submits tomorrow


@pytest.fixture
def repo(catalog_repo: Path) -> Path:
    return make_freezable(catalog_repo)


@pytest.mark.parametrize(
    ("cohort", "last", "warnings"),
    [
        ("2026-12-C0", "2026-11-C1", []),
        (
            "2026-11-C1",
            "2026-11-C0",
            ["the submission date of 2026-11-C1, Wednesday 2026-11-18, has passed (today is 2026-12-01)"],
        ),
        (
            "2027-06-C0",
            "2026-09-C1",
            ["2027-06-C0 skips 16 cohorts (2026-10-C0 to 2027-05-C1) after 2026-09-C1: they get no ruleset"],
        ),
        ("2026-12-C0", None, []),
        (
            "2027-06-C0",
            None,
            [
                "2027-06-C0, the first cohort, comes after 12 cohorts (2026-12-C0 to 2027-05-C1) still to submit "
                "(from 2026-12-02): they get no ruleset"
            ],
        ),
        (
            "2026-09-C0",
            None,
            ["the submission date of 2026-09-C0, Wednesday 2026-09-02, has passed (today is 2026-12-01)"],
        ),
    ],
)
def test_freeze_warnings(cohort: str, last: str | None, warnings: list[str]) -> None:
    before = Cohort.parse(last) if last else None
    assert freeze_warnings(Cohort.parse(cohort), before, DAY) == warnings


def test_the_upcoming_cohort_is_the_one_submitting_today_or_later() -> None:
    assert upcoming(dt.date(2026, 12, 2)) == Cohort.parse("2026-12-C0")  # its day itself
    assert upcoming(dt.date(2026, 12, 17)) == Cohort.parse("2027-01-C0")  # after 2026-12-C1 (the 16th)


def test_freeze_warns_on_stderr_in_a_dry_run_and_freezes(repo: Path, tmp_path: Path) -> None:
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A)
    args = ("freeze", "2026-09-C0", "--add", "gsm8k", "--seeds", str(seeds), "--today", "2026-12-01", "-C", str(repo))
    warning = "warning: the submission date of 2026-09-C0, Wednesday 2026-09-02, has passed (today is 2026-12-01)\n"
    preview = run_cli(*args, "--dry-run")
    assert preview.stderr == warning
    assert preview.stdout.startswith("note: seed set A imported")
    done = run_cli(*args)
    assert done.stderr == warning
    assert tags(repo) == ["2026-09-C0"]


def test_today_must_be_a_date(repo: Path) -> None:
    done = run_cli("freeze", "2026-12-C0", "--add", "gsm8k", "--today", "tomorrow", "-C", str(repo), code=2)
    assert done.stderr == "error: --today 'tomorrow' is not a date: write YYYY-MM-DD\n"


def test_a_calendar_that_dates_december_9999_is_a_message_there(repo: Path, tmp_path: Path) -> None:
    # December's last Monday was found from 10000-01-01: "internal error: ValueError: year 10000
    # is out of range" (exit 70). Now freeze dates it, and says that no cohort follows it.
    write(repo, "catalogctl.toml", '[[calendar.rules]]\nslot = "C0"\nweekday = "monday"\nweek = -1\n')
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A)
    args = ("freeze", "9999-12-C0", "--add", "gsm8k", "--seeds", str(seeds), "--today", "9999-12-01", "-C", str(repo))
    assert (
        run_cli(*args, "--dry-run", code=2).stderr == "error: no cohort follows 9999-12-C1: cohort years end at 9999\n"
    )
