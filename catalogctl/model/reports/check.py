"""What `check` returns (`catalogctl/check/v1`): each gate's verdict and the checks behind it.

Numbers stay numbers: a check's `expected` and `observed` are JSON numbers when they are
numbers (64-bit seeds exact), strings only where the value is not one (a sha256, an api_type,
a pending `<TBD>`, a formula). A threshold's bound is computed exactly (reference x factor) and
kept as a decimal, written as a number.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import Field, PlainSerializer, computed_field

from catalogctl.model.reports.base import Report

CHECK_SCHEMA: Literal["catalogctl/check/v1"] = "catalogctl/check/v1"
# `not-applicable`: a check the run's runner has no counterpart for (LoadGen has no model seed);
# it neither passes nor blocks its gate, and says why in its note.
Status = Literal["pass", "fail", "unknown", "not-applicable"]
Verdict = Literal["pass", "fail", "not-evaluable", "not-applicable"]
# What lets a hard gate through: it passed, or nothing of it applies to this run (run/curve.py).
CLEARED: tuple[Verdict, ...] = ("pass", "not-applicable")
GateSeverity = Literal["hard", "soft"]


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


ExactNumber = Annotated[Decimal, PlainSerializer(_number, return_type=int | float, when_used="json")]
Value = bool | int | float | ExactNumber | str | None


class Check(Report):
    """One comparison: what, the value expected and the value observed, and its status."""

    what: str
    expected: Value = Field(description="the contract's value, or the bound")
    observed: Value = Field(None, description="what the run reported; null when it did not")
    status: Status
    bound: Literal[">=", "<=", ">"] | None = Field(
        None, description="how observed must compare with expected; null: equal (or expected describes it)"
    )
    unit: str = Field("", description="the unit of expected and observed, when they have one (ms, samples)")
    reference: int | float | None = Field(
        None, description="a threshold's reference value (expected = reference x factor)"
    )
    factor: int | float | None = Field(None, description="a threshold's factor")
    note: str = Field("", description="why there is no observed value, or why it could not be judged")


class GateResult(Report):
    """A gate's verdict with the checks behind it."""

    name: str
    severity: GateSeverity
    description: str
    checks: list[Check] = Field(default_factory=list)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def verdict(self) -> Verdict:
        """fail if any check failed; not-evaluable if any could not be made; not-applicable if
        none applies to the run; else pass."""
        if any(c.status == "fail" for c in self.checks):
            return "fail"
        if any(c.status == "unknown" for c in self.checks):
            return "not-evaluable"
        if self.checks and all(c.status == "not-applicable" for c in self.checks):
            return "not-applicable"
        return "pass"


# The MLCommons layouts, then one per evaluation harness (run/harnesses.py).
Layout = Literal[
    "results",
    "run-folder",
    "point",
    "submission",
    "loadgen",
    "mllog",
    "mllog-runs",
    "lm-eval",
    "evalscope",
    "inspect",
]


class PointCheck(Report):
    """One measurement point of a submission tree (§8.1 `r<N>/`): its gates, and its verdict."""

    point: str = Field(description="the point folder, relative to the tree `check` was given (results/<system>/...)")
    concurrency: int = Field(description="the concurrency point.yaml declares")
    source: str = Field(description="where the point's facts were read from")
    gates: list[GateResult]

    @computed_field(alias="valid")  # type: ignore[prop-decorator]
    @property
    def passed(self) -> bool:
        """No hard gate of the point failed or could not be evaluated."""
        return all(g.verdict in CLEARED for g in self.gates if g.severity == "hard")


class RunCheck(Report):
    """One run of a folder of MLLOG result files (one seed each): its gates, its time to train,
    and its verdict."""

    run: str = Field(description="the result file, by its name in the folder (result_0.txt)")
    source: str = Field(description="where the run's facts were read from")
    time_to_train_ms: float | None = Field(
        description="run_stop's time_ms less run_start's; null when the run logged no run_start or run_stop"
    )
    gates: list[GateResult]

    @computed_field(alias="valid")  # type: ignore[prop-decorator]
    @property
    def passed(self) -> bool:
        """No hard gate of the run failed or could not be evaluated."""
        return all(g.verdict in CLEARED for g in self.gates if g.severity == "hard")


class TrainingScore(Report):
    """A benchmark's result over its runs, as MLPerf Training's result summarizer derives it: an
    olympic mean of the valid runs' times to train, in minutes (the fastest run and the slowest
    left out; a run that is not valid, or logged no time, is dropped as the slowest; with more than
    one such run there is no result)."""

    minutes: float | None = Field(None, description="the result; null when it cannot be derived (see note)")
    mean_of: list[str] = Field(default_factory=list, description="the runs averaged")
    dropped: list[str] = Field(
        default_factory=list, description="the runs dropped for not being valid or logging no time to train"
    )
    note: str = Field("", description="how the result was derived, or why it was not")


class CheckReport(Report):
    """The documented JSON shape of `catalogctl check --format json`; the run is valid when no
    hard gate failed or went unevaluated, a submission tree when every point is, a folder of MLLOG
    runs when every run is."""

    schema_: Literal["catalogctl/check/v1"] = Field(CHECK_SCHEMA, alias="schema")
    benchmark: str
    source: str = Field(description="where the run's facts were read from")
    layout: Layout = Field(
        "results",
        description="what `check` read: a results file, an endpoints run folder, a submission point folder "
        "(r<N>/), a submission tree (one verdict per point in `points`), a LoadGen output folder, an MLLOG "
        "result file, a folder of MLLOG result files (mllog-runs: one verdict per run in `runs`), or an "
        "evaluation harness's output (lm-eval: a results_<timestamp>.json with its samples files; evalscope: an output "
        "folder or report; inspect: an inspect_ai JSON log)",
    )
    gates: list[GateResult] = Field(
        description="the run's gates; for a submission tree the tree's own (see `points`); for a folder of MLLOG "
        "runs the folder's own (see `runs`)",
    )
    points: list[PointCheck] = Field(
        default_factory=list, description="a submission tree's points, by concurrency; empty for any other layout"
    )
    runs: list[RunCheck] = Field(
        default_factory=list,
        description="a folder of MLLOG result files' runs, by file name (layout mllog-runs; `gates` then holds "
        "the folder's own, run_seeds); empty for any other layout",
    )
    score: TrainingScore | None = Field(
        default=None, description="a folder of MLLOG runs' result, the official way; null for any other layout"
    )
    time_to_train_ms: float | None = Field(
        default=None,
        description="a training run's time to train in ms: run_stop's time_ms less run_start's (MLPerf "
        "Training's result); null for a run that is not a training run or logged no run_start or run_stop",
    )
    proven_against: str | None = Field(
        default=None,
        description="the release the resolved config was re-resolved at (`check --catalog`), or null when it "
        "was checked against itself only (its digests and seal)",
    )

    @computed_field(alias="valid")  # type: ignore[prop-decorator]
    @property
    def passed(self) -> bool:
        """No hard gate failed or could not be evaluated; for a submission tree, every point valid;
        for a folder of MLLOG runs, every run valid."""
        gates = all(g.verdict in CLEARED for g in self.gates if g.severity == "hard")
        if self.layout == "submission":
            return gates and bool(self.points) and all(p.passed for p in self.points)
        if self.layout == "mllog-runs":
            return gates and bool(self.runs) and all(r.passed for r in self.runs)
        return gates
