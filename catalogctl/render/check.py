"""Rendering of a check: a table for a terminal, Markdown, JSON."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from catalogctl import words
from catalogctl.io.markdown import md_code, md_text
from catalogctl.model.reports.check import CLEARED, Check, CheckReport, GateResult, PointCheck, RunCheck
from catalogctl.render.common import as_json, table


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


def status_word(status: str) -> str:
    """A check's status or a gate's verdict as the JSON names it, in capitals unless it passed:
    `pass`, `FAIL`, `UNKNOWN`, `NOT EVALUABLE`, `NOT APPLICABLE`."""
    return status if status == "pass" else status.replace("-", " ").upper()


def gate_label(gate: GateResult) -> str:
    """`accuracy_gate (hard)`: the gate and how bad its failure is."""
    return f"{gate.name} ({gate.severity})"


_GROUPS = ("submission", "mllog-runs")  # the layouts graded item by item: points, runs


def _verdict_line(report: CheckReport) -> str:
    if report.layout in _GROUPS:
        return _submission_line(report)
    return f"{report.benchmark}: {_gates_verdict(report.gates)}"


def _gates_verdict(gates: list[GateResult]) -> str:
    """`VALID`, or `INVALID (hard gates not passed: ...)`, and the soft gates that warned."""
    failed = [g.name for g in gates if g.severity == "hard" and g.verdict not in CLEARED]
    warned = [g.name for g in gates if g.severity == "soft" and g.verdict not in CLEARED]
    verdict = f"INVALID (hard gates not passed: {', '.join(failed)})" if failed else "VALID"
    soft = f"; warnings: {', '.join(warned)}" if warned else ""
    return verdict + soft


def _submission_line(report: CheckReport) -> str:
    """The verdict of a submission (or a folder of runs): valid when every point (run) is, and
    its own gates passed."""
    if report.layout == "submission":
        what, items = "point", [(p.point, p.passed) for p in report.points]
    else:
        what, items = "run", [(r.run, r.passed) for r in report.runs]
    invalid = [name for name, passed in items if not passed]
    failed = [g.name for g in report.gates if g.severity == "hard" and g.verdict not in CLEARED]
    count = words.count(len(items), what)
    why = [f"{what}s not valid: {', '.join(invalid)}"] if invalid else []
    why += [f"hard gates not passed: {', '.join(failed)}"] if failed else []
    verdict = f"INVALID ({'; '.join(why)})" if why else "VALID"
    return f"{report.benchmark} {'submission' if what == 'point' else 'runs'} ({count}): {verdict}"


def _point_line(point: PointCheck) -> str:
    return f"point {point.point} (concurrency {point.concurrency}): {_gates_verdict(point.gates)}"


def _run_line(run: RunCheck) -> str:
    return f"run {run.run}: {_gates_verdict(run.gates)}"


def score_line(report: CheckReport) -> str:
    """`result: 60.0 min (olympic mean of result_1.txt; ...)`, or why there is none."""
    score = report.score
    if score is None:
        return ""
    if score.minutes is None:
        return f"result: none ({score.note})"
    return f"result: {score.minutes:.2f} min (olympic mean of {', '.join(score.mean_of)}; {score.note})"


def time_to_train_line(time_to_train_ms: float | None, training: bool) -> str:
    """`time to train: 3600.0 s (run_start → run_stop)`; empty for a run that is not a training run."""
    if time_to_train_ms is not None:
        return f"time to train: {time_to_train_ms / 1000:.1f} s (run_start → run_stop)"
    return "time to train: not logged (no run_start or no run_stop)" if training else ""


def _trained(report: CheckReport) -> str:
    return time_to_train_line(report.time_to_train_ms, report.layout == "mllog")


def proof_line(report: CheckReport) -> str:
    """What the inputs were proven against: the release, or the resolved config's own digests."""
    if report.proven_against is not None:
        return f"inputs: proven against {report.proven_against}"
    return "inputs: checked against the resolved config's own digests; --catalog CLONE proves them against the release"


def _gate_rows(gates: list[GateResult]) -> list[list[str]]:
    rows = []
    for gate in gates:
        rows.append([gate_label(gate), status_word(gate.verdict), "", ""])
        if not gate.checks:
            rows.append(["  nothing to check", "", "", ""])
        for check in gate.checks:
            rows.append(["  " + check.what, status_word(check.status), expected_text(check), observed_text(check)])
    return rows


def check_text(report: CheckReport) -> str:
    """A line per gate with its verdict, under it a line per check with the check's own status;
    for a submission tree (a folder of runs), such a block per point (run), then the tree's own
    gates and its verdict."""
    head = f"source: {report.source}\n{proof_line(report)}\n"
    columns = ["gate / check", "status", "expected", "observed"]
    if report.layout not in _GROUPS:
        trained = _trained(report)
        return head + table(columns, _gate_rows(report.gates)) + _lines(trained) + _verdict_line(report) + "\n"
    blocks = [f"\n{_point_line(p)}\n" + table(columns, _gate_rows(p.gates)) for p in report.points]
    blocks += [
        f"\n{_run_line(r)}\n"
        + table(columns, _gate_rows(r.gates))
        + _lines(time_to_train_line(r.time_to_train_ms, True))
        for r in report.runs
    ]
    title = "the submission" if report.layout == "submission" else "the runs"
    own = f"\n{title}\n" + table(columns, _gate_rows(report.gates)) if report.gates else ""
    return head + "".join(blocks) + own + _lines(score_line(report)) + "\n" + _verdict_line(report) + "\n"


def _lines(line: str) -> str:
    return line and line + "\n"


def _markdown_rows(gates: list[GateResult]) -> list[str]:
    lines = ["| gate / check | status | expected | observed |", "| --- | --- | --- | --- |"]
    for gate in gates:
        lines.append(f"| **{md_text(gate_label(gate))}** | **{status_word(gate.verdict)}** | | |")
        if not gate.checks:
            lines.append("| nothing to check | | | |")
        for check in gate.checks:
            cells = [check.what, status_word(check.status), expected_text(check), observed_text(check)]
            lines.append("| " + " | ".join(md_text(cell) for cell in cells) + " |")
    return lines


def check_markdown(report: CheckReport) -> str:
    """A Markdown table, fit for a PR or a submission review: a bold row per gate with its
    verdict, then a row per check with the check's own status; a table per point of a tree."""
    proof = proof_line(report)
    lines = [
        f"### Checks of {md_code(report.benchmark)}",
        "",
        f"Source: {md_text(report.source)}",
        "",
        md_text(proof[:1].upper() + proof[1:]),
        "",
    ]
    if report.layout not in _GROUPS:
        lines += _markdown_rows(report.gates)
        trained = _trained(report)
        lines += ["", _sentence(trained)] if trained else []
    for point in report.points:
        lines += [f"#### {md_text(_point_line(point))}", "", *_markdown_rows(point.gates), ""]
    for run in report.runs:
        trained = _sentence(time_to_train_line(run.time_to_train_ms, True))
        lines += [f"#### {md_text(_run_line(run))}", "", *_markdown_rows(run.gates), "", trained, ""]
    if report.layout in _GROUPS and report.gates:
        title = "The submission" if report.layout == "submission" else "The runs"
        lines += [f"#### {title}", "", *_markdown_rows(report.gates), ""]
    score = score_line(report)
    lines += [_sentence(score), ""] if score else []
    lines += ["", f"**{md_text(_verdict_line(report))}**"]
    return "\n".join(lines) + "\n"


def _sentence(line: str) -> str:
    return md_text(line[:1].upper() + line[1:])


REPORTERS: dict[str, Callable[[CheckReport], str]] = {
    "text": check_text,
    "json": as_json,
    "markdown": check_markdown,
}
