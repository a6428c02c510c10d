"""Findings of the PR review (`catalogctl ci`; the model is `model.review.Finding`): their
fingerprints, how diagnostics become findings, and their order.

Every finding has a stable fingerprint, so `.catalogctl/accepted.yaml` can name it across runs:
a finding that comes from a change of the semantic diff reuses the change's fingerprint; any
other hashes its code and subject (never a line number, which moves with unrelated edits).
"""

from __future__ import annotations

import hashlib

from catalogctl.catalog.contract import canonical_json
from catalogctl.errors import Diagnostic, Severity
from catalogctl.model.reports.review import Finding


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
