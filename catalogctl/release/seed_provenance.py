"""Whether a release's derived seed sets follow from the beacon rounds its ruleset records: the
check `verify` and `preflight` share (README, "Seeds from a public beacon"). Offline: the rounds'
signatures are checked against the chain the suite pins."""

from __future__ import annotations

from catalogctl.catalog.beacon_seeds import derived_set_problem
from catalogctl.catalog.index import Catalog
from catalogctl.model import Ruleset


def derived_seed_results(catalog: Catalog, ruleset: Ruleset) -> tuple[list[str], list[str]]:
    """For each set of `ruleset` derived from a beacon round: what passed, what failed (read with
    the suite and the rulesets of `catalog`, the catalog at the release)."""
    chain = catalog.suite.policies.seed_beacon if catalog.suite is not None else None
    passed: list[str] = []
    problems: list[str] = []
    for seed_set in ruleset.seed_sets:
        source = seed_set.derived_from
        if source is None:
            continue
        naming = ruleset if source.named_in == ruleset.cohort else catalog.rulesets.get(source.named_in)
        problem = derived_set_problem(chain, seed_set, naming)
        if problem:
            problems.append(problem)
        else:
            name = chain.name if chain else "the beacon"
            passed.append(
                f"seed set {seed_set.id}: derived from round {source.round} of {name}, named by {source.named_in}; "
                "signature verifies"
            )
    return passed, problems
