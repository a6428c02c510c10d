"""MLPerf Training result logs (`:::MLLOG {json}` lines, as mlperf-logging's `mllog` writes them),
as `check` reads them against a training contract.

A result file names the benchmark, the global batch size, the seed and the hyper-parameters the
rules fix, each evaluation's `eval_accuracy` with its `samples_count`, and `run_start` / `run_stop`
(with the status). It names no checkpoint and no dataset digest: those gates stay not evaluable.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from catalogctl.errors import InputsUnusable, file_line_col
from catalogctl.io.files import read_input
from catalogctl.io.jsonio import JsonProblem, parse_json
from catalogctl.model.documents.results import Evaluation, GenerationUsed, RunResults, SeedsUsed, TrainingResult

PREFIX = ":::MLLOG"
EVAL_ACCURACY = "eval_accuracy"
_SNIFF = 65536  # a result file's first line is an MLLOG line; a glance at its start tells it apart
_HINT = "an MLLOG result file holds one `:::MLLOG {json}` line per event, as mlperf_logging.mllog writes it"
# The hyper-parameters the rules fix, as logged (their values are compared by the training_rules gate).
HYPERPARAMETERS = (
    "max_sequence_length",
    "eval_samples",
    "init_checkpoint_step",
    "opt_name",
    "opt_base_learning_rate",
    "opt_adamw_beta_1",
    "opt_adamw_beta_2",
    "opt_adamw_epsilon",
    "opt_adamw_weight_decay",
    "opt_gradient_clip_norm",
    "opt_learning_rate_warmup_steps",
    "opt_learning_rate_decay_schedule",
    "generation_training_rollout_temperature",
    "generation_training_rollout_top_p",
    "num_prompts_per_step",
    "num_generations_per_prompt",
)
# The keys read as one value each. The official rules want each logged EXACTLY_ONE: the compliance
# checker fails a key logged again with another value, and only warns of the same value again
# (mlperf-logging 4.1.68, compliance_checker/mlp_compliance.py, `configured_checks`). So does the
# reader: another value is refused (as the LoadGen reader refuses a key logged twice), the same taken.
ONCE = frozenset(
    {
        "submission_benchmark",
        "global_batch_size",
        *HYPERPARAMETERS,
        "generation_validation_rollout_temperature",
        "generation_validation_rollout_top_p",
        "run_start",
        "run_stop",
    }
)
_ONCE_HINT = "the official rules want it logged exactly once (EXACTLY_ONE); the same value again is only warned of"


def is_mllog(path: Path) -> bool:
    """Whether `path` is an MLLOG result file, or a folder holding one or more."""
    return bool(mllog_files(path))


def mllog_files(path: Path) -> list[Path]:
    """The MLLOG result files of `path`: itself, or the files of a folder that are ones."""
    candidates = sorted(p for p in path.iterdir() if p.is_file()) if path.is_dir() else [path]
    return [p for p in candidates if p.is_file() and _starts_as_mllog(p)]


def _starts_as_mllog(path: Path) -> bool:
    with path.open("rb") as handle:
        return PREFIX.encode() in handle.read(_SNIFF)


@dataclass(frozen=True)
class Logged:
    """One MLLOG event and where it is (`file:line:col` of its `:::MLLOG`)."""

    line: int
    where: str
    event: dict[str, Any]


def events(path: Path) -> list[Logged]:
    """Every MLLOG event of a file, with its position (other lines are the program's own output).

    What the reader goes on to index is checked here, so that an event it cannot read is refused
    with its line: a metadata that is not an object, a NaN anywhere but an evaluation's accuracy
    (mllog's diverged run), values of the wrong type where a number or a text is read."""
    found = []
    for number, line in enumerate(read_input(path).decode("utf-8", "replace").splitlines(), 1):
        at = line.find(PREFIX)
        if at < 0:
            continue
        where = file_line_col(str(path), number, at + 1)
        try:
            event = parse_json(line[at + len(PREFIX) :].encode(), nan=True)
        except JsonProblem as exc:
            raise InputsUnusable(f"{where}: not an MLLOG line: {exc.brief}", _HINT) from None
        if not isinstance(event, dict) or not isinstance(event.get("key"), str):
            raise InputsUnusable(f"{where}: an MLLOG event has a key", _HINT)
        problem = _event_problem(event)
        if problem:
            raise InputsUnusable(f"{where}: the `{event['key']}` event's {problem}", _HINT)
        found.append(Logged(number, where, event))
    return found


def _event_problem(event: dict[str, Any]) -> str:
    """Why the reader cannot read this event ("" when it can)."""
    key, value = event["key"], event.get("value")
    if "metadata" in event and not isinstance(event["metadata"], dict):
        return "metadata is not an object"
    if _has_nan(event.get("metadata")):
        return "metadata holds a NaN: only an eval_accuracy value may be one (a diverged evaluation)"
    if key != EVAL_ACCURACY and _has_nan(value):
        return "value is NaN: only an eval_accuracy may be (a diverged evaluation)"
    if key == EVAL_ACCURACY:
        if _number(value) is None and not (isinstance(value, float) and math.isnan(value)):
            return "value is not a number"
        if "samples_count" in event.get("metadata", {}) and _integer(event["metadata"]["samples_count"]) is None:
            return "samples_count is not an integer"
    if key == "run_stop" and not isinstance(event.get("metadata", {}).get("status", ""), str):
        return "status is not a text"
    if key in HYPERPARAMETERS and not (value is None or isinstance(value, str) or _number(value) is not None):
        return "value is neither a number nor a text"
    seed = _integer(value) if key == "seed" else None
    if seed is not None and not 0 <= seed < 2**64:
        return "value is not a 64-bit unsigned integer"
    return ""


def _has_nan(value: Any) -> bool:
    if isinstance(value, float):
        return math.isnan(value)
    if isinstance(value, dict):
        return any(_has_nan(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_nan(v) for v in value)
    return False


@dataclass(frozen=True)
class LoggedSeed:
    """A `seed` event: its value, and the source line that logged it (mllog's metadata file and
    lineno, `file:line`; empty when the log does not say)."""

    value: Any
    at: str


@dataclass(frozen=True)
class MllogRun:
    """One result file (one run, one seed) as read: its facts, and every seed it logged."""

    file: Path
    results: RunResults
    seeds: list[LoggedSeed]


def read_mllog(path: Path, contract: Mapping[str, Any]) -> RunResults:
    """The facts of one MLLOG result file (or of a folder's only one) as `RunResults`."""
    return read_run(mllog_files(path)[0], contract).results


def read_runs(folder: Path, contract: Mapping[str, Any]) -> list[MllogRun]:
    """Every run of a folder of result files (result_0.txt ... result_N.txt), by file name."""
    return [read_run(file, contract) for file in mllog_files(folder)]


def read_run(file: Path, contract: Mapping[str, Any]) -> MllogRun:
    """One MLLOG result file: its facts as `RunResults`, and the seeds it logged."""
    logged = events(file)
    try:
        seeds = [_seed(e.event) for e in logged if e.event["key"] == "seed"]
        return MllogRun(file, _results(file, _first_of_each(logged), logged, contract), seeds)
    except ValidationError as exc:  # events() checked what is read; a value that still does not fit
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        said = f"{file}: a logged value has an unexpected type ({where}: {first['msg']})"
        raise InputsUnusable(said, _HINT) from None


def _first_of_each(logged: list[Logged]) -> dict[str, dict[str, Any]]:
    """The first event of each key; a key of `ONCE` logged again with another value is refused."""
    first: dict[str, Logged] = {}
    for entry in logged:
        key = entry.event["key"]
        if key not in first:
            first[key] = entry
        elif key in ONCE and _said(entry.event) != _said(first[key].event):
            then, before = _said(entry.event), _said(first[key].event)
            said = f"`{key}` is logged again with another value: {then!r} (first {before!r}, at line {first[key].line})"
            raise InputsUnusable(f"{entry.where}: {said}", _ONCE_HINT)
    return {key: entry.event for key, entry in first.items()}


def _said(event: Mapping[str, Any]) -> Any:
    """What the reader takes from an event: its value; of run_start and run_stop, the time and status."""
    if event["key"] in ("run_start", "run_stop"):
        return {"time_ms": event.get("time_ms"), "status": event.get("metadata", {}).get("status")}
    return event.get("value")


def _results(
    file: Path, first: dict[str, dict[str, Any]], logged: list[Logged], contract: Mapping[str, Any]
) -> RunResults:
    value = {key: event.get("value") for key, event in first.items()}
    evaluations = [  # a NaN accuracy (a diverged evaluation) is kept as null: it reaches no target
        Evaluation(accuracy=_number(e.event["value"]), samples_count=e.event.get("metadata", {}).get("samples_count"))
        for e in logged
        if e.event["key"] == EVAL_ACCURACY
    ]
    gbs = whole(value.get("global_batch_size"))
    hyperparameters = {k: value[k] for k in HYPERPARAMETERS if k in value}
    if whole(value.get("num_prompts_per_step")) is not None:  # a count: `32.0` is 32, as `512.0` is gbs 512
        hyperparameters["num_prompts_per_step"] = whole(value["num_prompts_per_step"])
    training = TrainingResult(
        gbs=gbs if gbs is not None and gbs > 0 else None,
        first_evaluation_samples=evaluations[0].samples_count if evaluations else None,
        submission_benchmark=_text(value.get("submission_benchmark")),
        evaluations=evaluations,
        hyperparameters=hyperparameters,
        stopped="run_stop" in first,
        status=_text(first.get("run_stop", {}).get("metadata", {}).get("status")),
        time_to_train_ms=_elapsed(first.get("run_start"), first.get("run_stop")),
    )
    return RunResults(
        benchmark=contract["id"],  # an MLLOG names the MLPerf benchmark, which the training_rules gate compares
        source=f"MLLOG result file {file}",
        model=contract["model"]["id"],  # implied by the benchmark: a result file names no checkpoint
        seeds=SeedsUsed(model_seed=_integer(value.get("seed"))),
        generation=_validation_sampling(value),
        metrics=_quality(contract, evaluations),
        training=training,
    )


def _seed(event: Mapping[str, Any]) -> LoggedSeed:
    metadata = event.get("metadata", {})
    where = f"{metadata['file']}:{metadata['lineno']}" if "file" in metadata and "lineno" in metadata else ""
    return LoggedSeed(event.get("value"), where)


def _validation_sampling(value: Mapping[str, Any]) -> list[GenerationUsed]:
    temperature = value.get("generation_validation_rollout_temperature")
    top_p = value.get("generation_validation_rollout_top_p")
    if temperature is None and top_p is None:
        return []
    return [GenerationUsed(phase="validation", temperature=_number(temperature), top_p=_number(top_p))]


def _quality(contract: Mapping[str, Any], evaluations: list[Evaluation]) -> dict[str, float | None]:
    """The quality metric: the best evaluation (the official rule: converged when some evaluation
    is beyond the target); not reported when the run logged none, or only NaN ones (which the
    quality_target gate fails)."""
    metric = (contract.get("quality_target") or {}).get("metric")
    numbers = [e.accuracy for e in evaluations if e.accuracy is not None]
    if not metric or not numbers:
        return {}
    return {metric: max(numbers)}


def _elapsed(start: Mapping[str, Any] | None, stop: Mapping[str, Any] | None) -> float | None:
    """Time to train: run_stop's time_ms less run_start's (MLPerf's result is this interval)."""
    if start is None or stop is None:
        return None
    begin, end = _number(start.get("time_ms")), _number(stop.get("time_ms"))
    if begin is None or end is None:
        return None
    return end - begin


def _integer(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def whole(value: Any) -> int | None:
    """An integer, or a float within 1e-5 of one, as that integer: the official checker's
    `is_integer` (mlperf-logging 4.1.68, compliance_checker/mlp_compliance.py), which takes a
    batch size logged as `512.0`. None for anything else."""
    if _integer(value) is not None:
        return int(value)
    if not isinstance(value, float) or not math.isfinite(value) or abs(round(value) - value) >= 1e-5:
        return None
    return round(value)


def _number(value: Any) -> float | None:
    """A finite number as a float; None for anything else (NaN included)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    number = float(value)  # parse_json keeps integers within 64 bits: no overflow
    return number if math.isfinite(number) else None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
