"""Check a catalog starting from what the last check of the same tree found (`snapshot`).

The folders are walked as every load walks them. A file whose kind and blob id the snapshot
has is not read: its own diagnostics are the snapshot's. Every other file is read and checked
on its own (through the document cache). Then, for each valid dataset and benchmark, its own
cross-document checks run again unless it was taken from the snapshot and everything they read
is in the state they were found under (`snapshot` says which); those that run build only the
models they read. The catalog-wide checks run over every entity's facts. Without a snapshot,
every file is read and every check runs: this is then `load_tree`, plus the snapshot of what
it found.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from catalogctl.catalog.beacon_rules import check_beacon_rulesets
from catalogctl.catalog.catalogwide import check_catalogwide
from catalogctl.catalog.crossref import check_entity
from catalogctl.catalog.facts import ENTITY_KINDS, EntityFacts, facts_of
from catalogctl.catalog.index import Catalog, LoadResult, Location
from catalogctl.catalog.layout import Layout
from catalogctl.catalog.loader import Loader
from catalogctl.catalog.snapshot import EntityState, Snapshot
from catalogctl.io.yamlio import PathKey, unread_document

if TYPE_CHECKING:
    from catalogctl.catalog.documentcache import DocumentCache
    from catalogctl.errors import Diagnostic
    from catalogctl.io.tree import Tree
    from catalogctl.model import AnyBenchmark, Dataset, Metric, Model


@dataclass
class Checked:
    """Every diagnostic of a tree's catalog (sorted), the snapshot of this check, the whole
    catalog when every file was read (None when some were taken from the prior snapshot), and
    what was examined."""

    diagnostics: list[Diagnostic]
    snapshot: Snapshot
    loaded: LoadResult | None
    examined: dict[str, str]  # the blob id of every file examined, by path


def check_from(
    tree: Tree, cache: DocumentCache, prior: Snapshot | None, known: dict[str, str], *, layout: Layout
) -> Checked:
    """The diagnostics of the catalog of `tree` (read in `layout`), from the `prior` snapshot of
    it where it still holds (`known`: the blob id each file has now, by path)."""
    loader = Loader(tree, cache, prior, known, layout=layout)
    result = loader.load()
    view = _View(loader)
    diagnostics = [*result.diagnostics, *view.check()]
    diagnostics.sort()
    loaded = None if loader.unread else LoadResult(result.catalog, diagnostics)
    return Checked(diagnostics, loader.files, loaded, loader.read_blobs)


class _Table(Mapping[str, Any]):
    """The valid entities of one kind by id; an entity taken from the snapshot is built on first use."""

    def __init__(self, loader: Loader, kind: str, ids: set[str]) -> None:
        self._loader, self._kind, self._ids = loader, kind, ids
        self._built = loader.target(kind)

    def __getitem__(self, ident: str) -> Any:
        if ident not in self._ids:
            raise KeyError(ident)
        found = self._built.get(ident)
        return found if found is not None else self._loader.materialize(self._kind, ident)

    def __contains__(self, ident: object) -> bool:
        return ident in self._ids

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)


class _View:
    """The catalog as an entity's cross-document checks read it (`refchecker.CatalogView`)."""

    def __init__(self, loader: Loader) -> None:
        self.loader = loader
        self.catalog: Catalog = loader.catalog
        # Every valid entity, by kind and id, and the path of its file.
        self.paths: dict[str, dict[str, str]] = {kind: {} for kind in ENTITY_KINDS}
        for path, state in loader.files.items():
            if state.valid and state.kind in ENTITY_KINDS:
                self.paths[state.kind][path.rsplit("/", 1)[-1][: -len(".yaml")]] = path
        self.tables = {kind: _Table(loader, kind, set(ids)) for kind, ids in self.paths.items()}
        self.models: Mapping[str, Model] = self.tables["model"]
        self.datasets: Mapping[str, Dataset] = self.tables["dataset"]
        self.benchmarks: Mapping[str, AnyBenchmark] = self.tables["benchmark"]
        self.metrics: Mapping[str, Metric] = self.catalog.metrics
        self.invalid = self.catalog.invalid
        self.metrics_state = loader.read_blobs.get(loader.layout.metrics_file, "absent")

    def locate(self, kind: str, ident: str, *path: str | int) -> Location:
        """Where an entity (or a path in it) stands; a file not read yet is read if a position is asked."""
        key = (kind, ident)
        if key not in self.catalog.locations:
            file = self.paths[kind][ident]
            document = unread_document(file, self.loader.tree.read, self.loader.read_blobs[file])
            self.catalog.locations[key] = Location(document)
        return self.catalog.locate(kind, ident, *path)

    def position(self, kind: str, ident: str, path: PathKey) -> tuple[int, int]:
        """Line and column of a path of an entity."""
        return self.locate(kind, ident, *path).position()

    def state(self, kind: str, ident: str) -> str:
        """The state of an entity a check reads: its file's blob id when valid, else invalid or absent."""
        path = self.paths[kind].get(ident)
        if path is not None:
            return self.loader.read_blobs[path]
        return "invalid" if (kind, ident) in self.invalid else "absent"

    def states(self, facts: EntityFacts) -> tuple[str, bool]:
        """The state now of what an entity's own cross-document checks read besides its file (the
        metric registry, its model and datasets, whether the entity it was renamed from exists),
        in that order; and whether findings under them are the same whatever else the catalog
        holds (not so for a reference to an absent entity, whose hint lists those there are)."""
        states: list[str] = []
        if facts.kind == "benchmark":
            states.append(self.metrics_state)
            states += [self.state(kind, ident) for kind, ident in facts.sources()[1:]]
        settled = "absent" not in states
        if facts.renamed_from is not None and facts.kind != "model":
            states.append("exists" if facts.renamed_from in self.paths[facts.kind] else "gone")
        # Kept as a digest: equal states, equal digests (a benchmark has several blob ids).
        return hashlib.blake2b(",".join(states).encode(), digest_size=16).hexdigest(), settled

    def check(self) -> list[Diagnostic]:
        """Each entity's own cross-document problems (found again where its inputs changed), then the
        catalog-wide ones; each entity's state is filed in the loader's snapshot."""
        out: list[Diagnostic] = []
        every: list[EntityFacts] = []
        for kind, paths in self.paths.items():
            for ident, path in paths.items():
                state = self.loader.files[path]
                prior = state.entity if path in self.loader.unread else None
                if prior is not None:
                    facts = prior.facts
                else:
                    where = functools.partial(self.position, kind, ident)
                    facts = facts_of(kind, ident, self.tables[kind][ident], where)
                states, settled = self.states(facts)
                if kind == "model":
                    cross: list[Diagnostic] = []
                elif prior is not None and prior.states == states and settled:
                    cross = prior.cross
                else:
                    cross = check_entity(self, kind, ident)
                state.entity = EntityState(facts, cross, states)
                out += cross
                every.append(facts)
        return [*out, *check_catalogwide(every, self.locate), *self.beacon()]

    def beacon(self) -> list[Diagnostic]:
        """The beacon rule on seed sets (`beacon_rules`): it reads every ruleset, so a ruleset taken
        from the snapshot is read now, but only under a beacon policy."""
        suite = self.catalog.suite
        chain = suite.policies.seed_beacon if suite is not None else None
        if chain is None:
            return []
        for path, state in self.loader.files.items():
            stem = path.rsplit("/", 1)[-1][: -len(".yaml")]
            if state.kind == "ruleset" and state.valid and stem not in self.catalog.rulesets:
                self.loader.materialize("ruleset", stem)
        return check_beacon_rulesets(chain, self.catalog.rulesets, self.catalog.locate)
