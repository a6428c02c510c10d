"""Semantic diff of two catalog trees (and of their cohorts' rulesets): the report.

Entities are matched by id, list items that have an identity (accuracy datasets, seed sets,
ruleset benchmarks, reference points) by that identity, so a reordering alone is no change. The
cost grows with what changed: file ids (git blob ids) tell which files differ, only those are
parsed, plus the benchmarks that mention a changed model, dataset or metric (found by a byte
search, then confirmed), plus what their contracts need for a digest. DeepDiff runs only on
pairs of entities that differ (`entities`, `fields`); between cohorts, `cohorts` adds the delta
of their rulesets.
"""

from __future__ import annotations

from typing import Literal

from catalogctl.catalog.contract import metric_keys
from catalogctl.catalog.documentcache import DocumentCache
from catalogctl.catalog.index import Catalog
from catalogctl.catalog.layout import Layout
from catalogctl.diff.cohorts import cohort_delta
from catalogctl.diff.entities import Changed, Differ, changed_entities
from catalogctl.diff.fields import fingerprint
from catalogctl.io.tree import Tree
from catalogctl.model.documents.benchmark import REQUIREMENT_METRICS
from catalogctl.model.reports.diff import (
    BenchmarkStatus,
    Change,
    ChangeClass,
    CohortDelta,
    DiffReport,
    SeedSetDelta,
    Side,
)

# The report's models are re-exported: `from catalogctl.diff.trees import DiffReport` keeps working.
__all__ = [
    "BenchmarkStatus",
    "Change",
    "CohortDelta",
    "DiffReport",
    "SeedSetDelta",
    "Side",
    "diff_trees",
    "fingerprint",
]

Digests = dict[str, tuple[str | None, str | None]]  # benchmark -> (old digest, new digest)


def diff_trees(
    old: Tree,
    new: Tree,
    old_ref: str,
    new_ref: str,
    changed_paths: set[str] | None = None,
    cache: DocumentCache | None = None,
    *,
    layout: Layout,
) -> DiffReport:
    """The semantic diff between two trees, both read in `layout` (`changed_paths`: the files
    that differ, when the caller compared them already, `source.changed_files`; `cache`: the
    document cache the files are checked through, none by default)."""
    differ = Differ(old, new, cache, layout=layout)
    changed = changed_entities(old, new, layout, changed_paths)
    differ.entities(changed)
    changed_metrics = differ.metrics() if changed.metrics else set()
    if changed.suite:
        differ.suite()
    digests = differ.digests(_reached(differ, changed, changed_metrics))
    _attach_impact(differ, digests)
    changes = sorted(differ.changes, key=_change_order)
    summary: dict[ChangeClass, int] = {"contract": 0, "display": 0, "policy": 0}
    for change in changes:
        summary[change.change_class] += 1
    return DiffReport(
        old=Side(ref=old_ref, label=old.label, note=old.note),
        new=Side(ref=new_ref, label=new.label, note=new.note),
        summary=summary,
        changes=changes,
        benchmarks=_statuses(differ, digests),
        cohorts=cohort_delta(differ, old_ref, new_ref),
    )


def _reached(differ: Differ, changed: Changed, metrics: set[str]) -> set[str]:
    """The benchmarks a change may reach: the changed ones, and those whose file mentions a
    changed model, dataset or metric (a requirement names its metric by the requirement key)."""
    own = {ident for kind, ident in changed.entities if kind == "benchmark"}
    needles = {ident.encode() for kind, ident in changed.entities if kind in ("model", "dataset")}
    for key in metrics:
        needles.add(key.encode())
        needles.update(req.encode() for req, metric in REQUIREMENT_METRICS.items() if metric == key)
    return own | differ.candidates(needles, own)


def _change_order(change: Change) -> tuple[int, str, str, str]:
    rank = {"contract": 0, "policy": 1, "display": 2}[change.change_class]
    return rank, change.kind, change.id, change.path


def _uses(catalog: Catalog, bench: str, kind: str, ident: str) -> bool:
    if bench not in catalog.benchmarks:
        return False
    if kind == "metric":
        return ident in metric_keys(catalog.benchmarks[bench])
    if kind == "benchmark":
        return bench == ident
    return (kind, ident) in catalog.sources_of(bench)


def _attach_impact(differ: Differ, digests: Digests) -> None:
    """Give each contract change the benchmarks whose digest changed and that use it."""
    changed_digest = [b for b, (o, n) in digests.items() if o != n]
    updated: list[Change] = []
    for change in differ.changes:
        impact: list[str] = []
        if change.change_class == "contract":
            for bench in changed_digest:
                if _uses(differ.new_catalog, bench, change.kind, change.id) or _uses(
                    differ.old_catalog, bench, change.kind, change.id
                ):
                    impact.append(bench)
        updated.append(change.model_copy(update={"impact": sorted(impact)}))
    differ.changes = updated


def _statuses(differ: Differ, digests: Digests) -> list[BenchmarkStatus]:
    renames = {c.id: c.old for c in differ.changes if c.kind == "benchmark" and c.change == "renamed"}
    out: list[BenchmarkStatus] = []
    for ident, (old, new) in sorted(digests.items()):
        if ident in renames.values():
            continue  # shown under its new id
        source = renames.get(ident)
        if source is not None:
            old = differ.digest(differ.old_catalog, source)
            status: Literal["added", "removed", "renamed", "changed", "identical"] = "renamed"
        elif old is None:
            status = "added"
        elif new is None:
            status = "removed"
        else:
            status = "changed" if old != new else "identical"
        out.append(BenchmarkStatus(id=ident, status=status, old_digest=old, new_digest=new, renamed_from=source))
    return out
