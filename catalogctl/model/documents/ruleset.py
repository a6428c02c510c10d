"""`rulesets/<cohort>.yaml`: what a frozen cohort accepts. Written by `freeze`, never edited."""

from __future__ import annotations

import datetime as dt
from collections import Counter

from pydantic import Field, model_validator

from catalogctl.model.common import CohortId, Digest, GitSha, Id, StrictModel
from catalogctl.model.documents.beacon import BeaconDerivation, NamedRound
from catalogctl.model.documents.seeds import LoadGenImport, Seed, SeedImport, SeedSetName, SeedValues


class SeedSet(SeedValues, SeedSetName):
    """Seeds a submission adopts by id, valid from `introduced_in` through `valid_through`."""

    # LoadGen's QSL seed, only in a set whose LoadGen seeds come from a LoadGen release
    # (`imported_from_loadgen`): its mlperf.conf sets it apart from sample_index_rng_seed, and the
    # official checker holds a run to it. Other sets give LoadGen their sample_index_rng_seed.
    qsl_rng_seed: Seed | None = Field(None, exclude_if=lambda v: v is None)
    introduced_in: CohortId
    valid_through: CohortId
    # Only for a set derived from a beacon round (README, "Seeds from a public beacon"); left out of
    # the document (and so of the digest) when absent, so rulesets frozen before keep their digests.
    derived_from: BeaconDerivation | None = Field(None, exclude_if=lambda v: v is None)
    # Only for a set `freeze --seeds` imported; left out when absent, as in rulesets frozen before
    # imports were recorded (their digests unchanged).
    imported_from: SeedImport | None = Field(None, exclude_if=lambda v: v is None)
    # Only for a set `freeze --loadgen-seeds` took from an installed LoadGen release.
    imported_from_loadgen: LoadGenImport | None = Field(None, exclude_if=lambda v: v is None)

    @model_validator(mode="after")
    def _one_origin(self) -> SeedSet:
        origins = [k for k in ("derived_from", "imported_from", "imported_from_loadgen") if getattr(self, k)]
        if len(origins) > 1:
            raise ValueError(f"a seed set has one origin, not {' and '.join(origins)}")
        if (self.qsl_rng_seed is None) != (self.imported_from_loadgen is None):
            raise ValueError(
                "qsl_rng_seed and imported_from_loadgen come together: both are written by freeze --loadgen-seeds"
            )
        return self


class RulesetBenchmark(StrictModel):
    """A benchmark valid in the cohort, pinned by its contract digest."""

    id: Id
    digest: Digest


class Ruleset(StrictModel):
    """A frozen cohort."""

    cohort: CohortId
    submission_date: dt.date
    previous: CohortId | None
    frozen_at: dt.datetime
    catalog_tree: GitSha
    benchmarks: list[RulesetBenchmark]
    seed_sets: list[SeedSet] = Field(min_length=1)
    # Under a beacon seed policy: the round the next new seed set is derived from.
    next_seed_round: NamedRound | None = Field(None, exclude_if=lambda v: v is None)

    @model_validator(mode="after")
    def _unique(self) -> Ruleset:
        for what, ids in (("benchmark", [b.id for b in self.benchmarks]), ("seed set", [s.id for s in self.seed_sets])):
            dupes = sorted(i for i, n in Counter(ids).items() if n > 1)  # list.count was quadratic
            if dupes:
                raise ValueError(f"{what} listed twice: {', '.join(dupes)}")
        return self
