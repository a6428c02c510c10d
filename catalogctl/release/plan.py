"""What a freeze writes, decided before anything is written: the cohort it follows, its
benchmarks (none with a pending value), and its seed sets. `freeze` runs the transaction."""

from __future__ import annotations

from pathlib import Path

from catalogctl.catalog.cohorts import MLCOMMONS, Calendar, Cohort
from catalogctl.catalog.diagnostics import did_you_mean
from catalogctl.catalog.index import Catalog
from catalogctl.catalog.loadgen_seeds import describe, import_loadgen_seeds, installed_loadgen, shipped_problem
from catalogctl.catalog.seeds import next_seed_sets, read_seed_file, unique_sets
from catalogctl.errors import CatalogError, CatalogInvalid, Diagnostic, UsageError, error
from catalogctl.io.tree import Tree
from catalogctl.model import Ruleset, SeedSet
from catalogctl.model.documents.seeds import SeedFile, SeedImport
from catalogctl.release.beacon_plan import BeaconRequest, derive_new_set


def previous_ruleset(
    catalog: Catalog, cohort: Cohort, skip_cohorts: int = 0, calendar: Calendar = MLCOMMONS
) -> Ruleset | None:
    """The last frozen cohort's ruleset, which `cohort` must follow, skipping exactly
    `skip_cohorts` cohorts (a gap is never an accident: one typo would end every real cohort)."""
    frozen = {Cohort.parse(c): r for c, r in catalog.rulesets.items() if c != cohort.id}
    if not frozen:
        if skip_cohorts:
            raise UsageError("no cohort is frozen yet, so there is none to skip", "drop --skip-cohorts")
        return None
    last = max(frozen)
    if last >= cohort:
        raise UsageError(
            f"{cohort} is not later than {last}, the last frozen cohort",
            f"the next cohort is {calendar.next(last)} ({calendar.submission_date(calendar.next(last))})",
        )
    count, which = calendar.skipped(last, cohort)
    if count != skip_cohorts:
        if not count:
            raise UsageError(f"{cohort} follows {last} and skips no cohort", "drop --skip-cohorts")
        raise UsageError(
            f"{cohort} skips {which} after {last}, the last frozen cohort",
            f"the next cohort is {calendar.next(last)} ({calendar.submission_date(calendar.next(last))}); "
            f"to skip, pass --skip-cohorts {count}",
        )
    return frozen[last]


def carried_over(previous: Ruleset | None, add: list[str]) -> tuple[list[str], list[str]]:
    """`add` without the benchmarks the previous cohort carries over anyway, and a note for each:
    adding one again asks for what the cohort has, so a script can be rerun."""
    carried = {b.id for b in previous.benchmarks} if previous else set()
    notes = [
        f"`{ident}` is already in {previous.cohort} and carries over: --add {ident} changes nothing"
        for ident in dict.fromkeys(add)
        if ident in carried and previous
    ]
    return [ident for ident in add if ident not in carried], notes


def members(catalog: Catalog, previous: Ruleset | None, add: list[str], remove: list[str]) -> set[str]:
    """The previous cohort's benchmarks with `add` and without `remove`; every problem at once."""
    carried = {b.id for b in previous.benchmarks} if previous else set()
    problems: list[str] = []
    for ident in add:
        if ident not in catalog.benchmarks:
            hint = did_you_mean(ident, catalog.benchmarks)
            problems.append(f"unknown benchmark `{ident}`" + (f" ({hint})" if hint else ""))
    for ident in remove:
        if ident not in carried:
            problems.append(f"`{ident}` is not in the previous cohort, so it cannot be removed")
    result = (carried | set(add)) - set(remove)
    for ident in sorted(result - catalog.benchmarks.keys()):
        if ident not in add:
            problems.append(f"`{ident}` of the previous cohort is no longer in the catalog: --remove it")
    if problems:
        raise UsageError("; ".join(problems))
    if not result:
        raise UsageError("a cohort needs at least one benchmark", "name them with --add ID")
    return result


def refuse_pending(catalog: Catalog, benchmarks: set[str]) -> None:
    """Refuse, listing each with its position, the pending values these benchmarks depend on."""
    pending = catalog.pending_by_entity()
    found: list[Diagnostic] = []
    for ident in sorted(benchmarks):
        for kind, entity in catalog.sources_of(ident):
            for value in pending.get((kind, entity), []):
                line, column = catalog.locate(kind, entity, *value.path).position()
                dotted = ".".join(str(p) for p in value.path)
                found.append(
                    error(
                        "pending-value",
                        f"{kind} `{entity}`: {dotted} is pending ({value.value}); blocks freezing {ident}",
                        catalog.locate(kind, entity).document.path,
                        line,
                        column,
                    )
                )
    if found:
        blocked = sorted({d.message.rsplit(" ", 1)[-1] for d in found})
        raise CatalogInvalid(
            f"pending values block freezing {', '.join(blocked)}: decide them, or --remove those benchmarks",
            sorted(set(found)),
        )


def imported_seeds(seeds_file: Path, cohort: Cohort, set_id: str | None) -> tuple[SeedFile, SeedImport]:
    """The seeds `freeze --seeds` imports. A set published for a cohort (seedset.yaml's
    cohort-id) is introduced by that cohort's ruleset: §4.6 counts its window of adoption from
    there, and the ruleset's window must be the one the official checker derives. Also what the
    ruleset records of the import."""
    imported, record = read_seed_file(seeds_file, set_id)
    if imported.published_for is not None and imported.published_for != cohort.id:
        raise UsageError(
            f"{seeds_file} was published for cohort {imported.published_for}, not {cohort}: its window of "
            "adoption (§4.6) starts there",
            f"import it when freezing {imported.published_for}",
        )
    return imported, record


def seed_sets(
    catalog: Catalog,
    cohort: Cohort,
    previous: Ruleset | None,
    seeds_file: Path | None,
    set_id: str | None = None,
    beacon: BeaconRequest | None = None,
    loadgen: bool = False,
) -> tuple[list[SeedSet], str]:
    """The cohort's seed sets (a new one only when rotation is due: derived from the beacon round
    the previous release named, imported from `seeds_file` or from the installed LoadGen release
    (`loadgen`), or drawn), and a note on the new set ("" when none)."""
    suite = catalog.suite
    assert suite is not None  # a valid catalog has one
    if loadgen and seeds_file is not None:
        raise UsageError("--seeds and --loadgen-seeds both import the new seed set", "pass one of them")
    published = unique_sets(s for r in catalog.rulesets.values() if r.cohort != cohort.id for s in r.seed_sets)
    option = "--seeds" if seeds_file is not None else "--loadgen-seeds" if loadgen else ""
    derived = derive_new_set(suite, cohort, previous, published, beacon or BeaconRequest(), option)
    imported, record = imported_seeds(seeds_file, cohort, set_id) if seeds_file is not None else (None, None)
    from_loadgen, installed = None, None
    if loadgen:
        if set_id is not None:
            raise UsageError("--seed-set picks a set of a published seedset.yaml, not of LoadGen", "drop --seed-set")
        installed = installed_loadgen()
        values, qsl, source = import_loadgen_seeds(installed)
        imported, from_loadgen = SeedFile(**values.model_dump()), (qsl, source)
    sets, new_set = next_seed_sets(
        suite.policies.seed_rotation,
        cohort,
        list(previous.seed_sets) if previous else [],
        published,
        derived.values if derived else imported,
        derived.set_id if derived else imported.id if imported else None,
        derived.derived_from if derived else None,
        record,
        from_loadgen,
    )
    if new_set is None:
        return sets, ""
    origin = (
        f"derived from round {derived.derived_from.round} of {suite.policies.seed_beacon.name}"
        if derived and suite.policies.seed_beacon
        else f"imported from {describe(installed)}; its model_seed drawn"
        if installed
        else "imported"
        if imported
        else "drawn"
    )
    return sets, f"seed set {new_set.id} {origin}, valid through {new_set.valid_through}"


def check_resumed_seeds(
    resumed: Ruleset, cohort: Cohort, seeds_file: Path, ruleset_rel: str, set_id: str | None = None
) -> None:
    """A rerun with --seeds must ask for the seeds the interrupted freeze already wrote."""
    imported, _ = imported_seeds(seeds_file, cohort, set_id)
    new = [s for s in resumed.seed_sets if s.introduced_in == cohort.id]
    values = [s.seed_values() for s in new]
    if values != [imported.seed_values()] or (imported.id is not None and new[0].id != imported.id):
        shown = f"{new[0].scheduler_rng_seed} / {new[0].sample_index_rng_seed} / {new[0].model_seed}" if new else ""
        written = f"seed set {new[0].id} = {shown}" if new else "no new seed set"
        raise UsageError(
            f"the interrupted freeze left {ruleset_rel} with {written}, not the seeds of {seeds_file}",
            f"remove {ruleset_rel} to start this freeze over, or rerun without --seeds",
        )


def check_resumed_loadgen(resumed: Ruleset, cohort: Cohort, ruleset_rel: str) -> None:
    """A rerun with --loadgen-seeds must find the interrupted freeze's new set imported from the
    LoadGen release installed now, holding what it ships."""
    new = [s for s in resumed.seed_sets if s.introduced_in == cohort.id]
    source = new[0].imported_from_loadgen if new else None
    if source is None:
        problem = "no new seed set imported from LoadGen"
    else:
        where = f"seed set {new[0].id} imported from {source.package} {source.version}"
        installed = installed_loadgen()
        if installed is None:
            problem = f"{where}, and it is not installed now"
        elif installed.version != source.version:
            problem = f"{where}, but {installed.version} is installed now"
        else:
            problem = shipped_problem(new[0], installed)
    if problem:
        raise UsageError(
            f"the interrupted freeze left {ruleset_rel} with {problem}",
            f"remove {ruleset_rel} to start this freeze over, or rerun without --loadgen-seeds",
        )


def rerun_differences(
    released: Ruleset, tag_text: str | None, add: list[str], remove: list[str], message: str | None
) -> list[str]:
    """What a rerun asks for that the release (its ruleset, and its tag's message when tagged)
    does not hold: each an option and what the release has instead."""
    ids = {b.id for b in released.benchmarks}
    found = [f"--add {ident} (not in the release)" for ident in add if ident not in ids]
    found += [f"--remove {ident} (in the release)" for ident in remove if ident in ids]
    if tag_text is not None and message is not None:
        words = tag_text.split("\n\nruleset: ", 1)[0].strip()
        if message.strip() != words:
            found.append(f"-m {message.strip()!r} (the tag says {words!r})")
    return found


def refuse_links(trees: list[Tree], paths: list[str]) -> None:
    """A symlink (or anything but a folder, then a regular file) on the way to one of `paths`, in
    any of `trees`, is refused: freeze never reads or writes through a link."""
    for tree in trees:
        for rel in paths:
            parts = rel.split("/")
            for end in range(1, len(parts) + 1):
                sub, want = "/".join(parts[:end]), "file" if end == len(parts) else "dir"
                kind = tree.kind(sub)
                if kind not in (None, want):
                    raise CatalogError(
                        f"{sub} is a {kind} ({tree.label}): freeze writes only regular files and folders",
                        f"replace {sub} with the {'file' if want == 'file' else 'folder'} itself and commit that",
                    )
