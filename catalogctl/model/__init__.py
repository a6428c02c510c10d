"""Pydantic models: every document kind (one module per kind), the resolved config and a run's
results, and the result of every verb (`report.Report`: what `--format json` writes)."""

from catalogctl.model.benchmark import AnyBenchmark, Benchmark, InferenceBenchmark, TrainingBenchmark
from catalogctl.model.common import Pending, StrictModel, is_display
from catalogctl.model.dataset import Dataset
from catalogctl.model.metrics import Metric, MetricsRegistry
from catalogctl.model.model import Model
from catalogctl.model.ruleset import Ruleset, SeedSet
from catalogctl.model.submission import Submission
from catalogctl.model.suite import Suite

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
