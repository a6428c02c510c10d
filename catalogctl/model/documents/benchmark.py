"""`benchmark_suite/benchmarks/<id>.yaml`: a benchmark contract.

`family` is the modality (text, vision, ...); `kind` says whether it is an inference benchmark
(performance and accuracy phases scored by the post-processing gates) or a training benchmark
(time to a quality target).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, model_validator

from catalogctl.model.common import (
    I18n,
    Id,
    MetadataValue,
    MetricKey,
    Pendable,
    PositiveInt,
    StrictModel,
    Text,
    display,
    mlperf_name_field,
)
from catalogctl.model.documents.drafters import ApprovedDrafter
from catalogctl.model.documents.runner import Runner

Family = Literal["text", "vision", "multimodal", "speech"]
ApiType = Literal["openai", "openai_completions"]
NonNegativeFloat = Annotated[float, Field(ge=0)]
PositiveFloat = Annotated[float, Field(gt=0)]
Probability = Annotated[float, Field(gt=0, le=1)]
Scale = Literal["percent", "fraction", "absolute"]


class Generation(StrictModel):
    """Sampling parameters. A per-dataset override uses the same keys, merged one level deep."""

    temperature: NonNegativeFloat | None = None
    top_p: Probability | None = None
    top_k: Annotated[int, Field(ge=0)] | None = None
    max_new_tokens: PositiveInt | None = None
    min_new_tokens: PositiveInt | None = None
    reasoning_effort: Literal["low", "medium", "high"] | None = None


class Execution(StrictModel):
    """How responses are received."""

    response_mode: Literal["streaming", "non_streaming"]


class Preprocessing(StrictModel):
    """How a dataset row becomes a request."""

    input_transform: Literal["chat_template", "raw"]
    num_fewshot: Annotated[int, Field(ge=0)] | None = None


class ConcurrencyTier(StrictModel):
    """One tier of a load-dependent value: `value` for a concurrency up to `up_to` (inclusive);
    the last tier has no `up_to` and holds above every other, and for a load without a
    concurrency (Poisson)."""

    up_to: PositiveInt | None = None
    value: PositiveInt


class ByConcurrency(StrictModel):
    """A requirement that depends on the submitter's concurrency (rules §6.2's minimum duration:
    600 s up to concurrency 32, 1,200 s above). The first tier whose `up_to` the concurrency does
    not exceed applies; a Poisson load has no concurrency bound, so it takes the open last tier
    (the official checker admits no Poisson Pareto point at all, §6.1)."""

    by_concurrency: list[ConcurrencyTier] = Field(min_length=1)

    @model_validator(mode="after")
    def _tiers_ascend_to_an_open_one(self) -> ByConcurrency:
        check_tier_bounds([t.up_to for t in self.by_concurrency])
        return self


def check_tier_bounds(bounds: list[int | None]) -> None:
    """Tiers' `up_to`s ascend to an open last tier, or ValueError says how they do not (also the
    resolved contract's rule: `catalogctl.model.documents.resolved`)."""
    if bounds[-1] is not None:
        raise ValueError(f"the last tier has up_to {bounds[-1]}: end with a tier without up_to (above all)")
    if None in bounds[:-1]:
        raise ValueError("only the last tier may leave out up_to")
    ups = [b for b in bounds if b is not None]
    if any(b >= a for a, b in zip(ups[1:], ups, strict=False)):
        raise ValueError(f"up_to must ascend, tier by tier (got {', '.join(map(str, ups))})")


def _form(value: Any) -> str:
    return "tiers" if isinstance(value, dict | ByConcurrency) else "fixed"


# A number (or pending), or tiers by concurrency: told apart by shape, so that an error speaks of
# the form written, never of both.
PerLoad = Annotated[
    Annotated[Pendable[PositiveInt], Tag("fixed")] | Annotated[ByConcurrency, Tag("tiers")], Discriminator(_form)
]


class PerformanceRequirements(StrictModel):
    """What a valid performance run must show. TTFT and TPOT bounds are on the 99th percentile."""

    min_duration_ms: PerLoad | None = None
    min_sample_count: Pendable[PositiveInt] | None = None
    min_context_length: Pendable[PositiveInt] | None = None
    max_ttft_latency_ms: Pendable[PositiveFloat] | None = None
    max_tpot_latency_ms: Pendable[PositiveFloat] | None = None


# The metric each requirement constrains: the registry must declare them.
REQUIREMENT_METRICS: dict[str, str] = {
    "min_duration_ms": "duration_ms",
    "min_sample_count": "sample_count",
    "min_context_length": "context_length",
    "max_ttft_latency_ms": "ttft_p99_ms",
    "max_tpot_latency_ms": "tpot_p99_ms",
    "min_accuracy_sample_count": "accuracy_sample_count",
}


class Performance(StrictModel):
    """The measured phase."""

    datasets: list[Id] = Field(min_length=1)
    generation: Generation
    requirements: PerformanceRequirements


class RepeatAggregation(StrictModel):
    """How the repeats of one dataset become one score."""

    method: Literal["mean_of_k", "best_of_k", "pass_at_k"]
    k: PositiveInt


class AccuracyDataset(StrictModel):
    """One dataset of the accuracy phase."""

    dataset: Id
    evaluation_recipe: Id
    num_repeats: PositiveInt
    generation: Generation | None = None
    repeat_aggregation: RepeatAggregation | None = None

    @model_validator(mode="after")
    def _k_fits(self) -> AccuracyDataset:
        agg = self.repeat_aggregation
        if agg is not None and agg.k > self.num_repeats:
            raise ValueError(f"repeat_aggregation.k ({agg.k}) exceeds num_repeats ({self.num_repeats})")
        return self


class DatasetAggregation(StrictModel):
    """How per-dataset scores become the benchmark's score."""

    method: Literal["single_dataset", "micro_average", "unweighted_mean", "per_dataset"]
    weighting: Literal["base_questions", "samples"] | None = None
    components: list[Id] | None = None

    @model_validator(mode="after")
    def _weighting_only_for_micro(self) -> DatasetAggregation:
        if (self.method == "micro_average") != (self.weighting is not None):
            raise ValueError("weighting is required for micro_average and meaningless otherwise")
        return self


class Threshold(StrictModel):
    """A bound of `reference x factor` (MLPerf states "99% of reference" as lower_factor 0.99).

    `scale` says how `reference` is written: percent (0-100), fraction (0-1), or absolute (the
    metric's own unit, e.g. tokens).
    """

    reference: float
    lower_factor: PositiveFloat | None = None
    upper_factor: PositiveFloat | None = None
    scale: Scale

    @model_validator(mode="after")
    def _bounds(self) -> Threshold:
        if self.lower_factor is None and self.upper_factor is None:
            raise ValueError("state lower_factor, upper_factor or both")
        if self.lower_factor is not None and self.upper_factor is not None and self.lower_factor > self.upper_factor:
            raise ValueError(f"lower_factor {self.lower_factor} is above upper_factor {self.upper_factor}")
        limit = {"percent": 100.0, "fraction": 1.0}.get(self.scale)
        if limit is not None and not 0 <= self.reference <= limit:
            raise ValueError(f"reference {self.reference} is outside 0..{limit:g} for scale {self.scale}")
        return self


class AccuracyRequirements(StrictModel):
    """What a valid accuracy run must show."""

    min_accuracy_sample_count: Pendable[PositiveInt]


class Accuracy(StrictModel):
    """The scored phase."""

    datasets: list[AccuracyDataset] = Field(min_length=1)
    generation: Generation
    dataset_aggregation: DatasetAggregation
    thresholds: dict[MetricKey, Threshold] = Field(default_factory=dict)
    requirements: AccuracyRequirements
    reported_metrics: list[MetricKey] = Field(default_factory=list)
    primary_metric: MetricKey | None = None


class Postprocessing(StrictModel):
    """The gates that decide whether a run is valid, by name from the gate registry."""

    gates: list[Id] = Field(min_length=1)


class _BenchmarkHead(StrictModel):
    """The fields every benchmark starts with; each kind narrows `kind` to its name."""

    kind: str
    id: Id
    family: Family
    title: Text = display()
    summary: Text = display()
    owners: list[Id] = display(min_length=1)
    model: Id
    mlperf_name: Id | None = mlperf_name_field()


class InferenceBenchmark(_BenchmarkHead):
    """An inference benchmark: a performance phase, an accuracy phase, or both."""

    kind: Literal["inference"]
    runner: Runner | None = Field(
        default=None, description="the harness that runs the benchmark; absent: the MLCommons endpoints client"
    )
    api_type: ApiType
    execution: Execution
    preprocessing: Preprocessing
    performance: Performance | None = None
    accuracy: Accuracy | None = None
    postprocessing: Postprocessing
    approved_drafters: list[ApprovedDrafter] = Field(
        default_factory=list,
        description="the speculative-decoding drafters a submission may use (§2.9.4); none: speculative decoding "
        "is not allowed",
    )
    i18n: I18n | None = display(default=None)
    renamed_from: Id | None = display(default=None)
    metadata: dict[str, MetadataValue] = display(default_factory=dict)

    @model_validator(mode="after")
    def _has_a_phase(self) -> InferenceBenchmark:
        if self.performance is None and self.accuracy is None:
            raise ValueError("an inference benchmark needs a performance phase, an accuracy phase or both")
        return self


class TrainingPhase(StrictModel):
    """What the policy trains on."""

    split: Id
    method: Text
    harness: Id | None = None
    generation: Generation | None = Field(default=None, description="sampling of the training rollouts")
    init_checkpoint_step: Annotated[int, Field(ge=0)] | None = Field(
        default=None, description="the step of the checkpoint training starts from (0: the reference checkpoint)"
    )


class Validation(StrictModel):
    """How the quality target is measured during training."""

    split: Id
    samples: PositiveInt | None = Field(default=None, description="tasks per evaluation: the split's samples")
    attempts_per_task: PositiveInt
    rollouts: PositiveInt | None = None
    generation: Generation


class Optimizer(StrictModel):
    """The optimizer and schedule the rules fix; `learning_rate` and `gradient_clip_norm` are
    formulas of gbs, compared within `tolerance` (absolute), as the official checker does."""

    name: Id
    beta_1: Annotated[float, Field(ge=0, lt=1)]
    beta_2: Annotated[float, Field(ge=0, lt=1)]
    epsilon: PositiveFloat
    weight_decay: NonNegativeFloat
    schedule: Id
    warmup_steps: Annotated[int, Field(ge=0)]
    learning_rate: Text
    gradient_clip_norm: Text
    tolerance: PositiveFloat


class Limits(StrictModel):
    """Budgets every rollout must respect."""

    max_context_tokens: PositiveInt
    max_turns: PositiveInt
    generations_per_prompt: PositiveInt


class QualityTarget(StrictModel):
    """The quality a run must reach; the clock stops when it does."""

    metric: MetricKey
    target: float
    scale: Scale
    bound: Literal[">", ">="] = Field(
        default=">=", description="how an evaluation must compare with the target to converge (MLPerf: >)"
    )


class ReferencePoint(StrictModel):
    """One row of a table stated beside a formula: the formula must give `samples` for `gbs`."""

    gbs: PositiveInt
    samples: PositiveInt


class EvaluationSchedule(StrictModel):
    """When validation runs: first at exactly `first_evaluation_samples` (a formula of gbs) samples,
    then after every step (one global batch later each time)."""

    first_evaluation_samples: Text
    reference_points: list[ReferencePoint] = Field(default_factory=list)
    then: Literal["every_step"]


class TrainingBenchmark(_BenchmarkHead):
    """A training benchmark: time to reach a quality target."""

    kind: Literal["training"]
    dataset: Id
    training: TrainingPhase
    validation: Validation
    limits: Limits
    quality_target: QualityTarget
    evaluation_schedule: EvaluationSchedule
    optimizer: Optimizer | None = None
    postprocessing: Postprocessing
    i18n: I18n | None = display(default=None)
    renamed_from: Id | None = display(default=None)
    metadata: dict[str, MetadataValue] = display(default_factory=dict)


Benchmark = Annotated[InferenceBenchmark | TrainingBenchmark, Field(discriminator="kind")]
AnyBenchmark = InferenceBenchmark | TrainingBenchmark
