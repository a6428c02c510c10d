"""`rulesets/<cohort>.yaml`: what a frozen cohort accepts. Written by `freeze`, never edited."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from pydantic import AfterValidator, Field, model_validator

from catalogctl.model.common import CohortId, Digest, GitSha, Id, StrictModel, Uint64, matching

# Seed set ids are letters in order of publication (A, B, ..., Z, AA, ...); an id names the same
# seeds forever once published.
SeedSetId = Annotated[str, AfterValidator(matching(r"[A-Z]{1,3}", "a seed set id: 1-3 capital letters"))]


class SeedSet(StrictModel):
    """Seeds a submission adopts by id, valid from `introduced_in` through `valid_through`."""

    id: SeedSetId
    scheduler_rng_seed: Uint64
    sample_index_rng_seed: Uint64
    model_seed: Uint64
    introduced_in: CohortId
    valid_through: CohortId


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

    @model_validator(mode="after")
    def _unique(self) -> Ruleset:
        for what, ids in (("benchmark", [b.id for b in self.benchmarks]), ("seed set", [s.id for s in self.seed_sets])):
            dupes = sorted({i for i in ids if ids.count(i) > 1})
            if dupes:
                raise ValueError(f"{what} listed twice: {', '.join(dupes)}")
        return self
