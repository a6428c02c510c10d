"""What every renderer shares: diagnostics as lines and workflow commands, tables, JSON.

Nothing here decides anything: the library collects, this module only formats.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from catalogctl.errors import Diagnostic, Severity
from catalogctl.model.validation import DiagnosticEntry

AnyDiagnostic = Diagnostic | DiagnosticEntry  # the library's, or as a report holds it


def as_json(report: BaseModel) -> str:
    """A result model as its documented JSON: keys by alias, indented, a final newline."""
    return report.model_dump_json(by_alias=True, indent=2) + "\n"


def location(d: AnyDiagnostic) -> str:
    """`file:line:col` (or just the file for a finding about a whole file)."""
    if not d.path:
        return "catalog"
    return f"{d.path}:{d.line}:{d.column}" if d.line else d.path


def diagnostic_line(d: AnyDiagnostic) -> str:
    """One line per problem: `file:line:col: code message (hint)`."""
    severity = "warning: " if d.severity is Severity.WARNING else ""
    hint = f" ({d.hint})" if d.hint else ""
    return f"{location(d)}: {d.code} {severity}{d.message}{hint}"


def github_escape_data(text: str) -> str:
    """Escape the message of a workflow command."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_escape_property(text: str) -> str:
    """Escape a property (file, title) of a workflow command."""
    return github_escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_command(d: AnyDiagnostic) -> str:
    """A GitHub Actions workflow command that annotates the file and line."""
    level = "error" if d.severity is Severity.ERROR else "warning"
    props = []
    if d.path:
        props.append(f"file={github_escape_property(d.path)}")
    if d.line:
        props.append(f"line={d.line}")
        props.append(f"col={d.column}")
    props.append(f"title={github_escape_property(d.code)}")
    message = d.message + (f" ({d.hint})" if d.hint else "")
    return f"::{level} {','.join(props)}::{github_escape_data(message)}"


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
