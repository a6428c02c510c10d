"""A benchmark's approved speculative-decoding drafters (§2.9.4).

The rules identify a drafter in one of two forms: weight-identified (a distinct draft model or
head: `model_id` and `weight_checksum`) or configuration-identified (a drafter with no weights of
its own, e.g. self-speculative or early exit: the target's `target_checksum` and the
`configuration` of the draft pass). Each entry records the cohort that approved it; a submission
may use it from `drafter_approval_lead_cohorts` (suite policy) cohorts later.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field, model_validator

from catalogctl.model.common import CohortId, HubRepo, StrictModel, matching

# What the MLPerf list writes: a sha256 of the weights, or the hub revision (a git commit, whose
# tree pins every weight file through its LFS pointer).
Checksum = Annotated[
    str,
    AfterValidator(
        matching(r"sha256:[0-9a-f]{64}|git-sha1:[0-9a-f]{40}", "a checksum: sha256:<64 hex> or git-sha1:<40 hex>")
    ),
]
ConfigurationValue = str | int | float | bool

WEIGHT_FORM = ("model_id", "weight_checksum")
CONFIGURATION_FORM = ("target_checksum", "configuration")


class ApprovedDrafter(StrictModel):
    """One approved drafter, in exactly one of §2.9.4's two forms."""

    approved_cohort: CohortId
    model_id: HubRepo | None = None
    weight_checksum: Checksum | None = None
    target_checksum: Checksum | None = None
    configuration: dict[str, ConfigurationValue] | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _one_form(self) -> ApprovedDrafter:
        weight = [name for name in WEIGHT_FORM if getattr(self, name) is not None]
        config = [name for name in CONFIGURATION_FORM if getattr(self, name) is not None]
        if weight and config:
            raise ValueError(
                f"states {', '.join(weight)} and {', '.join(config)}: a drafter is identified by its weights "
                "(model_id + weight_checksum) or by its configuration (target_checksum + configuration), not both "
                "(§2.9.4)"
            )
        form = WEIGHT_FORM if weight else CONFIGURATION_FORM
        missing = [name for name in form if getattr(self, name) is None]
        if missing:
            raise ValueError(
                f"lacks {' and '.join(missing)}: a drafter is identified by model_id + weight_checksum, or by "
                "target_checksum + configuration (§2.9.4)"
            )
        return self

    @property
    def identity(self) -> tuple[str, ...]:
        """What tells this drafter from another: its weights, or the target and draft configuration."""
        if self.weight_checksum is not None:
            return ("weight", self.weight_checksum)
        return ("configuration", str(self.target_checksum), repr(sorted((self.configuration or {}).items())))
