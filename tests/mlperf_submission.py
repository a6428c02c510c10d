"""Submission trees in the official MLCommons layout, for tests that run the official checker
(`submission_checker`, PyPI `endpoints-submission-cli`) as a library.

`build_submission` writes `<org>/<submission>/` as §8.1 lays it out (`src/<impl>/README.md`,
`docs/`, `results/<system>/<model>/r<N>/` with `point.yaml`, `config.yaml`,
`result_summary.json`, `accuracy_results.json`, `system_desc.json`), from the real NVIDIA v6.1
DeepSeek-R1 files in tests/fixtures/endpoints, each point bound (`seed_set`, `target_cohort`,
`runtime_settings.runtime.*`) to the seeds given. `run_checker` runs `SubmissionChecker` on it
with the registry files given (never its CLI, whose version check reaches the network) and
`outcomes` reads the verdicts of one rule.

The tree carries what the checker's seed, model-name, shared-path, dataset and accuracy rules
read; rules about the system (system_desc.json's fields, system_power.json), the curve (seven
points, an offline point, regions) and warmup are not satisfied by it: a test asserts the rules
it is about, by name (see `SYSTEM_RULES` for the ones this tree fails by construction).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from submission_checker.checker import SubmissionChecker

from catalogctl.io.yamlio import dump_yaml
from catalogctl.model.seeds import SeedValues

FIXTURES = Path(__file__).parent / "fixtures" / "endpoints"
RUN = "v6.1-nvidia-deepseek-r1-interactive"

# What this tree does not provide, so the checker reports it whatever the seeds.
SYSTEM_RULES = frozenset(
    {
        "power-descriptor",
        "point-disclosure-complete",
        "warmup-present",
        "system-description-valid",
        "metric-consistency-tpot-p90",
        "point-count",
        "offline-point-present",
    }
)


@dataclass
class SubmissionSpec:
    """What the points of a submission declare; the defaults are a DeepSeek-R1 point at
    concurrency 1, as the real v6.1 run's files describe it."""

    seed_set: str
    seeds: SeedValues
    target_cohort: str
    model_name: str = "deepseek-r1"
    dataset: str = "mlperf_deepseek_r1"
    concurrencies: tuple[int, ...] = (1,)
    extra: dict[str, Any] = field(default_factory=dict)


def build_submission(base: Path, spec: SubmissionSpec, *, org: str = "org", submission: str = "sub1") -> Path:
    """Write the submission tree under `base` and return its `<org>/<submission>/` folder, the
    path `SubmissionChecker` takes."""
    root = base / org / submission
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "README.md").write_text("Documentation of the submission.\n", encoding="utf-8")
    (root / "src" / "impl").mkdir(parents=True)
    (root / "src" / "impl" / "README.md").write_text("How to build the system and run a point.\n", encoding="utf-8")
    for concurrency in spec.concurrencies:
        point = root / "results" / "system" / spec.model_name / f"r{concurrency}"
        point.mkdir(parents=True)
        shutil.copyfile(FIXTURES / f"{RUN}.config.yaml", point / "config.yaml")
        shutil.copyfile(FIXTURES / "v6.1-nvidia-deepseek-r1-offline.result_summary.json", point / "result_summary.json")
        shutil.copyfile(FIXTURES / f"{RUN}.accuracy_results.json", point / "accuracy_results.json")
        (point / "system_desc.json").write_text(json.dumps({}) + "\n", encoding="utf-8")
        (point / "point.yaml").write_text(dump_yaml(_point(spec, concurrency)), encoding="utf-8")
    return root


def _point(spec: SubmissionSpec, concurrency: int) -> dict[str, Any]:
    """One point's §8.3 disclosure: the bound seed set, its seeds, the target cohort."""
    return {
        "concurrency": concurrency,
        "dataset": spec.dataset,
        "model_name": spec.model_name,
        "division": "Standardized",
        "runtime_settings": {"load_pattern": "concurrency", "runtime": spec.seeds.seed_values().model_dump()},
        "seed_set": spec.seed_set,
        "target_cohort": spec.target_cohort,
        "shared_src": "src/impl",
        "shared_docs": "docs",
        **spec.extra,
    }


def run_checker(submission: Path, *, seed_sets: Path | None = None, drafters: Path | None = None) -> Any:
    """The official checker's report on `submission` (its bundled files where none is given)."""
    return SubmissionChecker(submission, seed_sets_path=seed_sets, approved_drafters_path=drafters).run()


def outcomes(report: Any, rule: str) -> list[tuple[str, str]]:
    """(severity, message) of every result of `rule`, in the report's order."""
    return [(r.severity.value, r.message) for r in report.results if r.rule == rule]


def errors_but(report: Any, ignored: frozenset[str] = SYSTEM_RULES) -> list[tuple[str, str]]:
    """(rule, message) of every error, except those of the `ignored` rules."""
    return [(r.rule, r.message) for r in report.errors if r.rule not in ignored]
