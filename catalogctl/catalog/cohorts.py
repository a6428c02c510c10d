"""Cohort ids (`YYYY-MM-C0`, `YYYY-MM-C1`), their submission dates and their order.

C0 submits on the month's first Wednesday, C1 on its third. Cohorts are totally ordered by
(year, month, slot).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

_COHORT = re.compile(r"(\d{4})-(0[1-9]|1[0-2])-C([01])")
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
        match = _COHORT.fullmatch(text)
        if match is None:
            raise ValueError(f"`{text}` is not a cohort id: write YYYY-MM-C0 or YYYY-MM-C1")
        return cls(int(match.group(1)), int(match.group(2)), int(match.group(3)))

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

    def next(self) -> Cohort:
        """The cohort after this one."""
        if self.slot == 0:
            return Cohort(self.year, self.month, 1)
        if self.month == 12:
            return Cohort(self.year + 1, 1, 0)
        return Cohort(self.year, self.month + 1, 0)

    def __str__(self) -> str:
        return self.id


def is_cohort_id(text: str) -> bool:
    """Whether `text` is written like a cohort id."""
    return _COHORT.fullmatch(text) is not None
