"""Both checkers' verdicts on a submission tree, row by row: each official rule of the Endpoints
checker (endpoints-submission-cli 1.5.3.0, `submission_checker` as a library) mapped to the row of
`catalogctl check` that judges the same thing (`ROWS`).

A verdict is `pass`, `fail`, `unknown` (catalogctl: a check it could not make, which blocks the
point as a failure does) or `none` (the side did not judge the row on this tree). A row's verdict
over the tree: `fail` when it fails at any point, else `unknown` when unknown at any, else `pass`
when it passes at any, else `none`. When catalogctl refuses the tree (exit 2, "inputs not
usable"), the refusal row of its reason says `fail` and every other row `refused`: it judged
nothing else. Two verdicts disagree when they differ, unless one side is `none` and the other
`pass` (one side judged and found nothing wrong) or catalogctl `refused` the tree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalogctl.errors import InputsUnusable
from catalogctl.model.reports.check import CheckReport
from catalogctl.run.check import check_files
from tests.conformance.tree_cohort import TreeCohort
from tests.submission_points import run_checker

Verdict = str  # pass, fail, unknown, none; catalogctl also refused


@dataclass(frozen=True)
class Row:
    """One of catalogctl's rows and the official rules it maps to (none: catalogctl's only).
    `gate` and `what` find its checks (`what` starts a check's `what`, or is in it for
    point_declaration); a refusal row has no gate and matches the refusal message's start."""

    name: str
    rules: tuple[str, ...]
    gate: str | None = None
    what: str = ""
    refusal: str = ""

    def matches(self, gate: str, what: str) -> bool:
        if gate != self.gate:
            return False
        return self.what in what if gate == "point_declaration" else what.startswith(self.what)


# The official rules whose findings are only failures: no finding is their pass.
_REPORT_ONLY_FAILURES = frozenset(
    {"config-file-present", "result-summary-present", "measurement-points-present", "system-description-present"}
)

ROWS: tuple[Row, ...] = (
    # With no seed_set declared, seed-config-legacy judges the same seeds (v0.7's 42) instead.
    Row(
        "declared seeds are the bound set's",
        ("seed-runtime-match", "seed-config-legacy"),
        "point_declaration",
        " declared vs seed set ",
    ),
    Row("the bound set is the submission's", ("seed-set-membership",), "point_declaration", "seed_set declared vs"),
    Row("the target cohort is the submission's", ("seed-set-adoption",), "point_declaration", "target_cohort declared"),
    Row("recorded seeds are the declared", (), "point_declaration", " recorded in "),
    Row("accuracy (exact_match)", ("accuracy-gate",), "accuracy_gate", "exact_match"),
    Row("output length (TOKENS_PER_SAMPLE)", (), "accuracy_gate", "TOKENS_PER_SAMPLE"),
    Row("accuracy samples", ("accuracy-sample-count",), "requirements", "accuracy samples scored"),
    Row("minimum duration", ("point-duration",), "requirements", "duration_ms"),
    Row("performance samples", ("min-query-count",), "requirements", "sample_count"),
    Row("model_name is an allowed model", ("model-name-valid",), "point_declaration", "model_name declared vs"),
    Row("model_name is the model folder's", ("model-name-consistency",), "point_declaration", "model_name declared vs"),
    Row("accuracy runs", ("accuracy-coverage",), "accuracy_runs"),
    Row("the point's files are present", tuple(sorted(_REPORT_ONLY_FAILURES)), refusal="is not a complete submission"),
    Row("the served model is the contract's", (), refusal="this run is of model"),
    Row("the load is the point's", (), refusal="this run is of load"),
)
ROW_NAMES = tuple(row.name for row in ROWS)


def _fold(statuses: Iterable[str]) -> Verdict:
    found = set(statuses)
    for verdict in ("fail", "unknown", "pass"):
        if verdict in found:
            return verdict
    return "none"


def official_verdicts(report: Any) -> dict[str, Verdict]:
    """The checker's verdict per row: its findings of the row's rules (a point-duration warning
    fails: §9.1 flags it; every other rule fails on errors)."""
    found: dict[str, Verdict] = {}
    for row in ROWS:
        statuses = []
        for result in report.results:
            if result.rule in row.rules:
                failing = ("error", "warning") if result.rule == "point-duration" else ("error",)
                statuses.append("fail" if result.severity.value in failing else "pass")
        if not statuses and row.rules and set(row.rules) <= _REPORT_ONLY_FAILURES:
            statuses.append("pass")
        found[row.name] = _fold(statuses)
    return found


def catalog_verdicts(outcome: CheckReport | InputsUnusable) -> dict[str, Verdict]:
    """catalogctl's verdict per row, from its report or its refusal."""
    if isinstance(outcome, InputsUnusable):
        message = str(outcome)
        reason = next((row for row in ROWS if row.refusal and row.refusal in message), None)
        if reason is None:
            raise AssertionError(f"a refusal no row names: {message}")
        return {row.name: "fail" if row is reason else "refused" for row in ROWS}
    found: dict[str, Verdict] = {}
    for row in ROWS:
        if row.refusal:
            found[row.name] = "pass"
        elif row.gate == "accuracy_runs":
            found[row.name] = _fold(g.verdict for g in outcome.gates if g.name == row.gate)
        else:
            statuses = [
                c.status
                for point in outcome.points
                for gate in point.gates
                for c in gate.checks
                if row.matches(gate.name, c.what)
            ]
            found[row.name] = _fold(s for s in statuses if s != "not-applicable")
    return found


def disagree(official: Verdict, ours: Verdict) -> bool:
    """Whether two verdicts of one row disagree (see the module docstring)."""
    return official != ours and {official, ours} != {"none", "pass"} and ours != "refused"


@dataclass(frozen=True)
class Judged:
    """Both sides' verdicts on one tree, by row."""

    official: dict[str, Verdict]
    ours: dict[str, Verdict]

    def pairs(self) -> dict[str, tuple[Verdict, Verdict]]:
        return {name: (self.official[name], self.ours[name]) for name in ROW_NAMES}


def judge(tree: Path, cohort: TreeCohort) -> Judged:
    """Run `tree` through both checkers, in this process, and give each side's verdicts."""
    official = run_checker(tree, seed_sets=cohort.seed_sets, drafters=cohort.drafters)
    outcome: CheckReport | InputsUnusable
    try:
        outcome = check_files(cohort.resolved, tree)
    except InputsUnusable as refused:
        outcome = refused
    return Judged(official_verdicts(official), catalog_verdicts(outcome))
