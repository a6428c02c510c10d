"""What an lm-eval run states, in the contract's terms: its tasks, model, API, metric values and
generation settings, and the `RunResults` the contract's own gates read.

A run is refused (exit 2, no verdict) when it cannot be a run of the contract: the contract is not
an lm-eval pack, the file lacks one of the pack's tasks, a metric the contract reads is not a number,
two tasks report one metric, or the file contradicts itself on a generation setting.
"""

from __future__ import annotations

import math
from typing import Any

from catalogctl.errors import InputsUnusable
from catalogctl.model.documents.lmeval import TaskConfig
from catalogctl.model.documents.resolved import accuracy_datasets, contract_terms
from catalogctl.model.documents.results import AccuracyResult, DatasetUsed, RunResults
from catalogctl.run.lmeval import HINT, LmEvalRun, parse_args_string

# lm-eval's model types that call an OpenAI-compatible API, and the contract's api_type of each
# (lm-eval 0.4.13 `lm_eval/models/openai_completions.py`: the registered names).
API_TYPES = {
    "local-completions": "openai_completions",
    "openai-completions": "openai_completions",
    "local-chat-completions": "openai",
    "openai-chat-completions": "openai",
}
# The contract's generation keys and lm-eval's names of them, in the order lm-eval 0.4.13 reads
# them (`lm_eval/models/utils.py`, `normalize_gen_kwargs`: max_gen_toks > max_new_tokens >
# max_tokens > max_completion_tokens).
GENERATION_KEYS: dict[str, tuple[str, ...]] = {
    "temperature": ("temperature",),
    "top_p": ("top_p",),
    "top_k": ("top_k",),
    "max_new_tokens": ("max_gen_toks", "max_new_tokens", "max_tokens", "max_completion_tokens"),
}
# lm-eval 0.4.13's API models (the API_TYPES) send `max_tokens` where the task sets it, else
# `max_gen_toks` (`lm_eval/models/openai_completions.py`, `_create_payload`): the others they pass on as is.
API_MAX_TOKENS = ("max_tokens", "max_gen_toks")
# lm-eval's keys of the model in `model_args`, in the order it reads them (`GeneralConfigTracker.
# _get_model_name`, lm_eval/loggers/evaluation_tracker.py): an adapter names the model evaluated.
_MODEL_KEYS = ("peft", "delta", "pretrained", "model", "path", "engine")


def pack_tasks(contract: dict[str, Any]) -> list[str]:
    """The contract's lm-eval tasks; a contract that is not an lm-eval pack is refused."""
    runner = contract.get("runner") or {}
    name = runner.get("name", "endpoints")
    if name != "lm-eval":
        raise InputsUnusable(
            f"this is lm-eval output; the contract of {contract['id']} is run by `{name}`",
            "check the output of the harness the contract names (its `runner`)",
        )
    return list(runner.get("tasks", []))


def check_tasks(run: LmEvalRun, tasks: list[str]) -> None:
    """Every task of the pack is in the results file (other tasks beside them are not graded)."""
    missing = [t for t in tasks if t not in run.data.results and t not in run.data.groups]
    if missing:
        ran = ", ".join(f"`{t}`" for t in run.data.results) or "none"
        raise InputsUnusable(
            f"this run is of lm-eval task(s) {ran}; the contract is of task(s) "
            f"{', '.join(f'`{t}`' for t in tasks)}: {run.file} has no results for {', '.join(missing)}",
            "check the results file of a run of the contract's tasks",
        )


def model_name(run: LmEvalRun) -> str | None:
    """The model the run evaluated, as lm-eval names it: from `config.model_args`, else `model_name`."""
    config = run.data.config
    args = config.model_args if config is not None else None
    parsed = parse_args_string(args) if isinstance(args, str) else dict(args or {})
    named = next((str(parsed[key]) for key in _MODEL_KEYS if parsed.get(key) not in (None, "")), None)
    recorded = run.data.model_name or None
    if named is not None and recorded is not None and named != recorded:
        raise InputsUnusable(
            f"{run.file} names model `{named}` in config.model_args and `{recorded}` in model_name: "
            "which one ran is unknown",
            HINT,
        )
    return named or recorded


def api_type(run: LmEvalRun) -> str | None:
    """The contract's API type of the run's lm-eval model (None: not an API model, or unrecorded)."""
    model = run.data.config.model if run.data.config is not None else None
    return API_TYPES.get(model) if model else None


def generation_names(run: LmEvalRun, key: str) -> tuple[str, ...]:
    """lm-eval's names of a contract's generation key, in the order the run's model reads them."""
    if key == "max_new_tokens" and api_type(run) is not None:
        return API_MAX_TOKENS
    return GENERATION_KEYS.get(key, ())


def generation_of(config: TaskConfig | None) -> dict[str, Any]:
    """A task's generation settings as it ran (lm-eval merges `--gen_kwargs` into them)."""
    return dict(config.generation_kwargs or {}) if config is not None else {}


def greedy(settings: dict[str, Any]) -> bool:
    """`do_sample: false` without a temperature: greedy decoding, which lm-eval runs at temperature
    0.0 (`normalize_gen_kwargs`; the hf model drops the temperature, the API models send 0)."""
    return settings.get("do_sample") is False and "temperature" not in settings


def given_gen_kwargs(run: LmEvalRun) -> dict[str, Any]:
    """The command line's `--gen_kwargs`, as `config.gen_kwargs` records it (a string or a mapping)."""
    config = run.data.config
    stated = config.gen_kwargs if config is not None else None
    return parse_args_string(stated) if isinstance(stated, str) else dict(stated or {})


def generation_ran(run: LmEvalRun, task: str) -> dict[str, Any]:
    """A task's generation settings as it ran: lm-eval 0.4.13 merges `--gen_kwargs` into the
    `generation_kwargs` of each `generate_until` task (`lm_eval/evaluator.py`, `simple_evaluate`),
    so a setting the command line gave counts even where the task's config omits it."""
    config = run.data.configs.get(task)
    merged = config is None or config.output_type in (None, "generate_until")
    return {**generation_of(config), **(given_gen_kwargs(run) if merged else {})}


def check_gen_kwargs(run: LmEvalRun, tasks: list[str]) -> None:
    """`config.gen_kwargs` (the command line's) and each task's `generation_kwargs` (what ran,
    the command line's merged in) agree: a file that says both is refused when they differ."""
    given = given_gen_kwargs(run)
    for task in tasks:
        ran = generation_of(run.data.configs.get(task))
        for key, value in given.items():
            if key in ran and ran[key] != value:
                raise InputsUnusable(
                    f"{run.file}: config.gen_kwargs sets {key}={value!r}, configs.{task}.generation_kwargs "
                    f"{key}={ran[key]!r}: which one ran is unknown",
                    HINT,
                )


def metric_values(run: LmEvalRun, tasks: list[str], keys: list[str]) -> dict[str, tuple[str, float | None]]:
    """Each metric key the contract reads, verbatim (`metric,filter`), with the task reporting it
    and its value (None: written as NaN); a key no task reports is left out."""
    found: dict[str, tuple[str, float | None]] = {}
    for key in keys:
        reporting = [t for t in tasks if key in _block(run, t)]
        if len(reporting) > 1:
            raise InputsUnusable(
                f"{run.file}: tasks {' and '.join(reporting)} both report {key}: which the contract means is unknown",
                "an lm-eval pack names one task per metric key, or the group that aggregates them",
            )
        if reporting:
            found[key] = (reporting[0], _number(run, reporting[0], key))
    return found


def _block(run: LmEvalRun, task: str) -> dict[str, Any]:
    return run.data.results.get(task) or run.data.groups.get(task) or {}


def _number(run: LmEvalRun, task: str, key: str) -> float | None:
    value = _block(run, task)[key]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputsUnusable(f"{run.file}: results.{task}.{key} is not a number: {value!r}", HINT)
    if math.isinf(value):  # JSON's 1e999: no score a run can have
        raise InputsUnusable(f"{run.file}: results.{task}.{key} is not a finite number: {value!r}", HINT)
    return None if math.isnan(value) else float(value)


def contract_metric_keys(contract: dict[str, Any]) -> list[str]:
    """The metric keys the contract reads from a run: its thresholds and its reported metrics."""
    accuracy = contract.get("accuracy") or {}
    keys = [*(accuracy.get("thresholds") or {}), *(accuracy.get("reported_metrics") or [])]
    return list(dict.fromkeys(keys))


def evaluated(run: LmEvalRun, tasks: list[str]) -> int | None:
    """The documents evaluated over the pack's tasks (`n-samples` effective); None when a task's is unrecorded."""
    counts = [run.data.n_samples[t].effective if t in run.data.n_samples else None for t in tasks]
    return None if None in counts else sum(c for c in counts if c is not None)


def run_results(run: LmEvalRun, contract: dict[str, Any], tasks: list[str]) -> RunResults:
    """What the run states, as the contract's gates read it. The pack's tasks are the one accuracy
    dataset's (an lm-eval pack states one); with several datasets no count is attributed to any."""
    terms = contract_terms(contract)
    entries = accuracy_datasets(terms)
    count = evaluated(run, tasks)
    datasets, accuracy = [], []
    if len(entries) == 1:
        ident = entries[0]["dataset"]["id"]
        datasets.append(DatasetUsed(dataset=ident, phase="accuracy", samples_issued=count))
        accuracy.append(AccuracyResult(dataset=ident, scale="fraction", samples_scored=count))
    values = metric_values(run, tasks, contract_metric_keys(contract))
    config = run.data.config
    return RunResults(
        benchmark=contract["id"],
        source=f"lm-eval results {run.file}",
        api_type=api_type(run),
        model=model_name(run),
        model_sha=(config.model_sha or None) if config is not None else None,
        datasets=datasets,
        accuracy=accuracy,
        metrics={key: value for key, (_, value) in values.items()},
    )
