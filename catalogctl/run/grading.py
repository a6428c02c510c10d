"""Grading a run proven to be of a contract: every gate the contract names, in order, on the run's
results. `check` grades every layout so; a harness's reader (run/harness.py) too."""

from __future__ import annotations

from typing import Any

from catalogctl.model.documents.resolved import ResolvedConfig
from catalogctl.model.documents.results import RunResults
from catalogctl.model.reports.check import Check, CheckReport, GateResult
from catalogctl.run.gates import GATES, Run
from catalogctl.run.identity import verify_identity


def grade(
    config: ResolvedConfig,
    results: RunResults,
    proven_against: str | None,
    *,
    load: dict[str, Any] | None = None,
    names_model: bool = True,
) -> CheckReport:
    """A run proven to be of this contract, graded by every gate the contract names, in order;
    `load` is the run's when the reader knows it better than `results` can say (LoadGen's Offline)."""
    verify_identity(config, results, names_model=names_model)
    contract = config.contract
    # the load the run reports, else the submission's (verify_identity: they agree when both are known)
    pattern = results.load_pattern or (config.settings.load_pattern if config.settings else None)
    if load is None:  # a training run has no load
        load = pattern.model_dump(exclude_none=True) if pattern else {}
    owned = config.training.model_dump() if config.training else {}
    run = Run(contract, config.seeds.model_dump(exclude={"id"}), results, load, owned)
    gates: list[GateResult] = []
    for name in contract["postprocessing"]["gates"]:
        spec = GATES.get(name)
        if spec is None:  # a contract validated by this tool never names one; an old tool's might
            unknown = Check(what=name, expected="a registered gate", status="unknown", note="unknown")
            gates.append(GateResult(name=name, severity="hard", description="unknown gate", checks=[unknown]))
            continue
        gates.append(
            GateResult(name=spec.name, severity=spec.severity, description=spec.description, checks=spec.function(run))
        )
    return CheckReport(benchmark=contract["id"], source=results.source, gates=gates, proven_against=proven_against)
