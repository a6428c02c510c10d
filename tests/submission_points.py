"""Builders of the official MLPerf Endpoints submission layout (§8.1/§8.3), for every test that feeds
a submission to `catalogctl check` or to the official checker (`submission_checker`, PyPI
`endpoints-submission-cli`, called as a library: its CLI's version check reaches the network).

A point folder `r<N>/` holds `point.yaml` (what the submitter declares), the endpoints client's
`config.yaml`, `result_summary.json` and `accuracy_results.json` (the real v6.1 NVIDIA DeepSeek-R1
files of tests/fixtures/endpoints, with the seeds, load, duration and scores the test asks for
written into them) and a §8.2 `system_desc.json`. `submission_tree` lays points out as
`<org>/<submission_id>/results/<system>/<model>/r<N>/`, with the `src/` and `docs/` folders the
checker resolves and a `system_power.json` (Appendix E) per system. `valid_curve` is a DeepSeek-R1
Pareto curve the checker accepts with no error: seven points over its regions (C_max 256), the
C_max point elected Offline, one accuracy run per mandatory band.

Usage:

    tree = submission_tree(tmp_path, [Point(32), Point(64, recorded=OTHER_SEEDS)])
    point = point_folder(tmp_path / "r32", Point(32))
    report = run_checker(submission_tree(tmp_path, valid_curve(seeds, "A", "2026-10-C1")), seed_sets=...)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from tests.run_results import ENDPOINTS_FIXTURES, SET_A

# The seeds the v6.1 NVIDIA config.yaml and result_summary.json recorded (SET_A's first two).
_FIXTURE_SCHEDULER = "16159082839903944936"
_FIXTURE_DATALOADER = "2747215439041700203"
_FIXTURE_LOAD = "  load_pattern:\n    type: poisson\n    target_qps: 170.0\n"
_RUN = "v6.1-nvidia-deepseek-r1-interactive"
_FIXTURE_MODEL = "/lustre/fsw/coreai_mlperf_inference/bofengl/models/DeepSeek-R1-NVFP4-v2-mlpinf"
C_MAX = 256


@dataclass(frozen=True)
class Accuracy:
    """What a point's accuracy_results.json reports: the accuracy run's score (percent, as the
    legacy DeepSeek-R1 scorer writes it), samples and mean output length, and optionally the
    inline `dataset_type: performance` entry the client scores on the performance run."""

    score: float = 80.62898814949864
    samples: int = 4388
    tokens_per_sample: float = 3825.634229717411
    inline_samples: int | None = None
    inline_score: float | None = None  # the inline entry's score; None: the accuracy run's


@dataclass(frozen=True)
class Point:
    """One measurement point: its concurrency, what point.yaml declares, and what the client
    recorded (`recorded` seeds, default the declared ones; `model_seed` written as
    model_params.seed only when `record_model_seed`; `load`, default the point's concurrency, as
    point.yaml declares; `duration_s` and `samples`, default the fixture's). `accuracy` None: no
    accuracy run."""

    concurrency: int
    declared: dict[str, int] = field(default_factory=lambda: dict(SET_A))
    recorded: dict[str, int] | None = None
    record_model_seed: bool = False
    seed_set: str | None = "A"
    target_cohort: str | None = "2026-09-C0"
    model_name: str = "deepseek-r1"
    max_concurrency: int | None = None
    offline: str | None = None
    load: dict[str, Any] | None = None
    duration_s: float | None = None
    samples: int | None = None  # result_summary.json's samples issued and completed; default the fixture's
    accuracy: Accuracy | None = field(default_factory=Accuracy)
    served_model: str | None = None  # config.yaml's model_params.name; default the fixture's
    extra: dict[str, Any] = field(default_factory=dict)


WARMUP = {
    "duration_s": 240.0,
    "requests_issued": 512,
    "requests_completed": 512,
    "data_source": "the performance dataset, salted",
    "concurrency": 64,
    "logs_retained": True,
}


def point_yaml(point: Point) -> str:
    """A §8.3 point.yaml (JSON is YAML) with every disclosure field the checker asks for."""
    data: dict[str, Any] = {
        "concurrency": point.concurrency,
        "dataset": "mlperf_deepseek_r1",
        "division": "standardized",
        "max_supported_concurrency": point.max_concurrency or point.concurrency,
        "model_name": point.model_name,
        "model_precision": "fp4",
        "link_to_model": "https://huggingface.co/deepseek-ai/DeepSeek-R1",
        "dataset_name": "mlperf_deepseek_r1",
        "dataset_type": "Accuracy + Performance",
        "dataset_link": "https://example.org/deepseek_r1_eval.parquet",
        "shared_src": "src/impl",
        "shared_docs": "docs",
        "warmup": WARMUP,
        "runtime_settings": {
            "load_pattern": "concurrency",
            "min_duration_ms": 600_000,
            "runtime": dict(point.declared),
        },
        **({"offline": point.offline} if point.offline is not None else {}),
        **({"seed_set": point.seed_set} if point.seed_set is not None else {}),
        **({"target_cohort": point.target_cohort} if point.target_cohort is not None else {}),
        **point.extra,
    }
    return json.dumps(data, indent=2) + "\n"


def _client_config(recorded: dict[str, int], point: Point) -> str:
    text = (ENDPOINTS_FIXTURES / f"{_RUN}.config.yaml").read_text()
    text = text.replace(_FIXTURE_SCHEDULER, str(recorded["scheduler_rng_seed"]))
    text = text.replace(_FIXTURE_DATALOADER, str(recorded["sample_index_rng_seed"]))
    if point.record_model_seed:
        text = text.replace("  temperature: 0.0\n", f"  temperature: 0.0\n  seed: {recorded['model_seed']}\n", 1)
    if point.served_model is not None:
        text = text.replace(f"  name: {_FIXTURE_MODEL}\n", f"  name: {point.served_model}\n", 1)
    lines = "".join(f"    {key}: {value}\n" for key, value in _load(point).items())
    return text.replace(_FIXTURE_LOAD, f"  load_pattern:\n{lines}")


def _load(point: Point) -> dict[str, Any]:
    return point.load or {"type": "concurrency", "target_concurrency": point.concurrency}


def _summary(recorded: dict[str, int], point: Point) -> str:
    data = json.loads((ENDPOINTS_FIXTURES / f"{_RUN}.result_summary.json").read_text())
    data["run_config"]["scheduler_random_seed"] = recorded["scheduler_rng_seed"]
    data["run_config"]["dataloader_random_seed"] = recorded["sample_index_rng_seed"]
    data["run_config"]["load_pattern"] = {"target_qps": None, "target_concurrency": None, **_load(point)}
    if point.duration_s is not None:
        data["duration_ns"] = int(point.duration_s * 1e9)
    if point.samples is not None:
        data.update(n_samples_issued=point.samples, n_samples_completed=point.samples, n_samples_failed=0)
    return json.dumps(data, indent=2) + "\n"


def _accuracy_results(accuracy: Accuracy) -> str:
    data = json.loads((ENDPOINTS_FIXTURES / f"{_RUN}.accuracy_results.json").read_text())
    [entry] = data["accuracy_scores"]
    entry.update(score=accuracy.score, unit_samples=accuracy.samples, total_samples=accuracy.samples)
    entry["response_counts"].update(issued=accuracy.samples, scored=accuracy.samples)
    entry["output_sequence_lengths"]["avg"] = accuracy.tokens_per_sample
    if accuracy.inline_samples is not None:
        inline = {**entry, "dataset_name": "performance", "dataset_type": "performance"}
        if accuracy.inline_score is not None:
            inline["score"] = accuracy.inline_score
        inline.update(unit_samples=accuracy.inline_samples, total_samples=accuracy.inline_samples)
        inline["response_counts"] = {**entry["response_counts"], "issued": accuracy.inline_samples}
        inline["response_counts"]["scored"] = accuracy.inline_samples
        data["accuracy_scores"].append(inline)
    return json.dumps(data, indent=2) + "\n"


def system_desc(division: str = "standardized", max_concurrency: int = C_MAX) -> str:
    """A §8.2 system_desc.json the checker's SystemDescription accepts (one liquid-cooled node type)."""
    node = {
        "system_node_ensemble_id": 1,
        "number_of_nodes": 1,
        "host_processor_model_name": "Example CPU 72-core",
        "host_processors_per_node": 2,
        "host_processor_core_count": 72,
        "host_memory_capacity": "2 TB",
        "host_memory_configuration": "32x 64 GB",
        "accelerator_info": [{"accelerator_model_name": "Example GPU", "accelerators_per_node": 8}],
        "host_network_card_count": "8",
        "cooling": "liquid",
        "driver": "580.0",
        "filesystem": "ext4",
    }
    data = {
        "division": division,
        "system_name": "test-system",
        "system_availability_status": "Preview",
        "target_availability_date": "2026-12-01",
        "max_supported_concurrency": max_concurrency,
        "system_size": "1 node",
        "system_node_ensemble_count": 1,
        "system_node_ensemble_total": 1,
        "shortened_system_name": "test-8x",
        "node_types": [node],
        "tps_utilization": 1.0,
    }
    return json.dumps(data, indent=2) + "\n"


# Appendix E: one node set, its power published by the vendor (no Appendix D estimate).
SYSTEM_POWER = {
    "system_desc_id": "test-system",
    "cooling": "liquid",
    "node_sets": [
        {
            "node_set_id": 1,
            "system_node_ensemble_id": 1,
            "nodes_provisioned": 1,
            "power_method": "published_system",
            "published_power": {"value_kw": 14.3, "source_type": "vendor_spec", "source": "https://example.org/spec"},
        }
    ],
    "scale_out": {"present": False},  # a single node: no scale-out fabric (E.4)
}


def point_folder(folder: Path, point: Point) -> Path:
    """Write the files of a point folder into `folder` (created); returns it."""
    folder.mkdir(parents=True, exist_ok=True)
    recorded = point.recorded if point.recorded is not None else point.declared
    (folder / "point.yaml").write_text(point_yaml(point))
    (folder / "config.yaml").write_text(_client_config(recorded, point))
    (folder / "result_summary.json").write_text(_summary(recorded, point))
    if point.accuracy is not None:
        (folder / "accuracy_results.json").write_text(_accuracy_results(point.accuracy))
    (folder / "system_desc.json").write_text(system_desc(max_concurrency=point.max_concurrency or point.concurrency))
    return folder


def submission_tree(
    root: Path,
    points: list[Point],
    *,
    org: str = "acme",
    submission_id: str = "sub-1",
    system: str = "sys-8x",
    model: str = "deepseek-r1",
) -> Path:
    """`<root>/<org>/<submission_id>/` with `src/impl/README.md`, `docs/`, the system's
    `system_power.json` and one point folder per point (a tree already there gains them) under
    `results/<system>/<model>/r<concurrency>/`; returns the submission folder."""
    submission = root / org / submission_id
    (submission / "src" / "impl").mkdir(parents=True, exist_ok=True)
    (submission / "src" / "impl" / "README.md").write_text("# implementation\n")
    (submission / "docs").mkdir(exist_ok=True)
    (submission / "docs" / "README.md").write_text("# docs\n")
    (submission / "results" / system).mkdir(parents=True, exist_ok=True)
    (submission / "results" / system / "system_power.json").write_text(json.dumps(SYSTEM_POWER, indent=2) + "\n")
    for point in points:
        point_folder(submission / "results" / system / model / f"r{point.concurrency}", point)
    return submission


# Seven points over the regions of C_max 256 (C_min 1: low 2-7, medium 8-41, high 42-256); the
# accuracy runs at 1, 4, 16 and 256, one per mandatory band, the elected C_max point also Offline's.
CURVE = (1, 4, 8, 16, 32, 128, 256)
ACCURACY_POINTS = frozenset({1, 4, 16, 256})


def valid_curve(declared: dict[str, int], seed_set: str, target_cohort: str, **change: Any) -> list[Point]:
    """The points of a DeepSeek-R1 submission the checker accepts, each run at its concurrency
    and bound to `seed_set`; `change` replaces fields of every point."""
    return [
        replace(
            Point(
                c,
                declared=dict(declared),
                seed_set=seed_set,
                target_cohort=target_cohort,
                max_concurrency=C_MAX,
                offline="elected" if c == C_MAX else None,
                accuracy=Accuracy() if c in ACCURACY_POINTS else None,
            ),
            **change,
        )
        for c in CURVE
    ]


def seed_sets_file(path: Path, cohort: str = "2026-09-C0", seeds: dict[str, int] | None = None) -> Path:
    """A seed-set registry in the checker's format, publishing set A (default: SET_A) for `cohort`."""
    entry = {"id": "A", **(seeds or SET_A)}
    path.write_text(json.dumps({"cohort": {"version": 1.0, "cohort-id": cohort, "seed_sets": [entry]}}) + "\n")
    return path


def run_checker(submission: Path, *, seed_sets: Path | None = None, drafters: Path | None = None) -> Any:
    """The official checker's report on `submission` (its bundled files where none is given)."""
    from submission_checker.checker import SubmissionChecker

    return SubmissionChecker(submission, seed_sets_path=seed_sets, approved_drafters_path=drafters).run()


def outcomes(report: Any, rule: str) -> list[tuple[str, str]]:
    """(severity, message) of the results of `rule`, each once (a per-point rule says the same of
    every point), in the report's order."""
    return list(dict.fromkeys((r.severity.value, r.message) for r in report.results if r.rule == rule))


def errors(report: Any) -> list[tuple[str, str]]:
    """(rule, message) of the report's errors, each once, in the report's order."""
    return list(dict.fromkeys((r.rule, r.message) for r in report.errors))
