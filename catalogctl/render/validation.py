"""Rendering of `validate`'s report: text (coloured on a terminal), GitHub workflow commands, JSON."""

from __future__ import annotations

from collections.abc import Callable

from catalogctl import words
from catalogctl.errors import Severity
from catalogctl.model.validation import ValidationReport
from catalogctl.render.common import as_json, diagnostic_line, github_command, location


def summary_line(report: ValidationReport) -> str:
    """`<tree>: valid (0 errors, 5 warnings, 5 pending values)`."""
    c = report.summary
    verdict = "valid" if report.valid else "invalid"
    counts = [
        words.count(c.errors, "error"),
        words.count(c.warnings, "warning"),
        words.count(c.pending, "pending value"),
    ]
    return f"{report.tree}: {verdict} ({', '.join(counts)})"


def validation_text(report: ValidationReport) -> str:
    """Text for pipes and files: the problems, then a summary line."""
    lines = [diagnostic_line(d) for d in report.diagnostics]
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"


def print_validation_rich(report: ValidationReport) -> None:
    """The same text, coloured for a terminal (rich is imported only here)."""
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False, soft_wrap=True)
    for d in report.diagnostics:
        style = "bold red" if d.severity is Severity.ERROR else "yellow"
        line = Text(f"{location(d.path, d.line, d.column)}: ", style="bold")
        line.append(d.code, style=style)
        line.append(" " + ("warning: " if d.severity is Severity.WARNING else "") + d.message)
        if d.hint:
            line.append(f" ({d.hint})", style="dim")
        console.print(line)
    console.print(Text(summary_line(report), style="bold green" if report.valid else "bold red"))


def validation_github(report: ValidationReport) -> str:
    """Workflow commands, then the text summary line."""
    lines = [
        github_command(
            "error" if d.severity is Severity.ERROR else "warning",
            d.code,
            d.message + (f" ({d.hint})" if d.hint else ""),
            d.path,
            d.line,
            d.column,
        )
        for d in report.diagnostics
    ]
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"


# `validate`'s reporters by format; on a terminal, text is printed coloured (`print_validation_rich`).
REPORTERS: dict[str, Callable[[ValidationReport], str]] = {
    "text": validation_text,
    "json": as_json,
    "github": validation_github,
}
