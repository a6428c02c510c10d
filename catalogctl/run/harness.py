"""evalscope's and inspect_ai's outputs as `check` reads them: how each is recognised, and its
grading (the contract's gates on what the harness recorded, then the harness's own gate). Their
entries in the harness registry are in run/harnesses.py."""

from __future__ import annotations

from pathlib import Path

from catalogctl.errors import InputsUnusable
from catalogctl.model.documents.resolved import ResolvedConfig
from catalogctl.model.reports.check import CheckReport
from catalogctl.run.evalscope import is_evalscope_folder, is_evalscope_report, read_evalscope
from catalogctl.run.grading import grade
from catalogctl.run.harnessfiles import peek_json
from catalogctl.run.harnessrun import harness_gate, harness_results, require_runner
from catalogctl.run.inspectlog import is_inspect_log, read_inspect_log
from catalogctl.run.shape import rule, shape_problems

EVALSCOPE_READS = "an evalscope output folder (configs/task_config.yaml, reports/) or report JSON"
INSPECT_READS = "an inspect_ai JSON log (--log-format json)"
# What the harness gate reads of a contract beyond the keys `check` types for every gate.
_READS = (rule("accuracy?.primary_metric?", "string"), rule("preprocessing?", "mapping"))


def _json_file(path: Path) -> object:
    return peek_json(path) if path.is_file() and path.suffix.lower() == ".json" else None


def claims_evalscope(path: Path) -> bool:
    """Whether `path` is evalscope output: an output folder, or a JSON file with a report's keys."""
    return is_evalscope_folder(path) if path.is_dir() else is_evalscope_report(_json_file(path))


def claims_inspect(path: Path) -> bool:
    """Whether `path` is an inspect_ai log: a JSON file with an `EvalLog`'s keys."""
    return not path.is_dir() and is_inspect_log(_json_file(path))


def _grade(layout: str, config: ResolvedConfig, path: Path, proven_against: str | None) -> CheckReport:
    """A harness's output proven to be a run of the contract's runner and tasks, graded by the
    contract's gates in order, then by its own (`evalscope_run`, `inspect_run`)."""
    contract = config.contract
    problems = shape_problems(contract, _READS)
    if problems:  # keys no gate reads, so the resolved contract's typing leaves them to this reader
        raise InputsUnusable(
            f"the resolved config cannot be checked against an {layout} run: contract.{'; contract.'.join(problems)}",
            "write resolved configs with `catalogctl resolve` or `preflight`",
        )
    tasks = require_runner(layout, contract)  # before reading: a run of another harness is no run of this
    run = read_evalscope(path, tasks) if layout == "evalscope" else read_inspect_log(path)
    results, gate = harness_results(run, contract), harness_gate(run, contract)
    report = grade(config, results, proven_against)
    return report.model_copy(update={"gates": [*report.gates, gate], "layout": layout})


def grade_evalscope(config: ResolvedConfig, path: Path, proven_against: str | None) -> CheckReport:
    """An evalscope output folder or report, graded against the contract."""
    return _grade("evalscope", config, path, proven_against)


def grade_inspect(config: ResolvedConfig, path: Path, proven_against: str | None) -> CheckReport:
    """An inspect_ai JSON log, graded against the contract."""
    return _grade("inspect", config, path, proven_against)
