"""Where a seed set's seeds come from, as the site, `cohorts` and `verify` show it: drawn by
`freeze`, imported from a seed file (`imported_from`) or from a LoadGen release's mlperf.conf
(`imported_from_loadgen`), or derived from a beacon round (`derived_from`; README, "Seeds from a
public beacon")."""

from __future__ import annotations

from catalogctl.catalog.beacon_seeds import DERIVATION_TAG, SEED_NAMES
from catalogctl.model import SeedSet
from catalogctl.model.documents.beacon import BeaconChain
from catalogctl.model.reports.release import SeedProvenance

DRAWN = "drawn by `catalogctl freeze` with Python's secrets module (no import and no beacon round is recorded)"


def seed_provenance(seed_set: SeedSet, chain: BeaconChain | None) -> SeedProvenance:
    """The provenance of `seed_set`; `chain` is the one the suite pins (its name and the round's
    time are shown when the set records that chain)."""
    imported, derived, loadgen = seed_set.imported_from, seed_set.derived_from, seed_set.imported_from_loadgen
    if loadgen is not None:
        return SeedProvenance(
            id=seed_set.id,
            kind="loadgen",
            statement=f"scheduler_rng_seed, sample_index_rng_seed and qsl_rng_seed imported by `catalogctl freeze "
            f"--loadgen-seeds` from the mlperf.conf of {loadgen.package} {loadgen.version} (built into {loadgen.file}, "
            f"sha256 {loadgen.sha256[:12]}…): LoadGen's schedule_rng_seed, sample_index_rng_seed and qsl_rng_seed; "
            "model_seed drawn with Python's secrets module (mlperf.conf has none)",
            package=loadgen.package,
            version=loadgen.version,
            file=loadgen.file,
            sha256=loadgen.sha256,
        )
    if imported is not None:
        stated = f"; the file states its source: {imported.source}" if imported.source else ""
        return SeedProvenance(
            id=seed_set.id,
            kind="imported",
            statement=f"imported by `catalogctl freeze --seeds` from {imported.file} (sha256 {imported.sha256[:12]}…)"
            + stated,
            file=imported.file,
            sha256=imported.sha256,
            source=imported.source,
        )
    if derived is None:
        return SeedProvenance(id=seed_set.id, kind="drawn", statement=DRAWN)
    pinned = chain if chain is not None and chain.chain_hash == derived.chain_hash else None
    name = pinned.name if pinned else "a beacon chain the suite does not pin"
    time = pinned.round_time(derived.round) if pinned else None
    published = f", published {time:%Y-%m-%d %H:%M:%S} UTC" if time else ""
    names = ", ".join(SEED_NAMES[:-1]) + " and " + SEED_NAMES[-1]
    seed_input = f"{DERIVATION_TAG}\\n{derived.randomness}\\n{seed_set.introduced_in}\\n{seed_set.id}\\nNAME\\nCOUNTER"
    return SeedProvenance(
        id=seed_set.id,
        kind="derived",
        statement=f"derived from round {derived.round} of {name} (chain {derived.chain_hash[:12]}…){published}, "
        f"named by the release of {derived.named_in} before it was published",
        chain=pinned.name if pinned else None,
        chain_hash=derived.chain_hash,
        round=derived.round,
        round_time=time,
        randomness=derived.randomness,
        named_in=derived.named_in,
        rederive=f"To re-derive: for {names} in turn, with COUNTER from 0, take the first 8 bytes (big-endian) of "
        f'sha256("{seed_input}"), skipping 0 and a value the set already has. The randomness is the sha256 of '
        "the round's signature, which verifies against the chain's public key that suite.yaml pins.",
    )


def set_provenance(seed_sets: list[SeedSet], chain: BeaconChain | None) -> list[SeedProvenance]:
    """The provenance of each set, in order."""
    return [seed_provenance(s, chain) for s in seed_sets]
