"""Rendering of a semantic diff: text for a terminal, Markdown for a PR comment or a changelog
section, JSON, and GitHub workflow commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from catalogctl.diff.markdown import cohort_lines, describe, diff_markdown, groups, summary, where
from catalogctl.model.reports.diff import DiffReport
from catalogctl.render.common import as_json, github_command


def diff_text(report: DiffReport) -> str:
    """Text for a terminal: notes, the cohort delta, then changes grouped by benchmark."""
    lines = [f"diff {report.old.label} -> {report.new.label}"]
    lines += [f"note: {side.note}" for side in (report.old, report.new) if side.note]
    if report.cohorts is not None:
        lines.append("")
        lines.append(f"cohort {report.cohorts.old} -> {report.cohorts.new}")
        lines += [f"  {label}: {value}" for label, value in cohort_lines(report.cohorts)]
    grouped, rest = groups(report)
    for ident, status, changes in grouped:
        lines.append("")
        lines.append(f"{ident}: {status}")
        lines += [f"  {c.change_class:<9} {describe(c)}  {where(c)}".rstrip() for c in changes]
    if rest:
        lines.append("")
        lines.append("other changes")
        lines += [f"  {c.change_class:<9} {describe(c)}  {where(c)}".rstrip() for c in rest]
    lines.append("")
    lines.append(summary(report))
    return "\n".join(lines) + "\n"


def diff_github(report: DiffReport) -> str:
    """Workflow commands: a warning per contract change, a notice per other change."""
    lines: list[str] = []
    for c in report.changes:
        level: Literal["warning", "notice"] = "warning" if c.change_class == "contract" else "notice"
        message = describe(c) + (f" (changes {', '.join(c.impact)})" if c.impact else "")
        # A removed file is not in the pull request's tree: no position.
        file, line, column = (c.file, c.line, c.column) if c.change != "removed" else ("", 0, 0)
        lines.append(github_command(level, f"{c.change_class} change", message, file, line, column))
    lines.append(summary(report))
    return "\n".join(lines) + "\n"


REPORTERS: dict[str, Callable[[DiffReport], str]] = {
    "text": diff_text,
    "markdown": diff_markdown,
    "json": as_json,
    "github": diff_github,
}

__all__ = ["REPORTERS", "diff_github", "diff_markdown", "diff_text"]
