"""Matching the entities of two trees and listing their changes.

Only the files whose ids differ are parsed (`changed_entities`); entities are matched by id, a
`renamed_from` makes a rename one change, and each pair that differs is compared field by field.
The differ also finds the benchmarks a change may reach and their contract digests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel

from catalogctl.catalog.contract import contract_digest, plain
from catalogctl.catalog.diagnostics import errors_only
from catalogctl.catalog.documentcache import DocumentCache
from catalogctl.catalog.filecheck import BENCHMARK_KINDS
from catalogctl.catalog.index import Catalog, Location
from catalogctl.catalog.layout import Layout, is_entity_file
from catalogctl.catalog.loader import SubsetLoader
from catalogctl.catalog.source import changed_files
from catalogctl.catalog.validation import value_at
from catalogctl.diff.fields import document_path, dotted, field_diffs, fingerprint
from catalogctl.errors import CatalogError, CatalogInvalid
from catalogctl.io.tree import BlobReader, Tree, regular_blob
from catalogctl.io.yamlio import PathKey
from catalogctl.model import Dataset, Metric, Model, Ruleset, Suite
from catalogctl.model.common import path_is_display
from catalogctl.model.reports.diff import Change, ChangeClass, EntityKind

_SCHEMAS: dict[str, type[BaseModel]] = {
    "suite": Suite,
    "metric": Metric,
    "model": Model,
    "dataset": Dataset,
    "ruleset": Ruleset,
}

ChangeKind = Literal["added", "removed", "renamed", "modified"]


@dataclass
class Changed:
    """What differs between two trees, by file: the suite, the metric registry, the entities."""

    suite: bool = False
    metrics: bool = False
    entities: set[tuple[str, str]] = field(default_factory=set)


def changed_entities(old: Tree, new: Tree, layout: Layout, paths: set[str] | None = None) -> Changed:
    """The catalog files that differ (`paths`, when the caller compared the trees already), by
    what they hold."""
    changed = Changed()
    kinds = {folder: kind for kind, folder in layout.entity_dirs.items()} | {layout.rulesets_dir: "ruleset"}
    for path in changed_files(old, new, layout) if paths is None else paths:
        folder, _, name = path.rpartition("/")
        kind = kinds.get(folder)
        if kind is not None:
            if is_entity_file(name):  # the loader's rule: what it does not read holds no entity
                changed.entities.add((kind, name[: -len(".yaml")]))
        elif path == layout.suite_file:
            changed.suite = True
        elif path == layout.metrics_file:
            changed.metrics = True
    return changed


def _table(catalog: Catalog, kind: str) -> dict[str, Any]:
    table: dict[str, Any] = catalog.table(kind)
    return table


class Differ:
    """The two sides, loaded only as far as the diff needs, and the changes found so far."""

    def __init__(self, old: Tree, new: Tree, cache: DocumentCache | None = None, *, layout: Layout) -> None:
        self.old_tree, self.new_tree, self.layout = old, new, layout
        self.old = SubsetLoader(old, cache, layout=layout)
        self.new = SubsetLoader(new, cache, layout=layout)
        self.changes: list[Change] = []

    @property
    def old_catalog(self) -> Catalog:
        """What the old side has loaded."""
        return self.old.result.catalog

    @property
    def new_catalog(self) -> Catalog:
        """What the new side has loaded."""
        return self.new.result.catalog

    def check_valid(self) -> None:
        """Refuse to diff files that do not validate on either side."""
        problems = errors_only([*self.old.result.diagnostics, *self.new.result.diagnostics])
        if problems:
            raise CatalogInvalid("cannot diff: files on one side do not validate (run `catalogctl validate`)", problems)

    # -- recording changes --------------------------------------------------------------------

    def add(
        self,
        kind: EntityKind,
        ident: str,
        change: ChangeKind,
        path: PathKey,
        old: Any,
        new: Any,
        change_class: ChangeClass,
        where: tuple[str, int, int],
    ) -> None:
        """Record one change (its impact is attached once every digest is known)."""
        text = dotted(path)
        file, line, column = where
        self.changes.append(
            Change(
                kind=kind,
                id=ident,
                change=change,
                path=text,
                old=old,
                new=new,
                change_class=change_class,
                fingerprint=fingerprint(kind, ident, change, text, old, new),
                file=file,
                line=line,
                column=column,
                impact=[],
            )
        )

    @staticmethod
    def where(location: Location | None, normalized: PathKey) -> tuple[str, int, int]:
        """The file, line and column of a normalized path below `location`."""
        if location is None:
            return ("", 0, 0)
        if not normalized and not location.path:  # a whole file: its root, without every position
            return (location.document.path, *location.document.root_position())
        path = document_path(value_at(location.document.data, location.path), normalized)
        line, column = location.child(*path).position(key=bool(path))
        return location.document.path, line, column

    @staticmethod
    def class_of(kind: str, schema: type[BaseModel], path: PathKey) -> ChangeClass:
        """Policy (rulesets, the suite's policies), display (display copy) or contract."""
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
        """Record every field that differs between two versions of an entity."""
        old_data, new_data = plain(old), plain(new)
        for key in skip:
            old_data.pop(key, None)
            new_data.pop(key, None)
        for path, before, after in field_diffs(old_data, new_data):
            where = self.where(new_location, path)
            self.add(kind, ident, "modified", path, before, after, self.class_of(kind, schema, path), where)

    def whole(self, kind: EntityKind, ident: str, added: bool) -> None:
        """An entity added or removed: one change, where it stands (a removal: in the old tree)."""
        catalog = self.new_catalog if added else self.old_catalog
        where = self.where(catalog.locations.get((kind, ident)), ())
        change_class: ChangeClass = "policy" if kind == "ruleset" else "contract"
        self.add(kind, ident, "added" if added else "removed", (), None, None, change_class, where)

    # -- what to compare ----------------------------------------------------------------------

    def entities(self, changed: Changed) -> None:
        """Compare every changed model, dataset, benchmark and ruleset."""
        wanted = sorted(changed.entities)
        self.old.want(wanted)
        self.new.want(wanted)
        self.check_valid()
        renamed = self._renames(changed)  # (kind, old id) -> new id
        sources = {(kind, new): old for (kind, old), new in renamed.items()}
        for kind, ident in wanted:
            if (kind, ident) not in renamed:
                self._entity(kind, ident, sources.get((kind, ident)))

    def _renames(self, changed: Changed) -> dict[tuple[str, str], str]:
        """Entities whose `renamed_from` names an entity gone from the new side."""
        renamed: dict[tuple[str, str], str] = {}
        for kind, ident in sorted(changed.entities):
            old_table, new_table = _table(self.old_catalog, kind), _table(self.new_catalog, kind)
            origin = getattr(new_table.get(ident), "renamed_from", None)
            if origin and (kind, origin) in changed.entities and origin in old_table and origin not in new_table:
                renamed[(kind, origin)] = ident
        return renamed

    def _entity(self, kind: str, ident: str, source: str | None) -> None:
        """Compare one entity with its old version (under `source` when it was renamed)."""
        before: Any = _table(self.old_catalog, kind).get(source or ident)  # a model, or None
        after: Any = _table(self.new_catalog, kind).get(ident)
        if before is None and after is None:
            return
        entity_kind: EntityKind = kind  # type: ignore[assignment]
        schema = BENCHMARK_KINDS[(after or before).kind] if kind == "benchmark" else _SCHEMAS[kind]
        location = self.new_catalog.locations.get((kind, ident))
        if source is not None:
            change_class: ChangeClass = "policy" if kind == "ruleset" else "contract"
            where = self.where(location, ("renamed_from",))
            self.add(entity_kind, ident, "renamed", ("renamed_from",), source, ident, change_class, where)
            self.compare(entity_kind, ident, schema, before, after, location, skip=("id", "renamed_from"))
        elif before is None or after is None:
            self.whole(entity_kind, ident, added=before is None)
        elif before != after:
            self.compare(entity_kind, ident, schema, before, after, location)

    def metrics(self) -> set[str]:
        """Compare the metric registries; returns the keys whose entry changed."""
        old, new = self.old_catalog.metrics, self.new_catalog.metrics
        changed: set[str] = set()
        for key in sorted(old.keys() | new.keys()):
            before, after = old.get(key), new.get(key)
            if before == after:
                continue
            changed.add(key)
            if before is None or after is None:
                self.whole("metric", key, added=before is None)
            else:
                self.compare("metric", key, Metric, before, after, self.new_catalog.locations.get(("metric", key)))
        return changed

    def suite(self) -> None:
        """Compare the suite files."""
        before, after = self.old_catalog.suite, self.new_catalog.suite
        if before is not None and after is not None and before != after:
            self.compare("suite", after.name, Suite, before, after, self.new_catalog.locations.get(("suite", "")))

    # -- impact -------------------------------------------------------------------------------

    def candidates(self, needles: set[bytes], known: set[str]) -> set[str]:
        """Benchmarks whose file mentions a needle, beside those in `known` (the changed ones):
        those whose bytes, as the new tree reads them, hold one."""
        found: set[str] = set()
        if not needles:
            return found
        folder = self.layout.entity_dirs["benchmark"]
        ids = self.new_tree.file_ids(folder)
        blobs, shared = self._shared_blobs(folder, ids)
        wanted = tuple(needles)
        for path, file_id in ids.items():
            ident = path.rsplit("/", 1)[-1][: -len(".yaml")] if path.endswith(".yaml") else ""
            if not ident or ident in known:
                continue
            if blobs is not None and shared.get(path) == file_id and (oid := regular_blob(file_id)):
                # Equal ids are equal bytes, so a blob without a needle rules the file out; one
                # with a needle is read below as before: the new tree may refuse it (a link above
                # it, no permission), and a candidate is only what it reads.
                try:
                    blob = blobs.read_blob(oid)
                except OSError:
                    blob = None  # read it as the new tree does
                if blob is not None and not any(n in blob for n in wanted):
                    continue
            try:
                data = self.new_tree.read(path)
            except OSError:
                continue
            if any(n in data for n in wanted):
                found.add(ident)
        return found

    def _shared_blobs(self, folder: str, ids: dict[str, str]) -> tuple[BlobReader | None, dict[str, str]]:
        """A side that reads a blob by its id (a git tree, cheaper than the working tree's
        open and checks) and the file ids it holds in `folder`; (None, {}) when neither does."""
        if isinstance(self.new_tree, BlobReader):
            return self.new_tree, ids
        if isinstance(self.old_tree, BlobReader):
            return self.old_tree, self.old_tree.file_ids(folder)
        return None, {}

    def digests(self, benchmarks: set[str]) -> dict[str, tuple[str | None, str | None]]:
        """The old and new contract digests of these benchmarks (None where one is absent)."""
        wanted = [("benchmark", b) for b in benchmarks]
        self.old.want(wanted)
        self.new.want(wanted)
        for loader in (self.old, self.new):
            deps: list[tuple[str, str]] = []
            for ident in benchmarks & loader.result.catalog.benchmarks.keys():
                deps.extend(loader.result.catalog.sources_of(ident))
            loader.want(deps)
        self.check_valid()
        return {
            ident: (self.digest(self.old_catalog, ident), self.digest(self.new_catalog, ident))
            for ident in sorted(benchmarks)
        }

    @staticmethod
    def digest(catalog: Catalog, ident: str) -> str | None:
        """A benchmark's contract digest in `catalog`, None when it has no such benchmark."""
        if ident not in catalog.benchmarks:
            return None
        try:
            return contract_digest(catalog, ident)
        except CatalogError as exc:
            raise CatalogInvalid(f"cannot diff: {exc} in the {catalog.label}", []) from None
