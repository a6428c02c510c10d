"""The configuration of a catalog repository: `[tool.catalogctl]` in pyproject.toml, or the top
level of catalogctl.toml. Keys are kebab-case, as ruff's are; every key has a default, so an
empty table (or no file) is the configuration every catalog had before there was one."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, ValidationInfo, field_validator, model_validator

from catalogctl.model.common import CohortId, StrictModel, matching

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
Code = Annotated[str, AfterValidator(matching(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", "a finding code, e.g. ruleset-modified"))]


def _folder(value: str) -> str:
    """A folder inside the repository: relative, of plain names (a trailing `/` is dropped)."""
    folder = value.removesuffix("/")
    parts = folder.split("/")
    if value.startswith("/") or "\\" in value or any(p in ("", ".", "..", ".git") for p in parts):
        raise ValueError(f"`{value}` is not a folder inside the repository: a relative path, without `..` or `.git`")
    return folder


Folder = Annotated[str, AfterValidator(_folder)]


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
    catalog: Folder = "benchmark_suite"
    rulesets: Folder = "rulesets"

    @field_validator("rulesets")
    @classmethod
    def _apart_from_the_catalog(cls, rulesets: str, info: ValidationInfo) -> str:
        catalog = info.data.get("catalog")
        if catalog is None:  # refused itself: nothing to compare with
            return rulesets
        if rulesets == catalog or f"{rulesets}/".startswith(f"{catalog}/") or f"{catalog}/".startswith(f"{rulesets}/"):
            raise ValueError(f"`{rulesets}` and the catalog folder `{catalog}` overlap: give them separate folders")
        return rulesets
