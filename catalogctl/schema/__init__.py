"""Pydantic models of every document kind, one module per kind."""

from .benchmark import AnyBenchmark, Benchmark, InferenceBenchmark, TrainingBenchmark
from .common import Pending, StrictModel, is_display
from .dataset import Dataset
from .metrics import Metric, MetricsRegistry
from .model import Model
from .ruleset import Ruleset, SeedSet
from .submission import Submission
from .suite import Suite

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
