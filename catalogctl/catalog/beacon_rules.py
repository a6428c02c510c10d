"""`validate`'s rule on seed sets under a beacon policy (README, "Seeds from a public beacon"):
when a release named a round (`next_seed_round`), the new set of the next ruleset is derived from
that round; every derived set cites the release right before the cohort that introduces it (the
rule `verify` holds a release to: `beacon_seeds.citation_problem`), and follows from the round it
records. The `ci` gate validates the head, so it holds a pull request to the same rule.

Each set is checked in the ruleset that introduces it, so each round's signature is checked once per
command; a carried copy is checked only for being the set its introducing ruleset holds (that
copies of a published set never change is the `ci` gate's `ruleset-seed-sets` rule)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from catalogctl.catalog.beacon_seeds import citation_problem, derived_set_finding, introduction_problem
from catalogctl.catalog.cohorts import Cohort
from catalogctl.catalog.index import Location
from catalogctl.errors import Diagnostic, error
from catalogctl.model import Ruleset, SeedSet
from catalogctl.model.documents.beacon import BeaconChain

CODE = "ruleset-seeds-underived"
Locate = Callable[..., Location]  # (kind, id, *path) -> where it stands


def check_beacon_rulesets(
    chain: BeaconChain | None, rulesets: Mapping[str, Ruleset], locate: Locate
) -> list[Diagnostic]:
    """Every new seed set that does not follow the round its previous release named, or from the
    round it records (none when the suite pins no chain: there is nothing to check against)."""
    if chain is None:
        return []
    out: list[Diagnostic] = []
    for cohort in sorted(rulesets, key=Cohort.parse):
        ruleset = rulesets[cohort]
        for index, seed_set in enumerate(ruleset.seed_sets):
            if seed_set.introduced_in == cohort:
                message, at = _problem(chain, seed_set, ruleset, rulesets)
            else:  # carried: checked where it was introduced, if the introducing ruleset holds it
                message, at = introduction_problem(ruleset, seed_set, rulesets.get), ("introduced_in",)
            if message:
                line, column = locate("ruleset", cohort, "seed_sets", index, *at).position(key=True)
                hint = (
                    f"a derived set is written by `catalogctl freeze {cohort} --beacon-round FILE` (or "
                    "--fetch-beacon URL), never by hand"
                )
                out.append(error(CODE, message, locate("ruleset", cohort).document.path, line, column, hint))
    return out


def _problem(
    chain: BeaconChain, seed_set: SeedSet, ruleset: Ruleset, rulesets: Mapping[str, Ruleset]
) -> tuple[str, tuple[str, ...]]:
    """What is wrong with a set `ruleset` introduces (its message and key), or ("", ()) when nothing is."""
    naming = rulesets.get(ruleset.previous) if ruleset.previous else None
    named = naming.next_seed_round if naming is not None else None
    source = seed_set.derived_from
    if naming is not None and named is not None:
        if source is None:
            return (
                f"seed set {seed_set.id} is not derived from beacon round {named.round} of {chain.name}, which the "
                f"release of {naming.cohort} named for the next seed set"
            ), ()
        if (source.chain_hash, source.round, source.named_in) != (named.chain_hash, named.round, naming.cohort):
            return (
                f"seed set {seed_set.id} is derived from beacon round {source.round}, but the release of "
                f"{naming.cohort} named round {named.round} for it"
            ), ("derived_from", "round")
    if source is None:
        return "", ()
    # The rule `verify` holds a release to: the round is the one the release right before named,
    # even when that release named none (an older, long public round would be a choice of seeds).
    cited = citation_problem(ruleset, seed_set)
    if cited:
        return cited, ("derived_from", "named_in")
    return derived_set_finding(chain, seed_set, naming)
