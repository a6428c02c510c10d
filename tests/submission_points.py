"""Builders of the official MLPerf Endpoints submission layout (§8.1/§8.3), for any test that feeds a
submission to `catalogctl check` or to the official `SubmissionChecker`.

A point folder `r<N>/` holds `point.yaml` (what the submitter declares), the endpoints client's
`config.yaml`, `result_summary.json` and `accuracy_results.json` (the real v6.1 NVIDIA DeepSeek-R1
files of tests/fixtures/endpoints, with the seeds the test asks for written into them) and a
`system_desc.json`. `submission_tree` lays points out as `<org>/<submission_id>/results/<system>/
<model>/r<N>/`, with the `src/` and `docs/` folders the checker looks for.

Usage (a later conformance suite builds its cases the same way):

    tree = submission_tree(tmp_path, [Point(32), Point(64, recorded=OTHER_SEEDS)])
    point = point_folder(tmp_path / "r32", Point(32))
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.run_results import ENDPOINTS_FIXTURES, SET_A

# The seeds the v6.1 NVIDIA config.yaml and result_summary.json recorded (SET_A's first two).
_FIXTURE_SCHEDULER = "16159082839903944936"
_FIXTURE_DATALOADER = "2747215439041700203"
_RUN = "v6.1-nvidia-deepseek-r1-interactive"


@dataclass(frozen=True)
class Point:
    """One measurement point: its concurrency, what point.yaml declares, and the seeds the client
    recorded (`recorded`, default: the declared ones; `model_seed` written as model_params.seed
    only when `record_model_seed`)."""

    concurrency: int
    declared: dict[str, int] = field(default_factory=lambda: dict(SET_A))
    recorded: dict[str, int] | None = None
    record_model_seed: bool = False
    seed_set: str | None = "A"
    target_cohort: str | None = "2026-09-C0"
    model_name: str = "deepseek-r1"
    extra: dict[str, Any] = field(default_factory=dict)


def point_yaml(point: Point) -> str:
    """A §8.3 point.yaml (JSON is YAML) with every disclosure field the checker asks for."""
    data: dict[str, Any] = {
        "concurrency": point.concurrency,
        "dataset": "mlperf_deepseek_r1",
        "division": "standardized",
        "max_supported_concurrency": point.concurrency,
        "model_name": point.model_name,
        "model_precision": "fp4",
        "link_to_model": "https://huggingface.co/deepseek-ai/DeepSeek-R1",
        "dataset_name": "mlperf_deepseek_r1",
        "dataset_type": "Accuracy + Performance",
        "dataset_link": "https://example.org/deepseek_r1_eval.parquet",
        "shared_src": "src/impl",
        "shared_docs": "docs",
        "runtime_settings": {
            "load_pattern": "concurrency",
            "min_duration_ms": 600_000,
            "runtime": dict(point.declared),
        },
        **({"seed_set": point.seed_set} if point.seed_set is not None else {}),
        **({"target_cohort": point.target_cohort} if point.target_cohort is not None else {}),
        **point.extra,
    }
    return json.dumps(data, indent=2) + "\n"


def _client_config(recorded: dict[str, int], model_seed: bool) -> str:
    text = (ENDPOINTS_FIXTURES / f"{_RUN}.config.yaml").read_text()
    text = text.replace(_FIXTURE_SCHEDULER, str(recorded["scheduler_rng_seed"]))
    text = text.replace(_FIXTURE_DATALOADER, str(recorded["sample_index_rng_seed"]))
    if model_seed:
        text = text.replace("  temperature: 0.0\n", f"  temperature: 0.0\n  seed: {recorded['model_seed']}\n", 1)
    return text


def _summary(recorded: dict[str, int]) -> str:
    data = json.loads((ENDPOINTS_FIXTURES / f"{_RUN}.result_summary.json").read_text())
    data["run_config"]["scheduler_random_seed"] = recorded["scheduler_rng_seed"]
    data["run_config"]["dataloader_random_seed"] = recorded["sample_index_rng_seed"]
    return json.dumps(data, indent=2) + "\n"


def system_desc(division: str = "standardized") -> str:
    """A system_desc.json: the fields this project's tests need, not a full §8.2 description."""
    return json.dumps({"division": division, "system_name": "test-system", "tps_utilization": 1.0}) + "\n"


def point_folder(folder: Path, point: Point) -> Path:
    """Write the five files of a point folder into `folder` (created); returns it."""
    folder.mkdir(parents=True, exist_ok=True)
    recorded = point.recorded if point.recorded is not None else point.declared
    (folder / "point.yaml").write_text(point_yaml(point))
    (folder / "config.yaml").write_text(_client_config(recorded, point.record_model_seed))
    (folder / "result_summary.json").write_text(_summary(recorded))
    shutil.copy(ENDPOINTS_FIXTURES / f"{_RUN}.accuracy_results.json", folder / "accuracy_results.json")
    (folder / "system_desc.json").write_text(system_desc())
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
    """`<root>/<org>/<submission_id>/` with `src/impl/README.md`, `docs/` and one point folder per
    point under `results/<system>/<model>/r<concurrency>/`; returns the submission folder."""
    submission = root / org / submission_id
    (submission / "src" / "impl").mkdir(parents=True)
    (submission / "src" / "impl" / "README.md").write_text("# implementation\n")
    (submission / "docs").mkdir()
    (submission / "docs" / "README.md").write_text("# docs\n")
    for point in points:
        point_folder(submission / "results" / system / model / f"r{point.concurrency}", point)
    return submission


def seed_sets_file(path: Path, cohort: str = "2026-09-C0", seeds: dict[str, int] | None = None) -> Path:
    """A seed-set registry in the checker's format, publishing set A (default: SET_A) for `cohort`."""
    entry = {"id": "A", **(seeds or SET_A)}
    path.write_text(json.dumps({"cohort": {"version": 1.0, "cohort-id": cohort, "seed_sets": [entry]}}) + "\n")
    return path
