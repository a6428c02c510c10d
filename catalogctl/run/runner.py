"""The endpoints client's configuration from a resolved config: its `config.yaml` and a §8.3
`point.yaml` skeleton (the proposal's step 3: the inlined contract becomes what runs). Only for a
contract the endpoints client runs: `run.runner_config` picks the files of the contract's runner.

Neither format is this tool's: `config.yaml` is the client's `BenchmarkConfig` (mlcommons/endpoints
ea332753, src/inference_endpoint/config/schema.py), `point.yaml` the checker's `PointConfig`
(endpoints-submission-cli 1.5.3.0, models/file/point_config.py). Only keys the real v6.1 configs in
tests/fixtures/endpoints use are written, plus the four of the client's schema a resolved config
needs and those files lack (`CLIENT_SCHEMA_KEYS`).

What only the submitter knows is left as a placeholder both the official tools and `check` refuse:
in `config.yaml` a `<TBD: ...>` string (the catalog's pending marker; the client cannot open it as a
dataset path), in `point.yaml` a null with a `# <TBD: ...>` comment (the checker's
point-disclosure-complete and warmup-present fail on null; `check` refuses a point.yaml holding one).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from catalogctl.errors import InputsUnusable
from catalogctl.io.yamlio import dump_yaml
from catalogctl.model.documents.resolved import ContractGeneration, ResolvedConfig, accuracy_datasets, contract_terms
from catalogctl.model.documents.submission import PoissonLoad, Settings
from catalogctl.run.gates import per_load
from catalogctl.run.submission import SUBMITTER_FIELDS

# Keys of the client's schema (mlcommons/endpoints ea332753, config/schema.py) that no fixture config
# holds: the model seed (ModelParams.seed), the reasoning effort (ModelParams.chat_template_kwargs, as
# examples/10_Agentic_Inference/qwen_agentic_benchmark.yaml passes chat-template arguments), a dataset's
# generation override (Dataset.generation_config_override) and the concurrency (LoadPattern.target_concurrency).
CLIENT_SCHEMA_KEYS = (
    "model_params.seed",
    "model_params.chat_template_kwargs.reasoning_effort",
    "datasets.*.generation_config_override.*",
    "settings.load_pattern.target_concurrency",
)
_SAMPLING = ("temperature", "top_k", "top_p", "max_new_tokens", "min_new_tokens")
# What only the submitter knows, as the point.yaml keys the checker requires (§8.3 and §9.1).
_NOTES = {
    "division": "standardized, serviced or rdi (§8.3)",
    "max_supported_concurrency": "the curve's C_max, an integer",
    "model_precision": "the lowest precision of the weights (fp4, fp8, bf16, ...)",
    "link_to_model": "a link to the checkpoint served",
    "shared_src": "the implementation's folder under src/, from the submission root",
    "shared_docs": "the docs/ folder, from the submission root",
    "warmup": "the §6.3.3 warmup declaration (duration_s, requests_issued, requests_completed, ...)",
}
POINT_PLACEHOLDERS = {name: _NOTES[name] for name in SUBMITTER_FIELDS}


@dataclass(frozen=True)
class RunnerFiles:
    """The two documents, as text, and the placeholders left in each for the submitter."""

    config_yaml: str
    point_yaml: str
    placeholders: tuple[str, ...]


def _sampling(generation: ContractGeneration) -> dict[str, Any]:
    """A generation block in the client's spelling (reasoning effort as a chat-template argument)."""
    out: dict[str, Any] = {k: generation[k] for k in _SAMPLING if k in generation}  # type: ignore[literal-required]
    if "reasoning_effort" in generation:
        out["chat_template_kwargs"] = {"reasoning_effort": generation["reasoning_effort"]}
    return out


def load_pattern(settings: Settings) -> tuple[dict[str, Any], str, int | None]:
    """The submission's load as the client's `settings.load_pattern`, the point's
    `runtime_settings.load_pattern`, and its concurrency (None when the pattern has none: a
    Poisson load, which §6.1 and the checker accept only for a dedicated Offline point, so its
    `concurrency` is left to the submitter)."""
    pattern = settings.load_pattern
    if isinstance(pattern, PoissonLoad):
        return {"type": "poisson", "target_qps": pattern.target_qps}, "poisson", None
    return (
        {"type": "concurrency", "target_concurrency": pattern.target_concurrency},
        "concurrency",
        (pattern.target_concurrency),
    )


def _path(ident: str, sources: Mapping[str, str], sha: str) -> str:
    where = f" from {sources[ident]}" if ident in sources else ""
    pinned = f"sha256 {sha}" if sha.startswith("sha256:") or len(sha) == 64 else "its sha256 not yet pinned"
    return f"<TBD: local path of {ident}{where}, {pinned}>"


def _recipe(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The client's accuracy_config from the contract's evaluation recipe (its scorer is the eval method)."""
    recipe = entry.get("evaluation_recipe") or {}
    out = {"eval_method": recipe.get("scorer") or recipe.get("name")}
    return {**out, **({"ground_truth": recipe["ground_truth"]} if "ground_truth" in recipe else {})}


def _decided(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)  # a pending `<TBD>` is left to the client


def _serving(config: ResolvedConfig) -> tuple[dict[str, Any], Settings]:
    """The endpoint and settings of an inference submission; a training one has neither."""
    if config.endpoint_config is None or config.settings is None:
        raise InputsUnusable(
            f"{config.contract['id']} is a training benchmark: runner-config writes the endpoints client's "
            "files, and a training run has no endpoint",
            "a training run writes MLLOG result files: `catalogctl check RESOLVED RESULT_FILE` reads them",
        )
    return config.endpoint_config, config.settings


def _requirements(config: ResolvedConfig) -> dict[str, int]:
    """The contract's minimum duration and sample count, those it has decided, each at the
    submission's load when it depends on it (§6.2's minimum duration, as `check` evaluates it)."""
    performance = contract_terms(config.contract).get("performance")
    found = performance["requirements"] if performance else {}
    load = _serving(config)[1].load_pattern.model_dump()
    bounds = {k: per_load(found[k], load, k)[0] for k in ("min_duration_ms", "min_sample_count") if k in found}
    return {k: v for k, v in bounds.items() if _decided(v)}


def _runtime(config: ResolvedConfig) -> dict[str, Any]:
    bounds = _requirements(config)
    runtime: dict[str, Any] = {}
    if "min_duration_ms" in bounds:
        runtime["min_duration_ms"] = bounds["min_duration_ms"]
    if "min_sample_count" in bounds:
        runtime["n_samples_to_issue"] = bounds["min_sample_count"]
    runtime["scheduler_random_seed"] = config.seeds.scheduler_rng_seed
    runtime["dataloader_random_seed"] = config.seeds.sample_index_rng_seed
    return runtime


def client_config(config: ResolvedConfig) -> dict[str, Any]:
    """The endpoints client's `config.yaml` for the resolved config."""
    terms = contract_terms(config.contract)
    performance = terms.get("performance")
    base = _sampling(performance["generation"]) if performance else {}
    endpoint, settings = _serving(config)
    model = endpoint.get("served_model") or terms["model"].get("reference_id") or terms["model"]["id"]
    streaming = config.contract.get("execution", {}).get("response_mode") == "streaming"
    params: dict[str, Any] = {"name": model, **base, "seed": config.seeds.model_seed}
    params["streaming"] = "on" if streaming else "off"
    datasets: list[dict[str, Any]] = [
        {"name": d["id"], "type": "performance", "path": _path(d["id"], config.sources, d["source"]["sha256"])}
        for d in (performance["datasets"] if performance else [])
    ]
    for entry in accuracy_datasets(terms):
        dataset, recipe = entry["dataset"], _recipe(entry)
        item: dict[str, Any] = {
            "name": dataset["id"],
            "type": "accuracy",
            "path": _path(dataset["id"], config.sources, dataset["source"]["sha256"]),
            "accuracy_config": {**recipe, "num_repeats": entry["num_repeats"]},
        }
        override = {k: v for k, v in _sampling(entry["generation"]).items() if base.get(k) != v}
        if override:
            item["generation_config_override"] = override
        datasets.append(item)
    client_pattern, _, _ = load_pattern(settings)
    return {
        "name": f"{terms['id']}-{config.provenance.cohort}",
        "version": "1.0",
        "type": "online",
        "model_params": params,
        "datasets": datasets,
        "settings": {"runtime": _runtime(config), "load_pattern": client_pattern},
        "endpoint_config": {k: endpoint[k] for k in ("endpoints", "api_type")},
    }


def point_skeleton(config: ResolvedConfig) -> dict[str, Any]:
    """A §8.3 `point.yaml` for the resolved config, what only the submitter knows left null."""
    terms = contract_terms(config.contract)
    _, pattern, concurrency = load_pattern(_serving(config)[1])
    performance = terms.get("performance")
    ids = [d["id"] for d in (performance["datasets"] if performance else [])]
    ids += [e["dataset"]["id"] for e in accuracy_datasets(terms) if e["dataset"]["id"] not in ids]
    phases = [
        name for name, present in (("Accuracy", accuracy_datasets(terms)), ("Performance", performance)) if present
    ]
    links = [config.sources[i] for i in ids if i in config.sources]
    seeds = config.seeds
    # No client file records the context length: the submitter declares it (run/declared.py)
    declares = ["context_length"] if performance and "min_context_length" in performance["requirements"] else []
    return {
        "concurrency": concurrency,
        "dataset": ids[0] if ids else None,
        "model_name": terms["id"],
        "dataset_name": ", ".join(ids),
        "dataset_type": " + ".join(phases),
        "dataset_link": " ".join(links) if len(links) == len(ids) else None,
        "runtime_settings": {
            "load_pattern": pattern,
            **_requirements(config),
            "runtime": {
                "scheduler_rng_seed": seeds.scheduler_rng_seed,
                "sample_index_rng_seed": seeds.sample_index_rng_seed,
                "model_seed": seeds.model_seed,
            },
        },
        "seed_set": seeds.id,
        "target_cohort": config.provenance.cohort,
        **dict.fromkeys(POINT_PLACEHOLDERS),
        **dict.fromkeys(declares),
    }


def runner_files(config: ResolvedConfig) -> RunnerFiles:
    """Both documents as YAML text, each placeholder of point.yaml commented with what it wants."""
    point = point_skeleton(config)
    notes = {
        **POINT_PLACEHOLDERS,
        "dataset_link": "a link to the data (the catalog gives no source)",
        "concurrency": "the point's concurrency: a Poisson load has none, and §6.1 takes it only offline",
        "context_length": "the longest context, in tokens, the served endpoint accepts (the contract's "
        "min_context_length bounds it; no client file records it)",
    }
    text = dump_yaml(point)
    left = [k for k in notes if k in point and point[k] is None]
    for key in left:
        text = re.sub(rf"^{key}: null$", f"{key}: null  # <TBD: {notes[key]}>", text, count=1, flags=re.M)
    client = dump_yaml(client_config(config))
    pending = [f"config.yaml datasets[{i}].path" for i, d in enumerate(client_config(config)["datasets"])]
    header = f"# Written by catalogctl runner-config from the resolved config of {config.contract['id']} "
    header += f"({config.provenance.cohort}). Fill every <TBD: ...> before the run.\n"
    return RunnerFiles(header + client, header + text, (*pending, *(f"point.yaml {k}" for k in left)))
