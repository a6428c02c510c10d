"""What evalscope writes about a run, as far as `check` reads it (evalscope 1.14.1, PyPI).

An evalscope run's output folder holds `configs/task_config.yaml` (the `TaskConfig` as run, dumped
by `TaskConfig.dump_yaml` with the generated `resolved_benchmarks` and `evaluation_identity`:
evalscope/config.py, evalscope/evaluation_versioning.py) and one report per benchmark,
`reports/<model>/<benchmark>.json` (`Report.to_json`: evalscope/report/report.py, schema_version 2).
Only the keys `check` reads are modelled, strictly typed; evalscope's other keys are ignored.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Count = Annotated[int, Field(ge=0)]
Scalar = str | int | float | bool  # bool last: a dimension `true` stays a bool (strict)


class _Foreign(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True, allow_inf_nan=False)


class MetricIdentity(_Foreign):
    """evalscope's identity of an aggregated metric: its name, aggregation and dimensions."""

    name: str
    aggregation: str
    dimensions: dict[str, Scalar] = Field(default_factory=dict)

    @property
    def key(self) -> str:
        """The metric's key as evalscope writes it (`MetricIdentity.key`): `accuracy:mean`,
        `pass_at_k:pass_at_k[k=4]` (dimensions sorted, values as compact JSON, a whole float as
        an integer)."""
        parts = []
        for name, value in sorted(self.dimensions.items()):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            parts.append(f"{name}={json.dumps(value, ensure_ascii=False, separators=(',', ':'))}")
        return f"{self.name}:{self.aggregation}" + (f"[{','.join(parts)}]" if parts else "")


class ReportMetric(_Foreign):
    """One metric of a report: its value over the benchmark and the samples it counts."""

    identity: MetricIdentity
    num: Count = Field(description="the samples scored (times the repeats)")
    score: float


class ExecutionSummary(_Foreign):
    """How many samples evalscope asked for, and how they ended."""

    requested: Count
    succeeded: Count
    errored: Count
    incomplete: bool


class EvalscopeReport(_Foreign):
    """`reports/<model>/<benchmark>.json`."""

    schema_version: Literal[2]
    dataset_name: str = Field(description="the benchmark (evalscope's name of the task)")
    model_name: str
    metrics: list[ReportMetric]
    primary_metric_identity: MetricIdentity | None = None
    primary_metric_unavailable_reason: str | None = None
    execution_summary: ExecutionSummary | None = None


class ResolvedBenchmark(_Foreign):
    """A benchmark's settings as the run resolved them (`resolved_benchmarks.<name>`)."""

    few_shot_num: Count


class BenchmarkIdentity(_Foreign):
    """A benchmark's published evaluation version (`evaluation_identity.benchmarks.<name>`)."""

    evaluation_version: str


class EvaluationIdentity(_Foreign):
    """The evaluation identity of every benchmark of the run."""

    benchmarks: dict[str, BenchmarkIdentity]


class EvalscopeTaskConfig(_Foreign):
    """`configs/task_config.yaml`."""

    model_id: str
    eval_type: str | None = None
    datasets: list[str]
    limit: int | float | None = Field(description="a sample count or a fraction of each subset; null: all")
    repeats: Annotated[int, Field(ge=1)]
    generation_config: dict[str, Any] = Field(default_factory=dict)
    resolved_benchmarks: dict[str, ResolvedBenchmark] = Field(default_factory=dict)
    evaluation_identity: EvaluationIdentity | None = None
    evalscope_version: str | None = None
