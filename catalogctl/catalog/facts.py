"""What the catalog-wide checks need of one entity: a few facts its own file decides.

The checks that look across the whole catalog (a name standing for one entity, a pending value
and the benchmarks it blocks) read only these facts, never the models: a run that finds an
entity's file unchanged takes its facts from the last run instead of building its model.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from catalogctl.catalog.validation import find_pending
from catalogctl.io.yamlio import PathKey
from catalogctl.model import AnyBenchmark, Dataset, Model, TrainingBenchmark

ENTITY_KINDS = ("model", "dataset", "benchmark")
Position = Callable[[PathKey], tuple[int, int]]  # where a path of the entity stands: line, column


@dataclass(frozen=True)
class PendingFact:
    """A pending value, the path it stands at, and its line and column there."""

    path: PathKey
    value: str
    line: int
    column: int


@dataclass(frozen=True)
class EntityFacts:
    """One valid model, dataset or benchmark, as the catalog-wide checks see it."""

    kind: str
    ident: str
    mlperf_name: str | None = None
    aliases: tuple[str, ...] = ()  # a dataset's
    renamed_from: str | None = None
    # A benchmark's model and datasets (what its contract is built from), in contract order.
    model: str | None = None
    datasets: tuple[str, ...] = ()
    pending: tuple[PendingFact, ...] = ()

    def sources(self) -> list[tuple[str, str]]:
        """The entities a benchmark's contract is built from: itself, its model, its datasets."""
        if self.kind != "benchmark" or self.model is None:
            return []
        return [("benchmark", self.ident), ("model", self.model), *(("dataset", d) for d in self.datasets)]

    def plain(self) -> list[Any]:
        """The facts as JSON data (the kind and id are the file's: not repeated)."""
        pending = [[list(p.path), p.value, p.line, p.column] for p in self.pending]
        return [self.mlperf_name, list(self.aliases), self.renamed_from, self.model, list(self.datasets), pending]

    @classmethod
    def from_plain(cls, kind: str, ident: str, data: Any) -> EntityFacts:
        """The facts `plain` gave of this entity; ValueError (or TypeError) when `data` is not such facts."""
        mlperf_name, aliases, renamed_from, model, datasets, stored = data
        pending = []
        for path, value, line, column in stored:
            steps = tuple(path)
            if not (isinstance(value, str) and type(line) is int and type(column) is int):
                raise ValueError("not a pending value")
            if not all(type(s) in (str, int) for s in steps):
                raise ValueError("not a path")
            pending.append(PendingFact(steps, value, line, column))
        for name in (mlperf_name, renamed_from, model):
            if name is not None and type(name) is not str:
                raise ValueError("not a name")
        for name in (*aliases, *datasets):
            if type(name) is not str:
                raise ValueError("not a name")
        return cls(kind, ident, mlperf_name, tuple(aliases), renamed_from, model, tuple(datasets), tuple(pending))


def facts_of(kind: str, ident: str, entity: Model | Dataset | AnyBenchmark, position: Position) -> EntityFacts:
    """The facts of one validated entity (`position` tells where a path of it stands)."""
    pending = tuple(PendingFact(p.path, p.value, *position(p.path)) for p in find_pending(entity))
    if isinstance(entity, Model):
        return EntityFacts(kind, ident, entity.mlperf_name, pending=pending)
    if isinstance(entity, Dataset):
        return EntityFacts(kind, ident, entity.mlperf_name, tuple(entity.aliases), entity.renamed_from, pending=pending)
    return EntityFacts(
        kind,
        ident,
        entity.mlperf_name,
        renamed_from=entity.renamed_from,
        model=entity.model,
        datasets=tuple(benchmark_datasets(entity)),
        pending=pending,
    )


def benchmark_datasets(bench: AnyBenchmark) -> list[str]:
    """The datasets a benchmark uses, each once, in contract order."""
    if isinstance(bench, TrainingBenchmark):
        return [bench.dataset]
    names: list[str] = []
    if bench.performance is not None:
        names.extend(bench.performance.datasets)
    if bench.accuracy is not None:
        names.extend(d.dataset for d in bench.accuracy.datasets)
    return list(dict.fromkeys(names))
