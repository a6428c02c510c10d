"""`validate`'s report (`catalogctl/diagnostics/v1`): the tree, the counts, every diagnostic."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field, computed_field

from catalogctl.errors import Diagnostic, Severity
from catalogctl.model.reports.base import Report

DIAGNOSTICS_SCHEMA: Literal["catalogctl/diagnostics/v1"] = "catalogctl/diagnostics/v1"


class DiagnosticEntry(Report):
    """One diagnostic as the report shows it (`file`, 1-based `line` and `column`: 0 when the
    finding is about a whole file)."""

    severity: Severity
    code: str
    message: str
    path: str = Field(alias="file")
    line: int
    column: int
    hint: str

    @classmethod
    def of(cls, d: Diagnostic) -> DiagnosticEntry:
        """The entry of a library diagnostic."""
        return cls(
            severity=d.severity, code=d.code, message=d.message, path=d.path, line=d.line, column=d.column, hint=d.hint
        )


class ValidationSummary(Report):
    """How many errors, warnings and pending values (of the selected codes), and how many
    diagnostics `--select`/`--ignore` left out."""

    errors: int
    warnings: int
    pending: int
    not_selected: int = 0


class ValidationReport(Report):
    """The documented JSON shape of `catalogctl validate --format json`."""

    schema_: Literal["catalogctl/diagnostics/v1"] = Field(DIAGNOSTICS_SCHEMA, alias="schema")
    tree: str = Field(description="what was validated: the working tree, or a ref and its commit")
    summary: ValidationSummary
    diagnostics: list[DiagnosticEntry]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def valid(self) -> bool:
        """No error (warnings and pending values allowed)."""
        return self.summary.errors == 0

    @classmethod
    def of(cls, tree: str, diagnostics: Sequence[Diagnostic], not_selected: int = 0) -> ValidationReport:
        """The report of a validated tree (`diagnostics`: the selected ones)."""
        summary = ValidationSummary(
            errors=sum(d.severity is Severity.ERROR for d in diagnostics),
            warnings=sum(d.severity is Severity.WARNING for d in diagnostics),
            pending=sum(d.code == "pending-value" for d in diagnostics),
            not_selected=not_selected,
        )
        return cls(tree=tree, summary=summary, diagnostics=[DiagnosticEntry.of(d) for d in diagnostics])
