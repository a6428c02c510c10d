"""Cohort ids (`YYYY-MM-C0`, `YYYY-MM-C1`), their submission dates and their order.

C0 submits on the month's first Wednesday, C1 on its third. Cohorts are totally ordered by
(year, month, slot). Ids are ASCII, with years from 2000 to 9999.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from catalogctl.errors import UsageError
from catalogctl.model.common import COHORT_PATTERN, LAST_COHORT_YEAR, cohort_id_problem

_WEDNESDAY = 2


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
        """The first (C0) or third (C1) Wednesday of the month."""
        first = dt.date(self.year, self.month, 1)
        first_wednesday = first + dt.timedelta(days=(_WEDNESDAY - first.weekday()) % 7)
        return first_wednesday + dt.timedelta(weeks=2 * self.slot)

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


def skipped(last: Cohort, cohort: Cohort) -> tuple[int, str]:
    """How many cohorts lie strictly between `last` and `cohort`, and those cohorts in words
    ("1 cohort (2026-12-C1)", "3 cohorts (2026-12-C1 to 2027-01-C1)"; "" when none)."""
    count = cohort.ordinal - last.ordinal - 1
    if count <= 0:
        return 0, ""
    if count == 1:
        return 1, f"1 cohort ({last.next()})"
    return count, f"{count} cohorts ({last.next()} to {Cohort.from_ordinal(cohort.ordinal - 1)})"
