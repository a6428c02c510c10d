"""The MLCommons endpoints client's run folder, read as results (no converter needed).

A run folder holds `config.yaml`, `performance/result_summary.json` and, when scored,
`accuracy/accuracy_results.json` (shared/fixtures/endpoints/FORMAT.md describes every key).
These files carry no dataset sha256, no model revision, no model seed and no per-repeat
scores: those facts stay unreported, so the gates that need them say so instead of passing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from catalogctl.errors import UsageError
from catalogctl.io.files import read_input
from catalogctl.io.yamlio import YamlProblem, read_foreign_yaml
from catalogctl.model.results import (
    AccuracyResult,
    DatasetUsed,
    GenerationUsed,
    PerformanceResult,
    RunResults,
    SeedsUsed,
)

# The scale of each scorer's score (FORMAT.md: "Score scales differ by scorer").
SCORER_SCALES = {
    "legacy_mlperf_deepseek_r1": "percent",
    "pass_at_1": "fraction",
    "code_bench_scorer": "fraction",
    "shopify_category_f1": "fraction",
}
_GENERATION_KEYS = ("temperature", "top_p", "top_k", "max_new_tokens", "min_new_tokens", "reasoning_effort")
NS_PER_MS = 1_000_000


def _json(path: Path) -> Any:
    try:
        return json.loads(read_input(path))
    except ValueError as exc:
        raise UsageError(f"{path} is not JSON: {exc}") from None


def _contract_ids(contract: Mapping[str, Any], phase: str) -> list[str]:
    if phase == "performance":
        return [d["id"] for d in (contract.get("performance") or {}).get("datasets", [])]
    return [e["dataset"]["id"] for e in (contract.get("accuracy") or {}).get("datasets", [])]


def match_dataset(name: str, phase: str, contract: Mapping[str, Any]) -> str | None:
    """The contract's dataset a client dataset name stands for: the same id (a `::variant`
    suffix dropped), or the phase's only dataset."""
    ids = _contract_ids(contract, phase)
    base = name.split("::", 1)[0]
    if base in ids:
        return base
    return ids[0] if len(ids) == 1 else None


def _p99_ms(block: Any) -> float | None:
    if not isinstance(block, dict) or not block:
        return None  # `{}` when streaming is off: no TTFT/TPOT series
    for key in ("early_stopping_percentiles", "percentiles"):  # the checker uses the ES estimates
        value = (block.get(key) or {}).get("99.0")
        if isinstance(value, (int, float)):
            return float(value) / NS_PER_MS
    return None


def _generation(params: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: params[k] for k in _GENERATION_KEYS if params.get(k) is not None}
    for key in ("temperature", "top_p"):
        if isinstance(out.get(key), int):
            out[key] = float(out[key])
    return out


def read_run_folder(folder: Path, contract: Mapping[str, Any]) -> RunResults:
    """Results of an endpoints client run folder, mapped onto `contract`'s datasets."""
    try:
        return _read_run_folder(folder, contract)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UsageError(
            f"{folder}: a value of the run's files has an unexpected type ({where}: {first['msg']})"
        ) from None
    except (AttributeError, TypeError) as exc:
        raise UsageError(f"{folder}: the run's files do not have the endpoints client's shape ({exc})") from None


def _read_run_folder(folder: Path, contract: Mapping[str, Any]) -> RunResults:
    config_path = folder / "config.yaml"
    if not config_path.is_file():
        raise UsageError(f"{folder} is not an endpoints run folder: no config.yaml")
    try:
        config = read_foreign_yaml(config_path.read_bytes()) or {}
    except YamlProblem as problem:
        raise UsageError(f"{config_path}:{problem.line}:{problem.column}: {problem.message}") from None
    summary_path = folder / "performance" / "result_summary.json"
    accuracy_path = folder / "accuracy" / "accuracy_results.json"
    summary = _json(summary_path) if summary_path.is_file() else None
    accuracy = _json(accuracy_path) if accuracy_path.is_file() else None

    model_params = config.get("model_params") or {}
    runtime = (config.get("settings") or {}).get("runtime") or {}
    run_config = (summary or {}).get("run_config") or {}
    seeds = SeedsUsed(
        scheduler_rng_seed=runtime.get("scheduler_random_seed", run_config.get("scheduler_random_seed")),
        sample_index_rng_seed=runtime.get("dataloader_random_seed", run_config.get("dataloader_random_seed")),
        model_seed=model_params.get("seed"),
    )
    base_generation = _generation(model_params)
    generation: list[GenerationUsed] = []
    datasets: list[DatasetUsed] = []
    names: dict[tuple[str, str], str] = {}  # (phase, client name) -> contract id
    for phase in ("performance", "accuracy"):
        if base_generation:
            generation.append(GenerationUsed(phase=phase, **base_generation))
    for entry in config.get("datasets") or []:
        phase = entry.get("type")
        if phase not in ("performance", "accuracy"):
            continue
        ident = match_dataset(str(entry.get("name", "")), phase, contract)
        if ident is None:
            continue
        names[(phase, str(entry.get("name")))] = ident
        override = entry.get("generation_config_override") or {}
        if override:
            generation.append(
                GenerationUsed(phase=phase, dataset=ident, **{**base_generation, **_generation(override)})
            )
        issued = summary.get("n_samples_issued") if summary and phase == "performance" else None
        datasets.append(DatasetUsed(dataset=ident, phase=phase, samples_issued=issued))

    performance = None
    if summary is not None:
        duration = summary.get("duration_ns")
        performance = PerformanceResult(
            duration_ms=duration / NS_PER_MS if isinstance(duration, (int, float)) else None,
            sample_count=summary.get("n_samples_completed"),
            ttft_p99_ms=_p99_ms(summary.get("ttft")),
            tpot_p99_ms=_p99_ms(summary.get("tpot")),
        )

    scorers = {
        str(e.get("name")): (e.get("accuracy_config") or {}).get("eval_method")
        for e in config.get("datasets") or []
        if e.get("type") == "accuracy"
    }
    results_accuracy: list[AccuracyResult] = []
    metrics: dict[str, float | None] = {}
    for score in (accuracy or {}).get("accuracy_scores") or []:
        if score.get("dataset_type") != "accuracy":
            continue
        name = str(score.get("dataset_name"))
        ident = names.get(("accuracy", name)) or match_dataset(name, "accuracy", contract)
        scale = SCORER_SCALES.get(scorers.get(name) or "")
        if ident is None or scale is None:
            continue
        value = score.get("score")
        results_accuracy.append(
            AccuracyResult(
                dataset=ident,
                scale=scale,  # type: ignore[arg-type]
                pooled_score=float(value) if isinstance(value, (int, float)) else None,
                samples_scored=score.get("total_samples"),
            )
        )
        lengths = score.get("output_sequence_lengths") or {}
        if isinstance(lengths.get("avg"), (int, float)) and len(_contract_ids(contract, "accuracy")) == 1:
            metrics["TOKENS_PER_SAMPLE"] = float(lengths["avg"])
    return RunResults(
        benchmark=contract["id"],
        source=f"endpoints run folder {folder}",
        api_type=(config.get("endpoint_config") or {}).get("api_type"),
        seeds=seeds,
        datasets=datasets,
        generation=generation,
        performance=performance,
        accuracy=results_accuracy,
        metrics=metrics,
    )
