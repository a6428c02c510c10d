"""A submission: what a submitter writes to enter a cohort."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field

from catalogctl.model.benchmark import ApiType
from catalogctl.model.common import CohortId, Id, PositiveInt, StrictModel, Text, Url
from catalogctl.model.seeds import SeedSetId


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


class Submitter(StrictModel):
    """Who submits (display only)."""

    organization: Text
    contact: Text | None = None


class Submission(StrictModel):
    """A submission file."""

    type: Literal["submission"]
    submission_ref: SubmissionRef
    endpoint_config: EndpointConfig
    settings: Settings
    submitter: Submitter | None = None
