"""Cohort ids (`YYYY-MM-C0`, `YYYY-MM-C1`), their submission dates and their order.

Cohorts are totally ordered by (year, month, slot). Ids are ASCII, with years from 2000 to 9999.
Which cohorts exist and when they submit is the repository's calendar (`Calendar`, configured in
`[tool.catalogctl.calendar]`): by default MLCommons', C0 on the month's first Wednesday and C1 on
its third, every month.
"""

from __future__ import annotations

import datetime as dt
import functools
from calendar import monthrange
from dataclasses import dataclass

from catalogctl.errors import UsageError
from catalogctl.model.common import COHORT_PATTERN, LAST_COHORT_YEAR, cohort_id_problem
from catalogctl.model.documents.config import WEEKDAYS, CalendarConfig, CalendarRule


@dataclass(frozen=True, order=True)
class Cohort:
    """A submission round."""

    year: int
    month: int
    slot: int  # 0 for C0, 1 for C1

    @classmethod
    def parse(cls, text: str) -> Cohort:
        """The cohort named `text`; ValueError when it is not a cohort id."""
        problem = cohort_id_problem(text)
        match = COHORT_PATTERN.fullmatch(text)
        if problem is not None or match is None:
            raise ValueError(problem)
        return cls(int(match.group(1)), int(match.group(2)), int(match.group(3)))

    @classmethod
    def from_ordinal(cls, ordinal: int) -> Cohort:
        """The cohort at `ordinal` (see `ordinal`)."""
        return cls(ordinal // 24, ordinal % 24 // 2 + 1, ordinal % 2)

    @property
    def id(self) -> str:
        """`YYYY-MM-C0` or `YYYY-MM-C1`."""
        return f"{self.year:04d}-{self.month:02d}-C{self.slot}"

    @property
    def submission_date(self) -> dt.date:
        """The date of the default (MLCommons) calendar: the first (C0) or third (C1) Wednesday
        of the month. A repository's own calendar: `Calendar.submission_date`."""
        return MLCOMMONS.submission_date(self)

    @property
    def ordinal(self) -> int:
        """The cohort's position in the sequence of all cohorts (consecutive cohorts differ by 1)."""
        return self.year * 24 + (self.month - 1) * 2 + self.slot

    def next(self) -> Cohort:
        """The cohort after this one (a message after the last year's last cohort)."""
        if self.year == LAST_COHORT_YEAR and self.month == 12 and self.slot == 1:
            raise UsageError(f"no cohort follows {self}: cohort years end at {LAST_COHORT_YEAR}")
        if self.slot == 0:
            return Cohort(self.year, self.month, 1)
        if self.month == 12:
            return Cohort(self.year + 1, 1, 0)
        return Cohort(self.year, self.month + 1, 0)

    def __str__(self) -> str:
        return self.id


def is_cohort_id(text: str) -> bool:
    """Whether `text` is written like a cohort id."""
    return cohort_id_problem(text) is None


def skipped(last: Cohort, cohort: Cohort, calendar: Calendar | None = None) -> tuple[int, str]:
    """How many cohorts of `calendar` (default MLCommons') lie strictly between `last` and
    `cohort`, and those cohorts in words ("" when none)."""
    return (calendar or MLCOMMONS).skipped(last, cohort)


def _nth_weekday(year: int, month: int, rule: CalendarRule) -> dt.date | None:
    """The `rule.week`-th `rule.weekday` of the month (-1: the last); None when it has none."""
    weekday = WEEKDAYS.index(rule.weekday)
    # Days of the month, never dates past its end: December 9999 is the last month a date has.
    first_weekday, days = monthrange(year, month)
    if rule.week == -1:
        day = days - (dt.date(year, month, days).weekday() - weekday) % 7
    else:
        day = 1 + (weekday - first_weekday) % 7 + 7 * (rule.week - 1)
    return dt.date(year, month, day) if day <= days else None


class Calendar:
    """Which cohorts exist and when each submits: explicit dates first, then the rule of the
    cohort's slot and month. A cohort neither gives a date is not in the calendar."""

    def __init__(self, config: CalendarConfig | None = None) -> None:
        self.config = config or CalendarConfig()
        self._rules: dict[tuple[str, int], CalendarRule] = {(r.slot, m): r for r in self.config.rules for m in r.months}

    def date_of(self, cohort: Cohort) -> dt.date | None:
        """The cohort's submission date; None when the calendar has no such cohort."""
        explicit = self.config.dates.get(cohort.id)
        if explicit is not None:
            return explicit
        rule = self._rules.get((f"C{cohort.slot}", cohort.month))
        return _nth_weekday(cohort.year, cohort.month, rule) if rule else None

    def includes(self, cohort: Cohort) -> bool:
        """Whether the calendar has this cohort."""
        return self.date_of(cohort) is not None

    def submission_date(self, cohort: Cohort) -> dt.date:
        """The cohort's submission date; a usage error when the calendar has no such cohort."""
        day = self.date_of(cohort)
        if day is None:
            raise UsageError(
                f"{cohort} is not in the cohort calendar",
                f"the next cohort of the calendar is {self.next(cohort)}; or give {cohort} a date "
                "(calendar.dates in the configuration)",
            )
        return day

    def next(self, cohort: Cohort) -> Cohort:
        """The first cohort of the calendar after `cohort`."""
        following = cohort.next()
        for _ in range(24 * 20):  # a calendar with cohorts at all has one within 20 years
            if self.includes(following):
                return following
            following = following.next()
        raise UsageError(f"the cohort calendar has no cohort in the 20 years after {cohort}")

    def first_on_or_after(self, day: dt.date) -> Cohort:
        """The first cohort of the calendar whose submission date is `day` or later."""
        cohort = Cohort(day.year, day.month, 0)
        if not self.includes(cohort):
            cohort = self.next(cohort)
        while self.submission_date(cohort) < day:
            cohort = self.next(cohort)
        return cohort

    def skipped(self, last: Cohort, cohort: Cohort) -> tuple[int, str]:
        """How many cohorts of the calendar lie strictly between `last` and `cohort`, and those
        cohorts in words ("1 cohort (2026-12-C1)", "3 cohorts (2026-12-C1 to 2027-01-C1)").
        Not a walk over the range: `freeze 9999-12-C1` after `2026-10-C0` spans 191,000 cohorts."""
        low, high = last.ordinal, cohort.ordinal
        dated = self._dated_between(low, high)
        count = self._by_rule_between(low, high) + len(dated)
        if count == 0:
            return 0, ""
        first = self._first_between(low, high, dated, step=1)
        if count == 1:
            return 1, f"1 cohort ({first})"
        return count, f"{count} cohorts ({first} to {self._first_between(high, low, dated, step=-1)})"

    def _by_rule(self, ordinal: int) -> bool:
        """Whether the cohort at `ordinal` has a date by its rule (explicit dates aside)."""
        cohort = Cohort.from_ordinal(ordinal)
        rule = self._rules.get((f"C{cohort.slot}", cohort.month))
        return rule is not None and _nth_weekday(cohort.year, cohort.month, rule) is not None

    @functools.cached_property
    def _per_period(self) -> int:
        """How many cohorts the rules date in any 400 years (those of 2000 to 2399)."""
        start = 2000 * 24
        return sum(self._by_rule(o) for o in range(start, start + _PERIOD))

    def _by_rule_between(self, low: int, high: int) -> int:
        """How many cohorts strictly between two ordinals have a date by their rule: whole
        periods counted at once, the rest one by one."""
        periods, rest = divmod(max(high - low - 1, 0), _PERIOD)
        whole = periods * self._per_period if periods else 0
        return whole + sum(self._by_rule(o) for o in range(high - rest, high))

    def _dated_between(self, low: int, high: int) -> list[int]:
        """The ordinals strictly between two ordinals whose cohort only an explicit date puts in
        the calendar."""
        dated = (Cohort.parse(cohort_id).ordinal for cohort_id in self.config.dates)
        return [o for o in dated if low < o < high and not self._by_rule(o)]

    def _first_between(self, start: int, end: int, dated: list[int], step: int) -> Cohort:
        """The calendar's first cohort from `start` (excluded) towards `end` (excluded), one of
        `skipped`'s (`dated`: those of the range only an explicit date gives): a rule that gives
        any date gives one within a period."""
        limit = start + step * _PERIOD if abs(end - start) > _PERIOD else end
        by_rule = next((o for o in range(start + step, limit, step) if self._by_rule(o)), None)
        found = dated if by_rule is None else [*dated, by_rule]
        return Cohort.from_ordinal(min(found) if step > 0 else max(found))


# The Gregorian calendar repeats its weekdays every 400 years (146,097 days, 20,871 weeks), and so
# does the set of cohorts a rule dates: a period of 400 years of cohorts.
_PERIOD = 400 * 24

MLCOMMONS = Calendar()  # the default calendar
