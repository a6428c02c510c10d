"""Accepted findings: `.catalogctl/accepted.yaml` read from the head, applied to the gate's
findings, and drafted for the findings nobody has accepted yet."""

from __future__ import annotations

import datetime as dt
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from catalogctl.errors import CatalogInvalid, error
from catalogctl.io.tree import Tree
from catalogctl.model.common import Pending
from catalogctl.model.documents.accepted import AcceptedFinding, AcceptedFindings
from catalogctl.model.reports.review import Finding
from catalogctl.review.findings import subject_fingerprint

ACCEPTED_FILE = ".catalogctl/accepted.yaml"
SCHEMA_LINE = "# yaml-language-server: $schema=../schemas/accepted.schema.json\n"
DRAFT_DAYS = 30
HEADER = "# Findings of `catalogctl ci` accepted on purpose (see catalogctl's docs, docs/how-to/accept-a-finding.md).\n"


# Errors a maintainer may accept (every warning may be too). Any other error either breaks a
# published cohort or leaves a head that `freeze` refuses: accepting it would pass the gate and
# fail on main.
ACCEPTABLE_ERRORS = frozenset({"ruleset-cohort-gap"})
_WHY_NOT = {
    "ruleset-modified": "a published cohort's ruleset never changes",
    "ruleset-deleted": "a published cohort's ruleset is never removed",
    "frozen-reference-removed": "a frozen cohort with a seed set still valid uses what was removed",
    "accepted-invalid": "the file that accepts findings must itself be valid",
    "layout-changed": "the gate cannot tell what a move of the catalog's folders removes",
}
_NEW_RULESET = "a new ruleset must be exactly what `catalogctl freeze` writes"
_UNFREEZABLE = "a head that does not validate cannot be frozen"


NEVER_BY_CONFIG = "the repository's configuration never accepts it (never-accept)"


def why_not_acceptable(finding: Finding, never: frozenset[str] = frozenset()) -> str | None:
    """Why no entry of accepted.yaml can accept `finding` (None when one can); `never`: the
    codes the repository's configuration never lets anyone accept."""
    if finding.code in never:
        return NEVER_BY_CONFIG
    if finding.severity != "error" or finding.code in ACCEPTABLE_ERRORS:
        return None
    if finding.code in _WHY_NOT:
        return _WHY_NOT[finding.code]
    return _NEW_RULESET if finding.code.startswith("ruleset-") else _UNFREEZABLE


@dataclass
class Accepted:
    """The accepted findings of a tree, their positions in the file, and the file's problems."""

    entries: list[AcceptedFinding] = field(default_factory=list)
    problems: list[Finding] = field(default_factory=list)
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)


def read_accepted(tree: Tree) -> Accepted:
    """The entries of `.catalogctl/accepted.yaml` (none when the file is absent)."""
    from catalogctl.catalog.validation import validate_document
    from catalogctl.io.yamlio import YamlProblem, parse_document
    from catalogctl.review.findings import from_diagnostic

    if tree.kind(ACCEPTED_FILE) is None:
        return Accepted()
    try:
        doc = parse_document(ACCEPTED_FILE, tree.read(ACCEPTED_FILE))
    except YamlProblem as problem:
        return Accepted(problems=[_problem(problem.message, problem.line, problem.column)])
    except OSError as exc:
        return Accepted(problems=[_problem(f"cannot read the file: {exc}", 0, 0)])
    value, diagnostics = validate_document(doc, AcceptedFindings)
    if value is None:
        found = [from_diagnostic(d) for d in diagnostics]
        return Accepted(problems=[f.model_copy(update={"code": "accepted-invalid"}) for f in found])
    positions = {}
    for index, entry in enumerate(value.accepted):
        at, _ = doc.positions.nearest(("accepted", index, "fingerprint"))
        positions[entry.fingerprint] = (at.line, at.column)
    return Accepted(entries=list(value.accepted), positions=positions)


def _problem(message: str, line: int, column: int) -> Finding:
    return Finding(
        severity="error",
        code="accepted-invalid",
        message=message,
        file=ACCEPTED_FILE,
        line=line,
        column=column,
        fingerprint=subject_fingerprint("accepted-invalid", message),
    )


def apply_accepted(
    findings: list[Finding], accepted: Accepted, today: dt.date, never: frozenset[str] = frozenset()
) -> tuple[list[Finding], list[str]]:
    """Mark each finding accepted, expired or pending acceptance (never one whose code is in
    `never`); returns the findings and the fingerprints of entries that matched nothing (stale)."""
    by_print = {a.fingerprint: a for a in accepted.entries}
    used: set[str] = set()
    out: list[Finding] = []
    for finding in findings:
        entry = by_print.get(finding.fingerprint)
        if entry is None:
            out.append(finding)
            continue
        used.add(entry.fingerprint)
        refused = why_not_acceptable(finding, never)
        if refused is not None:
            out += [finding, _refusal(finding, refused, accepted.positions.get(entry.fingerprint, (0, 0)))]
            continue
        if isinstance(entry.reason, Pending) or isinstance(entry.approver, Pending):
            status, note = "acceptance-pending", "drafted in accepted.yaml, but reason or approver is still pending"
        elif entry.expires < today:
            status, note = "expired", f"accepted by {entry.approver} until {entry.expires}: expired"
        else:
            status, note = "accepted", f"accepted by {entry.approver} until {entry.expires}: {entry.reason}"
        out.append(finding.model_copy(update={"status": status, "note": note}))
    stale = [a.fingerprint for a in accepted.entries if a.fingerprint not in used]
    # The report offers acceptance only where an entry could accept (see `why_not_acceptable`).
    out = [f.model_copy(update={"acceptable": why_not_acceptable(f, never) is None}) for f in out]
    return out, stale


def _refusal(finding: Finding, why: str, position: tuple[int, int]) -> Finding:
    """The error of an entry that names a finding no entry can accept."""
    return Finding(
        severity="error",
        code="accepted-not-allowed",
        message=f"{finding.fingerprint} is {finding.code}, which can never be accepted: {why}",
        file=ACCEPTED_FILE,
        line=position[0],
        column=position[1],
        hint="fix the finding, and remove its entry",
        fingerprint=subject_fingerprint("accepted-not-allowed", finding.fingerprint),
    )


def draft_entries(
    findings: list[Finding], accepted: Accepted, today: dt.date, never: frozenset[str] = frozenset()
) -> tuple[str, int]:
    """YAML list items accepting every finding not in the file yet (reason and approver pending),
    except those no entry can accept."""
    from catalogctl.io.yamlio import dump_yaml

    present = {a.fingerprint for a in accepted.entries}
    expires = today + dt.timedelta(days=DRAFT_DAYS)
    items = []
    for finding in findings:
        if finding.fingerprint in present or finding.status == "accepted" or why_not_acceptable(finding, never):
            continue
        present.add(finding.fingerprint)
        items.append(
            {
                "fingerprint": finding.fingerprint,
                "finding": f"{finding.severity} {finding.code}: {finding.message}",
                "reason": "<TBD>",
                "approver": "<TBD>",
                "expires": expires,
            }
        )
    if not items:
        return "", 0
    text = dump_yaml(items)
    return "".join(f"  {line}\n" if line else "\n" for line in text.splitlines()), len(items)


def write_drafts(root: Path, accepted: Accepted, drafts: str) -> Path:
    """Append drafted entries to the working tree's file, atomically, keeping what is there
    (comments included); a file whose layout does not take a plain append is rewritten whole.
    A file with errors (not UTF-8, not YAML, not valid) is refused: rewriting it would lose it."""
    from catalogctl.io.files import write_atomic
    from catalogctl.io.yamlio import YamlProblem, dump_yaml, parse_document

    if accepted.problems:
        raise CatalogInvalid(
            f"{ACCEPTED_FILE} has errors: fix them before drafting entries into it",
            [error(p.code, p.message, p.file, p.line, p.column, p.hint) for p in accepted.problems],
        )
    path = root / ACCEPTED_FILE
    text = path.read_text(encoding="utf-8") if path.exists() else SCHEMA_LINE + HEADER
    if not text.endswith("\n"):
        text += "\n"
    if "\naccepted:\n" not in f"\n{text}":
        text = text.replace("accepted: []\n", "") + "accepted:\n"
    combined = text + drafts
    try:
        data = parse_document(ACCEPTED_FILE, combined.encode("utf-8")).data
        ok = AcceptedFindings.model_validate(data).accepted[: len(accepted.entries)] == accepted.entries
    except (YamlProblem, ValueError):
        ok = False
    if not ok:
        items = [e.model_dump(exclude_none=True) for e in accepted.entries]
        # The list at the drafts' indentation, so that the drafts append to it.
        body = "accepted:\n" + textwrap.indent(dump_yaml(items), "  ") if items else "accepted:\n"
        combined = SCHEMA_LINE + HEADER + body + drafts
    write_atomic(path, combined.encode("utf-8"))
    return path


def draft_accepted(path: Path | None, findings: list[Finding], today: dt.date | None = None) -> int:
    """Draft entries for `findings` not accepted yet into the accepted.yaml of the catalog at or
    above `path` (default: the current folder), expiring `DRAFT_DAYS` after `today`; the
    repository's never-accept codes are never drafted. Returns how many were drafted."""
    from catalogctl.catalog.config import config_for, layout_for
    from catalogctl.catalog.source import find_root
    from catalogctl.io.tree import WorkingTree

    start = path or Path.cwd()
    root = find_root(start, layout_for(start))
    accepted = read_accepted(WorkingTree(root))
    never = frozenset(config_for(root).config.never_accept)
    drafts, count = draft_entries(findings, accepted, today or dt.datetime.now(dt.UTC).date(), never)
    if count:
        write_drafts(root, accepted, drafts)
    return count
