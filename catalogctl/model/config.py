"""The configuration of a catalog repository: `[tool.catalogctl]` in pyproject.toml, or the top
level of catalogctl.toml. Keys are kebab-case, as ruff's are; every key has a default, so an
empty table (or no file) is the configuration every catalog had before there was one."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from catalogctl.model.common import CohortId, StrictModel, matching

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
Code = Annotated[str, AfterValidator(matching(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", "a finding code, e.g. ruleset-modified"))]


class CalendarRule(StrictModel):
    """When one slot of a month submits: its `week`-th `weekday` (-1: the last), in `months`."""

    slot: Literal["C0", "C1"]
    weekday: Weekday
    week: Literal[1, 2, 3, 4, 5, -1]
    months: list[Annotated[int, Field(ge=1, le=12)]] = Field(default_factory=lambda: list(range(1, 13)))


def _mlcommons() -> list[CalendarRule]:
    """MLCommons' cadence: C0 on the month's first Wednesday, C1 on its third."""
    return [
        CalendarRule(slot="C0", weekday="wednesday", week=1),
        CalendarRule(slot="C1", weekday="wednesday", week=3),
    ]


class CalendarConfig(StrictModel):
    """The cohort calendar: a rule per slot (a slot without one has no cohorts, a rule limited to
    some months leaves the others out), and explicit dates that take precedence over the rules."""

    rules: list[CalendarRule] = Field(default_factory=_mlcommons)
    dates: dict[CohortId, dt.date] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _one_rule_per_slot_and_month(self) -> CalendarConfig:
        seen: set[tuple[str, int]] = set()
        for rule in self.rules:
            for month in rule.months:
                if (rule.slot, month) in seen:
                    raise ValueError(f"two rules give {rule.slot} a date in month {month}")
                seen.add((rule.slot, month))
        if not self.rules and not self.dates:
            raise ValueError("a calendar without rules needs dates")
        return self


class Config(StrictModel):
    """Every key of the configuration, with its default."""

    default_remote: str | None = Field(None, alias="default-remote", min_length=1)
    never_accept: list[Code] = Field(default_factory=list, alias="never-accept")
    calendar: CalendarConfig = Field(default_factory=CalendarConfig)
