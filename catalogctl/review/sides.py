"""Both sides of a pull request: what every rule of the release policy reads.

A side's whole catalog is loaded only when a rule needs it (a ruleset the head adds, an entity
a frozen cohort may use removed); every rule first reads the rulesets alone, which are a few
files. So the policy costs what the pull request touches.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field

from catalogctl.catalog.cohorts import MLCOMMONS, Calendar
from catalogctl.catalog.documentcache import DocumentCache
from catalogctl.catalog.index import Catalog, LoadResult
from catalogctl.catalog.layout import Layout
from catalogctl.diff.trees import DiffReport
from catalogctl.io.tree import Tree, folders_above

Side = LoadResult | Callable[[], LoadResult]  # loaded, or how to load it when a rule needs it


@dataclass
class PolicyInput:
    """Both sides of a pull request, both read in `layout` (the head's)."""

    base: Tree
    head: Tree
    base_result: Side
    head_result: Side
    diff: DiffReport | None
    today: dt.date
    layout: Layout
    calendar: Calendar = field(default=MLCOMMONS)  # the repository's (its configuration)
    changed: set[str] | None = None  # the catalog files that differ (None: found when asked)
    cache: DocumentCache | None = None  # the review's: a ruleset is checked once across runs
    _loaded: dict[str, Catalog] = field(default_factory=dict, repr=False)

    def _side(self, name: str, side: Side) -> Catalog:
        if name not in self._loaded:
            self._loaded[name] = (side if isinstance(side, LoadResult) else side()).catalog
        return self._loaded[name]

    @property
    def base_catalog(self) -> Catalog:
        """The whole catalog of the base."""
        return self._side("base", self.base_result)

    @property
    def head_catalog(self) -> Catalog:
        """The whole catalog of the head."""
        return self._side("head", self.head_result)

    def _rulesets(self, name: str, tree: Tree, side: Side) -> Catalog:
        if isinstance(side, LoadResult) or name in self._loaded:
            return self._side(name, side)
        key = f"{name} rulesets"
        if key not in self._loaded:
            from catalogctl.catalog.loader import load_rulesets

            self._loaded[key] = load_rulesets(tree, self.cache, layout=self.layout)
        return self._loaded[key]

    @property
    def base_rulesets(self) -> Catalog:
        """The base's rulesets (and where they stand), without the rest of its catalog."""
        return self._rulesets("base", self.base, self.base_result)

    @property
    def head_rulesets(self) -> Catalog:
        """The head's rulesets (and where they stand), without the rest of its catalog."""
        return self._rulesets("head", self.head, self.head_result)

    def changed_files(self) -> set[str]:
        """The catalog files that differ between the sides (added and removed ones included)."""
        if self.changed is None:
            from catalogctl.catalog.source import changed_files

            self.changed = changed_files(self.base, self.head, self.layout)
        return self.changed

    def removes_entities(self) -> bool:
        """Whether the head lacks an entity file the base has (gone, or no longer a regular file),
        or changes the metric registry: only then can an entity a frozen cohort uses be gone."""
        entity_dirs = set(self.layout.entity_dirs.values())
        for path in self.changed_files():
            if path == self.layout.metrics_file:
                return True
            if path.rsplit("/", 1)[0] in entity_dirs and not self._regular_file(path):
                return True
        return False

    def _regular_file(self, path: str) -> bool:
        """Whether the head holds `path` as a regular file in real folders (the loader reads
        nothing through a link: a folder replaced by one removes what it held)."""
        folders = folders_above(path)
        return all(self.head.kind(f) == "dir" for f in folders) and self.head.kind(path) == "file"
