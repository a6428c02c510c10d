"""What `ls` and `show` present: rows of a listing and one entity's document."""

from __future__ import annotations

from typing import Any, Literal

from catalogctl.catalog.contract import contract_digest, plain, resolve_contract
from catalogctl.catalog.index import Catalog
from catalogctl.errors import EntityNotFound
from catalogctl.model import InferenceBenchmark
from catalogctl.model.reports.listing import (
    BenchmarkListing,
    BenchmarkRow,
    DatasetListing,
    DatasetRow,
    EntityKind,
    Listing,
    MetricListing,
    MetricRow,
    ModelListing,
    ModelRow,
    ShowResult,
)

ListKind = Literal["benchmarks", "models", "datasets", "metrics"]


def listing(catalog: Catalog, kind: ListKind) -> Listing:
    """The rows of one kind, sorted by id; `pending` counts values that block a freeze."""
    pending = {key: len(values) for key, values in catalog.pending_by_entity().items()}
    if kind == "benchmarks":
        return BenchmarkListing(
            tree=catalog.label, benchmarks=[_benchmark_row(catalog, i, pending) for i in sorted(catalog.benchmarks)]
        )
    if kind == "models":
        models = [
            ModelRow(id=i, reference_id=str(m.reference_id), sha=str(m.sha), pending=pending.get(("model", i), 0))
            for i, m in sorted(catalog.models.items())
        ]
        return ModelListing(tree=catalog.label, models=models)
    if kind == "datasets":
        datasets = [
            DatasetRow(
                id=i,
                samples=d.samples if isinstance(d.samples, int) else str(d.samples),
                description=d.description,
                pending=pending.get(("dataset", i), 0),
            )
            for i, d in sorted(catalog.datasets.items())
        ]
        return DatasetListing(tree=catalog.label, datasets=datasets)
    metrics = [
        MetricRow(key=k, label=m.label, unit=m.unit, direction=m.direction) for k, m in sorted(catalog.metrics.items())
    ]
    return MetricListing(tree=catalog.label, metrics=metrics)


def _benchmark_row(catalog: Catalog, ident: str, pending: dict[tuple[str, str], int]) -> BenchmarkRow:
    model, datasets = catalog.dependencies(ident)
    blocking = sum(pending.get(key, 0) for key in catalog.sources_of(ident))
    bench = catalog.benchmarks[ident]
    runner = None
    if isinstance(bench, InferenceBenchmark):
        runner = bench.runner.name if bench.runner is not None else "endpoints"
    return BenchmarkRow(
        id=ident, kind=bench.kind, title=bench.title, model=model, runner=runner, datasets=datasets, pending=blocking
    )


def find(catalog: Catalog, ident: str, *, resolved: bool = False) -> ShowResult:
    """The document of `ident` (or `kind/ident`); with `resolved`, a benchmark's full contract."""
    tables: dict[EntityKind, dict[str, Any]] = {
        "benchmark": catalog.benchmarks,
        "model": catalog.models,
        "dataset": catalog.datasets,
        "metric": catalog.metrics,
    }
    kind, _, name = ident.partition("/") if "/" in ident else ("", "", ident)
    if kind and kind not in tables:
        raise EntityNotFound(f"unknown kind `{kind}`", f"use one of: {', '.join(f'{k}/' for k in tables)}")
    candidates = [k for k in tables if name in tables[k] and kind in ("", k)]
    if not candidates:
        from catalogctl.catalog.diagnostics import did_you_mean

        pool = [i for k, table in tables.items() if kind in ("", k) for i in table]
        raise EntityNotFound(
            f"no {kind or 'entity'} `{name}` in the {catalog.label}",
            did_you_mean(name, pool) or "list them with `catalogctl ls`",
        )
    chosen = candidates[0]
    notes = [f"`{name}` is also a {k}: show it with {k}/{name}" for k in candidates[1:]]
    if resolved:
        if chosen != "benchmark":
            raise EntityNotFound(f"--resolved applies to benchmarks; `{name}` is a {chosen}")
        data = resolve_contract(catalog, name)
        data["digest"] = contract_digest(catalog, name)
    else:
        entity = tables[chosen][name]
        data = plain(entity)
        if chosen == "benchmark" and isinstance(entity, InferenceBenchmark):
            notes.append("add --resolved to see the contract with everything inlined and merged")
    return ShowResult(tree=catalog.label, kind=chosen, id=name, resolved=resolved, document=data, notes=notes)
