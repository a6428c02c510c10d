"""What an inspect_ai log records about a run, as far as `check` reads it (inspect_ai 0.3.285, PyPI).

`inspect eval ... --log-format json` writes the `EvalLog` of inspect_ai/log/_log.py as plain JSON
(the default `.eval` format is a zip): `eval` (`EvalSpec`: the task, its version and arguments, the
dataset, the model, `config` with `limit`, `sample_id` and `epochs`), `plan` (the solvers and the
generate config), `results` (`EvalResults`: samples, scores per scorer, the headline metric) and
`status`. Only the keys `check` reads are modelled, strictly typed; the rest is ignored.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

Count = Annotated[int, Field(ge=0)]


class _Foreign(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True, allow_inf_nan=False)


class EvalDataset(_Foreign):
    """The dataset as loaded: its size before any limit (`EvalDataset.samples`)."""

    name: str | None = None
    samples: Count | None = None


class EvalConfig(_Foreign):
    """The eval's configuration: what limits the samples, and the epochs."""

    limit: Count | list[Count] | None = Field(default=None, description="a count, or [start, end]")
    sample_id: str | int | list[str | int] | None = None
    epochs: Annotated[int, Field(ge=1)] | None = None
    epochs_reducer: list[str] | None = None


class EvalSpec(_Foreign):
    """The eval's identity and configuration."""

    task: str
    task_version: int | str = 0
    task_args: dict[str, Any] = Field(default_factory=dict)
    dataset: EvalDataset
    model: str
    model_generate_config: dict[str, Any] = Field(default_factory=dict)
    model_args: dict[str, Any] = Field(default_factory=dict)
    config: EvalConfig
    packages: dict[str, str] = Field(default_factory=dict)


class PlanStep(_Foreign):
    """A solver of the plan, with the parameters it ran with."""

    solver: str
    params: dict[str, Any] = Field(default_factory=dict)


class EvalPlan(_Foreign):
    """The solvers, and the generate config the eval passed them."""

    steps: list[PlanStep] = Field(default_factory=list)
    config: dict[str, Any] = Field(default_factory=dict)


class EvalMetric(_Foreign):
    """One metric of a score."""

    value: int | float


class EvalScore(_Foreign):
    """A scorer's score (several per scorer when it returns a dict of scores), with its metrics."""

    name: str
    scorer: str
    reducer: str | None = None
    scored_samples: Count | None = None
    unscored_samples: Count | None = None
    metrics: dict[str, EvalMetric] = Field(default_factory=dict)


class HeadlineMetric(_Foreign):
    """The metric that best summarises the eval, as inspect resolved it."""

    score: str | None = None
    metric: str | None = None
    reducer: str | None = None


class EvalResults(_Foreign):
    """Samples (dataset samples x epochs) and scores."""

    total_samples: Count
    completed_samples: Count
    scores: list[EvalScore] = Field(default_factory=list)
    headline: HeadlineMetric | None = None


class InspectLog(_Foreign):
    """An `EvalLog` (format version 2)."""

    version: int
    status: str = Field(description="started, success, cancelled or error")
    eval: EvalSpec
    plan: EvalPlan = Field(default_factory=EvalPlan)
    results: EvalResults | None = None
    invalidated: bool = False
