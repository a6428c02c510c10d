"""Cohort ids, dates and order; finding a cohort without its tag."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from catalogctl import load_catalog
from catalogctl.catalog.cohorts import Cohort, is_cohort_id, skipped
from catalogctl.catalog.source import open_tree
from catalogctl.errors import EntityNotFound, UsageError
from tests.helpers import commit_all, git, write


@pytest.mark.parametrize(
    ("cohort", "date"),
    [
        ("2026-09-C0", dt.date(2026, 9, 2)),
        ("2026-09-C1", dt.date(2026, 9, 16)),
        ("2026-10-C0", dt.date(2026, 10, 7)),
        ("2026-10-C1", dt.date(2026, 10, 21)),
        ("2027-01-C0", dt.date(2027, 1, 6)),
        ("2026-07-C0", dt.date(2026, 7, 1)),
    ],
)
def test_submission_dates_are_first_and_third_wednesdays(cohort: str, date: dt.date) -> None:
    assert Cohort.parse(cohort).submission_date == date
    assert date.weekday() == 2


def test_cohorts_are_totally_ordered() -> None:
    ids = ["2027-01-C0", "2026-09-C1", "2026-10-C0", "2026-09-C0", "2026-12-C1"]
    assert [c.id for c in sorted(Cohort.parse(i) for i in ids)] == [
        "2026-09-C0",
        "2026-09-C1",
        "2026-10-C0",
        "2026-12-C1",
        "2027-01-C0",
    ]
    assert Cohort.parse("2026-12-C1").next().id == "2027-01-C0"
    assert Cohort.parse("2026-12-C0").next().id == "2026-12-C1"


@pytest.mark.parametrize("text", ["2026-9-C0", "2026-13-C0", "2026-09-C2", "2026-09-c0", "x2026-09-C0", "2026-00-C1"])
def test_invalid_cohort_ids(text: str) -> None:
    assert not is_cohort_id(text)
    with pytest.raises(ValueError, match="is not a cohort id"):
        Cohort.parse(text)


@pytest.mark.parametrize("text", ["٢٠٢٦-12-C1", "2026-١٢-C1", "２０２６-12-C0"])
def test_cohort_ids_are_ascii(text: str) -> None:
    # `\d` matched these, and int() read them as 2026: a second spelling of a real cohort.
    assert not is_cohort_id(text)
    with pytest.raises(ValueError, match="is not a cohort id"):
        Cohort.parse(text)


@pytest.mark.parametrize("text", ["0000-01-C0", "1999-12-C1"])
def test_years_before_2000_are_out_of_range(text: str) -> None:
    assert not is_cohort_id(text)
    with pytest.raises(ValueError, match="out of range") as caught:
        Cohort.parse(text)
    assert str(caught.value) == f"`{text}` is out of range: cohort years run from 2000 to 9999"


def test_no_cohort_follows_the_last_one() -> None:
    with pytest.raises(UsageError) as caught:
        Cohort.parse("9999-12-C1").next()
    assert str(caught.value) == "no cohort follows 9999-12-C1: cohort years end at 9999"


def test_cohorts_skipped_between_two() -> None:
    c0 = Cohort.parse("2026-12-C0")
    assert skipped(c0, Cohort.parse("2026-12-C1")) == (0, "")
    assert skipped(c0, Cohort.parse("2027-01-C0")) == (1, "1 cohort (2026-12-C1)")
    assert skipped(c0, Cohort.parse("2099-12-C1")) == (1752, "1752 cohorts (2026-12-C1 to 2099-12-C0)")
    assert Cohort.from_ordinal(Cohort.parse("2027-01-C0").ordinal) == Cohort.parse("2027-01-C0")


def test_a_cohort_without_its_tag_is_found_by_the_commit_that_added_its_ruleset(catalog_repo: Path) -> None:
    write(catalog_repo, "rulesets/2026-09-C0.yaml", "placeholder: true\n")
    added = commit_all(catalog_repo, "Freeze 2026-09-C0")
    write(catalog_repo, "CHANGELOG.md", "later\n")
    commit_all(catalog_repo, "Later work")
    tree = open_tree(catalog_repo, "2026-09-C0")
    assert tree.label == f"2026-09-C0 ({added[:12]})"
    assert tree.note == (
        f"tag `2026-09-C0` not found: using {added[:12]}, the commit that added rulesets/2026-09-C0.yaml"
    )
    git(catalog_repo, "tag", "-a", "2026-09-C0", "-m", "release", "HEAD")
    assert open_tree(catalog_repo, "2026-09-C0").note == ""


def test_an_unknown_cohort_is_no_such_cohort(catalog_repo: Path) -> None:
    with pytest.raises(EntityNotFound, match="no such cohort `2026-11-C0`: no release tag and no rulesets/"):
        load_catalog(catalog_repo, ref="2026-11-C0")
