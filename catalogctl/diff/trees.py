"""Semantic diff of two catalog trees (and of their cohorts' rulesets).

Entities are matched by id, list items that have an identity (accuracy datasets, seed sets,
ruleset benchmarks, reference points) by that identity, so a reordering alone is no change. The
cost grows with what changed: file ids (git blob ids) tell which files differ, only those are
parsed, plus the benchmarks that mention a changed model, dataset or metric (found by a byte
search, then confirmed), plus what their contracts need for a digest. DeepDiff runs only on
pairs of entities that differ.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel

from catalogctl.catalog.cohorts import Cohort, is_cohort_id
from catalogctl.catalog.contract import (
    IDENTITY_KEYS,
    canonical_form,
    canonical_json,
    contract_digest,
    metric_keys,
    plain,
)
from catalogctl.catalog.diagnostics import errors_only
from catalogctl.catalog.index import Catalog, Location
from catalogctl.catalog.layout import ENTITY_DIRS, METRICS_FILE, RULESETS_DIR, SUITE_FILE
from catalogctl.catalog.loader import BENCHMARK_KINDS, SubsetLoader
from catalogctl.catalog.seeds import is_valid_in
from catalogctl.catalog.source import changed_files
from catalogctl.catalog.validation import value_at
from catalogctl.errors import CatalogError, CatalogInvalid
from catalogctl.io.tree import Tree
from catalogctl.io.yamlio import PathKey
from catalogctl.model import Dataset, Metric, Model, Ruleset, Suite
from catalogctl.model.benchmark import REQUIREMENT_METRICS
from catalogctl.model.common import path_is_display
from catalogctl.model.diff import (
    BenchmarkStatus,
    Change,
    ChangeClass,
    CohortDelta,
    DiffReport,
    EntityKind,
    SeedSetDelta,
    Side,
)

# The report's models are re-exported: `from catalogctl.diff import DiffReport` keeps working.
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

_SCHEMAS: dict[str, type[BaseModel]] = {
    "suite": Suite,
    "metric": Metric,
    "model": Model,
    "dataset": Dataset,
    "ruleset": Ruleset,
}


# -- which files changed --------------------------------------------------------------------


@dataclass
class _Changed:
    suite: bool = False
    metrics: bool = False
    entities: set[tuple[str, str]] = field(default_factory=set)


def _changed_files(old: Tree, new: Tree) -> _Changed:
    changed = _Changed()
    kinds = {folder: kind for kind, folder in ENTITY_DIRS.items()} | {RULESETS_DIR: "ruleset"}
    for path in changed_files(old, new):
        if not path.endswith(".yaml"):
            continue
        folder, _, name = path.rpartition("/")
        kind = kinds.get(folder)
        if kind is not None:
            changed.entities.add((kind, name[: -len(".yaml")]))
        elif path == SUITE_FILE:
            changed.suite = True
        elif path == METRICS_FILE:
            changed.metrics = True
    return changed


# -- comparing two entities ------------------------------------------------------------------


def _field_diffs(old: Any, new: Any) -> list[tuple[PathKey, Any, Any]]:
    """(path, old, new) of every difference; a changed scalar list is one change of the list."""
    from deepdiff import DeepDiff
    from deepdiff.helper import NotPresent

    a, b = canonical_form(old), canonical_form(new)
    out: dict[PathKey, tuple[Any, Any]] = {}
    for levels in DeepDiff(a, b, view="tree", verbose_level=2).values():
        for level in levels:
            path: list[Any] = level.path(output_format="list")
            cut = next((i for i, p in enumerate(path) if isinstance(p, int)), None)
            if cut is not None:  # inside a scalar list: report the whole list
                path = path[:cut]
                out[tuple(path)] = (_get(a, path), _get(b, path))
                continue
            t1 = None if isinstance(level.t1, NotPresent) else level.t1
            t2 = None if isinstance(level.t2, NotPresent) else level.t2
            out[tuple(path)] = (t1, t2)
    return [(p, o, n) for p, (o, n) in sorted(out.items(), key=lambda item: [str(x) for x in item[0]])]


def _get(data: Any, path: Iterable[Any]) -> Any:
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    return data


def _document_path(data: Any, path: PathKey) -> PathKey:
    """Map a normalized path (identity keys) back to the document's path (list indexes)."""
    out: list[str | int] = []
    for part in path:
        if isinstance(data, list):
            index = next(
                (
                    i
                    for i, item in enumerate(data)
                    if isinstance(item, dict) and any(str(item.get(k)) == part for k in IDENTITY_KEYS)
                ),
                None,
            )
            if index is None:
                break
            out.append(index)
            data = data[index]
        elif isinstance(data, dict) and part in data:
            out.append(part)
            data = data[part]
        else:
            break
    return tuple(out)


def _dotted(path: Iterable[Any]) -> str:
    return ".".join(str(p) for p in path)


def fingerprint(kind: str, ident: str, change: str, path: str, old: Any, new: Any) -> str:
    """A stable id of a change: the same change gives the same fingerprint on every machine."""
    body = canonical_json([kind, ident, change, path, old, new])
    return hashlib.sha256(body).hexdigest()[:16]


# -- the diff -----------------------------------------------------------------------------------


class _Differ:
    def __init__(self, old: Tree, new: Tree) -> None:
        self.old_tree, self.new_tree = old, new
        self.old = SubsetLoader(old)
        self.new = SubsetLoader(new)
        self.changes: list[Change] = []

    @property
    def old_catalog(self) -> Catalog:
        return self.old.result.catalog

    @property
    def new_catalog(self) -> Catalog:
        return self.new.result.catalog

    def add(
        self,
        kind: EntityKind,
        ident: str,
        change: Literal["added", "removed", "renamed", "modified"],
        path: PathKey,
        old: Any,
        new: Any,
        change_class: ChangeClass,
        where: tuple[str, int, int],
    ) -> None:
        dotted = _dotted(path)
        self.changes.append(
            Change(
                kind=kind,
                id=ident,
                change=change,
                path=dotted,
                old=old,
                new=new,
                change_class=change_class,
                fingerprint=fingerprint(kind, ident, change, dotted, old, new),
                file=where[0],
                line=where[1],
                column=where[2],
                impact=[],
            )
        )

    def where(self, location: Location | None, normalized: PathKey, data: Any) -> tuple[str, int, int]:
        if location is None:
            return ("", 0, 0)
        path = _document_path(value_at(location.document.data, location.path), normalized)
        line, column = location.child(*path).position(key=bool(path))
        return location.document.path, line, column

    def class_of(self, kind: str, schema: type[BaseModel], path: PathKey) -> ChangeClass:
        if kind == "ruleset" or (kind == "suite" and path[:1] == ("policies",)):
            return "policy"
        return "display" if path_is_display(schema, [p for p in path if isinstance(p, str)]) else "contract"

    def compare(
        self,
        kind: EntityKind,
        ident: str,
        schema: type[BaseModel],
        old: BaseModel,
        new: BaseModel,
        new_location: Location | None,
        *,
        skip: tuple[str, ...] = (),
    ) -> None:
        old_data, new_data = plain(old), plain(new)
        for key in skip:
            old_data.pop(key, None)
            new_data.pop(key, None)
        for path, before, after in _field_diffs(old_data, new_data):
            where = self.where(new_location, path, new_data)
            self.add(kind, ident, "modified", path, before, after, self.class_of(kind, schema, path), where)

    def entity_class(self, kind: str) -> ChangeClass:
        return "policy" if kind == "ruleset" else "contract"

    def entities(self, changed: _Changed) -> None:
        wanted = sorted(changed.entities)
        self.old.want(wanted)
        self.new.want(wanted)
        self.check_valid()
        tables = {"model": "models", "dataset": "datasets", "benchmark": "benchmarks", "ruleset": "rulesets"}
        renamed: dict[tuple[str, str], str] = {}  # (kind, old id) -> new id
        for kind, ident in wanted:
            new_entity = getattr(self.new_catalog, tables[kind]).get(ident)
            origin = getattr(new_entity, "renamed_from", None)
            if (
                origin
                and (kind, origin) in changed.entities
                and origin in getattr(self.old_catalog, tables[kind])
                and origin not in getattr(self.new_catalog, tables[kind])
            ):
                renamed[(kind, origin)] = ident
        for kind, ident in wanted:
            if (kind, ident) in renamed:
                continue
            before = getattr(self.old_catalog, tables[kind]).get(ident)
            after = getattr(self.new_catalog, tables[kind]).get(ident)
            source = next((o for (k, o), n in renamed.items() if k == kind and n == ident), None)
            schema = (
                BENCHMARK_KINDS[after.kind if after is not None else before.kind]
                if kind == "benchmark"
                else _SCHEMAS[kind]
            )
            entity_kind: EntityKind = kind  # type: ignore[assignment]
            if source is not None:
                before = getattr(self.old_catalog, tables[kind])[source]
                location = self.new_catalog.locations.get((kind, ident))
                self.add(
                    entity_kind,
                    ident,
                    "renamed",
                    ("renamed_from",),
                    source,
                    ident,
                    self.entity_class(kind),
                    self.where(location, ("renamed_from",), None),
                )
                self.compare(entity_kind, ident, schema, before, after, location, skip=("id", "renamed_from"))
            elif before is None and after is not None:
                self.add(
                    entity_kind,
                    ident,
                    "added",
                    (),
                    None,
                    None,
                    self.entity_class(kind),
                    self.where(self.new_catalog.locations.get((kind, ident)), (), None),
                )
            elif after is None and before is not None:
                self.add(
                    entity_kind,
                    ident,
                    "removed",
                    (),
                    None,
                    None,
                    self.entity_class(kind),
                    self.where(self.old_catalog.locations.get((kind, ident)), (), None),
                )
            elif before is not None and after is not None and before != after:
                self.compare(entity_kind, ident, schema, before, after, self.new_catalog.locations.get((kind, ident)))

    def metrics(self) -> set[str]:
        """Compare the metric registries; returns the keys whose entry changed."""
        old, new = self.old_catalog.metrics, self.new_catalog.metrics
        changed: set[str] = set()
        for key in sorted(old.keys() | new.keys()):
            before, after = old.get(key), new.get(key)
            if before == after:
                continue
            changed.add(key)
            if before is None:
                self.add(
                    "metric",
                    key,
                    "added",
                    (),
                    None,
                    None,
                    "contract",
                    self.where(self.new_catalog.locations.get(("metric", key)), (), None),
                )
            elif after is None:
                self.add(
                    "metric",
                    key,
                    "removed",
                    (),
                    None,
                    None,
                    "contract",
                    self.where(self.old_catalog.locations.get(("metric", key)), (), None),
                )
            else:
                self.compare("metric", key, Metric, before, after, self.new_catalog.locations.get(("metric", key)))
        return changed

    def suite(self) -> None:
        before, after = self.old_catalog.suite, self.new_catalog.suite
        if before is not None and after is not None and before != after:
            self.compare("suite", after.name, Suite, before, after, self.new_catalog.locations.get(("suite", "")))

    def check_valid(self) -> None:
        problems = errors_only([*self.old.result.diagnostics, *self.new.result.diagnostics])
        if problems:
            raise CatalogInvalid("cannot diff: files on one side do not validate (run `catalogctl validate`)", problems)

    # -- impact -----------------------------------------------------------------------------

    def candidates(self, needles: set[bytes], known: set[str]) -> set[str]:
        """Benchmarks whose file mentions a needle, beside those in `known` (the changed ones)."""
        found: set[str] = set()
        if not needles:
            return found
        # Unchanged files read the same on both sides, and changed ones are known already.
        for path in self.new_tree.file_ids(ENTITY_DIRS["benchmark"]):
            ident = path.rsplit("/", 1)[-1][: -len(".yaml")] if path.endswith(".yaml") else ""
            if not ident or ident in known:
                continue
            try:
                data = self.new_tree.read(path)
            except OSError:
                continue
            if any(n in data for n in needles):
                found.add(ident)
        return found

    def digests(self, benchmarks: set[str]) -> dict[str, tuple[str | None, str | None]]:
        wanted = [("benchmark", b) for b in benchmarks]
        self.old.want(wanted)
        self.new.want(wanted)
        for loader in (self.old, self.new):
            deps: list[tuple[str, str]] = []
            for ident in benchmarks & loader.result.catalog.benchmarks.keys():
                deps.extend(loader.result.catalog.sources_of(ident))
            loader.want(deps)
        self.check_valid()
        out: dict[str, tuple[str | None, str | None]] = {}
        for ident in sorted(benchmarks):
            out[ident] = (self.digest(self.old_catalog, ident), self.digest(self.new_catalog, ident))
        return out

    @staticmethod
    def digest(catalog: Catalog, ident: str) -> str | None:
        if ident not in catalog.benchmarks:
            return None
        try:
            return contract_digest(catalog, ident)
        except CatalogError as exc:
            raise CatalogInvalid(f"cannot diff: {exc} in the {catalog.label}", []) from None


def diff_trees(old: Tree, new: Tree, old_ref: str, new_ref: str) -> DiffReport:
    """The semantic diff between two trees."""
    differ = _Differ(old, new)
    changed = _changed_files(old, new)
    differ.entities(changed)
    changed_metrics = differ.metrics() if changed.metrics else set()
    if changed.suite:
        differ.suite()

    own = {ident for kind, ident in changed.entities if kind == "benchmark"}
    needles = {ident.encode() for kind, ident in changed.entities if kind in ("model", "dataset")}
    for key in changed_metrics:
        needles.add(key.encode())
        needles.update(req.encode() for req, metric in REQUIREMENT_METRICS.items() if metric == key)
    considered = own | differ.candidates(needles, own)
    digests = differ.digests(considered)

    _attach_impact(differ, digests, changed_metrics)
    statuses = _statuses(differ, digests)
    changes = sorted(differ.changes, key=_change_order)
    summary: dict[ChangeClass, int] = {"contract": 0, "display": 0, "policy": 0}
    for change in changes:
        summary[change.change_class] += 1
    cohorts = _cohort_delta(old, new, old_ref, new_ref, differ)
    return DiffReport(
        old=Side(ref=old_ref, label=old.label, note=old.note),
        new=Side(ref=new_ref, label=new.label, note=new.note),
        summary=summary,
        changes=changes,
        benchmarks=statuses,
        cohorts=cohorts,
    )


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


def _attach_impact(differ: _Differ, digests: dict[str, tuple[str | None, str | None]], metrics: set[str]) -> None:
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


def _statuses(differ: _Differ, digests: dict[str, tuple[str | None, str | None]]) -> list[BenchmarkStatus]:
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


def _cohort_delta(old: Tree, new: Tree, old_ref: str, new_ref: str, differ: _Differ) -> CohortDelta | None:
    if not (is_cohort_id(old_ref) and is_cohort_id(new_ref)):
        return None
    differ.old.want([("ruleset", old_ref)])
    differ.new.want([("ruleset", new_ref)])
    differ.check_valid()
    before = differ.old_catalog.rulesets.get(old_ref)
    after = differ.new_catalog.rulesets.get(new_ref)
    if before is None or after is None:
        return None
    old_digests = {b.id: b.digest for b in before.benchmarks}
    new_digests = {b.id: b.digest for b in after.benchmarks}
    common = sorted(old_digests.keys() & new_digests.keys())
    new_cohort = Cohort.parse(after.cohort)
    still = sorted(s.id for s in after.seed_sets if s.id in {o.id for o in before.seed_sets})
    retired = sorted(
        s.id for s in before.seed_sets if s.id not in {n.id for n in after.seed_sets} or not is_valid_in(s, new_cohort)
    )
    return CohortDelta(
        old=old_ref,
        new=new_ref,
        benchmarks_added=sorted(new_digests.keys() - old_digests.keys()),
        benchmarks_removed=sorted(old_digests.keys() - new_digests.keys()),
        benchmarks_identical=[b for b in common if old_digests[b] == new_digests[b]],
        benchmarks_changed=[b for b in common if old_digests[b] != new_digests[b]],
        seed_sets=SeedSetDelta(
            introduced=sorted({s.id for s in after.seed_sets} - {s.id for s in before.seed_sets}),
            still_valid=[s for s in still if s not in retired],
            retired=retired,
        ),
    )
