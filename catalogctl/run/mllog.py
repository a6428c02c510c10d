"""MLPerf Training result logs (`:::MLLOG {json}` lines, as mlperf-logging's `mllog` writes them),
as `check` reads them against a training contract.

A result file names the benchmark, the global batch size, the seed and the hyper-parameters the
rules fix, each evaluation's `eval_accuracy` with its `samples_count`, and `run_start` / `run_stop`
(with the status). It names no checkpoint and no dataset digest: those gates stay not evaluable.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalogctl.errors import InputsUnusable, file_line_col
from catalogctl.io.files import read_input
from catalogctl.model.results import Evaluation, GenerationUsed, RunResults, SeedsUsed, TrainingResult

PREFIX = ":::MLLOG"
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


def events(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """Every MLLOG event of a file, with its line number (other lines are the program's own output)."""
    found = []
    for number, line in enumerate(read_input(path).decode("utf-8", "replace").splitlines(), 1):
        at = line.find(PREFIX)
        if at < 0:
            continue
        try:
            event = json.loads(line[at + len(PREFIX) :])
        except json.JSONDecodeError as exc:
            raise InputsUnusable(
                f"{file_line_col(str(path), number, at + 1)}: not an MLLOG line: {exc.msg}", _HINT
            ) from None
        if not isinstance(event, dict) or not isinstance(event.get("key"), str):
            raise InputsUnusable(f"{file_line_col(str(path), number, at + 1)}: an MLLOG event has a key", _HINT)
        found.append((number, event))
    return found


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
    first: dict[str, Any] = {}
    for _, event in logged:
        first.setdefault(event["key"], event)
    value = {key: event.get("value") for key, event in first.items()}
    evaluations = [
        Evaluation(accuracy=float(e["value"]), samples_count=(e.get("metadata") or {}).get("samples_count"))
        for _, e in logged
        if e["key"] == "eval_accuracy" and isinstance(e.get("value"), int | float)
    ]
    gbs = _integer(value.get("global_batch_size"))
    training = TrainingResult(
        gbs=gbs if gbs is not None and gbs > 0 else None,
        first_evaluation_samples=evaluations[0].samples_count if evaluations else None,
        submission_benchmark=_text(value.get("submission_benchmark")),
        evaluations=evaluations,
        hyperparameters={k: value[k] for k in HYPERPARAMETERS if k in value},
        status=_text(((first.get("run_stop") or {}).get("metadata") or {}).get("status")),
        time_to_train_ms=_elapsed(first.get("run_start"), first.get("run_stop")),
    )
    results = RunResults(
        benchmark=contract["id"],  # an MLLOG names the MLPerf benchmark, which the training_rules gate compares
        source=f"MLLOG result file {file}",
        model=contract["model"]["id"],  # implied by the benchmark: a result file names no checkpoint
        seeds=SeedsUsed(model_seed=_integer(value.get("seed"))),
        generation=_validation_sampling(value),
        metrics=_quality(contract, evaluations),
        training=training,
    )
    return MllogRun(file, results, [_seed(e) for _, e in logged if e["key"] == "seed"])


def _seed(event: Mapping[str, Any]) -> LoggedSeed:
    metadata = event.get("metadata") or {}
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
    is beyond the target); not reported when the run logged none."""
    metric = (contract.get("quality_target") or {}).get("metric")
    if not metric or not evaluations:
        return {}
    return {metric: max(e.accuracy for e in evaluations)}


def _elapsed(start: Mapping[str, Any] | None, stop: Mapping[str, Any] | None) -> float | None:
    """Time to train: run_stop's time_ms less run_start's (MLPerf's result is this interval)."""
    if start is None or stop is None:
        return None
    begin, end = start.get("time_ms"), stop.get("time_ms")
    if not isinstance(begin, int | float) or not isinstance(end, int | float):
        return None
    return float(end - begin)


def _integer(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
