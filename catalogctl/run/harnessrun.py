"""A run of an evaluation harness (evalscope, inspect_ai) as `check` grades it: what the harness
recorded, mapped onto the contract's gates, and the harness's own gate.

A reader (run/evalscope.py, run/inspectlog.py) returns a `HarnessRun`: the task, the model, the
metrics by the harness's own names, and each setting the contract fixes as the harness recorded it
(None where it did not: its row is then UNKNOWN, never a pass). This module proves the run is one
of the contract's harness and tasks, maps it to results (the threshold's metric as the dataset's
score, the samples scored, the generation settings, the served model) for the contract's gates,
and writes the harness gate (`evalscope_run`, `inspect_run`): task version, few-shot count, limit,
repeats, sample counts, how the run ended, each metric the contract names, the primary metric.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from catalogctl.errors import InputsUnusable
from catalogctl.io.pep440 import allows, version_pin
from catalogctl.model.documents.results import RunResults
from catalogctl.model.reports.check import Check, GateResult, Status

_RATIO = ("percent", "fraction")
_HINT = "check the run against the resolved config of the benchmark that ran it"
# The contract's generation keys, and the harnesses' names of each (max_tokens: both harnesses).
GENERATION_KEYS = {
    "temperature": "temperature",
    "top_p": "top_p",
    "top_k": "top_k",
    "max_tokens": "max_new_tokens",
    "reasoning_effort": "reasoning_effort",
}


_KINDS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "temperature": ((int, float), "a number of 0 or more"),
    "top_p": ((int, float), "a number of 0 or more"),
    "top_k": (int, "an integer of 0 or more"),
    "max_tokens": (int, "an integer of 0 or more"),
    "reasoning_effort": (str, "a string"),
}
UINT64 = 2**64


@dataclass(frozen=True)
class Recorded:
    """A setting the contract fixes, as the harness recorded it: the harness's name of it, and its
    value (None: not recorded; `note` says why)."""

    what: str
    value: Any
    note: str = ""


@dataclass(frozen=True)
class HarnessRun:
    """What a harness's files record of one task's run."""

    harness: str  # evalscope, inspect: the contract's runner name
    source: str
    task: str
    model: str
    api_type: str | None
    metrics: dict[str, float]  # by the harness's own key
    primary: str | None  # the harness's primary metric; None: it named none
    samples_scored: int | None  # samples times repeats
    task_version: Recorded
    fewshot: Recorded
    limit: Recorded  # value "none": the run recorded no limit
    repeats: Recorded
    samples: Recorded  # samples times repeats, requested or completed
    outcome: list[tuple[str, Any, Any]]  # (what, expected, observed): how the run ended
    harness_version: Recorded | None = None  # the harness's own version, as the run recorded it
    dataset_samples: Recorded | None = None  # the dataset's size, where the harness records it
    generation: dict[str, Any] = field(default_factory=dict)  # by the contract's keys
    model_seed: int | None = None
    primary_note: str = ""


def generation_of(config: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The contract's generation keys from a harness's generate config (`max_tokens` becomes
    `max_new_tokens`); a value of the wrong type is refused naming its key."""
    found: dict[str, Any] = {}
    for key, name in GENERATION_KEYS.items():
        value = config.get(key)
        if value is None:
            continue
        kind, said = _KINDS[key]
        fits = isinstance(value, kind) and not isinstance(value, bool)
        if not fits or (isinstance(value, int | float) and value < 0):
            raise InputsUnusable(f"{where}.{key} is {value!r}, not {said}")
        found[name] = float(value) if key in ("temperature", "top_p") else value
    return found


def seed_of(value: Any) -> int | None:
    """A generate config's seed as a model seed (an unsigned 64-bit integer), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < UINT64 else None


def require_runner(harness: str, contract: Mapping[str, Any]) -> list[str]:
    """The contract's tasks of `harness`; a contract of another runner (or of none) is refused."""
    runner = contract.get("runner") or {}
    name = runner.get("name")
    if name != harness:
        said = (
            f"the contract's runner is {name}" if name else "the contract names no runner: the endpoints client runs it"
        )
        raise InputsUnusable(f"this is an {harness} run; {said}", _HINT)
    return list(runner.get("tasks") or [])


def _dataset_of(run: HarnessRun, contract: Mapping[str, Any]) -> Mapping[str, Any]:
    """The contract's accuracy dataset the run's task scores (the runner's tasks and the accuracy
    datasets pair up in order); a run of another runner or task is refused."""
    tasks = require_runner(run.harness, contract)
    name = run.harness
    if run.task not in tasks:
        shown = ", ".join(f"`{t}`" for t in tasks)
        raise InputsUnusable(f"this run is of {run.harness} task `{run.task}`; the contract's {name} tasks are {shown}")
    datasets = (contract.get("accuracy") or {}).get("datasets") or []
    if len(datasets) != len(tasks):
        raise InputsUnusable(
            f"the contract names {len(tasks)} {name} tasks and {len(datasets)} accuracy datasets: "
            "which dataset a task scores is unknown",
            "a pack lists one accuracy dataset per task, in the order of runner.tasks",
        )
    return datasets[tasks.index(run.task)]  # type: ignore[no-any-return]


def _scored_key(run: HarnessRun, contract: Mapping[str, Any]) -> str | None:
    """The metric that is the dataset's score: the one ratio threshold (the accuracy gate scores a
    ratio from the datasets), else the primary metric when it is a ratio."""
    metrics = contract.get("metrics") or {}
    accuracy = contract.get("accuracy") or {}
    ratios: list[str] = [k for k in accuracy.get("thresholds") or {} if (metrics.get(k) or {}).get("unit") in _RATIO]
    if len(ratios) > 1:
        raise InputsUnusable(
            f"the contract holds {len(ratios)} ratio thresholds ({', '.join(ratios)}) on one {run.harness} task: "
            "check grades one score per dataset",
            "threshold one metric per accuracy dataset",
        )
    if ratios:
        return ratios[0]
    primary = accuracy.get("primary_metric")
    return primary if (metrics.get(primary) or {}).get("unit") in _RATIO else None


def harness_results(run: HarnessRun, contract: Mapping[str, Any]) -> RunResults:
    """What the run reports, as results of `contract` (refused when it is a run of another
    runner, task or dataset pairing)."""
    dataset = _dataset_of(run, contract)["dataset"]["id"]
    scored = _scored_key(run, contract)
    unit = (contract.get("metrics") or {}).get(scored or "", {}).get("unit", "fraction")
    named = [k for k in contract.get("metrics") or {} if k in run.metrics and k != scored]
    data = {
        "benchmark": contract["id"],
        "source": run.source,
        "api_type": run.api_type,
        "model": run.model,
        "seeds": {"model_seed": run.model_seed},
        "generation": [{"phase": "accuracy", "dataset": dataset, **run.generation}],
        "accuracy": [
            {
                "dataset": dataset,
                "scale": unit if unit in _RATIO else "fraction",
                "pooled_score": run.metrics.get(scored) if scored else None,
                "samples_scored": run.samples_scored,
            }
        ],
        "metrics": {k: run.metrics[k] for k in named},
    }
    try:
        return RunResults.model_validate(data)
    except ValidationError as exc:  # ids and keys of a contract edited and resealed: no results of it
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InputsUnusable(f"{run.source} cannot be results of this contract ({where}: {first['msg']})") from None


def _scalar(value: Any) -> Any:
    """A value as a check shows it: a list or a mapping (a range of samples, a contract edited and
    resealed) as its text, never taken for a scalar it could equal."""
    return value if value is None or isinstance(value, bool | int | float | str) else str(value)


def _row(what: str, expected: Any, observed: Any, note: str = "") -> Check:
    expected, observed = _scalar(expected), _scalar(observed)
    status: Status = "unknown" if expected is None or observed is None else "pass"
    same = expected == observed and isinstance(expected, bool) == isinstance(observed, bool)  # 0 is not False
    if status == "pass" and not same:
        status = "fail"
    return Check(what=what, expected=expected, observed=observed, status=status, note=note)


def _setting(recorded: Recorded, expected: Any) -> Check:
    if isinstance(expected, str) and expected.startswith("<"):  # pending in the contract
        return Check(what=recorded.what, expected=expected, observed=_scalar(recorded.value), status="unknown")
    return _row(recorded.what, expected, recorded.value, recorded.note)


def _version_row(run: HarnessRun, contract: Mapping[str, Any]) -> Check:
    pinned = ((contract.get("runner") or {}).get("task_versions") or {}).get(run.task)
    observed = None if run.task_version.value is None else str(run.task_version.value)
    if pinned is None:
        note = f"the contract pins no version of {run.task}"
        return Check(what=run.task_version.what, expected=None, observed=observed, status="not-applicable", note=note)
    return _row(run.task_version.what, pinned, observed, run.task_version.note)


def _harness_version_rows(run: HarnessRun, contract: Mapping[str, Any]) -> list[Check]:
    """The harness that ran, held to the versions the pack is written for (`runner.version`, PEP 440)."""
    wanted = (contract.get("runner") or {}).get("version")
    recorded = run.harness_version
    if wanted is None or recorded is None:
        return []
    version_pin(wanted)
    if recorded.value is None:
        return [Check(what=recorded.what, expected=wanted, status="unknown", note=recorded.note)]
    allowed = allows(wanted, str(recorded.value))
    note = "" if allowed is not None else "not a PEP 440 version"
    status: Status = "pass" if allowed else "fail"
    return [Check(what=recorded.what, expected=wanted, observed=str(recorded.value), status=status, note=note)]


def _limit_row(run: HarnessRun) -> Check:
    value = run.limit.value
    if value is None:
        return _row(run.limit.what, "none", None, run.limit.note)
    status: Status = "pass" if value == "none" else "fail"
    return Check(what=run.limit.what, expected="none", observed=_scalar(value), status=status)


def _metric_rows(run: HarnessRun, contract: Mapping[str, Any]) -> list[Check]:
    accuracy = contract.get("accuracy") or {}
    primary = accuracy.get("primary_metric")
    keys = [*(accuracy.get("reported_metrics") or []), *([primary] if primary else []), *accuracy.get("thresholds", {})]
    rows = []
    for key in dict.fromkeys(keys):
        value = run.metrics.get(key)
        note = "" if value is not None else f"the run reports no {key}; it reports {', '.join(run.metrics) or 'none'}"
        rows.append(
            Check(
                what=f"metric {key}",
                expected="reported",
                observed=value,
                status="pass" if value is not None else "fail",
                note=note,
            )
        )
    if primary:
        rows.append(_row("primary metric", primary, run.primary, run.primary_note))
    return rows


def harness_gate(run: HarnessRun, contract: Mapping[str, Any]) -> GateResult:
    """The harness's record against what the contract fixes: a hard gate of its own."""
    entry = _dataset_of(run, contract)
    samples, repeats = entry["dataset"]["samples"], entry["num_repeats"]
    requested = samples * repeats if isinstance(samples, int) else samples
    fewshot = (contract.get("preprocessing") or {}).get("num_fewshot")
    checks = [*_harness_version_rows(run, contract), _version_row(run, contract)]
    checks += [_setting(run.fewshot, fewshot)] if fewshot is not None else []
    checks += [_limit_row(run), _setting(run.repeats, repeats)]
    checks += [_setting(run.dataset_samples, samples)] if run.dataset_samples is not None else []
    checks.append(_setting(run.samples, requested))
    checks += [_row(what, expected, observed) for what, expected, observed in run.outcome]
    checks += _metric_rows(run, contract)
    return GateResult(
        name=f"{run.harness}_run",
        severity="hard",
        description=f"{run.harness}'s record of the run: the task's version, few-shot count, limit, repeats, "
        "samples and metrics the contract fixes",
        checks=checks,
    )
