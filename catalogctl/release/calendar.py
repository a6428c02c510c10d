"""A freeze against the cohort calendar: one that comes after the cohort's submission date, or that
leaves cohorts without a ruleset, is allowed but said (warnings, never errors: a late freeze or a
round the consortium skips on purpose are real decisions).

Every date comes from `submission_date`, the one place this module asks the calendar.
"""

from __future__ import annotations

import datetime as dt

from catalogctl.catalog.cohorts import Cohort, skipped


def submission_date(cohort: Cohort) -> dt.date:
    """The cohort's submission date, as the calendar gives it."""
    return cohort.submission_date


def upcoming(today: dt.date) -> Cohort:
    """The first cohort whose submission date is today or later."""
    cohort = Cohort(today.year, today.month, 0)
    while submission_date(cohort) < today:
        cohort = cohort.next()
    return cohort


def freeze_warnings(cohort: Cohort, last: Cohort | None, today: dt.date) -> list[str]:
    """What a freeze of `cohort` after the frozen `last` (None: the first freeze), on `today`,
    should be warned of: a submission date that has passed, cohorts skipped."""
    found = []
    date = submission_date(cohort)
    if date < today:
        found.append(f"the submission date of {cohort}, {date:%A %Y-%m-%d}, has passed (today is {today})")
    if last is not None:
        count, which = skipped(last, cohort)
        if count:
            found.append(f"{cohort} skips {which} after {last}: they get no ruleset")
        return found
    first = upcoming(today)
    if first < cohort:
        _, which = skipped(Cohort.from_ordinal(first.ordinal - 1), cohort)
        found.append(
            f"{cohort}, the first cohort, comes after {which} still to submit (from {submission_date(first)}): "
            "they get no ruleset"
        )
    return found
