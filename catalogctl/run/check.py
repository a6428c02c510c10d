"""`check`: apply every gate a resolved contract names to what the run reported."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from catalogctl.errors import CatalogInvalid, Diagnostic, UsageError, error
from catalogctl.io.files import read_input
from catalogctl.io.yamlio import YamlProblem, parse_document
from catalogctl.model.check import Check, CheckReport, GateResult
from catalogctl.model.resolved import ResolvedConfig
from catalogctl.model.results import RunResults
from catalogctl.run.endpoints import read_run_folder
from catalogctl.run.gates import GATES, Run


def _invalid(path: Path, what: str, exc: ValidationError) -> CatalogInvalid:
    found: list[Diagnostic] = []
    for err in exc.errors(include_url=False):
        where = ".".join(str(p) for p in err["loc"]) or "document"
        found.append(error("schema-invalid-value", f"{where}: {err['msg']}", str(path)))
    return CatalogInvalid(f"{path} is not a valid {what}", found)


def load_resolved(path: Path) -> ResolvedConfig:
    """A resolved config written by `resolve` or `preflight` (YAML or JSON)."""
    data = read_input(path)
    try:
        parsed = json.loads(data) if path.suffix.lower() == ".json" else parse_document(str(path), data).data
    except (ValueError, YamlProblem) as exc:
        raise UsageError(f"{path} is not a resolved config: {exc}") from None
    try:
        return ResolvedConfig.model_validate(parsed)
    except ValidationError as exc:
        raise _invalid(path, "resolved config", exc) from None


def load_results(path: Path, config: ResolvedConfig) -> RunResults:
    """A results file (`catalogctl/results/v1`, JSON) or an endpoints client run folder."""
    if path.is_dir():
        return read_run_folder(path, config.contract)
    try:
        return RunResults.model_validate_json(read_input(path))
    except ValidationError as exc:
        raise _invalid(path, "results file", exc) from None


def check_run(config: ResolvedConfig, results: RunResults) -> CheckReport:
    """Run every gate the contract names, in its order."""
    contract = config.contract
    if "id" not in contract or "postprocessing" not in contract:
        raise UsageError("the resolved config's contract has no id or postprocessing: it is not a resolved contract")
    if results.benchmark != contract["id"]:
        raise UsageError(
            f"the results are of benchmark `{results.benchmark}`, the resolved config of `{contract['id']}`"
        )
    run = Run(contract, config.seeds.model_dump(exclude={"id"}), results)
    gates: list[GateResult] = []
    for name in contract["postprocessing"]["gates"]:
        spec = GATES.get(name)
        if spec is None:  # a contract validated by this tool never names one; an old tool's might
            unknown = Check(what=name, expected="a registered gate", status="unknown", note="unknown")
            gates.append(GateResult(name=name, severity="hard", description="unknown gate", checks=[unknown]))
            continue
        try:
            checks = spec.function(run)
        except (KeyError, TypeError, AttributeError) as exc:  # a hand-edited resolved config
            raise UsageError(
                f"the resolved config's contract lacks what gate `{name}` needs ({exc})",
                "write resolved configs with `catalogctl resolve` or `preflight`",
            ) from None
        gates.append(GateResult(name=spec.name, severity=spec.severity, description=spec.description, checks=checks))
    return CheckReport(benchmark=contract["id"], source=results.source, gates=gates)
