"""Findings of the PR gate (`catalogctl ci`): what it found, where, how bad, and whether accepted.

Every finding has a stable fingerprint, so `.catalogctl/accepted.yaml` can name it across runs:
a finding that comes from a change of the semantic diff reuses the change's fingerprint; any
other hashes its code and subject (never a line number, which moves with unrelated edits).
"""

from __future__ import annotations

import hashlib
from typing import Literal

from pydantic import BaseModel, ConfigDict

from catalogctl.catalog.contract import canonical_json
from catalogctl.errors import Diagnostic, Severity

FindingSeverity = Literal["error", "warning"]
Status = Literal["open", "accepted", "expired", "acceptance-pending"]


class Finding(BaseModel):
    """One finding. `where` says which side the file and line are on: a finding about a file
    the head no longer has points into the base (and gets no inline annotation)."""

    model_config = ConfigDict(extra="forbid")

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
    note: str = ""  # how the acceptance stands: who accepted it and until when, or why not

    @property
    def failing(self) -> bool:
        """Whether this finding fails the gate."""
        return self.severity == "error" and self.status != "accepted"


def subject_fingerprint(code: str, *subject: object) -> str:
    """The fingerprint of a finding that comes from no change: its code and subject, hashed."""
    return hashlib.sha256(canonical_json([code, *[str(s) for s in subject]])).hexdigest()[:16]


def from_diagnostic(d: Diagnostic) -> Finding:
    """A validation diagnostic of the head as a finding (fingerprinted without its line)."""
    return Finding(
        severity="error" if d.severity is Severity.ERROR else "warning",
        code=d.code,
        message=d.message,
        file=d.path,
        line=d.line,
        column=d.column,
        hint=d.hint,
        fingerprint=subject_fingerprint(d.code, d.path, d.message),
    )


def order(finding: Finding) -> tuple[int, int, str, int, int, str]:
    """Failing errors first, then accepted or expired ones, then warnings; by file and line."""
    rank = 0 if finding.failing else (1 if finding.severity == "error" else 2)
    return rank, finding.where == "base", finding.file, finding.line, finding.column, finding.code
