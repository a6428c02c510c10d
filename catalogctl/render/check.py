"""Rendering of a check: a table for a terminal, Markdown, JSON."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from catalogctl.model.check import Check, CheckReport
from catalogctl.render.common import as_json, table

_MARK = {"pass": "pass", "fail": "FAIL", "not-evaluable": "NOT EVALUABLE"}


def _is_number(value: object) -> bool:
    return isinstance(value, int | float | Decimal) and not isinstance(value, bool)


def _show(value: object) -> str:
    """A value for people: floats to 6 significant digits (large ones to one decimal); an exact
    bound as computed."""
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return f"{value:.6g}" if abs(value) < 1e5 else f"{value:.1f}"
    return str(value)


def expected_text(check: Check) -> str:
    """`>= 600000 ms`, `>= 80.544618 (81.3582 x 0.99)`, or the value itself."""
    text = _show(check.expected)
    if check.bound is not None:
        text = f"{check.bound} {text}"
    if check.reference is not None:
        return f"{text} ({check.reference} x {check.factor})"
    return f"{text} {check.unit}" if check.unit and _is_number(check.expected) else text


def observed_text(check: Check) -> str:
    """What the run reported (with its unit), or why there is nothing to show."""
    if check.observed is None:
        return check.note or "not reported"
    text = _show(check.observed)
    return f"{text} {check.unit}" if check.unit and _is_number(check.observed) else text


def _verdict_line(report: CheckReport) -> str:
    failed = [g.name for g in report.gates if g.severity == "hard" and g.verdict != "pass"]
    warned = [g.name for g in report.gates if g.severity == "soft" and g.verdict != "pass"]
    verdict = "VALID" if report.passed else f"INVALID (hard gates not passed: {', '.join(failed)})"
    soft = f"; warnings: {', '.join(warned)}" if warned else ""
    return f"{report.benchmark}: {verdict}{soft}"


def check_text(report: CheckReport) -> str:
    """One row per check: gate, verdict, what, expected, observed."""
    rows = []
    for gate in report.gates:
        verdict = _MARK[gate.verdict] + (" (soft)" if gate.severity == "soft" and gate.verdict != "pass" else "")
        if not gate.checks:
            rows.append([gate.name, verdict, "nothing to check", "", ""])
        for check in gate.checks:
            status = "" if check.status == "pass" else f"  [{check.status}]"
            rows.append([gate.name, verdict, check.what, expected_text(check), observed_text(check) + status])
    return (
        f"source: {report.source}\n"
        + table(["gate", "verdict", "check", "expected", "observed"], rows)
        + _verdict_line(report)
        + "\n"
    )


def check_markdown(report: CheckReport) -> str:
    """A Markdown table, fit for a PR or a submission review."""
    lines = [
        f"### Checks of `{report.benchmark}`",
        "",
        f"Source: {report.source}",
        "",
        "| gate | verdict | check | expected | observed |",
        "| --- | --- | --- | --- | --- |",
    ]
    for gate in report.gates:
        rows = [[c.what, expected_text(c), observed_text(c)] for c in gate.checks] or [["nothing to check", "", ""]]
        for row in rows:
            cells = [gate.name, _MARK[gate.verdict], *row]
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    lines += ["", f"**{_verdict_line(report)}**"]
    return "\n".join(lines) + "\n"


REPORTERS: dict[str, Callable[[CheckReport], str]] = {
    "text": check_text,
    "json": as_json,
    "markdown": check_markdown,
}
