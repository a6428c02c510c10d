"""A seed file for `freeze --seeds`: seeds already published elsewhere, imported verbatim."""

from __future__ import annotations

from catalogctl.model.common import StrictModel, Uint64
from catalogctl.model.ruleset import SeedSetId


class SeedFile(StrictModel):
    """The three seeds of one set, and optionally the id it was published under."""

    id: SeedSetId | None = None
    scheduler_rng_seed: Uint64
    sample_index_rng_seed: Uint64
    model_seed: Uint64
