"""What `catalogctl export mlperf` returns (`catalogctl/export/v1`): the files it wrote for the
official MLCommons submission checker, and what they hold."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from catalogctl.model.reports.base import Report

EXPORT_SCHEMA: Literal["catalogctl/export/v1"] = "catalogctl/export/v1"
FileState = Literal["written", "replaced", "unchanged"]


class ExportedFile(Report):
    """One file of the export."""

    path: str = Field(description="where it was written")
    state: FileState = Field(description="written (new), replaced (--force over other bytes), or unchanged")
    sha256: str


class ExportedSeedSet(Report):
    """A seed set as the checker reads it: its id and the cohorts a new submission may adopt it in."""

    id: str
    cohorts: list[str]


class ExportedModel(Report):
    """A model the cohort's benchmarks run, by the checker's name, with its pinned checkpoint."""

    name: str
    checkpoint: str
    revision: str
    benchmarks: list[str]


class MlperfExport(Report):
    """The documented JSON shape of `catalogctl export mlperf --format json`."""

    schema_: Literal["catalogctl/export/v1"] = Field(EXPORT_SCHEMA, alias="schema")
    cohort: str
    commit: str = Field(description="the catalog commit exported: the cohort's release commit, or --ref's")
    files: list[ExportedFile]
    seed_sets: list[ExportedSeedSet]
    drafters: int = Field(description="how many approved-drafter entries approved_drafters.yaml lists")
    models: list[ExportedModel]
