"""A submission: what a submitter writes to enter a cohort."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from catalogctl.model.common import CohortId, Id, PositiveInt, StrictModel, Text, Url
from catalogctl.model.documents.benchmark import ApiType
from catalogctl.model.documents.seeds import SeedSetId


class SubmissionRef(StrictModel):
    """The cohort, seed set and benchmark: everything else comes from the frozen contract."""

    cohort: CohortId
    seed_set_id: SeedSetId
    benchmark: Id


class EndpointConfig(StrictModel):
    """Where the system under test listens; api_type must equal the benchmark's."""

    endpoints: list[Url] = Field(min_length=1)
    api_type: ApiType
    served_model: Text | None = Field(
        default=None,
        description="the model name the endpoint serves, as the run reports it, when it is neither the "
        "contract's model id nor its reference_id (a quantized checkpoint's path, say)",
    )


class ConcurrencyLoad(StrictModel):
    """A fixed number of requests in flight (the checker's `concurrency`, §6.1)."""

    type: Literal["concurrency"]
    target_concurrency: PositiveInt


class PoissonLoad(StrictModel):
    """Requests arriving as a Poisson process at a target rate, spelled as the endpoints client's
    `settings.load_pattern` spells it (the v6.1 DeepSeek-R1 Interactive run: 170 QPS)."""

    type: Literal["poisson"]
    target_qps: Annotated[float, Field(gt=0, allow_inf_nan=False)]


LoadPattern = Annotated[ConcurrencyLoad | PoissonLoad, Field(discriminator="type")]


def load_concurrency(load_pattern: Mapping[str, Any]) -> int | None:
    """The concurrency a load pattern holds (None under Poisson: in flight is whatever arrives)."""
    value = load_pattern.get("target_concurrency") if load_pattern.get("type") == "concurrency" else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def describe_load(load_pattern: Mapping[str, Any]) -> str:
    """A load pattern in words: `concurrency 64`, `poisson 170.0 QPS`."""
    if load_pattern.get("type") == "poisson":
        return f"poisson {load_pattern.get('target_qps')} QPS"
    if load_pattern.get("target_concurrency") is None:  # a load without a target: LoadGen's Offline
        return str(load_pattern.get("type"))
    return f"{load_pattern.get('type')} {load_pattern.get('target_concurrency')}"


class Settings(StrictModel):
    """Run settings the submitter owns."""

    load_pattern: LoadPattern


class TrainingRun(StrictModel):
    """What the submitter owns for a training run (a training benchmark has no endpoint)."""

    system: Text = Field(description="the system trained on, as the MLLOG `submission_platform` names it")
    global_batch_size: PositiveInt = Field(
        description="samples per optimizer step: the contract's formulas (first evaluation, learning rate, "
        "gradient clip) are evaluated at it, and the run's MLLOG must log it"
    )


class Submitter(StrictModel):
    """Who submits (display only)."""

    organization: Text
    contact: Text | None = None


class Submission(StrictModel):
    """A submission file."""

    type: Literal["submission"]
    submission_ref: SubmissionRef
    endpoint_config: EndpointConfig | None = None
    settings: Settings | None = None
    training: TrainingRun | None = None
    submitter: Submitter | None = None

    @model_validator(mode="after")
    def _one_kind_of_run(self) -> Submission:
        serving = self.endpoint_config is not None or self.settings is not None
        if self.training is not None and serving:
            raise ValueError("a training submission states `training`, without endpoint_config or settings")
        if self.training is None and (self.endpoint_config is None or self.settings is None):
            raise ValueError(
                "state endpoint_config and settings (an inference benchmark) or training (a training benchmark)"
            )
        return self
