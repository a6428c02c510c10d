"""`benchmark_suite/suite.yaml`: the suite's identity and its policies."""

from __future__ import annotations

from pydantic import model_validator

from catalogctl.model.common import I18n, Id, PositiveInt, StrictModel, Text, display
from catalogctl.model.documents.beacon import BeaconChain


class SeedRotation(StrictModel):
    """A new seed set every `rotate_every` cohorts, each adoptable for `valid_for` cohorts."""

    rotate_every: PositiveInt
    valid_for: PositiveInt

    @model_validator(mode="after")
    def _no_gap(self) -> SeedRotation:
        if self.valid_for < self.rotate_every:
            raise ValueError(
                f"valid_for ({self.valid_for}) is shorter than rotate_every ({self.rotate_every}): "
                "some cohorts would have no valid seed set"
            )
        return self


class ReleasePolicy(StrictModel):
    """How a cohort is released: `require_signature` makes `freeze` sign its tag (and refuse to
    tag unsigned), and the release checks demand a signature from an allowed signer."""

    require_signature: bool = False


class Policies(StrictModel):
    """Rules that hold for every cohort."""

    seed_rotation: SeedRotation
    # Present: new seed sets are derived from a round of this beacon that the previous release
    # named; absent: drawn with `secrets` (README, "Seeds from a public beacon").
    seed_beacon: BeaconChain | None = None
    # §2.9.4: a drafter is first used "at least two cohorts after the cohort in which [it] was approved".
    drafter_approval_lead_cohorts: PositiveInt = 2
    releases: ReleasePolicy = ReleasePolicy()


class Suite(StrictModel):
    """The suite: a name, display copy and policies; nothing that changes per cohort."""

    name: Id
    title: Text = display()
    description: Text | None = display(default=None)
    policies: Policies
    i18n: I18n | None = display(default=None)
