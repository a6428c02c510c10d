"""An inspect_ai JSON log as `check` reads it (`inspect eval ... --log-format json`; the model of
the part read is model/documents/inspectlog.py).

The log records the task, its version and arguments, the dataset's size, the model, the limit,
the samples chosen by id, the epochs, the generate config (the model's, the eval's, a solver's),
how the eval ended, and each scorer's metrics. A metric is named as inspect prints it:
`<score>/<metric>`, `[<reducer>]` after it when inspect shows one (inspect_ai 0.3.285,
_display/core/results.py, task_metrics). The few-shot count is a task argument by convention
(`fewshot`: inspect's own GSM8K task, benchmarks/gsm8k.py, `-T fewshot=5`); a task without one
leaves it UNKNOWN. The log holds the samples' inputs and outputs but no digest of the dataset's
bytes, of the prompts, or of the model's revision.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from catalogctl.model.documents.inspectlog import EvalResults, EvalScore, InspectLog
from catalogctl.run.harnessfiles import read_json, validated
from catalogctl.run.harnessrun import HarnessRun, Recorded, generation_of, seed_of

_HINT = "check reads an inspect_ai log written with --log-format json"
# inspect's model APIs (model/_providers/providers.py) as the contract's api_type names them:
# openai-api (OpenAICompatibleAPI: chat.completions.create, unless `responses_api`), vllm and sglang
# (its subclasses); openai-api-completions and vllm-completions (completions.create). Any other
# provider (mockllm, OpenAI's own, which may use the Responses API) is UNKNOWN, never taken for one.
_API_TYPES = {
    "openai-api": "openai",
    "vllm": "openai",
    "sglang": "openai",
    "openai-api-completions": "openai_completions",
    "vllm-completions": "openai_completions",
}
_SERVICE_PREFIXED = ("openai-api", "openai-api-completions")  # openai-api/<service>/<model>
DEFAULT_EPOCHS = 1  # inspect_ai/log/_log.py EvalConfigDefaults: epochs 1


def is_inspect_log(data: Any) -> bool:
    """Whether JSON `data` is an inspect_ai log (its top-level keys say so)."""
    return (
        isinstance(data, dict)
        and isinstance(data.get("eval"), dict)
        and "task" in data["eval"]
        and {"version", "status"} <= data.keys()
    )


def _model(log: InspectLog) -> tuple[str, str | None]:
    """The served model's name (the provider, and for openai-api the service, left out), and the
    contract's api_type of the provider."""
    api, _, name = log.eval.model.partition("/")
    if api in _SERVICE_PREFIXED:
        name = name.partition("/")[2] or name
    api_type = _API_TYPES.get(api)
    if api in _SERVICE_PREFIXED[:1] and log.eval.model_args.get("responses_api"):
        api_type = None  # the Responses API: no api_type of a contract
    return name or log.eval.model, api_type


def _keys(results: EvalResults) -> list[tuple[str, EvalScore, str]]:
    """(key, score, metric) for every metric, keyed as inspect prints them."""
    reducers = {s.reducer for s in results.scores if s.reducer is not None}
    show = len(reducers) > 1 or "avg" not in reducers
    found = []
    for score in results.scores:
        for metric in score.metrics:
            suffix = f"[{score.reducer}]" if show and score.reducer is not None else ""
            found.append((f"{score.name}/{metric}{suffix}", score, metric))
    return found


def _primary(results: EvalResults) -> str | None:
    """The headline metric inspect resolved, else (an older log) the first metric of the first score."""
    keys = _keys(results)
    head = results.headline
    if head is None:
        return keys[0][0] if keys else None
    for key, score, metric in keys:
        if score.name == head.score and metric == head.metric and score.reducer == head.reducer:
            return key
    return None


def _generate_config(log: InspectLog) -> dict[str, Any]:
    """The generate config the model ran with: the model's, the eval's over it, each `generate`
    solver's own over that (inspect merges them in that order: model/_model.py)."""
    merged = {**log.eval.model_generate_config, **log.plan.config}
    for step in log.plan.steps:
        if step.solver == "generate":
            merged.update(step.params)
    return {k: v for k, v in merged.items() if v is not None}


def _limit(log: InspectLog) -> str | int | list[int]:
    config = log.eval.config
    if config.limit is not None:
        return config.limit
    if config.sample_id is not None:
        return f"sample_id {config.sample_id}"
    return "none"


def _fewshot(args: dict[str, Any]) -> Recorded:
    value = args.get("fewshot")
    if isinstance(value, bool):  # `-T fewshot=false`: none
        value = None if value else 0
    if not isinstance(value, int):
        return Recorded("task_args.fewshot", None, "the log records the task's arguments: none is an int `fewshot`")
    return Recorded("task_args.fewshot", value)


def read_inspect_log(path: Path) -> HarnessRun:
    """An inspect_ai JSON log, as a harness run."""
    log = validated(InspectLog, read_json(path, "an inspect_ai log", _HINT), path, "an inspect_ai log", _HINT)
    spec, results = log.eval, log.results
    model, api_type = _model(log)
    keys = _keys(results) if results is not None else []
    unscored = [s.unscored_samples for s in results.scores] if results is not None else []
    config = _generate_config(log)
    seed = config.get("seed")
    return HarnessRun(
        harness="inspect",
        source=f"inspect_ai log {path} ({spec.task})",
        task=spec.task,
        model=model,
        api_type=api_type,
        metrics={key: float(score.metrics[metric].value) for key, score, metric in keys},
        primary=_primary(results) if results is not None else None,
        primary_note="the log has no results",
        samples_scored=results.completed_samples if results is not None else None,
        harness_version=Recorded(
            "inspect_ai version (eval.packages) vs runner.version",
            spec.packages.get("inspect_ai"),
            "the log records no inspect_ai version (eval.packages)",
        ),
        task_version=Recorded(f"{spec.task} task_version", spec.task_version),
        fewshot=_fewshot(spec.task_args),
        limit=Recorded("limit", _limit(log)),
        repeats=Recorded("epochs", spec.config.epochs or DEFAULT_EPOCHS),
        dataset_samples=Recorded("dataset samples", spec.dataset.samples),
        samples=Recorded("samples completed", results.completed_samples if results is not None else None),
        outcome=[
            ("status", "success", log.status),
            ("unscored samples", 0, sum(n for n in unscored if n is not None) if unscored else None),
        ],
        generation=generation_of(config, f"{path}: the generate config"),
        model_seed=seed_of(seed),
    )
