"""What the pull-request review (`catalogctl ci`) returns (`catalogctl/ci/v1`): its findings,
each with a stable fingerprint and whether it was accepted, and the verdict."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from catalogctl.model.reports.base import Report

CI_SCHEMA: Literal["catalogctl/ci/v1"] = "catalogctl/ci/v1"
FindingSeverity = Literal["error", "warning"]
Status = Literal["open", "accepted", "expired", "acceptance-pending"]


class Finding(Report):
    """One finding. `where` says which side the file and line are on: a finding about a file
    the head no longer has points into the base (and gets no inline annotation)."""

    severity: FindingSeverity
    code: str
    message: str
    file: str = ""
    line: int = 0
    column: int = 0
    where: Literal["head", "base"] = "head"
    hint: str = ""
    fingerprint: str
    status: Status = "open"
    note: str = Field("", description="how the acceptance stands: who accepted it and until when, or why not")
    acceptable: bool = Field(True, description="whether an entry of .catalogctl/accepted.yaml can accept it")

    @property
    def failing(self) -> bool:
        """Whether this finding fails the review."""
        return self.severity == "error" and self.status != "accepted"


class ReviewSide(Report):
    """One side of the review: the ref as asked, and as found."""

    ref: str
    label: str


class ReviewSummary(Report):
    """Each finding counted once: an error or a warning not accepted, or accepted; `expired`
    counts the errors and warnings whose acceptance expired."""

    errors: int
    warnings: int
    accepted: int
    expired: int

    @classmethod
    def of(cls, findings: list[Finding]) -> ReviewSummary:
        """The counts of a list of findings."""
        return cls(
            errors=sum(f.failing for f in findings),
            warnings=sum(f.severity == "warning" and f.status != "accepted" for f in findings),
            accepted=sum(f.status == "accepted" for f in findings),
            expired=sum(f.status == "expired" for f in findings),
        )


class ReviewResult(Report):
    """The documented JSON shape of `catalogctl ci --format json`."""

    schema_: Literal["catalogctl/ci/v1"] = Field(CI_SCHEMA, alias="schema")
    base: ReviewSide
    head: ReviewSide
    passed: bool
    summary: ReviewSummary
    findings: list[Finding]
    stale_acceptances: list[str] = Field(description="accepted fingerprints that matched no finding")
    notes: list[str]
