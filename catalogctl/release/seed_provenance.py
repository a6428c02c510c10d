"""Whether a release's seed sets follow from the sources their ruleset records, the checks `verify`
and `preflight` share: a derived set from its beacon round (README, "Seeds from a public beacon";
offline, the round's signature checked against the chain the suite pins), a set imported from a
LoadGen release from that release's mlperf.conf (where that release is installed)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from catalogctl.catalog.beacon_seeds import Released, citation_problem, derived_set_problem, introduction_problem
from catalogctl.catalog.index import Catalog
from catalogctl.catalog.loadgen_seeds import shipped_problem
from catalogctl.io.loadgen_package import InstalledLoadGen
from catalogctl.model import Ruleset, SeedSet


def derived_seed_results(catalog: Catalog, ruleset: Ruleset, released: Released) -> tuple[list[str], list[str]]:
    """For each set of `ruleset` derived from a beacon round, or due to be: what passed, what
    failed (read with the suite of `catalog`, the catalog at the release; the releases that named
    and introduced each set as their tags carry them)."""
    chain = catalog.suite.policies.seed_beacon if catalog.suite is not None else None
    passed: list[str] = []
    problems: list[str] = []
    for seed_set in ruleset.seed_sets:
        source = seed_set.derived_from
        # Under a beacon policy (or for a derived set), a set carried from a cohort whose release
        # does not hold it would escape the checks of the ruleset that introduces it.
        problem = introduction_problem(ruleset, seed_set, released) if chain or source else ""
        if problem:
            problems.append(problem)
            continue
        if source is None:
            problem = underived_problem(ruleset, seed_set, released)
            if problem:
                problems.append(problem)
            continue
        # Not None: introduction_problem found the ruleset of a carried derived set above.
        introducing = ruleset if seed_set.introduced_in == ruleset.cohort else released(seed_set.introduced_in)
        assert introducing is not None
        problem = citation_problem(introducing, seed_set)
        if not problem:
            naming = released(source.named_in)
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


def underived_problem(ruleset: Ruleset, seed_set: SeedSet, released: Released) -> str:
    """A set this ruleset introduces without a round, when the release before named one for it:
    a set drawn (or its `derived_from` dropped and its seeds rewritten) where one was promised."""
    if seed_set.introduced_in != ruleset.cohort or ruleset.previous is None:
        return ""
    before = released(ruleset.previous)
    named = before.next_seed_round if before is not None else None
    if named is None:
        return ""
    return (
        f"seed set {seed_set.id}, introduced in {ruleset.cohort}: the release of {ruleset.previous} named beacon "
        f"round {named.round} for it, but it records no round (derived_from)"
    )


@dataclass
class ShippedResults:
    """For the sets of a ruleset imported from a LoadGen release: what passed, what failed, and
    what could not be checked here (the release not installed, or another one)."""

    passed: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)


def shipped_seed_results(ruleset: Ruleset, installed: Callable[[], InstalledLoadGen | None]) -> ShippedResults:
    """Read the installed LoadGen release again (`installed`, called only when a set was imported
    from one) and compare each such set with what it ships: its mlperf.conf's digest and seeds."""
    results = ShippedResults()
    imported = [s for s in ruleset.seed_sets if s.imported_from_loadgen is not None]
    here = installed() if imported else None
    for seed_set in imported:
        source = seed_set.imported_from_loadgen
        assert source is not None
        named = f"{source.package} {source.version}"
        if here is None or here.version != source.version:
            found = "it is not installed here" if here is None else f"{source.package} {here.version} is installed"
            results.unchecked.append(
                f"seed set {seed_set.id}: not compared with the mlperf.conf of {named} ({found}; "
                f"`pip install {source.package}=={source.version}` to compare)"
            )
            continue
        problem = shipped_problem(seed_set, here)
        if problem:
            results.problems.append(problem)
        else:
            results.passed.append(
                f"seed set {seed_set.id}: the seeds of {named}'s mlperf.conf (sha256 {source.sha256[:12]}…), "
                "read again here"
            )
    return results
