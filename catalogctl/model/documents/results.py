"""What a run reports: the documented, versioned results format (`catalogctl/results/v1`).

Every field a gate reads is optional: a run that did not report a fact leaves it out (or null),
and the gate that needs it says it cannot be evaluated -- it never passes on a missing value.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from catalogctl.model.common import Id, MetricKey, Sha256, Uint64

RESULTS_SCHEMA: Literal["catalogctl/results/v1"] = "catalogctl/results/v1"
Phase = Literal["performance", "accuracy", "validation"]
ScoreScale = Literal["percent", "fraction"]
SeedName = Literal["scheduler_rng_seed", "sample_index_rng_seed", "model_seed"]


class _Results(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, allow_inf_nan=False, populate_by_name=True)


class SeedsUsed(_Results):
    """The seeds the run used (null when the run did not report one)."""

    scheduler_rng_seed: Uint64 | None = None
    sample_index_rng_seed: Uint64 | None = None
    model_seed: Uint64 | None = None
    qsl_rng_seed: Uint64 | None = Field(
        default=None,
        description="LoadGen's QSL seed (which samples are loaded), held to the set's qsl_rng_seed when it has "
        "one (a set imported from a LoadGen release), else to its sample_index_rng_seed; null for runners without one",
    )
    not_applied: dict[SeedName, str] | None = Field(
        default=None,
        description="seeds the runner's files record but the run never applied, each with why (the endpoints "
        "client's openai_completions adapter sends no model seed): never evidence of the seed used",
    )


class DatasetUsed(_Results):
    """A dataset as loaded: the sha256 of its bytes and the samples issued from it."""

    dataset: Id
    phase: Phase
    sha256: Sha256 | None = None
    samples_issued: int | None = Field(default=None, ge=0)


class GenerationUsed(_Results):
    """Sampling parameters actually sent, for a phase (and a dataset of it, when they differ)."""

    phase: Phase
    dataset: Id | None = None
    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None
    max_new_tokens: int | None = None
    min_new_tokens: int | None = None
    reasoning_effort: str | None = None


class PerformanceResult(_Results):
    """The measured phase; latencies are 99th percentiles in milliseconds."""

    duration_ms: float | None = Field(default=None, ge=0)
    window_duration_ms: float | None = Field(
        default=None,
        ge=0,
        description="the steady-state window's issue-time span (endpoints rules §4.4): when reported, §6.2's "
        "minimum duration is measured on it, else on duration_ms (the whole run)",
    )
    sample_count: int | None = Field(default=None, ge=0)
    context_length: int | None = Field(default=None, ge=0)
    context_length_declared_in: str | None = Field(
        default=None,
        description="where the submitter declared context_length (a submission point's point.yaml); null: the "
        "runner recorded it (the endpoints client records none)",
    )
    ttft_p99_ms: float | None = Field(default=None, ge=0)
    tpot_p99_ms: float | None = Field(default=None, ge=0)


class LoadUsed(_Results):
    """The load the run was driven at, as the runner names it (the endpoints client: `concurrency`,
    `poisson`, `max_throughput`); the target the pattern has, the other null."""

    type: str
    target_concurrency: int | None = Field(default=None, ge=1)
    target_qps: float | None = Field(default=None, gt=0)


class AccuracyResult(_Results):
    """One accuracy dataset: scores per repeat (or only the pooled score), per-task attempts
    for pass@k, and the samples scored."""

    dataset: Id
    scale: ScoreScale
    repeat_scores: list[float] | None = None
    pooled_score: float | None = Field(default=None, description="mean over all repeats' samples")
    task_attempts: dict[str, list[bool]] | None = Field(default=None, description="task -> outcome of each attempt")
    samples_scored: int | None = Field(default=None, ge=0)


class Evaluation(_Results):
    """One evaluation of a training run: its accuracy, after how many training samples."""

    accuracy: float | None = Field(
        description="null: logged as NaN (mllog's diverged evaluation), a failed evaluation that reaches no target"
    )
    samples_count: int | None = None


class TrainingResult(_Results):
    """A training run: its global batch size, its evaluations, what it logged of the
    hyper-parameters the rules fix (MLLOG keys), and how it ended."""

    gbs: int | None = Field(default=None, ge=1)
    first_evaluation_samples: int | None = Field(default=None, ge=0)
    submission_benchmark: str | None = Field(default=None, description="the MLPerf benchmark the run logged")
    evaluations: list[Evaluation] = Field(default_factory=list, description="every evaluation, in order")
    hyperparameters: dict[str, float | int | str | None] = Field(
        default_factory=dict, description="MLLOG key -> value as logged (opt_base_learning_rate, ...)"
    )
    stopped: bool | None = Field(default=None, description="whether the run logged run_stop (null: not said)")
    status: str | None = Field(default=None, description="run_stop's status (success, aborted)")
    time_to_train_ms: float | None = Field(default=None, description="run_stop's time_ms less run_start's")


class RunResults(_Results):
    """What a run reports."""

    schema_: Literal["catalogctl/results/v1"] = Field(RESULTS_SCHEMA, alias="schema")
    benchmark: Id
    source: str = Field(default="results", description="where these facts were read from")
    api_type: str | None = None
    model: str | None = Field(default=None, description="the model name the run served, as the runner reports it")
    model_sha: str | None = None
    seeds: SeedsUsed = Field(default_factory=SeedsUsed)
    datasets: list[DatasetUsed] = Field(default_factory=list)
    generation: list[GenerationUsed] = Field(default_factory=list)
    load_pattern: LoadUsed | None = Field(
        default=None, description="the load the run was driven at; absent: the submission's, as resolved"
    )
    performance: PerformanceResult | None = None
    accuracy: list[AccuracyResult] = Field(default_factory=list)
    metrics: dict[MetricKey, float | None] = Field(default_factory=dict, description="reported metric values")
    training: TrainingResult | None = None
