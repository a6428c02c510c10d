"""Pydantic models, in two rooms: `documents` (what a file holds: every catalog document kind,
the configuration, a submission, the resolved config, a run's results) and `reports` (what each
verb returns, built on `reports.base.Report`: what `--format json` writes). `common` holds the
types both share.

The names below are imported from their modules on first use (PEP 562): a verb that needs one
model (`validate` answered from its remembered verdict needs only its report's) does not build
every document model at startup.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from catalogctl.model.common import Pending, StrictModel, is_display
    from catalogctl.model.documents.benchmark import AnyBenchmark, Benchmark, InferenceBenchmark, TrainingBenchmark
    from catalogctl.model.documents.dataset import Dataset
    from catalogctl.model.documents.metrics import Metric, MetricsRegistry
    from catalogctl.model.documents.model import Model
    from catalogctl.model.documents.ruleset import Ruleset, SeedSet
    from catalogctl.model.documents.submission import Submission
    from catalogctl.model.documents.suite import Suite

_HOME = {
    "AnyBenchmark": "documents.benchmark",
    "Benchmark": "documents.benchmark",
    "InferenceBenchmark": "documents.benchmark",
    "TrainingBenchmark": "documents.benchmark",
    "Pending": "common",
    "StrictModel": "common",
    "is_display": "common",
    "Dataset": "documents.dataset",
    "Metric": "documents.metrics",
    "MetricsRegistry": "documents.metrics",
    "Model": "documents.model",
    "Ruleset": "documents.ruleset",
    "SeedSet": "documents.ruleset",
    "Submission": "documents.submission",
    "Suite": "documents.suite",
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
