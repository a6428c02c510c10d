"""A submission: what a submitter writes to enter a cohort."""

from __future__ import annotations

from typing import Literal

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


class LoadPattern(StrictModel):
    """The load the submitter chooses."""

    type: Literal["concurrency"]
    target_concurrency: PositiveInt


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
