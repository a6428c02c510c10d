"""What `catalogctl compare` returns: one matrix of benchmarks x runs (`catalogctl/compare/v1`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from catalogctl.model.reports.base import Report

COMPARE_SCHEMA: Literal["catalogctl/compare/v1"] = "catalogctl/compare/v1"
Trend = Literal["better", "worse", "same", "changed"]


class CompareRun(Report):
    """A column: a run, by its label, and the files it was read from."""

    label: str
    sources: list[str] = Field(description="the files read for this run, as given")


class CompareCell(Report):
    """One benchmark's metric in one run."""

    value: float | None = Field(description="the value as the run reported it; null: not reported")
    shown: str = Field(description="the value for people: a percent where the metric is a ratio, `-` when absent")
    external: bool = Field(
        description="reported back by the submitter (a catalogctl/results/v1 file), not read from a harness's output"
    )
    source: str | None = Field(description="the file the value was read from")
    change: float | None = Field(description="the value less the baseline run's; null without both")
    trend: Trend | None = Field(
        description="against the baseline, by the metric's direction (neutral metrics: changed or same); null "
        "without a baseline value, and in the baseline's own column"
    )


class CompareRow(Report):
    """A row: one metric of one benchmark across the runs."""

    benchmark: str
    metric: str = Field(description="the metric key, verbatim as the runner emits it")
    label: str = Field(description="the registry's label (the key when the registry has none)")
    labels: dict[str, str] = Field(description="the label in each other language the registry translates it to")
    primary: bool = Field(description="the benchmark's primary metric")
    ratio: bool
    direction: Literal["higher", "lower", "neutral"]
    unit: str
    cells: list[CompareCell] = Field(description="one per run, in the order of `runs`")


class CompareReport(Report):
    """The documented JSON shape of `catalogctl compare --format json`."""

    schema_: Literal["catalogctl/compare/v1"] = Field(COMPARE_SCHEMA, alias="schema")
    runs: list[CompareRun]
    baseline: str | None = Field(description="the label of the run the others are compared with")
    rows: list[CompareRow] = Field(description="by benchmark, its primary metric first, then the others asked for")
    regressions: int = Field(description="cells worse than the baseline")
