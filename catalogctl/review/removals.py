"""The release policy's rule on removals (see `policy`): removing or renaming an entity
(benchmark, model, dataset, metric) a frozen cohort uses is an error while that cohort still has
a valid seed set, a warning once all its sets expired."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from catalogctl import words
from catalogctl.catalog.cohorts import MLCOMMONS, Calendar, Cohort
from catalogctl.catalog.contract import metric_keys
from catalogctl.catalog.index import Catalog
from catalogctl.catalog.seeds import is_valid_in
from catalogctl.diff.fields import fingerprint
from catalogctl.model import Ruleset
from catalogctl.model.reports.review import Finding
from catalogctl.review.sides import PolicyInput


def reference_cohort(catalog: Catalog, today: dt.date, calendar: Calendar = MLCOMMONS) -> Cohort:
    """The cohort a seed set must still be valid for: the next to freeze, or today's if later."""
    frozen = [Cohort.parse(c) for c in catalog.rulesets]
    current = calendar.first_on_or_after(today)
    return max(calendar.next(max(frozen)), current) if frozen else current


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
    return ident in catalog.table(kind) or (kind, ident) in catalog.invalid


def removed_references(given: PolicyInput) -> list[Finding]:
    """Entities of the base that a frozen cohort uses, gone (or renamed) at the head."""
    if not given.base_rulesets.rulesets or not given.removes_entities():
        return []  # no frozen cohort, or nothing gone that one could use: no catalog is loaded
    return _removed(given)


def _removed(given: PolicyInput) -> list[Finding]:
    base, head = given.base_catalog, given.head_catalog
    reference = reference_cohort(base, given.today, given.calendar)
    renames: dict[tuple[str, str], str] = {}
    for kind in ("benchmark", "model", "dataset"):
        for ident, entity in head.table(kind).items():
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
        existed = ident in base.metrics if kind == "metric" else ident in base.table(kind)
        if not existed or _present(head, kind, ident):
            continue
        live = [c for c, _ in uses if _live(base.rulesets[c], reference)]
        cohort, bench = next(((c, b) for c, b in uses if c in live), uses[-1])
        via = "" if (kind, ident) == ("benchmark", bench) else f" through benchmark `{bench}`"
        new_id = renames.get((kind, ident))
        what = f"renamed to `{new_id}`" if new_id else "removed"
        cohorts = list(dict.fromkeys(c for c, _ in uses))
        if live:
            alive = list(dict.fromkeys(live))
            state = f"{words.listed(alive)} still {words.noun(len(alive), 'has', 'have')} valid seed sets"
        else:
            state = f"every seed set of {words.listed(cohorts)} has expired (before {reference})"
        several = len(cohorts)
        used = f"frozen {words.noun(several, 'cohort')} {words.listed(cohorts)} {words.noun(several, 'uses', 'use')}"
        file, line, column, where = _cohort_location(given, cohort, bench)
        out.append(
            Finding(
                severity="error" if live else "warning",
                code="frozen-reference-removed",
                message=f"{kind} `{ident}` was {what}, but {used} it{via}; {state}",
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
        return given.layout.ruleset_path(cohort), line, column, where
    return given.layout.ruleset_path(cohort), 0, 0, "base"
