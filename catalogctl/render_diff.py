"""Rendering of a semantic diff: text for a terminal, Markdown for a PR comment or a changelog
section, JSON, and GitHub workflow commands."""

from __future__ import annotations

import json
from typing import Any

from .diff_report import Change, CohortDelta, DiffReport
from .render import github_escape_data, github_escape_property


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


def _where(change: Change) -> str:
    if not change.file:
        return ""
    return f"{change.file}:{change.line}:{change.column}" if change.line else change.file


def _groups(report: DiffReport) -> tuple[list[tuple[str, str, list[Change]]], list[Change]]:
    """Changes grouped by benchmark (contract changes first), and the changes of no benchmark."""
    groups: list[tuple[str, str, list[Change]]] = []
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
        groups.append(
            (status.id, _status_text(status.status, status.old_digest, status.new_digest, status.renamed_from), mine)
        )
    rest = [c for c in report.changes if c.fingerprint not in placed]
    return groups, rest


def _status_text(status: str, old: str | None, new: str | None, renamed_from: str | None) -> str:
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


def _cohort_lines(delta: CohortDelta) -> list[tuple[str, str]]:
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
    ]


def _summary(report: DiffReport) -> str:
    total = len(report.changes)
    if not report.semantic:
        return "no semantic changes"
    counts = ", ".join(f"{n} {k}" for k, n in report.summary.items())
    return f"{total} change{'s' if total != 1 else ''}: {counts}"


def diff_text(report: DiffReport) -> str:
    """Text for a terminal: notes, the cohort delta, then changes grouped by benchmark."""
    lines = [f"diff {report.old.label} -> {report.new.label}"]
    lines += [f"note: {side.note}" for side in (report.old, report.new) if side.note]
    if report.cohorts is not None:
        lines.append("")
        lines.append(f"cohort {report.cohorts.old} -> {report.cohorts.new}")
        lines += [f"  {label}: {value}" for label, value in _cohort_lines(report.cohorts)]
    groups, rest = _groups(report)
    for ident, status, changes in groups:
        lines.append("")
        lines.append(f"{ident}: {status}")
        lines += [f"  {c.change_class:<9} {describe(c)}  {_where(c)}".rstrip() for c in changes]
    if rest:
        lines.append("")
        lines.append("other changes")
        lines += [f"  {c.change_class:<9} {describe(c)}  {_where(c)}".rstrip() for c in rest]
    lines.append("")
    lines.append(_summary(report))
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _code(text: str) -> str:
    return f"`{_md(text)}`" if text else ""


def diff_markdown(report: DiffReport, *, heading: str = "###") -> str:
    """Markdown fit for a PR comment or a changelog section."""
    out = [f"{heading} Catalog diff: {_code(report.old.label)} → {_code(report.new.label)}", ""]
    out += [f"> {_md(side.note)}" for side in (report.old, report.new) if side.note]
    if any(side.note for side in (report.old, report.new)):
        out.append("")
    out.append(f"**{_summary(report).capitalize()}.**")
    if report.cohorts is not None:
        out += [
            "",
            f"{heading}# Cohort {_code(report.cohorts.old)} → {_code(report.cohorts.new)}",
            "",
            "| | |",
            "| --- | --- |",
        ]
        out += [f"| {label.capitalize()} | {_md(value)} |" for label, value in _cohort_lines(report.cohorts)]
    if report.benchmarks:
        out += ["", f"{heading}# Benchmarks", "", "| benchmark | contract |", "| --- | --- |"]
        out += [
            f"| {_code(s.id)} | {_md(_status_text(s.status, s.old_digest, s.new_digest, s.renamed_from))} |"
            for s in report.benchmarks
        ]
    if report.changes:
        out += ["", f"{heading}# Changes", "", "| class | change | affects | where |", "| --- | --- | --- | --- |"]
        for c in report.changes:
            affects = ", ".join(_code(b) for b in c.impact) or "–"
            out.append(f"| {c.change_class} | {_md(describe(c))} | {affects} | {_code(_where(c))} |")
    return "\n".join(out) + "\n"


def diff_json(report: DiffReport) -> str:
    """The documented JSON shape (`DiffReport`, schema `catalogctl/diff/v1`)."""
    return report.model_dump_json(by_alias=True, indent=2) + "\n"


def diff_github(report: DiffReport) -> str:
    """Workflow commands: a warning per contract change, a notice per other change."""
    lines: list[str] = []
    for c in report.changes:
        level = "warning" if c.change_class == "contract" else "notice"
        props = []
        if c.file and c.change != "removed":  # a removed file is not in the pull request's tree
            props += [f"file={github_escape_property(c.file)}", f"line={c.line}", f"col={c.column}"]
        props.append(f"title={github_escape_property(f'{c.change_class} change')}")
        message = describe(c) + (f" (changes {', '.join(c.impact)})" if c.impact else "")
        lines.append(f"::{level} {','.join(props)}::{github_escape_data(message)}")
    lines.append(_summary(report))
    return "\n".join(lines) + "\n"
