"""MLPerf Training result logs of `llm-post-training` (mlperf name `qwen35_397b_grpo`), written by
`mlperf_logging.mllog` itself: `Log` says what one file holds, `write` writes it.

A `Log` starts as a complete closed-division log that converges, and each field changes one thing a
run may get wrong: the global batch size and how it is logged, the evaluations, a hyper-parameter,
a key logged again or never, run_stop's status."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mlperf_logging import mllog

GENERATIONS = 16  # num_generations_per_prompt == 16 (closed_qwen35_397b_grpo.yaml)
SUBMISSION = (  # the submission's keys, in the order a reference run logs them
    ("submission_benchmark", "qwen35_397b_grpo"),
    ("submission_org", "Example Labs"),
    ("submission_platform", "64xGB300"),
    ("submission_division", "closed"),
    ("submission_status", "onprem"),
    ("cache_clear", True),
)
DISCLOSED = (  # the common rules' disclosure keys (v6.1), logged before init_stop
    ("lowest_numerical_precision_in_linear", "bfloat16"),
    ("lowest_numerical_precision_in_attn", "bfloat16"),
    ("lowest_numerical_precision_in_comm", "bfloat16"),
    ("tensor_parallelism", 1),
    ("pipeline_parallelism", 1),
    ("context_parallelism", 1),
    ("expert_parallelism", 1),
    ("micro_batch_size", 1),
    ("config_filename", "config.yaml"),
)


def hyperparameters(gbs: float) -> dict[str, Any]:
    """The values the closed rules fix at global batch size `gbs`, as a compliant run logs them."""
    whole = round(gbs)
    return {
        "global_batch_size": gbs,
        "num_prompts_per_step": whole // GENERATIONS,
        "num_generations_per_prompt": GENERATIONS,
        "max_sequence_length": 65536,
        "eval_samples": 251,
        "train_samples": 700,
        "init_checkpoint_step": 0,
        "max_steps": 100,
        "opt_name": "adamw",
        "opt_base_learning_rate": 1e-6 * (whole / 256) ** 0.5,
        "opt_adamw_beta_1": 0.9,
        "opt_adamw_beta_2": 0.999,
        "opt_adamw_epsilon": 1e-8,
        "opt_adamw_weight_decay": 0.0,
        "opt_gradient_clip_norm": 0.125 * (256 / whole) ** 0.5,
        "opt_learning_rate_warmup_steps": 0,
        "opt_learning_rate_decay_schedule": "constant",
        "generation_training_rollout_temperature": 1.0,
        "generation_training_rollout_top_p": 1.0,
        "generation_validation_rollout_temperature": 0.1,
        "generation_validation_rollout_top_p": 0.95,
        "gradient_accumulation_steps": 32,
        "seed": 42,
    }


@dataclass(frozen=True)
class Log:
    """What one result file says. `values` replaces (or adds) logged values; `evals` are
    (samples_count, accuracy), samples_count None for an evaluation that does not log it;
    `status` None is a run_stop without one; `missing` keys are never logged (run_stop among
    them); each of `again` (key, value) is logged once more right after the key's first line
    (for run_stop, the value is the second run_stop's status)."""

    gbs: float = 512
    values: Mapping[str, Any] = field(default_factory=dict)
    evals: tuple[tuple[int | None, float], ...] = ((5120, 0.62), (5632, 0.70))
    status: str | None = "success"
    missing: frozenset[str] = frozenset()
    again: tuple[tuple[str, Any], ...] = ()
    train_ms: int = 3_600_000


_WRITES = itertools.count()  # mllog takes no logger twice in a row: one of its own name per file written


def write(path: Path, log: Log) -> Path:
    """Write `log` to `path` with mllog, through a logger of its own (mllog keeps the last one)."""
    logger = logging.getLogger(f"catalogctl-test-mllog:{path}:{next(_WRITES)}")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    handler = logging.FileHandler(path, mode="w")
    logger.addHandler(handler)
    mllog.config(logger=logger)
    try:
        _events(mllog.get_mllogger(), log)
    finally:
        logger.removeHandler(handler)
        handler.close()
    return path


def _events(out: Any, log: Log) -> None:
    clock = iter(range(1_000_000, 10_000_000, 1000))
    again = dict(log.again)
    for key, value in [*SUBMISSION, ("init_start", None), *{**hyperparameters(log.gbs), **log.values}.items()]:
        if key == "init_start":
            out.start(key=key, time_ms=next(clock))
        elif key not in log.missing:
            out.event(key=key, value=value, time_ms=next(clock))
            if key in again:
                out.event(key=key, value=again[key], time_ms=next(clock))
    for key, value in DISCLOSED:
        out.event(key=key, value=value, time_ms=next(clock))
    out.end(key="init_stop", time_ms=next(clock))
    start = next(clock)
    out.start(key="run_start", time_ms=start)
    for samples, accuracy in log.evals:
        _evaluation(out, log, clock, samples, accuracy)
    if "run_stop" not in log.missing:
        for status in [log.status, *([again["run_stop"]] if "run_stop" in again else [])]:
            metadata = {} if status is None else {"status": status}
            out.end(key="run_stop", metadata=metadata, time_ms=start + log.train_ms)


def _evaluation(out: Any, log: Log, clock: Iterator[int], samples: int | None, accuracy: float) -> None:
    """A training block, then an evaluation at `samples` (only eval_accuracy may lack its count)."""
    at = {"samples_count": samples if samples is not None else 0}
    before = {"samples_count": max(0, at["samples_count"] - round(log.gbs))}
    out.start(key="block_start", metadata=before, time_ms=next(clock))
    out.end(key="block_stop", metadata=at, time_ms=next(clock))
    out.start(key="eval_start", metadata=at, time_ms=next(clock))
    if "eval_accuracy" not in log.missing:
        out.event(key="eval_accuracy", value=accuracy, metadata=at if samples is not None else {}, time_ms=next(clock))
    out.end(key="eval_stop", metadata=at, time_ms=next(clock))
