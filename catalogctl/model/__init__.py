"""Pydantic models: every document kind (one module per kind), the resolved config and a run's
results, and the result of every verb (`report.Report`: what `--format json` writes).

The names below are imported from their modules on first use (PEP 562): a verb that needs one
model (`validate` answered from its remembered verdict needs only its report's) does not build
every document model at startup.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from catalogctl.model.benchmark import AnyBenchmark, Benchmark, InferenceBenchmark, TrainingBenchmark
    from catalogctl.model.common import Pending, StrictModel, is_display
    from catalogctl.model.dataset import Dataset
    from catalogctl.model.metrics import Metric, MetricsRegistry
    from catalogctl.model.model import Model
    from catalogctl.model.ruleset import Ruleset, SeedSet
    from catalogctl.model.submission import Submission
    from catalogctl.model.suite import Suite

_HOME = {
    "AnyBenchmark": "benchmark",
    "Benchmark": "benchmark",
    "InferenceBenchmark": "benchmark",
    "TrainingBenchmark": "benchmark",
    "Pending": "common",
    "StrictModel": "common",
    "is_display": "common",
    "Dataset": "dataset",
    "Metric": "metrics",
    "MetricsRegistry": "metrics",
    "Model": "model",
    "Ruleset": "ruleset",
    "SeedSet": "ruleset",
    "Submission": "submission",
    "Suite": "suite",
}

__all__ = [
    "AnyBenchmark",
    "Benchmark",
    "Dataset",
    "InferenceBenchmark",
    "Metric",
    "MetricsRegistry",
    "Model",
    "Pending",
    "Ruleset",
    "SeedSet",
    "StrictModel",
    "Submission",
    "Suite",
    "TrainingBenchmark",
    "is_display",
]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOME])
