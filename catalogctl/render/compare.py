"""Rendering of `compare`'s matrix: a table for a terminal (coloured when it is one), Markdown for a
pull-request comment, JSON; the HTML page is `render/site/compare_page`."""

from __future__ import annotations

from catalogctl import words
from catalogctl.io.markdown import md_code, md_text
from catalogctl.model.reports.compare import CompareCell, CompareReport, CompareRow
from catalogctl.render.common import as_json, table

_COLOURS = {"better": "\x1b[32m", "worse": "\x1b[31m"}  # green, red (ANSI)
_RESET = "\x1b[0m"
EXTERNAL_NOTE = "external: reported back by the submitter, not read from a harness's output"


def change_text(row: CompareRow, cell: CompareCell) -> str:
    """`-3.5 pp, worse`: the change against the baseline (in points for a percent) and its trend."""
    if cell.change is None or cell.trend is None:
        return ""
    if row.ratio:
        amount = f"{cell.change * 100:+.1f} pp"
    elif row.unit == "percent":
        amount = f"{cell.change:+.1f} pp"
    else:
        amount = f"{cell.change:+.4g}"
    return "same" if cell.trend == "same" else f"{amount}, {cell.trend}"


def cell_text(row: CompareRow, cell: CompareCell) -> str:
    """`78.0% (-3.5 pp, worse)`, `81.2% (external)`, `-`."""
    notes = [note for note in (change_text(row, cell), "external" if cell.external else "") if note]
    return f"{cell.shown} ({'; '.join(notes)})" if notes else cell.shown


def _headers(report: CompareReport) -> list[str]:
    return [f"{run.label} (baseline)" if run.label == report.baseline else run.label for run in report.runs]


def _summary(report: CompareReport) -> str:
    if report.baseline is None:
        return f"{words.count(len(report.rows), 'row')}, no baseline (one run)"
    return f"{words.count(report.regressions, 'regression')} against {report.baseline}"


def render_text(report: CompareReport, *, colour: bool = False) -> str:
    """The matrix as an aligned table; with `colour`, better in green and worse in red."""
    rows = []
    for row in report.rows:
        cells = []
        for cell in row.cells:
            text = cell_text(row, cell)
            if colour and cell.trend in _COLOURS:
                text = f"{_COLOURS[cell.trend]}{text}{_RESET}"
            cells.append(text)
        rows.append([row.benchmark, row.label, *cells])
    lines = [table(["benchmark", "metric", *_headers(report)], rows).rstrip("\n")]
    if any(cell.external for row in report.rows for cell in row.cells):
        lines.append(EXTERNAL_NOTE)
    lines.append(_summary(report))
    return "\n".join(lines) + "\n"


def render_markdown(report: CompareReport) -> str:
    """The matrix as a Markdown table: a regression in bold."""
    head = ["Benchmark", "Metric", *(md_text(h) for h in _headers(report))]
    lines = ["### Benchmark comparison", "", "| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for row in report.rows:
        cells = []
        for cell in row.cells:
            text = md_text(cell_text(row, cell))
            cells.append(f"**{text}**" if cell.trend == "worse" else text)
        lines.append(f"| {md_code(row.benchmark)} | {md_text(row.label)} | " + " | ".join(cells) + " |")
    lines.append("")
    if any(cell.external for row in report.rows for cell in row.cells):
        lines.extend([md_text(EXTERNAL_NOTE), ""])
    lines.append(md_text(_summary(report)))
    return "\n".join(lines) + "\n"


def render_json(report: CompareReport) -> str:
    """The documented JSON (`catalogctl/compare/v1`)."""
    return as_json(report)
