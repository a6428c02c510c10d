"""A submission tree's accuracy, graded as the Endpoints rules lay it out: accuracy runs at a
fixed number of the curve's points (§4.3: "a fixed count, not a floor"), not at every point. A
point without an accuracy run has no accuracy to grade: its accuracy rows are not applicable
(they neither pass nor block the point), and each curve of the submission
(`results/<system>/<model>`) needs at least one point whose accuracy run passed its gate
(`accuracy_runs`)."""

from __future__ import annotations

from catalogctl.model.reports.check import Check, GateResult, PointCheck

NO_ACCURACY_RUN = "no accuracy run at this point (§4.3: accuracy runs at a fixed number of points)"
# The rows that read accuracy_results.json: the accuracy gate, and the accuracy samples it scored.
_ACCURACY_ROWS = ("accuracy samples scored",)


def _not_applicable(check: Check) -> Check:
    return check.model_copy(update={"status": "not-applicable", "observed": None, "note": NO_ACCURACY_RUN})


def without_accuracy_run(gates: list[GateResult]) -> list[GateResult]:
    """A point's gates when it has no accuracy run: its accuracy rows not applicable."""
    kept = []
    for gate in gates:
        if gate.name == "accuracy_gate":
            gate = gate.model_copy(update={"checks": [_not_applicable(c) for c in gate.checks]})
        elif gate.name == "requirements":
            checks = [_not_applicable(c) if c.what.startswith(_ACCURACY_ROWS) else c for c in gate.checks]
            gate = gate.model_copy(update={"checks": checks})
        kept.append(gate)
    return kept


def accuracy_runs_gate(points: list[PointCheck], with_accuracy: list[str]) -> GateResult:
    """The submission's accuracy, curve by curve (`results/<system>/<model>`, §8.5: each system's
    curve is a result of its own): at least one point of each has an accuracy run, and each
    passed its gate (a failed one already fails its point)."""
    curves: dict[str, list[PointCheck]] = {}
    for point in points:
        curves.setdefault(point.point.rpartition("/")[0], []).append(point)
    checks = [_curve_check(curve, curves[curve], with_accuracy) for curve in sorted(curves)]
    return GateResult(
        name="accuracy_runs",
        severity="hard",
        description="each curve's accuracy runs: at least one point of it carries one, and it passed",
        checks=checks,
    )


def _curve_check(curve: str, points: list[PointCheck], with_accuracy: list[str]) -> Check:
    ran = [p for p in points if p.point in with_accuracy]
    passed = [p for p in ran if all(g.verdict == "pass" for g in p.gates if g.name == "accuracy_gate")]
    return Check(
        what=f"points of {curve or 'the curve'} with an accuracy run that passed its gate",
        expected=1,
        observed=len(passed),
        bound=">=",
        status="pass" if passed else "fail",
        note="" if ran else "no point of this curve has an accuracy_results.json",
    )
