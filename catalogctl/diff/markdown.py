"""A semantic diff in words: one change, a benchmark's status, the summary line, and the
Markdown section that a PR comment and a CHANGELOG.md section share (freeze writes it into the
changelog, so it lives with the diff rather than among the reporters)."""

from __future__ import annotations

import json
from typing import Any

from catalogctl import words
from catalogctl.errors import file_line_col
from catalogctl.io.markdown import md_code, md_text
from catalogctl.model.reports.diff import Change, CohortDelta, DiffReport


def _value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def describe(change: Change) -> str:
    """`dataset aime25: samples 30 -> 31`, or what happened to the whole entity."""
    head = f"{change.kind} {change.id}"
    if change.change == "added":
        return f"{head}: added"
    if change.change == "removed":
        return f"{head}: removed"
    if change.change == "renamed":
        return f"{head}: renamed from {change.old}"
    if change.old is None:
        return f"{head}: {change.path} set to {_value(change.new)}"
    if change.new is None:
        return f"{head}: {change.path} removed (was {_value(change.old)})"
    return f"{head}: {change.path} {_value(change.old)} -> {_value(change.new)}"


def where(change: Change) -> str:
    """Where the change stands: `file:line:col`, or "" for none."""
    return file_line_col(change.file, change.line, change.column)


def groups(report: DiffReport) -> tuple[list[tuple[str, str, list[Change]]], list[Change]]:
    """Changes grouped by benchmark (contract changes first), and the changes of no benchmark."""
    grouped: list[tuple[str, str, list[Change]]] = []
    placed: set[str] = set()
    order = {"changed": 0, "added": 0, "removed": 0, "renamed": 0, "identical": 1}
    for status in sorted(report.benchmarks, key=lambda s: (order[s.status], s.id)):
        mine = [
            c
            for c in report.changes
            if (c.kind == "benchmark" and c.id in (status.id, status.renamed_from)) or status.id in c.impact
        ]
        placed.update(c.fingerprint for c in mine)
        if status.status == "identical" and not mine:
            continue  # its file changed, but only in comments or formatting
        grouped.append(
            (status.id, status_text(status.status, status.old_digest, status.new_digest, status.renamed_from), mine)
        )
    rest = [c for c in report.changes if c.fingerprint not in placed]
    return grouped, rest


def status_text(status: str, old: str | None, new: str | None, renamed_from: str | None) -> str:
    a = old[:19] if old else "-"
    b = new[:19] if new else "-"
    if status == "identical":
        return "contract identical"
    if status == "renamed":
        verdict = "identical" if old == new else f"changed ({a}… -> {b}…)"
        return f"renamed from {renamed_from}, contract {verdict}"
    if status == "added":
        return f"added ({b}…)"
    if status == "removed":
        return f"removed (was {a}…)"
    return f"contract changed ({a}… -> {b}…)"


def cohort_lines(delta: CohortDelta) -> list[tuple[str, str]]:
    def names(items: list[str]) -> str:
        return ", ".join(items) if items else "-"

    return [
        ("benchmarks added", names(delta.benchmarks_added)),
        ("benchmarks removed", names(delta.benchmarks_removed)),
        ("contracts identical", names(delta.benchmarks_identical)),
        ("contracts changed", names(delta.benchmarks_changed)),
        ("seed sets introduced", names(delta.seed_sets.introduced)),
        ("seed sets still valid", names(delta.seed_sets.still_valid)),
        ("seed sets retired", names(delta.seed_sets.retired)),
        *_signer_line(delta),
    ]


def _signer_line(delta: CohortDelta) -> list[tuple[str, str]]:
    """The signer row, when either tag is signed: a change of signer is named as one."""
    signers = delta.signers
    if signers is None:
        return []
    if not signers.changed:
        return [("signer", f"{signers.new} (unchanged)")]
    return [("signer", f"{signers.old} -> {signers.new} (changed)")]


def summary(report: DiffReport) -> str:
    total = len(report.changes)
    if not report.semantic:
        return "no semantic changes"
    counts = ", ".join(f"{n} {k}" for k, n in report.summary.items())
    return f"{words.count(total, 'change')}: {counts}"


def diff_markdown(report: DiffReport, *, heading: str = "###") -> str:
    """Markdown fit for a PR comment or a changelog section."""
    out = [f"{heading} Catalog diff: {md_code(report.old.label)} → {md_code(report.new.label)}", ""]
    out += [f"> {md_text(side.note)}" for side in (report.old, report.new) if side.note]
    if any(side.note for side in (report.old, report.new)):
        out.append("")
    out.append(f"**{summary(report).capitalize()}.**")
    if report.cohorts is not None:
        out += [
            "",
            f"{heading}# Cohort {md_code(report.cohorts.old)} → {md_code(report.cohorts.new)}",
            "",
            "| | |",
            "| --- | --- |",
        ]
        out += [f"| {label.capitalize()} | {md_text(value)} |" for label, value in cohort_lines(report.cohorts)]
    if report.benchmarks:
        out += ["", f"{heading}# Benchmarks", "", "| benchmark | contract |", "| --- | --- |"]
        out += [
            f"| {md_code(s.id)} | {md_text(status_text(s.status, s.old_digest, s.new_digest, s.renamed_from))} |"
            for s in report.benchmarks
        ]
    if report.changes:
        out += ["", f"{heading}# Changes", "", "| class | change | affects | where |", "| --- | --- | --- | --- |"]
        for c in report.changes:
            affects = ", ".join(md_code(b) for b in c.impact) or "–"
            out.append(f"| {c.change_class} | {md_text(describe(c))} | {affects} | {md_code(where(c))} |")
    return "\n".join(out) + "\n"
