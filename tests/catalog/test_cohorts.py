"""Cohort ids, dates and order; finding a cohort without its tag."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalogctl import load_catalog
from catalogctl.catalog.cohorts import Calendar, Cohort, is_cohort_id, skipped
from catalogctl.catalog.source import open_tree
from catalogctl.errors import EntityNotFound, UsageError
from catalogctl.model.documents.config import CalendarConfig, CalendarRule
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


def walked(calendar: Calendar, last: Cohort, cohort: Cohort) -> tuple[int, str]:
    """`Calendar.skipped` as a walk over every cohort of the range, for comparison."""
    cohorts = [Cohort.from_ordinal(o) for o in range(last.ordinal + 1, cohort.ordinal)]
    between = [c for c in cohorts if calendar.includes(c)]
    if not between:
        return 0, ""
    if len(between) == 1:
        return 1, f"1 cohort ({between[0]})"
    return len(between), f"{len(between)} cohorts ({between[0]} to {between[-1]})"


CALENDARS = [
    CalendarConfig(),
    # A fifth Friday exists in some months only; February's C1 only by its explicit date.
    CalendarConfig(
        rules=[
            CalendarRule(slot="C0", weekday="friday", week=5),
            CalendarRule(slot="C1", weekday="monday", week=-1, months=[1, 6]),
        ],
        dates={"2030-02-C1": dt.date(2030, 2, 20), "2031-06-C1": dt.date(2031, 6, 2)},
    ),
    CalendarConfig(rules=[], dates={"2040-03-C0": dt.date(2040, 3, 4), "2900-01-C1": dt.date(2900, 1, 15)}),
]


@pytest.mark.fuzz
@pytest.mark.parametrize("config", CALENDARS)
@given(
    first=st.integers(2000 * 24 - 1, 10000 * 24 - 1),
    span=st.one_of(st.integers(-3, 60), st.integers(400 * 24 - 30, 400 * 24 + 30), st.integers(0, 2 * 400 * 24 + 30)),
)
@settings(deadline=None, max_examples=40)  # the walk it is compared with takes up to 0.2 s
def test_cohorts_skipped_are_those_a_walk_over_the_range_finds(config: CalendarConfig, first: int, span: int) -> None:
    # Counted by 400-year periods, not walked: the same answer as the walk on any range.
    calendar = Calendar(config)
    last, cohort = Cohort.from_ordinal(first), Cohort.from_ordinal(min(first + span, 10000 * 24 - 1))
    assert calendar.skipped(last, cohort) == walked(calendar, last, cohort)


@pytest.mark.parametrize(
    ("rule", "date"),
    [
        (CalendarRule(slot="C0", weekday="monday", week=-1, months=[12]), dt.date(9999, 12, 27)),
        (CalendarRule(slot="C0", weekday="saturday", week=5, months=[12]), None),  # December 9999 has four
        (CalendarRule(slot="C0", weekday="wednesday", week=5, months=[12]), dt.date(9999, 12, 29)),
    ],
)
def test_the_last_months_cohorts_are_dated_without_leaving_the_years(rule: CalendarRule, date: dt.date | None) -> None:
    # A rule of December 9999 reached past 9999-12-31 to find its day: ValueError and
    # OverflowError out of `freeze 9999-12-C1`, and out of `skipped` past an explicit date there.
    december = Cohort.parse("9999-12-C0")
    assert Calendar(CalendarConfig(rules=[rule])).date_of(december) == date
    dated = Calendar(CalendarConfig(rules=[rule], dates={"9999-12-C0": dt.date(9999, 12, 6)}))
    for last in (Cohort.parse("9999-11-C1"), Cohort.parse("2026-10-C0")):
        assert dated.skipped(last, Cohort.parse("9999-12-C1")) == walked(dated, last, Cohort.parse("9999-12-C1"))


def test_cohorts_skipped_up_to_the_last_cohort() -> None:
    # What the walk gave (2 s of it); `freeze 9999-12-C1` asks this after the shipped cohorts.
    last, cohort = Cohort.parse("2026-10-C0"), Cohort.parse("9999-12-C1")
    assert skipped(last, cohort) == (191356, "191356 cohorts (2026-10-C1 to 9999-12-C0)")


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
