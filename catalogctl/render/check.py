"""Rendering of a check: a table for a terminal, Markdown, JSON."""

from __future__ import annotations

import json

from catalogctl.render.common import table
from catalogctl.run.check import CheckReport

_MARK = {"pass": "pass", "fail": "FAIL", "not-evaluable": "NOT EVALUABLE"}


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
            rows.append(
                [
                    gate.name,
                    verdict,
                    check.what,
                    check.expected,
                    check.observed + ("" if check.status == "pass" else f"  [{check.status}]"),
                ]
            )
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
        rows = [[c.what, c.expected, c.observed] for c in gate.checks] or [["nothing to check", "", ""]]
        for row in rows:
            cells = [gate.name, _MARK[gate.verdict], *row]
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    lines += ["", f"**{_verdict_line(report)}**"]
    return "\n".join(lines) + "\n"


def check_json(report: CheckReport) -> str:
    """The documented JSON shape (`catalogctl/check/v1`)."""
    data = {
        "schema": "catalogctl/check/v1",
        "benchmark": report.benchmark,
        "source": report.source,
        "valid": report.passed,
        "gates": [
            {
                "name": g.name,
                "severity": g.severity,
                "verdict": g.verdict,
                "description": g.description,
                "checks": [vars(c) for c in g.checks],
            }
            for g in report.gates
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
