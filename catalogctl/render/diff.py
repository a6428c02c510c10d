"""Rendering of a semantic diff: text for a terminal, Markdown for a PR comment or a changelog
section, JSON, and GitHub workflow commands."""

from __future__ import annotations

from collections.abc import Callable

from catalogctl.diff.markdown import cohort_lines, describe, diff_markdown, groups, summary, where
from catalogctl.model.diff import DiffReport
from catalogctl.render.common import as_json, github_escape_data, github_escape_property


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
        level = "warning" if c.change_class == "contract" else "notice"
        props = []
        if c.file and c.change != "removed":  # a removed file is not in the pull request's tree
            props += [f"file={github_escape_property(c.file)}", f"line={c.line}", f"col={c.column}"]
        props.append(f"title={github_escape_property(f'{c.change_class} change')}")
        message = describe(c) + (f" (changes {', '.join(c.impact)})" if c.impact else "")
        lines.append(f"::{level} {','.join(props)}::{github_escape_data(message)}")
    lines.append(summary(report))
    return "\n".join(lines) + "\n"


REPORTERS: dict[str, Callable[[DiffReport], str]] = {
    "text": diff_text,
    "markdown": diff_markdown,
    "json": as_json,
    "github": diff_github,
}

__all__ = ["REPORTERS", "diff_github", "diff_markdown", "diff_text"]
