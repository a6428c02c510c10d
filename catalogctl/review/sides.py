"""Both sides of a pull request, loaded: what every rule of the release policy reads."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from catalogctl.catalog.cohorts import MLCOMMONS, Calendar
from catalogctl.catalog.index import Catalog, LoadResult
from catalogctl.diff.trees import DiffReport
from catalogctl.io.tree import Tree


@dataclass
class PolicyInput:
    """Both sides of a pull request, loaded."""

    base: Tree
    head: Tree
    base_result: LoadResult
    head_result: LoadResult
    diff: DiffReport | None
    today: dt.date
    calendar: Calendar = field(default=MLCOMMONS)  # the repository's (its configuration)

    @property
    def base_catalog(self) -> Catalog:
        """The catalog of the base."""
        return self.base_result.catalog

    @property
    def head_catalog(self) -> Catalog:
        """The catalog of the head."""
        return self.head_result.catalog
