"""Rendering of `validate`'s report: text (coloured on a terminal), GitHub workflow commands, JSON.

Text and GitHub take `errors_only` (`--errors-only`, `--quiet`): warnings are counted in the
summary but not printed. JSON always holds every selected diagnostic.
"""

from __future__ import annotations

from typing import Literal, Protocol

from catalogctl import words
from catalogctl.errors import Severity
from catalogctl.model.reports.validation import DiagnosticEntry, ValidationReport
from catalogctl.render.common import as_json, diagnostic_line, github_command, location, within_caps


class Reporter(Protocol):
    """A renderer of `validate`'s report."""

    def __call__(self, report: ValidationReport, *, errors_only: bool = False) -> str:
        """The report as text of one format."""


def summary_line(report: ValidationReport) -> str:
    """`<tree>: valid (0 errors, 5 warnings, 5 pending values)`, and how many `--select` or
    `--ignore` left out."""
    c = report.summary
    verdict = "valid" if report.valid else "invalid"
    counts = [
        words.count(c.errors, "error"),
        words.count(c.warnings, "warning"),
        words.count(c.pending, "pending value"),
    ]
    left_out = f"; {c.not_selected} not selected" if c.not_selected else ""
    return f"{report.tree}: {verdict} ({', '.join(counts)}{left_out})"


def _shown(report: ValidationReport, errors_only: bool) -> list[DiagnosticEntry]:
    return [d for d in report.diagnostics if not errors_only or d.severity is Severity.ERROR]


def validation_text(report: ValidationReport, *, errors_only: bool = False) -> str:
    """Text for pipes and files: the problems, then a summary line."""
    lines = [diagnostic_line(d) for d in _shown(report, errors_only)]
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"


def print_validation_rich(report: ValidationReport, *, errors_only: bool = False) -> None:
    """The same text, coloured for a terminal (rich is imported only here)."""
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False, soft_wrap=True)
    for d in _shown(report, errors_only):
        style = "bold red" if d.severity is Severity.ERROR else "yellow"
        line = Text(f"{location(d.path, d.line, d.column)}: ", style="bold")
        line.append(f"{d.severity.value} {d.code}", style=style)
        line.append(f": {d.message}")
        if d.hint:
            line.append(f" ({d.hint})", style="dim")
        console.print(line)
    console.print(Text(summary_line(report), style="bold green" if report.valid else "bold red"))


def _command(d: DiagnosticEntry) -> str:
    level: Literal["error", "warning"] = "error" if d.severity is Severity.ERROR else "warning"
    return github_command(level, d.code, d.message + (f" ({d.hint})" if d.hint else ""), d.path, d.line, d.column)


def validation_github(report: ValidationReport, *, errors_only: bool = False) -> str:
    """Workflow commands within GitHub's caps (as `ci` writes them), one line for what was left
    out, then the text summary line."""
    shown = _shown(report, errors_only)
    errors = [_command(d) for d in shown if d.severity is Severity.ERROR]
    warnings = [_command(d) for d in shown if d.severity is Severity.WARNING]
    lines = within_caps(errors, warnings, "run `catalogctl validate` for the full report")
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"


def validation_json(report: ValidationReport, *, errors_only: bool = False) -> str:
    """The documented JSON report: every selected diagnostic, whatever `errors_only` says."""
    return as_json(report)


# `validate`'s reporters by format; on a terminal, text is printed coloured (`print_validation_rich`).
REPORTERS: dict[str, Reporter] = {
    "text": validation_text,
    "json": validation_json,
    "github": validation_github,
}
