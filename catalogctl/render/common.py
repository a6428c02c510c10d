"""Rendering of results for people (text, tables) and machines (JSON, GitHub workflow commands).

Nothing here decides anything: the library collects, this module only formats.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from catalogctl.errors import Diagnostic, Severity, file_line_col

DIAGNOSTICS_SCHEMA = "catalogctl/diagnostics/v1"


def counts(diagnostics: Iterable[Diagnostic]) -> dict[str, int]:
    """Errors, warnings and pending values."""
    items = list(diagnostics)
    return {
        "errors": sum(d.severity is Severity.ERROR for d in items),
        "warnings": sum(d.severity is Severity.WARNING for d in items),
        "pending": sum(d.code == "pending-value" for d in items),
    }


def location(file: str, line: int = 0, column: int = 0) -> str:
    """`file:line:col` for people: just the file for a whole file, `catalog` when not in one."""
    return file_line_col(file, line, column) or "catalog"


def diagnostic_line(d: Diagnostic) -> str:
    """One line per problem: `file:line:col: code message (hint)`."""
    severity = "warning: " if d.severity is Severity.WARNING else ""
    hint = f" ({d.hint})" if d.hint else ""
    return f"{location(d.path, d.line, d.column)}: {d.code} {severity}{d.message}{hint}"


def summary_line(diagnostics: Sequence[Diagnostic], label: str) -> str:
    """`<tree>: valid (0 errors, 5 warnings, 5 pending values)`."""
    c = counts(diagnostics)
    verdict = "invalid" if c["errors"] else "valid"
    return f"{label}: {verdict} ({c['errors']} errors, {c['warnings']} warnings, {c['pending']} pending values)"


def diagnostics_text(diagnostics: Sequence[Diagnostic], label: str) -> str:
    """Text for pipes and files: the problems, then a summary line."""
    lines = [diagnostic_line(d) for d in diagnostics]
    lines.append(summary_line(diagnostics, label))
    return "\n".join(lines) + "\n"


def print_diagnostics_rich(diagnostics: Sequence[Diagnostic], label: str) -> None:
    """The same text, coloured for a terminal (rich is imported only here)."""
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False, soft_wrap=True)
    for d in diagnostics:
        style = "bold red" if d.severity is Severity.ERROR else "yellow"
        line = Text(f"{location(d.path, d.line, d.column)}: ", style="bold")
        line.append(d.code, style=style)
        line.append(" " + ("warning: " if d.severity is Severity.WARNING else "") + d.message)
        if d.hint:
            line.append(f" ({d.hint})", style="dim")
        console.print(line)
    c = counts(diagnostics)
    console.print(Text(summary_line(diagnostics, label), style="bold red" if c["errors"] else "bold green"))


def diagnostics_json(diagnostics: Sequence[Diagnostic], label: str) -> str:
    """The documented JSON report (see README, "JSON output")."""
    c = counts(diagnostics)
    report: dict[str, Any] = {
        "schema": DIAGNOSTICS_SCHEMA,
        "tree": label,
        "valid": c["errors"] == 0,
        "summary": c,
        "diagnostics": [d.to_json() for d in diagnostics],
    }
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


def github_escape_data(text: str) -> str:
    """Escape the message of a workflow command."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_escape_property(text: str) -> str:
    """Escape a property (file, title) of a workflow command."""
    return github_escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_command(
    level: Literal["error", "warning", "notice"],
    title: str,
    message: str,
    file: str = "",
    line: int = 0,
    column: int = 0,
) -> str:
    """A GitHub Actions workflow command that annotates `file` at `line` (when given), escaped."""
    props = [f"file={github_escape_property(file)}"] if file else []
    if line:
        props += [f"line={line}", f"col={column}"]
    props.append(f"title={github_escape_property(title)}")
    return f"::{level} {','.join(props)}::{github_escape_data(message)}"


def diagnostics_github(diagnostics: Sequence[Diagnostic], label: str) -> str:
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
        for d in diagnostics
    ]
    lines.append(summary_line(diagnostics, label))
    return "\n".join(lines) + "\n"


def table(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain aligned table (no dependency, stable for pipes and tests)."""
    widths = [len(c) for c in columns]
    for row in rows:
        widths = [max(w, len(cell)) for w, cell in zip(widths, row, strict=True)]

    def fmt(cells: Sequence[str]) -> str:
        return "  ".join(cell.ljust(w) for cell, w in zip(cells, widths, strict=True)).rstrip()

    out = [fmt([c.upper() for c in columns])]
    out.extend(fmt(r) for r in rows)
    return "\n".join(out) + "\n"
