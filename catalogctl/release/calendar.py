"""A freeze against the cohort calendar: one that comes after the cohort's submission date, or that
leaves cohorts without a ruleset, is allowed but said (warnings, never errors: a late freeze or a
round the consortium skips on purpose are real decisions).

Every date comes from the repository's `Calendar` (the configured one, MLCommons' by default).
"""

from __future__ import annotations

import datetime as dt

from catalogctl.catalog.cohorts import MLCOMMONS, Calendar, Cohort


def upcoming(today: dt.date, calendar: Calendar = MLCOMMONS) -> Cohort:
    """The first cohort whose submission date is today or later."""
    return calendar.first_on_or_after(today)


def freeze_warnings(cohort: Cohort, last: Cohort | None, today: dt.date, calendar: Calendar = MLCOMMONS) -> list[str]:
    """What a freeze of `cohort` after the frozen `last` (None: the first freeze), on `today`,
    should be warned of: a submission date that has passed, cohorts skipped."""
    found = []
    date = calendar.submission_date(cohort)
    if date < today:
        found.append(f"the submission date of {cohort}, {date:%A %Y-%m-%d}, has passed (today is {today})")
    if last is not None:
        count, which = calendar.skipped(last, cohort)
        if count:
            found.append(f"{cohort} skips {which} after {last}: they get no ruleset")
        return found
    first = upcoming(today, calendar)
    if first < cohort:
        # `first` itself is still to submit: count from just before it
        _, which = calendar.skipped(Cohort.from_ordinal(first.ordinal - 1), cohort)
        found.append(
            f"{cohort}, the first cohort, comes after {which} still to submit "
            f"(from {calendar.submission_date(first)}): they get no ruleset"
        )
    return found
