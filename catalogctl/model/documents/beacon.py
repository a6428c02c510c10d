"""A public randomness beacon as the seed policy pins it, a round as a relay serves it, and what
a ruleset records of a round: the round it names for the next set, and the round a set was
derived from (see `catalog.beacon_seeds`)."""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from catalogctl.model.common import CohortId, PositiveInt, Sha256, StrictModel, Url, matching

# The schemes catalogctl checks (io/beacon_bls): drand's quicknet signs on G1 by RFC 9380.
BeaconScheme = Literal["bls-unchained-g1-rfc9380"]
G2Key = Annotated[str, AfterValidator(matching(r"[0-9a-f]{192}", "a compressed G2 point: 192 lowercase hex digits"))]
G1Signature = Annotated[
    str, AfterValidator(matching(r"[0-9a-f]{96}", "a compressed G1 point: 96 lowercase hex digits"))
]
RoundNumber = Annotated[int, Field(ge=1, le=2**64 - 1)]


def drand_chain_hash(period: int, genesis_time: int, public_key: str, genesis_seed: str, beacon_id: str) -> str:
    """drand's chain hash (drand/drand `chain.Info.Hash`): sha256 of the period (4 bytes) and the
    genesis time (8 bytes, both big-endian), the public key, the genesis seed and, for a beacon
    other than the default one, its id."""
    digest = hashlib.sha256(period.to_bytes(4, "big") + genesis_time.to_bytes(8, "big"))
    digest.update(bytes.fromhex(public_key) + bytes.fromhex(genesis_seed))
    if beacon_id not in ("", "default"):
        digest.update(beacon_id.encode())
    return digest.hexdigest()


class BeaconChain(StrictModel):
    """A beacon chain pinned by its public key: a round is used only if its signature verifies
    against `public_key`. `source` says where the chain's info was read (its relay's `/info`).
    `chain_hash` must be drand's hash of the rest: the one name people compare (it is in every
    relay's URL) then stands for the key and the clock, which cannot change under it."""

    name: str = Field(min_length=1, description="what people call the chain, e.g. drand quicknet")
    chain_hash: Sha256
    public_key: G2Key
    # drand hashes them as a signed 8-byte and an unsigned 4-byte integer.
    genesis_time: PositiveInt = Field(le=2**63 - 1, description="the time of round 1, in Unix seconds")
    period: PositiveInt = Field(le=2**32 - 1, description="seconds between rounds")
    genesis_seed: Sha256 = Field(description="the chain's group hash, as its /info says (genesis_seed)")
    beacon_id: str = Field(min_length=1, description="the beacon's id, as its /info says (e.g. quicknet)")
    scheme: BeaconScheme
    source: Url
    lead_hours: PositiveInt = Field(
        6, description="a release names the first round due at least this many hours after its freeze"
    )

    @model_validator(mode="after")
    def _hash_of_info(self) -> BeaconChain:
        actual = drand_chain_hash(self.period, self.genesis_time, self.public_key, self.genesis_seed, self.beacon_id)
        if actual != self.chain_hash:
            raise ValueError(
                f"chain_hash {self.chain_hash[:12]}… is not the hash of the chain's info ({actual[:12]}…): "
                "period, genesis_time, public_key, genesis_seed and beacon_id must be the chain's, as its /info says"
            )
        return self

    def round_time(self, round_number: int) -> dt.datetime:
        """When the chain publishes `round_number` (round 1 at genesis)."""
        return dt.datetime.fromtimestamp(self.genesis_time + (round_number - 1) * self.period, dt.UTC)

    def first_round_after(self, moment: dt.datetime) -> int:
        """The first round published strictly after `moment`."""
        elapsed = int(moment.timestamp()) - self.genesis_time
        return max(1, elapsed // self.period + 2)


class BeaconRound(StrictModel):
    """One round as a relay answers `/public/<round>` (drand's JSON): its number, randomness
    (sha256 of the signature) and signature."""

    round: RoundNumber
    randomness: Sha256
    signature: G1Signature


class NamedRound(StrictModel):
    """The round a release names for the next seed set, and when it is due: the set is derived
    from a value nobody knew when the release was published."""

    chain_hash: Sha256
    round: RoundNumber
    due: dt.datetime


class BeaconDerivation(StrictModel):
    """Where a derived set's seeds come from: the round named by `named_in`'s release, with what
    anyone needs to re-derive the seeds and check the signature offline."""

    chain_hash: Sha256
    round: RoundNumber
    randomness: Sha256
    signature: G1Signature
    named_in: CohortId
