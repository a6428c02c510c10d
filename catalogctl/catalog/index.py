"""`Catalog`: every document of a tree, validated and indexed by id, and where each value stands."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from catalogctl.catalog.diagnostics import has_errors
from catalogctl.catalog.facts import benchmark_datasets
from catalogctl.catalog.validation import PendingValue, find_pending
from catalogctl.errors import Diagnostic
from catalogctl.io.yamlio import Document, PathKey
from catalogctl.model import AnyBenchmark, Dataset, Metric, Model, Ruleset, Suite


@dataclass(frozen=True)
class Location:
    """A document and a path inside it."""

    document: Document
    path: PathKey = ()

    def child(self, *parts: str | int) -> Location:
        """The location of a path below this one."""
        return Location(self.document, (*self.path, *parts))

    def position(self, *, key: bool = False) -> tuple[int, int]:
        """Line and column of the value (or of its key) or of the nearest ancestor present."""
        pos, _ = self.document.positions.nearest(self.path)
        return (pos.key_line, pos.key_column) if key else (pos.line, pos.column)


@dataclass
class Catalog:
    """A validated catalog. Entities that failed validation are absent; their errors are in
    the diagnostics returned beside it."""

    label: str
    suite: Suite | None = None
    metrics: dict[str, Metric] = field(default_factory=dict)
    models: dict[str, Model] = field(default_factory=dict)
    datasets: dict[str, Dataset] = field(default_factory=dict)
    benchmarks: dict[str, AnyBenchmark] = field(default_factory=dict)
    rulesets: dict[str, Ruleset] = field(default_factory=dict)
    locations: dict[tuple[str, str], Location] = field(default_factory=dict)
    # Entities whose file exists but did not validate, by (kind, file stem): a reference to one
    # is not reported again as unknown.
    invalid: set[tuple[str, str]] = field(default_factory=set)

    def table(self, kind: str) -> dict[str, Any]:
        """The entities of one kind (model, dataset, benchmark, ruleset, metric) by id."""
        tables: dict[str, dict[str, Any]] = {
            "model": self.models,
            "dataset": self.datasets,
            "benchmark": self.benchmarks,
            "ruleset": self.rulesets,
            "metric": self.metrics,
        }
        return tables[kind]

    def locate(self, kind: str, ident: str, *path: str | int) -> Location:
        """Where an entity (or a path inside it) stands."""
        return self.locations[(kind, ident)].child(*path)

    def pending(self) -> Iterator[tuple[str, str, PendingValue]]:
        """Every pending value: (kind, id, value)."""
        groups: list[tuple[str, dict[str, Any]]] = [
            ("model", self.models),
            ("dataset", self.datasets),
            ("benchmark", self.benchmarks),
        ]
        for kind, entities in groups:
            for ident, entity in entities.items():
                for value in find_pending(entity):
                    yield kind, ident, value

    def dependencies(self, benchmark_id: str) -> tuple[str, list[str]]:
        """The model and the datasets a benchmark uses."""
        bench = self.benchmarks[benchmark_id]
        return bench.model, benchmark_datasets(bench)

    def sources_of(self, benchmark_id: str) -> list[tuple[str, str]]:
        """The entities a benchmark's contract is built from: itself, its model, its datasets."""
        model, datasets = self.dependencies(benchmark_id)
        return [("benchmark", benchmark_id), ("model", model), *(("dataset", d) for d in datasets)]

    def pending_by_entity(self) -> dict[tuple[str, str], list[PendingValue]]:
        """Pending values grouped by the entity that holds them."""
        grouped: dict[tuple[str, str], list[PendingValue]] = {}
        for kind, ident, value in self.pending():
            grouped.setdefault((kind, ident), []).append(value)
        return grouped


@dataclass
class LoadResult:
    """A catalog and everything found while loading it."""

    catalog: Catalog
    diagnostics: list[Diagnostic]

    @property
    def ok(self) -> bool:
        """Whether there is no error (warnings allowed)."""
        return not has_errors(self.diagnostics)
