"""The three seeds of a set: one model that a ruleset's seed sets, a seed file for `freeze
--seeds` and a resolved config's seeds all build on."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

from catalogctl.model.common import CohortId, Sha256, StrictModel, Text, Uint64, matching

# Seed set ids are letters in order of publication (A, B, ..., Z, AA, ...); an id names the same
# seeds forever once published.
SeedSetId = Annotated[str, AfterValidator(matching(r"[A-Z]{1,3}", "a seed set id: 1-3 capital letters"))]


def _not_zero(value: int) -> int:
    """Refuse 0: LoadGen's TestSettings default every seed to 0 (mlcommons/inference
    loadgen/test_settings.h), so 0 is what a run that never set its seeds records, and a set
    holding it would let such a run pass the seeds gate (see docs/explanation/seeds.md)."""
    if value == 0:
        raise PydanticCustomError(
            "seed_zero",
            "0 is no seed here: LoadGen records 0 for every seed a run never set (its TestSettings default), "
            "so a run that set none would match it",
        )
    return value


# A seed of a set: an unsigned 64-bit integer other than 0.
Seed = Annotated[Uint64, AfterValidator(_not_zero), Field(json_schema_extra={"minimum": 1})]


class SeedValues(StrictModel):
    """The three seeds of a set, each an unsigned 64-bit integer other than 0."""

    scheduler_rng_seed: Seed
    sample_index_rng_seed: Seed
    model_seed: Seed

    def seed_values(self) -> SeedValues:
        """Only the three seeds (what a subclass adds dropped): sets compare by value this way."""
        return SeedValues(
            scheduler_rng_seed=self.scheduler_rng_seed,
            sample_index_rng_seed=self.sample_index_rng_seed,
            model_seed=self.model_seed,
        )


class SeedSetName(StrictModel):
    """The id a seed set is published under.

    A base of its own so that documents list it first: pydantic orders fields from the last base
    to the first, so `class X(SeedValues, SeedSetName)` reads id, then the three seeds."""

    id: SeedSetId


class SeedFile(SeedValues):
    """A seed file for `freeze --seeds`: seeds already published elsewhere, imported verbatim,
    optionally the id they were published under and the cohort they were published for."""

    id: SeedSetId | None = None
    published_for: CohortId | None = None
    source: Text | None = Field(None, description="where the seeds were published, for people (the ruleset records it)")


class SeedImport(StrictModel):
    """What `freeze --seeds` imported a set from: the file's name and digest, and the source it
    states (absent, and left out of the document, when it states none)."""

    file: str = Field(min_length=1, description="the seed file's name, without its folder")
    sha256: Sha256 = Field(description="of the seed file's bytes")
    source: Text | None = Field(None, exclude_if=lambda v: v is None)


PackageVersion = Annotated[str, AfterValidator(matching(r"[0-9][0-9A-Za-z.+!_-]*", "a package version, e.g. 6.0.17"))]


class LoadGenImport(StrictModel):
    """Where `freeze --loadgen-seeds` took a set's LoadGen seeds (`scheduler_rng_seed`,
    `sample_index_rng_seed`, `qsl_rng_seed`): the `mlperf.conf` of an installed LoadGen release.
    LoadGen builds `mlperf.conf` into its extension module (loadgen/setup.py), so `file` is that
    module and `sha256` the digest of the mlperf.conf text it holds, which is the digest of
    loadgen/mlperf.conf at the release's commit of mlcommons/inference."""

    package: Literal["mlcommons-loadgen"] = Field(description="the PyPI project the seeds were read from")
    version: PackageVersion = Field(description="its installed version, as its metadata states it")
    file: str = Field(min_length=1, description="the package's file that holds mlperf.conf, as its RECORD names it")
    sha256: Sha256 = Field(description="of the mlperf.conf text built into `file`")


class PublishedSeedSet(SeedValues, SeedSetName):
    """One set of a published `seedset.yaml`."""


class PublishedCohort(StrictModel):
    """The `cohort:` mapping of endpoints_policies' `seedset.yaml`: the sets published for one
    cohort (§4.6: each adoptable in that cohort and the three after it)."""

    version: float
    cohort_id: CohortId = Field(alias="cohort-id")
    seed_sets: list[PublishedSeedSet] = Field(min_length=1)


class PublishedSeedFile(StrictModel):
    """endpoints_policies' `seedset.yaml` (the submission checker's `data/seed_sets.yaml`), as
    published."""

    cohort: PublishedCohort
