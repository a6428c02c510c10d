"""The MLCommons endpoints client's run folder, read as results (no converter needed).

A run folder holds `config.yaml`, `performance/result_summary.json` and, when scored,
`accuracy/accuracy_results.json` (shared/fixtures/endpoints/FORMAT.md describes every key).
These files carry no dataset sha256, no model revision, no model seed and no per-repeat
scores: those facts stay unreported, so the gates that need them say so instead of passing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from pydantic import ValidationError

from catalogctl.errors import InputsUnusable, file_line_col
from catalogctl.io.files import read_input
from catalogctl.io.jsonio import JsonProblem, parse_json
from catalogctl.io.yamlio import YamlProblem, read_foreign_yaml
from catalogctl.model.documents.resolved import accuracy_datasets, contract_terms, performance_datasets
from catalogctl.model.documents.results import (
    AccuracyResult,
    DatasetUsed,
    GenerationUsed,
    LoadUsed,
    PerformanceResult,
    RunResults,
    SeedName,
    SeedsUsed,
)
from catalogctl.run.shape import Rule, rule, shape_problems

# The scale of each scorer's score (FORMAT.md: "Score scales differ by scorer").
SCORER_SCALES = {
    "legacy_mlperf_deepseek_r1": "percent",
    "pass_at_1": "fraction",
    "code_bench_scorer": "fraction",
    "shopify_category_f1": "fraction",
}
_GENERATION_KEYS = ("temperature", "top_p", "top_k", "max_new_tokens", "min_new_tokens")
# The client has no reasoning_effort field (mlcommons/endpoints ea332753, examples/04_GPTOSS120B_Example/
# Readme.md: "`reasoning_effort` is not a YAML field"; config/schema.py ModelParams forbids extra keys): a
# server's chat template takes it from `chat_template_kwargs`, in model_params or a dataset's override.
CHAT_TEMPLATE_KEYS = ("reasoning_effort",)
NS_PER_MS = 1_000_000
# The seeds config.yaml records that an API's adapter never sends to the server (mlcommons/endpoints
# ea332753): src/inference_endpoint/openai/completions_adapter.py builds its request (dataset_transforms,
# encode_query, and TextCompletionRequest in openai/types.py) with no `seed`, where openai_msgspec_adapter.py
# sends model_params.seed; endpoint_client/config.py ADAPTER_MAP picks the adapter by api_type. (The
# sglang adapter sends none either; the catalog has no sglang API type.)
_UNSENT_SEEDS: dict[str, tuple[SeedName, ...]] = {"openai_completions": ("model_seed",)}
_ADAPTERS = {"openai_completions": "src/inference_endpoint/openai/completions_adapter.py"}

# The containers the reader descends into, per file: checked before anything is read from them,
# so that a truncated or hand-edited file is a message naming the key, not a crash.
_CONFIG_SHAPE: tuple[Rule, ...] = (
    rule("", "mapping"),
    rule("model_params?", "mapping"),
    rule("settings?", "mapping"),
    rule("settings?.runtime?", "mapping"),
    rule("settings?.load_pattern?", "mapping"),
    rule("endpoint_config?", "mapping"),
    rule("datasets?", "list"),
    rule("datasets?.*", "mapping"),
    rule("model_params?.chat_template_kwargs?", "mapping"),
    rule("datasets?.*.generation_config_override?", "mapping"),
    rule("datasets?.*.generation_config_override?.chat_template_kwargs?", "mapping"),
    rule("datasets?.*.accuracy_config?", "mapping"),
    rule("datasets?.*.accuracy_config?.eval_method?", "string"),
)
_SUMMARY_SHAPE: tuple[Rule, ...] = (
    rule("", "mapping"),
    rule("run_config?", "mapping"),
    rule("run_config?.load_pattern?", "mapping"),
    *(
        rule(f"{series}?.{key}?", "mapping")
        for series in ("ttft", "tpot")
        for key in ("early_stopping_percentiles", "percentiles")
    ),
)
_ACCURACY_SHAPE: tuple[Rule, ...] = (
    rule("", "mapping"),
    rule("accuracy_scores?", "list"),
    rule("accuracy_scores?.*", "mapping"),
    rule("accuracy_scores?.*.output_sequence_lengths?", "mapping"),
    rule("accuracy_scores?.*.response_counts?", "mapping"),
)


def _json(path: Path) -> Any:
    try:
        return parse_json(read_input(path))
    except JsonProblem as exc:
        raise InputsUnusable(f"{path} is not usable JSON: {exc}") from None


@dataclass(frozen=True)
class ClientFiles:
    """The endpoints client's three files of one run, as read (None: the file is absent), and
    where each was: a run folder keeps them in `performance/` and `accuracy/`, a submission
    point folder (§8.1) beside its point.yaml."""

    folder: Path
    config: Any
    summary: Any
    accuracy: Any
    names: tuple[str, str, str]


RUN_FOLDER_FILES = ("config.yaml", "performance/result_summary.json", "accuracy/accuracy_results.json")
POINT_FOLDER_FILES = ("config.yaml", "result_summary.json", "accuracy_results.json")


def read_client_files(folder: Path, names: tuple[str, str, str] = RUN_FOLDER_FILES) -> ClientFiles:
    """The client's files under `folder` at `names` (config, summary, accuracy), each with the
    containers the reader descends into (see the shapes above)."""
    config = _config(folder / names[0], folder)
    files = ClientFiles(folder, config, _json_if_present(folder / names[1]), _json_if_present(folder / names[2]), names)
    for name, data, rules in zip(
        names,
        (files.config, files.summary, files.accuracy),
        (_CONFIG_SHAPE, _SUMMARY_SHAPE, _ACCURACY_SHAPE),
        strict=True,
    ):
        problems = shape_problems(data, rules) if data is not None else []
        if problems:
            raise InputsUnusable(f"{folder / name} does not have the endpoints client's shape: {'; '.join(problems)}")
    return files


def _contract_ids(contract: Mapping[str, Any], phase: str) -> list[str]:
    terms = contract_terms(contract)
    if phase == "performance":
        return [d["id"] for d in performance_datasets(terms)]
    return [e["dataset"]["id"] for e in accuracy_datasets(terms)]


def match_dataset(name: str, phase: str, contract: Mapping[str, Any]) -> str:
    """The contract's dataset a client dataset name stands for: its id or one of its declared
    aliases (a `::variant` suffix dropped). Any other name is a run of another dataset, and the
    run is refused: a phase's only dataset is never assumed."""
    terms = contract_terms(contract)
    entries = (
        performance_datasets(terms) if phase == "performance" else [e["dataset"] for e in accuracy_datasets(terms)]
    )
    base = name.split("::", 1)[0]
    meant = sorted({d["id"] for d in entries if base in (d["id"], *d.get("aliases", []))})
    if len(meant) == 1:
        return meant[0]
    if meant:  # validation refuses such aliases; a hand-made contract may still hold them
        raise InputsUnusable(
            f"dataset name `{name}` stands for {' and '.join(meant)}: which one the run used is unknown"
        )
    shown = (
        ", ".join(
            f"`{d['id']}`" + (f" (aliases: {', '.join(d['aliases'])})" if d.get("aliases") else "") for d in entries
        )
        or "none"
    )
    raise InputsUnusable(
        f"this run is of {phase} dataset `{name}`; the contract's {phase} datasets are {shown}",
        "a run of another benchmark is never graded; a dataset's other names are declared as its `aliases`",
    )


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
    kwargs = params.get("chat_template_kwargs") or {}
    out.update({k: kwargs[k] for k in CHAT_TEMPLATE_KEYS if kwargs.get(k) is not None})
    for key in ("temperature", "top_p"):
        if isinstance(out.get(key), int) and not isinstance(out.get(key), bool):  # true is no temperature
            out[key] = float(out[key])
    return out


def read_run_folder(folder: Path, contract: Mapping[str, Any]) -> RunResults:
    """Results of an endpoints client run folder, mapped onto `contract`'s datasets."""
    return client_results(read_client_files(folder), contract, f"endpoints run folder {folder}")


def client_results(files: ClientFiles, contract: Mapping[str, Any], source: str) -> RunResults:
    """The results the client's files report, mapped onto `contract`'s datasets."""
    try:
        return _results(files, contract, source)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InputsUnusable(
            f"{files.folder}: a value of the run's files has an unexpected type ({where}: {first['msg']})"
        ) from None


def _results(files: ClientFiles, contract: Mapping[str, Any], source: str) -> RunResults:
    config, summary = files.config, files.summary
    datasets, generation, names = _datasets(config, summary, contract)
    scores, metrics = _accuracy(config, files.accuracy, names, contract, files.folder / files.names[0])
    return RunResults(
        benchmark=contract_terms(contract)["id"],
        source=source,
        api_type=(config.get("endpoint_config") or {}).get("api_type"),
        model=_served_model(config),
        seeds=_seeds(config, summary),
        datasets=datasets,
        generation=generation,
        load_pattern=_load_pattern(config, summary),
        performance=_performance(summary),
        accuracy=scores,
        metrics=metrics,
    )


def _config(path: Path, folder: Path) -> Any:
    """The client's `config.yaml` (what ran), {} when empty."""
    if not path.is_file():
        raise InputsUnusable(f"{folder} is not an endpoints run folder: no {path.name}")
    try:
        return read_foreign_yaml(path.read_bytes()) or {}
    except YamlProblem as problem:
        raise InputsUnusable(f"{file_line_col(str(path), problem.line, problem.column)}: {problem.message}") from None


def _served_model(config: Any) -> str | None:
    """The model name the client sent (`model_params.name`), as it wrote it."""
    name = (config.get("model_params") or {}).get("name")
    return str(name) if name is not None else None


def _json_if_present(path: Path) -> Any:
    return _json(path) if path.is_file() else None


def unsent_seeds(config: Any) -> dict[SeedName, str]:
    """The seeds `config` (the client's config.yaml) records that its API's adapter never sent,
    each with why: a value the run never applied is no evidence of the seed used."""
    api_type = str((config.get("endpoint_config") or {}).get("api_type"))
    recorded = {"model_seed": (config.get("model_params") or {}).get("seed")}
    return {
        name: f"config.yaml's model_params.seed ({recorded[name]}) was never sent: the endpoints client's "
        f"{api_type} adapter sends no seed (mlcommons/endpoints ea332753, {_ADAPTERS[api_type]})"
        for name in _UNSENT_SEEDS.get(api_type, ())
        if recorded[name] is not None
    }


def _seeds(config: Any, summary: Any) -> SeedsUsed:
    """The seeds as configured (the client records no others), less those its adapter never sent;
    no model seed in v6.1 files."""
    runtime = (config.get("settings") or {}).get("runtime") or {}
    run_config = (summary or {}).get("run_config") or {}
    unsent = unsent_seeds(config)
    return SeedsUsed(
        scheduler_rng_seed=runtime.get("scheduler_random_seed", run_config.get("scheduler_random_seed")),
        sample_index_rng_seed=runtime.get("dataloader_random_seed", run_config.get("dataloader_random_seed")),
        model_seed=None if "model_seed" in unsent else (config.get("model_params") or {}).get("seed"),
        not_applied=unsent or None,
    )


def _load_pattern(config: Any, summary: Any) -> LoadUsed | None:
    """The load pattern as configured (`settings.load_pattern`), else as the summary recorded it
    (`run_config.load_pattern`, which holds the target the pattern lacks as null)."""
    found = (config.get("settings") or {}).get("load_pattern") or ((summary or {}).get("run_config") or {}).get(
        "load_pattern"
    )
    if not found:
        return None
    return LoadUsed(
        type=found.get("type"),
        target_concurrency=found.get("target_concurrency"),
        target_qps=found.get("target_qps"),
    )


def _datasets(
    config: Any, summary: Any, contract: Mapping[str, Any]
) -> tuple[list[DatasetUsed], list[GenerationUsed], dict[tuple[str, str], str]]:
    """The contract's datasets the run used, the generation parameters of each phase and
    dataset, and (phase, client dataset name) -> contract dataset id."""
    base_generation = _generation(config.get("model_params") or {})
    generation: list[GenerationUsed] = []
    datasets: list[DatasetUsed] = []
    names: dict[tuple[str, str], str] = {}
    for phase in ("performance", "accuracy"):
        if base_generation:
            generation.append(GenerationUsed(phase=phase, **base_generation))
    for entry in config.get("datasets") or []:
        phase = entry.get("type")
        if phase not in ("performance", "accuracy"):
            continue
        ident = match_dataset(str(entry.get("name", "")), phase, contract)
        names[(phase, str(entry.get("name")))] = ident
        override = entry.get("generation_config_override") or {}
        if override:
            generation.append(
                GenerationUsed(phase=phase, dataset=ident, **{**base_generation, **_generation(override)})
            )
        issued = summary.get("n_samples_issued") if summary and phase == "performance" else None
        datasets.append(DatasetUsed(dataset=ident, phase=phase, samples_issued=issued))
    return datasets, generation, names


def _performance(summary: Any) -> PerformanceResult | None:
    """Duration, samples completed and latency percentiles from `result_summary.json`."""
    if summary is None:
        return None
    duration = summary.get("duration_ns")
    return PerformanceResult(
        duration_ms=duration / NS_PER_MS if isinstance(duration, (int, float)) else None,
        sample_count=summary.get("n_samples_completed"),
        ttft_p99_ms=_p99_ms(summary.get("ttft")),
        tpot_p99_ms=_p99_ms(summary.get("tpot")),
    )


def _scorers(
    config: Any, names: dict[tuple[str, str], str], contract: Mapping[str, Any], config_path: Path
) -> dict[str, str | None]:
    """The contract's scorer of each accuracy dataset, by id. A run that names another scorer
    (config.yaml's eval_method) is refused: a score's scale is the contract's scorer's, never
    the one the run names (a renamed scorer would turn a percent into a fraction)."""
    scorers: dict[str, str | None] = {
        e["dataset"]["id"]: (cast(Mapping[str, Any], e).get("evaluation_recipe") or {}).get("scorer")
        for e in accuracy_datasets(contract_terms(contract))
    }
    for entry in config.get("datasets") or []:
        ran = (entry.get("accuracy_config") or {}).get("eval_method")
        ident = names.get(("accuracy", str(entry.get("name"))))
        if entry.get("type") == "accuracy" and ran is not None and ident is not None and ran != scorers.get(ident):
            raise InputsUnusable(
                f"{config_path}: accuracy dataset `{entry.get('name')}` was scored by `{ran}`; the contract "
                f"scores it by `{scorers.get(ident)}`",
                "a score is read on the scale of the contract's scorer: run the accuracy phase with its eval_method",
            )
    return scorers


def _accuracy(
    config: Any,
    accuracy: Any,
    names: dict[tuple[str, str], str],
    contract: Mapping[str, Any],
    config_path: Path,
) -> tuple[list[AccuracyResult], dict[str, float | None]]:
    """Each accuracy dataset's pooled score on its contract scorer's scale, and TOKENS_PER_SAMPLE
    when the contract has one accuracy dataset (the client reports lengths per dataset)."""
    scorers = _scorers(config, names, contract, config_path)
    results: list[AccuracyResult] = []
    metrics: dict[str, float | None] = {}
    for score in (accuracy or {}).get("accuracy_scores") or []:
        if score.get("dataset_type") != "accuracy":
            continue
        name = str(score.get("dataset_name"))
        ident = names.get(("accuracy", name)) or match_dataset(name, "accuracy", contract)
        scale = SCORER_SCALES.get(scorers.get(ident) or "")
        if scale is None:
            continue
        value = score.get("score")
        results.append(
            AccuracyResult(
                dataset=ident,
                scale=scale,  # type: ignore[arg-type]
                pooled_score=float(value) if isinstance(value, (int, float)) else None,
                samples_scored=_samples_scored(score),
            )
        )
        lengths = score.get("output_sequence_lengths") or {}
        if isinstance(lengths.get("avg"), (int, float)) and len(_contract_ids(contract, "accuracy")) == 1:
            metrics["TOKENS_PER_SAMPLE"] = float(lengths["avg"])
    return results, metrics


def _samples_scored(score: Mapping[str, Any]) -> Any:
    """The samples an accuracy entry scored: `response_counts.scored` when the client reports it
    (an incomplete run, `complete: false`, scored fewer than its total_samples), else total_samples."""
    scored = (score.get("response_counts") or {}).get("scored")
    return scored if isinstance(scored, int) and not isinstance(scored, bool) else score.get("total_samples")
