"""What `freeze` does under a beacon seed policy (README, "Seeds from a public beacon"): derive
the new seed set from the round the previous release named, after checking the round, and name
the round the next set will be derived from. `catalog.beacon_seeds` holds the derivation."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from catalogctl.catalog.beacon_seeds import derive_from_round, name_round
from catalogctl.catalog.cohorts import Cohort
from catalogctl.catalog.seeds import rotation_due, set_id, set_index
from catalogctl.errors import BeaconRoundRefused, UsageError
from catalogctl.model import Ruleset, SeedSet
from catalogctl.model.documents.beacon import BeaconChain, BeaconDerivation, BeaconRound, NamedRound
from catalogctl.model.documents.seeds import SeedValues
from catalogctl.model.documents.suite import Suite


@dataclass(frozen=True)
class BeaconRequest:
    """The round data a freeze is given (a relay's JSON in a file, or a relay to fetch it from),
    and the round to name, when not the policy's."""

    round_file: Path | None = None
    relay: str | None = None
    name_round: int | None = None

    @property
    def supplied(self) -> bool:
        """Whether round data was given."""
        return self.round_file is not None or self.relay is not None


@dataclass(frozen=True)
class Derived:
    """A new set's id, seeds and provenance."""

    set_id: str
    values: SeedValues
    derived_from: BeaconDerivation


def read_round(request: BeaconRequest, chain: BeaconChain, round_number: int) -> BeaconRound:
    """The round data from the file, or fetched from the relay's `/public/<round>` (with the
    network deadline); JSON of another shape is refused."""
    from catalogctl.io.jsonio import JsonProblem, parse_json

    if request.round_file is not None:
        from catalogctl.io.files import read_input

        where, data = str(request.round_file), read_input(request.round_file)
    else:
        from catalogctl.io.http import fetch_public

        assert request.relay is not None
        where = f"{request.relay.rstrip('/')}/public/{round_number}"
        data = fetch_public(where, f"the beacon relay {request.relay}")
    try:
        return BeaconRound.model_validate(parse_json(data))
    except (JsonProblem, ValidationError) as exc:
        first = str(exc).splitlines()[0] if isinstance(exc, JsonProblem) else _first_error(exc)
        raise BeaconRoundRefused(
            f"{where} is no beacon round ({first}): nothing was frozen",
            f"a relay's answer to /public/{round_number}: {{round, randomness, signature}} of {chain.name}",
        ) from None


def _first_error(exc: ValidationError) -> str:
    """What is wrong with the first field, not pydantic's count of errors ("1 validation error for
    BeaconRound"): the key and the reason, e.g. `signature: a compressed G1 point: …`."""
    error = exc.errors(include_url=False)[0]
    where = ".".join(str(part) for part in error["loc"]) or "the answer"
    return f"{where}: {error['msg']}"


def derive_new_set(
    suite: Suite,
    cohort: Cohort,
    previous: Ruleset | None,
    published: list[SeedSet],
    request: BeaconRequest,
    importing: str,
) -> Derived | None:
    """The new set derived from the round the previous release named, when the suite derives
    seeds, that release named one and rotation is due; None otherwise (the set is then drawn or
    imported, as before). Round data given when no set is derived is refused, and so is an import
    (`importing` names its option, "" when there is none) of a set that is to be derived."""
    chain = suite.policies.seed_beacon
    named = previous.next_seed_round if previous is not None else None
    due = rotation_due(suite.policies.seed_rotation, cohort, published)
    if chain is None and named is not None and due:  # a suite that drops the policy would draw a named set
        assert previous is not None
        raise UsageError(
            f"the release of {previous.cohort} named beacon round {named.round} for this set, but the suite pins no "
            "beacon (policies.seed_beacon): nothing was frozen",
            f"restore policies.seed_beacon as the release of {previous.cohort} pinned it: a named round binds the "
            "next set",
        )
    if chain is None or previous is None or named is None or not due:
        if request.supplied:
            why = (
                "the suite pins no beacon (policies.seed_beacon)"
                if chain is None
                else "the previous release names no beacon round"
                if named is None
                else f"no new seed set is due at {cohort}"
            )
            raise UsageError(f"no seed set is derived at this freeze: {why}", "drop --beacon-round / --fetch-beacon")
        return None
    if importing:
        raise UsageError(
            f"the release of {previous.cohort} named beacon round {named.round} for this set: it is derived, "
            "not imported",
            f"drop {importing}; pass --beacon-round FILE or --fetch-beacon URL",
        )
    if not request.supplied:
        raise UsageError(
            f"seed set of {cohort} is derived from round {named.round} of {chain.name}, named by the release of "
            f"{previous.cohort} (due {named.due:%Y-%m-%d %H:%M:%S} UTC): nothing was frozen",
            f"pass --fetch-beacon URL (a relay, e.g. {chain.source.removesuffix('/info')}) or --beacon-round FILE "
            f"(its /public/{named.round} answer)",
        )
    data = read_round(request, chain, named.round)
    new_id = set_id(max((set_index(s.id) for s in published), default=-1) + 1)
    values, derivation = derive_from_round(chain, named, previous.cohort, previous.frozen_at, data, cohort.id, new_id)
    return Derived(new_id, values, derivation)


def next_round(suite: Suite, frozen_at: dt.datetime, request: BeaconRequest) -> NamedRound | None:
    """The round this release names for the next set (None when the suite draws its seeds)."""
    chain = suite.policies.seed_beacon
    if chain is None:
        if request.name_round is not None:
            raise UsageError("the suite pins no beacon (policies.seed_beacon): no round to name", "drop --name-round")
        return None
    return name_round(chain, frozen_at, request.name_round)
