"""What every renderer shares: diagnostics as lines and workflow commands, tables, JSON.

Nothing here decides anything: the library collects, this module only formats.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel

from catalogctl import words
from catalogctl.errors import Diagnostic, file_line_col
from catalogctl.model.reports.validation import DiagnosticEntry

AnyDiagnostic = Diagnostic | DiagnosticEntry  # the library's, or as a report holds it
ANNOTATIONS_PER_LEVEL = 10  # GitHub shows 10 errors and 10 warnings per step, drops the rest


def as_json(report: BaseModel) -> str:
    """A result model as its documented JSON: keys by alias, indented, a final newline."""
    return report.model_dump_json(by_alias=True, indent=2) + "\n"


def location(file: str, line: int = 0, column: int = 0) -> str:
    """`file:line:col` for people: just the file for a whole file, `catalog` when not in one."""
    return file_line_col(file, line, column) or "catalog"


def diagnostic_line(d: AnyDiagnostic) -> str:
    """One line per problem, the same for every verb: `file:line:col: severity code: message (hint)`."""
    hint = f" ({d.hint})" if d.hint else ""
    return f"{location(d.path, d.line, d.column)}: {d.severity.value} {d.code}: {d.message}{hint}"


def within_caps(errors: Sequence[str], warnings: Sequence[str], elsewhere: str) -> list[str]:
    """The workflow commands GitHub shows (the first of each level, up to its cap), then one line
    saying how many were left out and where the rest is (`elsewhere`)."""
    lines = [*errors[:ANNOTATIONS_PER_LEVEL], *warnings[:ANNOTATIONS_PER_LEVEL]]
    left_errors = max(0, len(errors) - ANNOTATIONS_PER_LEVEL)
    left_warnings = max(0, len(warnings) - ANNOTATIONS_PER_LEVEL)
    if left_errors or left_warnings:
        lines.append(
            f"{words.count(left_errors, 'more error')} and {words.count(left_warnings, 'more warning')} "
            "are not annotated "
            f"(GitHub shows {ANNOTATIONS_PER_LEVEL} of each per step): {elsewhere}"
        )
    return lines


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


def table(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain aligned table (stable for pipes and tests), aligned by the columns a terminal gives
    each character: two for CJK and most emoji (rich's cell widths)."""
    from rich.cells import cell_len

    widths = [len(c) for c in columns]
    for row in rows:
        widths = [max(w, cell_len(cell)) for w, cell in zip(widths, row, strict=True)]

    def fmt(cells: Sequence[str]) -> str:
        padded = (cell + " " * (w - cell_len(cell)) for cell, w in zip(cells, widths, strict=True))
        return "  ".join(padded).rstrip()

    out = [fmt([c.upper() for c in columns])]
    out.extend(fmt(r) for r in rows)
    return "\n".join(out) + "\n"
