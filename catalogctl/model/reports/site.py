"""What `catalogctl site` publishes: the data of every page of the static site, gathered once by
`authoring.site` and only laid out by `render.site`.

Display copy is `Localized`: the catalog's text and its translations from `i18n` blocks. Ids,
metric keys, digests and numbers are plain strings and never translated.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from catalogctl.model.reports.base import Report
from catalogctl.model.reports.diff import DiffReport
from catalogctl.model.reports.release import CohortInfo, SeedProvenance


class Localized(Report):
    """Display copy: the catalog's own text and its translations by language tag."""

    text: str
    i18n: dict[str, str] = Field(default_factory=dict)


class Fact(Report):
    """One line of a contract written for people: a label and its value as text."""

    label: str
    value: str
    caption: Localized | None = Field(None, description="a metric's label beside its key")


class Table(Report):
    """Rows of a contract that are a list (datasets, accuracy entries)."""

    columns: list[str]
    rows: list[list[str]]


class Section(Report):
    """One part of a resolved contract: the model, a phase, the gates."""

    title: str
    facts: list[Fact] = Field(default_factory=list)
    tables: list[Table] = Field(default_factory=list)


class SeedWindow(Report):
    """A seed set and the cohorts a submission may adopt it in."""

    id: str
    scheduler_rng_seed: str = Field(description="exact decimal text: 64-bit seeds never pass through a float")
    sample_index_rng_seed: str
    model_seed: str
    qsl_rng_seed: str | None = Field(
        None, description="LoadGen's QSL seed, in a set imported from a LoadGen release; absent otherwise"
    )
    introduced_in: str
    valid_through: str
    provenance: SeedProvenance


class TimelineColumn(Report):
    """A cohort on a timeline's axis."""

    cohort: str
    frozen: bool


class TimelineRow(Report):
    """One line of a timeline: a seed set (or a benchmark) and the cohorts where it is on."""

    id: str
    on: list[str] = Field(
        description="the cohorts of the axis in which the set is adoptable (the benchmark is carried)"
    )


class Timeline(Report):
    """A chart of which thing is on in which cohort."""

    columns: list[TimelineColumn]
    rows: list[TimelineRow]


class CohortBenchmark(Report):
    """A benchmark as a cohort carries it."""

    id: str
    title: Localized
    digest: str
    status: Literal["added", "changed", "identical"] = Field(description="against the previous frozen cohort")


class CohortPage(Report):
    """One frozen cohort: its release, benchmarks, seed sets and what changed since the previous one."""

    info: CohortInfo
    previous: str | None
    frozen_at: dt.datetime
    benchmarks: list[CohortBenchmark]
    seed_sets: list[SeedWindow] = Field(description="the sets of the ruleset (valid in this cohort or carried)")
    diff: DiffReport | None = Field(None, description="the semantic diff from the previous frozen cohort")
    diff_note: str = Field("", description="why there is no diff (first cohort, or the previous tree unreadable)")


class HistoryEntry(Report):
    """A benchmark in one frozen cohort."""

    cohort: str
    carried: bool
    digest: str | None
    digest_changed: bool = Field(description="carried with another digest than the last cohort that carried it")
    changes: list[str] = Field(default_factory=list, description="the contract changes that changed the digest")


class BenchmarkPage(Report):
    """One benchmark: its contract at the published ref, written for people, and its history."""

    id: str
    kind: str
    family: str
    title: Localized
    summary: Localized
    owners: list[str]
    model: str
    runner: str | None = Field(description="the harness that runs it, its tasks and versions; null for training")
    datasets: list[str]
    metrics: list[str]
    digest: str | None = Field(description="the contract digest at the published ref; null when it does not resolve")
    problem: str = Field("", description="why the contract does not resolve")
    sections: list[Section]
    history: list[HistoryEntry]
    presence: Timeline = Field(description="the frozen cohorts, and those that carry the benchmark")


class BenchmarkRow(Report):
    """A benchmark in the list of every benchmark (`benchmarks/index.html`)."""

    id: str
    title: Localized
    kind: str
    model: str
    carried: bool = Field(description="whether the last frozen cohort carries it")


class NextCohortSummary(Report):
    """The cohort to freeze next: what carries over into it."""

    cohort: str
    submission_date: dt.date
    benchmarks: list[str] = Field(description="the benchmarks of the last frozen cohort, which carry over")
    seed_sets: list[str] = Field(description="the sets still adoptable in it")
    new_seed_set_due: bool
    new_seed_set: str = Field(
        "", description="where the due set will come from: drawn, or the beacon round the last release named"
    )


class SearchEntry(Report):
    """One entry of the client-side search index."""

    kind: Literal["benchmark", "model", "dataset", "metric"]
    id: str
    title: Localized
    url: str = Field(description="relative to the site's root")
    used_by: list[str] = Field(default_factory=list, description="benchmarks using the model, dataset or metric")


class ExitCode(Report):
    """One row of the exit-code table."""

    code: int
    meaning: str


class SubmitBenchmark(Report):
    """What the submission file of one benchmark depends on."""

    id: str
    kind: str
    api_type: str | None


class SubmitGuide(Report):
    """The "how to submit" page: a submission file for a chosen benchmark and seed set."""

    cohort: str | None = Field(description="the cohort to submit to (the last frozen); null before any freeze")
    benchmarks: list[SubmitBenchmark]
    seed_sets: list[str]
    exit_codes: list[ExitCode]


class SiteData(Report):
    """Everything the site shows, gathered from the catalog at one ref and its releases."""

    suite: str
    title: Localized
    description: Localized
    source: str = Field(description="the tree the site was built from")
    tool_version: str
    languages: list[str] = Field(description="the catalog's own language first, then those of its i18n blocks")
    current: CohortPage | None = Field(description="the last frozen cohort")
    next: NextCohortSummary
    cohorts: list[CohortPage] = Field(
        description="oldest first (in a `SiteSource`'s data without their diffs, which are built with each page)"
    )
    benchmarks: list[BenchmarkPage] = Field(
        description="every benchmark's page (empty in a `SiteSource`'s data: those pages are built one at a time)"
    )
    seed_timeline: Timeline
    search: list[SearchEntry]
    submit: SubmitGuide
