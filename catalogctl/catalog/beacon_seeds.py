"""Seed sets derived from a public randomness beacon (README, "Seeds from a public beacon").

A release names a future round of the suite's pinned beacon chain; the freeze that next
introduces a seed set derives it from that round's randomness, and the ruleset records the
round, its randomness and its signature, so that anyone re-derives the seeds and checks the
signature offline.

The derivation, for each seed NAME in the order scheduler_rng_seed, sample_index_rng_seed,
model_seed, with COUNTER from 0:

    sha256("catalogctl-seed-v1\\n" + RANDOMNESS + "\\n" + COHORT + "\\n" + SET + "\\n" + NAME
           + "\\n" + COUNTER)

(UTF-8; RANDOMNESS the round's 64 lowercase hex digits, COHORT the cohort that introduces the
set, SET its id, COUNTER in decimal); the seed is the digest's first 8 bytes as a big-endian
unsigned integer. A value that is 0 (no seed: see `model.documents.seeds`) or equal to an earlier
seed of the set is skipped: COUNTER goes up by one until it is neither.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
from collections.abc import Callable

from catalogctl.errors import BeaconRoundRefused
from catalogctl.model.documents.beacon import BeaconChain, BeaconDerivation, BeaconRound, NamedRound
from catalogctl.model.documents.ruleset import Ruleset, SeedSet
from catalogctl.model.documents.seeds import SeedValues

SEED_NAMES = ("scheduler_rng_seed", "sample_index_rng_seed", "model_seed")
DERIVATION_TAG = "catalogctl-seed-v1"
# A cohort's ruleset, as its release tag carries it (`verify`, `preflight`) or as the tree holds it
# (`validate`): None when there is none.
Released = Callable[[str], Ruleset | None]


def seed_input(randomness: str, cohort: str, set_id: str, name: str, counter: int) -> bytes:
    """The bytes whose sha256 gives one candidate seed (see the module docstring)."""
    return f"{DERIVATION_TAG}\n{randomness}\n{cohort}\n{set_id}\n{name}\n{counter}".encode()


def derive_seeds(randomness: str, cohort: str, set_id: str) -> SeedValues:
    """The three seeds of set `set_id`, introduced by `cohort`, from a round's `randomness`."""
    values: list[int] = []
    for name in SEED_NAMES:
        counter = 0
        while True:
            digest = hashlib.sha256(seed_input(randomness, cohort, set_id, name, counter)).digest()
            value = int.from_bytes(digest[:8], "big")
            if value != 0 and value not in values:
                break
            counter += 1
        values.append(value)
    return SeedValues(**dict(zip(SEED_NAMES, values, strict=True)))


@functools.cache
def signature_verifies(public_key: str, round_number: int, signature: str) -> bool | str:
    """True when the chain's signature of the round verifies, False when it does not, the reason
    when the bytes are no points at all. Kept per process: a pure-Python pairing takes a fraction
    of a second, and each round is checked once per command."""
    from catalogctl.io.beacon_bls import BadPoint, verify_unchained_g1

    try:
        return verify_unchained_g1(bytes.fromhex(public_key), round_number, bytes.fromhex(signature))
    except BadPoint as exc:
        return str(exc)


def round_problem(chain: BeaconChain, chain_hash: str, round_number: int, randomness: str, signature: str) -> str:
    """Why this round's data is not the pinned chain's round `round_number` ("" when it is)."""
    what = f"round {round_number} of {chain.name}"
    if chain_hash != chain.chain_hash:
        return f"{what}: it is recorded for chain {chain_hash[:12]}…, but the suite pins {chain.chain_hash[:12]}…"
    if hashlib.sha256(bytes.fromhex(signature)).hexdigest() != randomness:
        return f"{what}: its randomness {randomness[:16]}… is not the sha256 of its signature"
    verdict = signature_verifies(chain.public_key, round_number, signature)
    if verdict is not True:
        why = f" ({verdict})" if isinstance(verdict, str) else ""
        return (
            f"{what}: its signature does not verify against the chain's pinned public key {chain.public_key[:12]}…{why}"
        )
    return ""


def naming_problem(chain: BeaconChain, round_number: int, named_at: dt.datetime, named_in: str) -> str:
    """Why `round_number` could not be named by `named_in`'s release at `named_at` ("" when it
    was still in the future then)."""
    try:
        due = chain.round_time(round_number)
    except (OverflowError, ValueError, OSError):  # past year 9999 (or the platform's time_t)
        return f"round {round_number} of {chain.name} is due after the year 9999: no release can wait for it"
    if due <= named_at:
        return (
            f"round {round_number} of {chain.name} was due at {due:%Y-%m-%d %H:%M:%S} UTC, not after the release "
            f"of {named_in} that names it (frozen at {named_at:%Y-%m-%d %H:%M:%S} UTC): it was no future round"
        )
    return ""


def name_round(chain: BeaconChain, frozen_at: dt.datetime, asked: int | None) -> NamedRound:
    """The round a release frozen at `frozen_at` names for the next seed set: `asked`, or the
    first due `lead_hours` after the freeze. A round not after the freeze is refused."""
    round_number = (
        asked if asked is not None else chain.first_round_after(frozen_at + dt.timedelta(hours=chain.lead_hours))
    )
    problem = naming_problem(chain, round_number, frozen_at, "this cohort")
    if problem:
        raise BeaconRoundRefused(
            problem + ": nothing was frozen", "name a round due after the freeze, or let freeze choose one"
        )
    return NamedRound(chain_hash=chain.chain_hash, round=round_number, due=chain.round_time(round_number))


def derive_from_round(
    chain: BeaconChain,
    named: NamedRound,
    named_in: str,
    named_at: dt.datetime,
    data: BeaconRound,
    cohort: str,
    set_id: str,
) -> tuple[SeedValues, BeaconDerivation]:
    """The seeds of a new set from the round `named_in`'s release named, after checking that
    `data` is that round, of the pinned chain, signed, and named while still in the future."""
    if data.round != named.round:
        raise BeaconRoundRefused(
            f"the beacon data is round {data.round}, but the release of {named_in} named round {named.round}: "
            "nothing was frozen",
            f"supply round {named.round} of {chain.name} (its relay's /public/{named.round})",
        )
    problem = naming_problem(chain, named.round, named_at, named_in) or round_problem(
        chain, named.chain_hash, data.round, data.randomness, data.signature
    )
    if problem:
        raise BeaconRoundRefused(
            f"{problem}: nothing was frozen", f"supply round {named.round} as {chain.source} serves it"
        )
    derivation = BeaconDerivation(
        chain_hash=named.chain_hash,
        round=data.round,
        randomness=data.randomness,
        signature=data.signature,
        named_in=named_in,
    )
    return derive_seeds(data.randomness, cohort, set_id), derivation


def derived_set_problem(chain: BeaconChain | None, seed_set: SeedSet, naming: Ruleset | None) -> str:
    """Why a derived set does not follow from the round its ruleset records ("" when it does):
    re-derived from the recorded randomness, the signature checked against the pinned chain, the
    round named by the release recorded as naming it, while in the future. `naming` is that
    release's ruleset (None when there is none)."""
    return derived_set_finding(chain, seed_set, naming)[0]


def derived_set_finding(
    chain: BeaconChain | None, seed_set: SeedSet, naming: Ruleset | None
) -> tuple[str, tuple[str, ...]]:
    """`derived_set_problem`, with the key of the set where the problem shows (a seed, or a key
    of `derived_from`)."""
    source = seed_set.derived_from
    assert source is not None
    where = f"seed set {seed_set.id}, derived from beacon round {source.round}"
    if chain is None:
        return f"{where}: the suite pins no beacon chain (policies.seed_beacon) to check it against", ("derived_from",)
    named = naming.next_seed_round if naming is not None else None
    if naming is None or named is None or (named.chain_hash, named.round) != (source.chain_hash, source.round):
        said = "no release tag here" if naming is None else f"round {named.round}" if named else "no round"
        message = f"{where}: the release of {source.named_in} it cites as naming the round has {said}"
        return message, ("derived_from", "named_in")
    problem = naming_problem(chain, source.round, naming.frozen_at, source.named_in)
    if problem:
        return f"{where}: {problem}", ("derived_from", "round")
    problem = round_problem(chain, source.chain_hash, source.round, source.randomness, source.signature)
    if problem:
        return f"{where}: {problem}", ("derived_from", "signature")
    expected = derive_seeds(source.randomness, seed_set.introduced_in, seed_set.id)
    for name in SEED_NAMES:
        if getattr(expected, name) != getattr(seed_set, name):
            message = f"{where}: its {name} is {getattr(seed_set, name)}, but round {source.round} gives "
            return message + str(getattr(expected, name)), (name,)
    return "", ()


def introduction_problem(ruleset: Ruleset, seed_set: SeedSet, released: Released) -> str:
    """Why a set `ruleset` carries is not the set the cohort it names as introducing it holds ("" when
    it is, or when `ruleset` introduces it): a set relabelled as carried would escape the checks of
    the ruleset that introduces it (a new set drawn, or derived from a round nobody named for it)."""
    if seed_set.introduced_in == ruleset.cohort:
        return ""
    introducing = released(seed_set.introduced_in)
    if introducing is not None and seed_set in introducing.seed_sets:
        return ""
    if introducing is None:
        held = f"there is no ruleset of {seed_set.introduced_in} here"
    elif any(known.id == seed_set.id for known in introducing.seed_sets):
        held = f"the ruleset of {seed_set.introduced_in} holds another set {seed_set.id}"
    else:
        held = f"the ruleset of {seed_set.introduced_in} holds no set {seed_set.id}"
    return f"seed set {seed_set.id} is carried as introduced in {seed_set.introduced_in}, but {held}"


def citation_problem(introducing: Ruleset, seed_set: SeedSet) -> str:
    """Why the release a derived set cites as naming its round is not the release right before
    `introducing`, the ruleset of the cohort that introduced the set ("" when it is; a carried set
    whose introducing ruleset is missing is `introduction_problem`'s): any other, older release's
    round was public when the set was made, and which one to cite would be a choice of seeds."""
    source = seed_set.derived_from
    assert source is not None
    if introducing.previous == source.named_in:
        return ""
    return (
        f"seed set {seed_set.id}, derived from beacon round {source.round}: it cites the release of "
        f"{source.named_in} as naming the round, but the release before {introducing.cohort} is "
        f"{introducing.previous or 'none'}"
    )
