"""The release policy a pull request must keep, checked between a base and a head tree.

1. A frozen ruleset (one the base has) is never modified or deleted.
2. A new ruleset is exactly what `freeze` writes: canonical text, a cohort later than every
   frozen one, the right date and previous cohort, seed sets that follow the rotation policy
   and the published sets, and contract digests equal to the contracts at the head.
3. Removing or renaming an entity (benchmark, model, dataset, metric) a frozen cohort uses is
   an error while that cohort still has a valid seed set, a warning once all its sets expired.
4. A contract change to a benchmark of the latest cohort is a warning: it takes effect only when
   the next cohort is frozen.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from catalogctl.catalog.cohorts import Cohort
from catalogctl.catalog.contract import contract_digest, metric_keys
from catalogctl.catalog.index import Catalog, LoadResult
from catalogctl.catalog.layout import RULESETS_DIR, entity_path
from catalogctl.catalog.seeds import advance, is_valid_in, rotation_due, set_id, set_index, unique_sets
from catalogctl.diff.fields import fingerprint
from catalogctl.diff.trees import DiffReport
from catalogctl.errors import CatalogError
from catalogctl.io.tree import Tree
from catalogctl.model import Ruleset, SeedSet
from catalogctl.review.findings import Finding, subject_fingerprint

TABLES = {"benchmark": "benchmarks", "model": "models", "dataset": "datasets"}


@dataclass
class PolicyInput:
    """Both sides of a pull request, loaded."""

    base: Tree
    head: Tree
    base_result: LoadResult
    head_result: LoadResult
    diff: DiffReport | None
    today: dt.date

    @property
    def base_catalog(self) -> Catalog:
        return self.base_result.catalog

    @property
    def head_catalog(self) -> Catalog:
        return self.head_result.catalog


def check_policy(given: PolicyInput) -> list[Finding]:
    """Every policy finding between the base and the head."""
    findings: list[Finding] = []
    findings += frozen_rulesets(given)
    findings += new_rulesets(given)
    findings += removed_references(given)
    findings += next_freeze_changes(given)
    return findings


def _first_difference(old: bytes, new: bytes) -> int:
    """The 1-based line where two texts first differ."""
    a, b = old.decode("utf-8", "replace").splitlines(), new.decode("utf-8", "replace").splitlines()
    for number, (x, y) in enumerate(zip(a, b, strict=False), start=1):
        if x != y:
            return number
    return min(len(a), len(b)) + 1


def _position(catalog: Catalog, kind: str, ident: str, *path: str | int) -> tuple[int, int]:
    if (kind, ident) not in catalog.locations:
        return 1, 1
    return catalog.locate(kind, ident, *path).position()


# -- 1. frozen rulesets ---------------------------------------------------------------------------


def frozen_rulesets(given: PolicyInput) -> list[Finding]:
    """Edits and deletions of rulesets the base already has."""
    out: list[Finding] = []
    before, after = given.base.file_ids(RULESETS_DIR), given.head.file_ids(RULESETS_DIR)
    for path in sorted(before):
        if not path.endswith(".yaml") or before[path] == after.get(path):
            continue
        cohort = path.rsplit("/", 1)[-1][: -len(".yaml")]
        if path not in after:
            out.append(
                Finding(
                    severity="error",
                    code="ruleset-deleted",
                    message=f"frozen ruleset {cohort} was deleted: a cohort's ruleset is never removed",
                    file=path,
                    line=1,
                    column=1,
                    where="base",
                    hint="restore the file; to stop offering a benchmark, freeze a new cohort with --remove",
                    fingerprint=fingerprint("ruleset", cohort, "removed", "", None, None),
                )
            )
            continue
        changes = [
            c
            for c in (given.diff.changes if given.diff else [])
            if c.kind == "ruleset" and c.id == cohort and c.change == "modified"
        ]
        hint = "revert the edit; a cohort changes only by freezing the next one"
        for change in changes:
            out.append(
                Finding(
                    severity="error",
                    code="ruleset-modified",
                    message=f"frozen ruleset {cohort} was modified: {change.path} changed",
                    file=path,
                    line=change.line,
                    column=change.column,
                    hint=hint,
                    fingerprint=change.fingerprint,
                )
            )
        if not changes:  # comments or formatting, or a side the diff could not read
            old, new = given.base.read(path), given.head.read(path)
            out.append(
                Finding(
                    severity="error",
                    code="ruleset-modified",
                    message=f"frozen ruleset {cohort} was modified: its text changed",
                    file=path,
                    line=_first_difference(old, new),
                    column=1,
                    hint=hint,
                    fingerprint=subject_fingerprint("ruleset-modified", path, after[path]),
                )
            )
    return out


# -- 2. new rulesets ----------------------------------------------------------------------------------


def new_rulesets(given: PolicyInput) -> list[Finding]:
    """Rulesets the head adds must be what `freeze` writes for them."""
    from catalogctl.release.ruleset import render_ruleset

    base, head = given.base_catalog, given.head_catalog
    frozen = sorted((Cohort.parse(c) for c in base.rulesets), reverse=True)
    out: list[Finding] = []
    added = sorted(Cohort.parse(c) for c in head.rulesets if c not in base.rulesets and c not in _base_files(given))
    published = unique_sets(s for r in base.rulesets.values() for s in r.seed_sets)
    previous = frozen[0] if frozen else None
    for cohort in added:
        ruleset = head.rulesets[cohort.id]
        path = entity_path("ruleset", cohort.id)

        def add(code: str, message: str, *at: str | int, hint: str = "", subject: object = "") -> None:
            line, column = _position(head, "ruleset", cohort.id, *at)  # noqa: B023
            out.append(
                Finding(
                    severity="error",
                    code=code,
                    message=f"new ruleset {cohort}: {message}",  # noqa: B023
                    file=path,  # noqa: B023
                    line=line,
                    column=column,
                    hint=hint,
                    fingerprint=subject_fingerprint(code, cohort, subject or message),  # noqa: B023
                )
            )

        text = head.locate("ruleset", cohort.id).document.text
        expected = render_ruleset(ruleset)
        if text != expected:
            line = _first_difference(expected.encode(), text.encode())
            out.append(
                Finding(
                    severity="error",
                    code="ruleset-not-canonical",
                    message=f"new ruleset {cohort}: line {line} differs from what `catalogctl freeze` writes",
                    file=path,
                    line=line,
                    column=1,
                    hint="write rulesets with `catalogctl freeze`, never by hand",
                    fingerprint=subject_fingerprint("ruleset-not-canonical", cohort),
                )
            )
        if previous is not None and cohort <= previous:
            add("ruleset-order", f"not later than {previous}, the last frozen cohort", "cohort")
        wanted_previous = previous.id if previous is not None else None
        if ruleset.previous != wanted_previous:
            add(
                "ruleset-order",
                f"previous is {ruleset.previous or 'null'}, but the last frozen cohort is {wanted_previous or 'none'}",
                "previous",
            )
        if ruleset.submission_date != cohort.submission_date:
            add(
                "ruleset-order",
                f"submission_date is {ruleset.submission_date}, but {cohort} submits on {cohort.submission_date}",
                "submission_date",
            )
        for index, entry in enumerate(ruleset.benchmarks):
            if entry.id not in head.benchmarks:
                add(
                    "ruleset-unknown-benchmark",
                    f"benchmark `{entry.id}` is not in the catalog",
                    "benchmarks",
                    index,
                    "id",
                    subject=entry.id,
                )
                continue
            try:
                actual = contract_digest(head, entry.id)
            except CatalogError:
                continue  # the benchmark's dependencies are invalid: validation reports it
            if actual != entry.digest:
                add(
                    "ruleset-digest-mismatch",
                    f"benchmark `{entry.id}` is pinned at {entry.digest}, but its contract at the head is {actual}",
                    "benchmarks",
                    index,
                    "digest",
                    hint="freeze again from the head: the contract changed after the ruleset was written",
                    subject=entry.id,
                )
        _seed_set_findings(given, cohort, ruleset, base.rulesets.get(wanted_previous or ""), published, add)
        previous, published = cohort, unique_sets([*published, *ruleset.seed_sets])
    return out


def _base_files(given: PolicyInput) -> set[str]:
    return {p.rsplit("/", 1)[-1][: -len(".yaml")] for p in given.base.file_ids(RULESETS_DIR)}


def _seed_set_findings(
    given: PolicyInput,
    cohort: Cohort,
    ruleset: Ruleset,
    previous: Ruleset | None,
    published: list[SeedSet],
    report: Callable[..., None],
) -> None:
    suite = given.head_catalog.suite
    if suite is None:
        return
    rotation = suite.policies.seed_rotation
    known = {s.id: s for s in published}
    mine = {s.id: s for s in ruleset.seed_sets}
    index_of = {s.id: i for i, s in enumerate(ruleset.seed_sets)}
    if previous is not None:
        for carried in previous.seed_sets:
            if is_valid_in(carried, cohort) and carried.id not in mine:
                report("ruleset-seed-sets", f"seed set {carried.id} is still valid but not carried over", "seed_sets")
    new = [s for s in ruleset.seed_sets if s.id not in known]
    for seed_set in ruleset.seed_sets:
        if seed_set.id in known and seed_set != known[seed_set.id]:
            report(
                "ruleset-seed-sets",
                f"seed set {seed_set.id} differs from the one already published: a set never changes",
                "seed_sets",
                index_of[seed_set.id],
            )
    due = rotation_due(rotation, cohort, published)
    if due and not new:
        report("ruleset-seed-sets", "a new seed set is due by the rotation policy, but none was added", "seed_sets")
    if not due and new:
        report(
            "ruleset-seed-sets",
            f"seed set {new[0].id} is new, but no rotation is due (a new set every {rotation.rotate_every} cohorts)",
            "seed_sets",
            index_of[new[0].id],
        )
    expected_id = set_id(max((set_index(s) for s in known), default=-1) + 1)
    for seed_set in new[:1] if due else []:
        through = advance(cohort, rotation.valid_for - 1).id
        if seed_set.id != expected_id or seed_set.introduced_in != cohort.id or seed_set.valid_through != through:
            report(
                "ruleset-seed-sets",
                f"new seed set {seed_set.id} should be {expected_id}, introduced in {cohort} and valid "
                f"through {through} (it says {seed_set.id}, {seed_set.introduced_in}, {seed_set.valid_through})",
                "seed_sets",
                index_of[seed_set.id],
            )
    for extra in new[1:]:
        report("ruleset-seed-sets", f"seed set {extra.id}: a freeze adds one new set at most", "seed_sets")


# -- 3. removed references ----------------------------------------------------------------------------


def reference_cohort(catalog: Catalog, today: dt.date) -> Cohort:
    """The cohort a seed set must still be valid for: the next to freeze, or today's if later."""
    frozen = [Cohort.parse(c) for c in catalog.rulesets]
    upcoming = max(frozen).next() if frozen else Cohort(today.year, today.month, 0)
    current = Cohort(today.year, today.month, 0)
    while current.submission_date < today:
        current = current.next()
    return max(upcoming, current)


def _live(ruleset: Ruleset, reference: Cohort) -> bool:
    return any(is_valid_in(s, reference) for s in ruleset.seed_sets)


def _uses(catalog: Catalog, bench: str) -> list[tuple[str, str]]:
    if bench not in catalog.benchmarks:
        return [("benchmark", bench)]
    used = list(catalog.sources_of(bench))
    used += [("metric", key) for key in metric_keys(catalog.benchmarks[bench])]
    return used


def _present(catalog: Catalog, kind: str, ident: str) -> bool:
    if kind == "metric":
        return ident in catalog.metrics or ("metrics", "") not in catalog.locations
    return ident in getattr(catalog, TABLES[kind]) or (kind, ident) in catalog.invalid


def removed_references(given: PolicyInput) -> list[Finding]:
    """Entities of the base that a frozen cohort uses, gone (or renamed) at the head."""
    base, head = given.base_catalog, given.head_catalog
    reference = reference_cohort(base, given.today)
    renames: dict[tuple[str, str], str] = {}
    for kind, table in TABLES.items():
        for ident, entity in getattr(head, table).items():
            origin = getattr(entity, "renamed_from", None)
            if origin:
                renames[(kind, origin)] = ident
    users: dict[tuple[str, str], list[tuple[str, str]]] = {}  # entity -> [(cohort, benchmark)]
    for cohort in sorted(base.rulesets, key=Cohort.parse):
        for entry in base.rulesets[cohort].benchmarks:
            for key in _uses(base, entry.id):
                users.setdefault(key, []).append((cohort, entry.id))
    out: list[Finding] = []
    for (kind, ident), uses in sorted(users.items()):
        existed = ident in base.metrics if kind == "metric" else ident in getattr(base, TABLES[kind])
        if not existed or _present(head, kind, ident):
            continue
        live = [c for c, _ in uses if _live(base.rulesets[c], reference)]
        cohort, bench = next(((c, b) for c, b in uses if c in live), uses[-1])
        via = "" if (kind, ident) == ("benchmark", bench) else f" through benchmark `{bench}`"
        new_id = renames.get((kind, ident))
        what = f"renamed to `{new_id}`" if new_id else "removed"
        cohorts = ", ".join(dict.fromkeys(c for c, _ in uses))
        if live:
            state = f"{', '.join(dict.fromkeys(live))} still {'has' if len(live) == 1 else 'have'} valid seed sets"
        else:
            state = f"every seed set of {cohorts} has expired (before {reference})"
        file, line, column, where = _cohort_location(given, cohort, bench)
        out.append(
            Finding(
                severity="error" if live else "warning",
                code="frozen-reference-removed",
                message=f"{kind} `{ident}` was {what}, but frozen cohort {cohorts} uses it{via}; {state}",
                file=file,
                line=line,
                column=column,
                where=where,
                hint="keep it until the cohorts that use it expire; add what replaces it beside it",
                fingerprint=fingerprint(kind, new_id, "renamed", "renamed_from", ident, new_id)
                if new_id
                else fingerprint(kind, ident, "removed", "", None, None),
            )
        )
    return out


def _cohort_location(given: PolicyInput, cohort: str, bench: str) -> tuple[str, int, int, Literal["head", "base"]]:
    """Where a cohort lists a benchmark: in the head's ruleset, or the base's when it is gone."""
    sides: tuple[tuple[Catalog, Literal["head", "base"]], ...] = (
        (given.head_catalog, "head"),
        (given.base_catalog, "base"),
    )
    for catalog, where in sides:
        ruleset = catalog.rulesets.get(cohort)
        if ruleset is None:
            continue
        index = next((i for i, b in enumerate(ruleset.benchmarks) if b.id == bench), None)
        path = ("benchmarks", index, "id") if index is not None else ()
        line, column = catalog.locate("ruleset", cohort, *path).position()
        return entity_path("ruleset", cohort), line, column, where
    return entity_path("ruleset", cohort), 0, 0, "base"


# -- 4. contract changes that wait for the next freeze --------------------------------------------------


def next_freeze_changes(given: PolicyInput) -> list[Finding]:
    """Contract changes to benchmarks of the latest frozen cohort (warnings)."""
    base = given.base_catalog
    if given.diff is None or not base.rulesets:
        return []
    latest = max(base.rulesets, key=Cohort.parse)
    members = {b.id for b in base.rulesets[latest].benchmarks}
    out: list[Finding] = []
    for change in given.diff.changes:
        if change.change_class != "contract" or change.change in ("removed", "renamed"):
            continue
        hit = sorted(members & set(change.impact))
        if not hit:
            continue
        from catalogctl.diff.markdown import describe

        out.append(
            Finding(
                severity="warning",
                code="contract-change-next-freeze",
                message=f"{describe(change)}: changes the contract of {', '.join(hit)} (cohort {latest}); "
                f"it takes effect only at the next freeze, {latest} keeps its frozen contract",
                file=change.file,
                line=change.line,
                column=change.column,
                fingerprint=change.fingerprint,
            )
        )
    return out
