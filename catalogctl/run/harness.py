"""The evaluation harnesses' outputs `check` reads, beside the MLCommons layouts: which one a path
is, and its reading as results and a gate of the contract."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from catalogctl.errors import InputsUnusable
from catalogctl.model.documents.results import RunResults
from catalogctl.model.reports.check import GateResult
from catalogctl.run.evalscope import is_evalscope_folder, is_evalscope_report, read_evalscope
from catalogctl.run.harnessfiles import peek_json
from catalogctl.run.harnessrun import harness_gate, harness_results, require_runner
from catalogctl.run.inspectlog import is_inspect_log, read_inspect_log
from catalogctl.run.shape import rule, shape_problems

# What the harness gate reads of a contract beyond the keys `check` types for every gate.
_READS = (rule("accuracy?.primary_metric?", "string"), rule("preprocessing?", "mapping"))
HarnessLayout = Literal["evalscope", "inspect"]
HARNESS_LAYOUTS: tuple[HarnessLayout, ...] = ("evalscope", "inspect")
HARNESS_HINT = "an evalscope output folder (configs/task_config.yaml, reports/) or report JSON; an inspect_ai JSON log"


def harness_layout(path: Path) -> HarnessLayout | None:
    """The harness whose output `path` is, or None: an evalscope output folder, or a JSON file
    that is an evalscope report or an inspect_ai log (by its top-level keys)."""
    if path.is_dir():
        return "evalscope" if is_evalscope_folder(path) else None
    if not (path.is_file() and path.suffix.lower() == ".json"):
        return None
    data = peek_json(path)
    if is_inspect_log(data):
        return "inspect"
    return "evalscope" if is_evalscope_report(data) else None


def read_harness(path: Path, layout: HarnessLayout, contract: Mapping[str, Any]) -> tuple[RunResults, GateResult]:
    """A harness's output as results of `contract` and its harness gate (refused when it is not a
    run of the contract's runner and tasks)."""
    problems = shape_problems(contract, _READS)
    if problems:  # keys no gate reads, so the resolved contract's typing leaves them to this reader
        raise InputsUnusable(
            f"the resolved config cannot be checked against an {layout} run: contract.{'; contract.'.join(problems)}",
            "write resolved configs with `catalogctl resolve` or `preflight`",
        )
    tasks = require_runner(layout, contract)  # before reading: a run of another harness is no run of this
    run = read_evalscope(path, tasks) if layout == "evalscope" else read_inspect_log(path)
    return harness_results(run, contract), harness_gate(run, contract)
