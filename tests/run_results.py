"""Resolved configs and run results for the shipped contracts, for the checks' tests."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any

from catalogctl.catalog.contract import contract_digest, dataset_sources, digest_of, resolve_contract
from catalogctl.model.documents.resolved import Provenance, RemoteVerification, ResolvedConfig, ResolvedSeeds
from catalogctl.model.documents.results import RunResults
from catalogctl.model.documents.submission import Settings, TrainingRun
from catalogctl.run.seal import sealed
from tests.catalog_edit import load

ENDPOINTS_FIXTURES = Path(__file__).resolve().parent / "fixtures" / "endpoints"  # real files of a published v6.1 run
SET_A = {"scheduler_rng_seed": 16159082839903944936, "sample_index_rng_seed": 2747215439041700203, "model_seed": 42}


def sha_of(name: str) -> str:
    return hashlib.sha256(name.encode()).hexdigest()


def pin_all(root: Path) -> None:
    """Give every dataset a source url and sha256 (as if pinned)."""
    for path in sorted((root / "benchmark_suite/datasets").glob("*.yaml")):
        text = path.read_text().replace("  url: <TBD>", f"  url: https://example.org/{path.stem}.jsonl")
        path.write_text(text.replace("  sha256: <TBD>", f"  sha256: {sha_of(path.stem)}", 1))


# The model name the endpoints client recorded in the published DeepSeek-R1 run (tests/fixtures/endpoints).
DEEPSEEK_SERVED = "/lustre/fsw/coreai_mlperf_inference/bofengl/models/DeepSeek-R1-NVFP4-v2-mlpinf"
# The load that run was driven at (its config.yaml's settings.load_pattern).
DEEPSEEK_LOAD = {"type": "poisson", "target_qps": 170.0}


def resolved_config(
    root: Path, benchmark: str, load_pattern: dict[str, Any] | None = None, /, **endpoint: str
) -> ResolvedConfig:
    """A resolved config of the catalog at `root` as `resolve` writes one (digests and seal
    real), not tied to a release; `endpoint` adds to its endpoint_config. The load is
    `load_pattern`, else the published DeepSeek-R1 run's for deepseek-r1, else concurrency 8."""
    catalog = load(root).catalog
    contract = resolve_contract(catalog, benchmark, display=False)
    if benchmark == "deepseek-r1":
        endpoint = {"served_model": DEEPSEEK_SERVED, **endpoint}
        load_pattern = load_pattern or DEEPSEEK_LOAD
    return sealed(
        ResolvedConfig(
            submission_ref={"cohort": "2026-09-C0", "seed_set_id": "A", "benchmark": benchmark},
            contract=contract,
            seeds=ResolvedSeeds(id="A", **SET_A),
            sources=dataset_sources(catalog, contract),
            **_run_terms(contract, load_pattern, endpoint),
            provenance=Provenance(
                cohort="2026-09-C0",
                tag="2026-09-C0",
                commit="0" * 40,
                ruleset_digest="sha256:" + "0" * 64,
                contract_digest=contract_digest(catalog, benchmark),
                tool_version="test",
                resolved_at="2026-09-02T00:00:00+00:00",
                remote=RemoteVerification(verified=False, note="test"),
            ),
        )
    )


def _run_terms(contract: dict[str, Any], load: dict[str, Any] | None, endpoint: dict[str, str]) -> dict[str, Any]:
    """What the submitter owns: an endpoint and a load, or for a training benchmark its run (gbs 512)."""
    if contract["kind"] == "training":
        return {"training": TrainingRun(system="64xGB300", global_batch_size=512)}
    return {
        "endpoint_config": {"endpoints": ["http://127.0.0.1:8000/v1"], "api_type": contract["api_type"], **endpoint},
        "settings": Settings.model_validate({"load_pattern": load or {"type": "concurrency", "target_concurrency": 8}}),
    }


def resealed(data: dict[str, Any]) -> dict[str, Any]:
    """A resolved config's data after an edit, with its digest and seal made to match again: what
    a newer catalogctl (or a forger) writes. Without --catalog, check can only take it as is."""
    config = ResolvedConfig.model_validate(data)
    provenance = config.provenance.model_copy(update={"contract_digest": digest_of(config.contract)})
    return sealed(config.model_copy(update={"provenance": provenance})).to_data()


def gpt_oss_results(**overrides: Any) -> RunResults:
    """A gpt-oss-120b run that passes every gate; `overrides` replace top-level fields."""
    high = {"temperature": 1.0, "top_p": 1.0, "top_k": 0, "max_new_tokens": 32768, "reasoning_effort": "high"}
    data: dict[str, Any] = {
        "schema": "catalogctl/results/v1",
        "benchmark": "gpt-oss-120b",
        "api_type": "openai",
        "model": "openai/gpt-oss-120b",
        "model_sha": "b5c939de8f754692c1647ca79fbf85e8c1e70f8a",
        "seeds": dict(SET_A),
        "datasets": [
            {
                "dataset": "gpt_oss_perf",
                "phase": "performance",
                "sha256": sha_of("gpt_oss_perf"),
                "samples_issued": 6396,
            },
            *({"dataset": d, "phase": "accuracy", "sha256": sha_of(d)} for d in ("aime25", "gpqa", "livecodebench")),
        ],
        "generation": [
            {
                "phase": "performance",
                "temperature": 1.0,
                "top_p": 1.0,
                "top_k": 0,
                "max_new_tokens": 10240,
                "reasoning_effort": "low",
            },
            *({"phase": "accuracy", "dataset": d, **high} for d in ("aime25", "gpqa", "livecodebench")),
        ],
        "performance": {
            "duration_ms": 600500.0,
            "sample_count": 6396,
            "context_length": 65536,
            "ttft_p99_ms": 2500.0,
            "tpot_p99_ms": 70.0,
        },
        "accuracy": [
            {"dataset": "aime25", "scale": "fraction", "repeat_scores": [0.9] * 8, "samples_scored": 240},
            {"dataset": "gpqa", "scale": "fraction", "repeat_scores": [0.8] * 5, "samples_scored": 990},
            {"dataset": "livecodebench", "scale": "fraction", "repeat_scores": [0.84] * 3, "samples_scored": 3165},
        ],
    }
    data.update(overrides)
    return RunResults.model_validate(data)


def set_deepseek_sample_count(root: Path) -> Path:
    """Give deepseek-r1 the min_sample_count of the endpoints run, where the catalog leaves it pending."""
    path = root / "benchmark_suite/benchmarks/deepseek-r1.yaml"
    path.write_text(path.read_text().replace("min_sample_count: <TBD>", "min_sample_count: 4388"))
    return root


def run_folder(tmp_path: Path, scenario: str, with_accuracy: bool = True) -> Path:
    """A run folder of the endpoints client's DeepSeek-R1 run (`interactive` or `offline`), with or
    without its accuracy file."""
    folder = tmp_path / scenario
    (folder / "performance").mkdir(parents=True)
    shutil.copy(ENDPOINTS_FIXTURES / "v6.1-nvidia-deepseek-r1-interactive.config.yaml", folder / "config.yaml")
    shutil.copy(
        ENDPOINTS_FIXTURES / f"v6.1-nvidia-deepseek-r1-{scenario}.result_summary.json",
        folder / "performance" / "result_summary.json",
    )
    if with_accuracy:
        (folder / "accuracy").mkdir()
        shutil.copy(
            ENDPOINTS_FIXTURES / "v6.1-nvidia-deepseek-r1-interactive.accuracy_results.json",
            folder / "accuracy" / "accuracy_results.json",
        )
    return folder
