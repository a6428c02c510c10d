"""The semantic diff's result: the documented, versioned JSON shape of `catalogctl diff`."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from catalogctl.model.reports.base import Report

DIFF_SCHEMA: Literal["catalogctl/diff/v1"] = "catalogctl/diff/v1"
ChangeClass = Literal["contract", "display", "policy"]
EntityKind = Literal["suite", "metric", "model", "dataset", "benchmark", "ruleset"]


class Change(Report):
    """One semantic change."""

    kind: EntityKind
    id: str
    change: Literal["added", "removed", "renamed", "modified"]
    path: str = Field(description="dotted field path inside the entity; empty for the entity itself")
    old: Any = None
    new: Any = None
    change_class: ChangeClass = Field(alias="class")
    fingerprint: str = Field(description="stable id of this change: same change, same fingerprint")
    file: str
    line: int
    column: int
    impact: list[str] = Field(description="benchmarks whose contract digest this change changes")


class BenchmarkStatus(Report):
    """What happened to one benchmark's contract."""

    id: str
    status: Literal["added", "removed", "renamed", "changed", "identical"]
    old_digest: str | None
    new_digest: str | None
    renamed_from: str | None = None


class SeedSetDelta(Report):
    """Seed sets between two cohorts."""

    introduced: list[str]
    still_valid: list[str]
    retired: list[str]


class SignerDelta(Report):
    """Who signed each cohort's release tag: the fingerprint of the key whose signature checks
    (`ssh-keygen -Y check-novalidate`: whether that key is trusted is `verify`'s question), or
    `unsigned`, `bad signature`, `no tag`."""

    old: str
    new: str
    changed: bool


class CohortDelta(Report):
    """What a cohort changes against the previous one (from their rulesets)."""

    old: str
    new: str
    benchmarks_added: list[str]
    benchmarks_removed: list[str]
    benchmarks_identical: list[str]
    benchmarks_changed: list[str]
    seed_sets: SeedSetDelta
    signers: SignerDelta | None = Field(None, description="the tags' signers; null when neither tag is signed")


class Side(Report):
    """One side of the diff."""

    ref: str
    label: str
    note: str


class DiffReport(Report):
    """The documented JSON shape of `catalogctl diff --format json` (version in `schema`)."""

    schema_: Literal["catalogctl/diff/v1"] = Field(DIFF_SCHEMA, alias="schema")
    old: Side
    new: Side
    summary: dict[ChangeClass, int]
    changes: list[Change]
    benchmarks: list[BenchmarkStatus]
    cohorts: CohortDelta | None

    @property
    def contracts_changed(self) -> bool:
        """Whether a benchmark's contract digest changed (or a benchmark came or went). A change
        of class `contract` that no benchmark uses (an unused recipe, say) changes none."""
        return any(b.status != "identical" and b.old_digest != b.new_digest for b in self.benchmarks)

    @property
    def semantic(self) -> bool:
        """Whether anything changed beyond comments and formatting."""
        return bool(self.changes) or (self.cohorts is not None and _cohort_changed(self.cohorts))


def _cohort_changed(delta: CohortDelta) -> bool:
    return bool(
        delta.benchmarks_added
        or delta.benchmarks_removed
        or delta.benchmarks_changed
        or delta.seed_sets.introduced
        or delta.seed_sets.retired
    )
