"""What `ls` and `show` present: rows of a listing and one entity's document."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from catalogctl.catalog.contract import contract_digest, plain, resolve_contract
from catalogctl.catalog.index import Catalog
from catalogctl.errors import EntityNotFound
from catalogctl.model import InferenceBenchmark

COLUMNS: dict[str, list[str]] = {
    "benchmarks": ["id", "kind", "title", "model", "datasets", "pending"],
    "models": ["id", "reference_id", "sha", "pending"],
    "datasets": ["id", "samples", "description", "pending"],
    "metrics": ["key", "label", "unit", "direction"],
}


def cell(value: Any, width: int = 48) -> str:
    """A table cell: lists joined, long text cut."""
    if isinstance(value, list):
        value = ", ".join(str(v) for v in value)
    text = "" if value is None else str(value).replace("\n", " ").strip()
    return text if len(text) <= width else text[: width - 1] + "…"


def rows(catalog: Catalog, kind: str) -> list[dict[str, Any]]:
    """One dict per entity, sorted by id; `pending` counts values that block a freeze."""
    pending = {key: len(values) for key, values in catalog.pending_by_entity().items()}
    out: list[dict[str, Any]] = []
    if kind == "benchmarks":
        for ident in sorted(catalog.benchmarks):
            bench = catalog.benchmarks[ident]
            model, datasets = catalog.dependencies(ident)
            blocking = sum(pending.get(key, 0) for key in catalog.sources_of(ident))
            out.append(
                {
                    "id": ident,
                    "kind": bench.kind,
                    "title": bench.title,
                    "model": model,
                    "datasets": datasets,
                    "pending": blocking,
                }
            )
    elif kind == "models":
        for ident in sorted(catalog.models):
            m = catalog.models[ident]
            out.append(
                {
                    "id": ident,
                    "reference_id": m.reference_id,
                    "sha": str(m.sha),
                    "pending": pending.get(("model", ident), 0),
                }
            )
    elif kind == "datasets":
        for ident in sorted(catalog.datasets):
            d = catalog.datasets[ident]
            samples = d.samples if isinstance(d.samples, int) else str(d.samples)
            out.append(
                {
                    "id": ident,
                    "samples": samples,
                    "description": d.description,
                    "pending": pending.get(("dataset", ident), 0),
                }
            )
    else:
        for key in sorted(catalog.metrics):
            metric = catalog.metrics[key]
            out.append({"key": key, "label": metric.label, "unit": metric.unit, "direction": metric.direction})
    return out


@dataclass
class Found:
    """An entity's document as shown, and notes for the user (e.g. an ambiguous id)."""

    data: dict[str, Any]
    notes: list[str] = field(default_factory=list)


def find(catalog: Catalog, ident: str, *, resolved: bool = False) -> Found:
    """The document of `ident` (or `kind/ident`); with `resolved`, a benchmark's full contract."""
    tables: dict[str, dict[str, Any]] = {
        "benchmark": catalog.benchmarks,
        "model": catalog.models,
        "dataset": catalog.datasets,
        "metric": catalog.metrics,
    }
    kind, _, name = ident.partition("/") if "/" in ident else ("", "", ident)
    if kind and kind not in tables:
        raise EntityNotFound(f"unknown kind `{kind}`", f"use one of: {', '.join(f'{k}/' for k in tables)}")
    candidates = [kind] if kind else [k for k in tables if name in tables[k]]
    candidates = [k for k in candidates if name in tables[k]]
    if not candidates:
        from catalogctl.catalog.diagnostics import did_you_mean

        pool = [i for k in ([kind] if kind else tables) for i in tables[k]]
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
        return Found(data, notes)
    entity = tables[chosen][name]
    data = plain(entity)
    if chosen == "benchmark" and isinstance(entity, InferenceBenchmark):
        notes.append("add --resolved to see the contract with everything inlined and merged")
    return Found(data, notes)
