"""Rendering of `ls` (a table, JSON) and `show` (YAML, JSON)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from catalogctl.io.yamlio import dump_yaml
from catalogctl.model.reports.listing import (
    BenchmarkListing,
    DatasetListing,
    Listing,
    MetricListing,
    ModelListing,
    ShowResult,
)
from catalogctl.render.common import as_json, table

# Each kind of listing: the field holding its rows, and the columns shown.
COLUMNS: dict[type[Listing], tuple[str, list[str]]] = {
    BenchmarkListing: ("benchmarks", ["id", "kind", "title", "model", "runner", "datasets", "pending"]),
    ModelListing: ("models", ["id", "reference_id", "sha", "pending"]),
    DatasetListing: ("datasets", ["id", "samples", "description", "pending"]),
    MetricListing: ("metrics", ["key", "label", "unit", "direction"]),
}


def cell(value: Any, width: int = 48) -> str:
    """A table cell: lists joined, text longer than `width` terminal columns cut."""
    from rich.cells import cell_len, set_cell_size

    if isinstance(value, list):
        value = ", ".join(str(v) for v in value)
    text = "" if value is None else str(value).replace("\n", " ").strip()
    return text if cell_len(text) <= width else set_cell_size(text, width - 1).rstrip() + "…"


def listing_text(listing: Listing) -> str:
    """One row per entity, in the kind's columns."""
    field, columns = COLUMNS[type(listing)]
    rows = getattr(listing, field)
    return table(columns, [[cell(getattr(row, c)) for c in columns] for row in rows])


def show_yaml(result: ShowResult) -> str:
    """The document as YAML (the notes go to stderr)."""
    return dump_yaml(result.document)


LIST_REPORTERS: dict[str, Callable[[Listing], str]] = {"text": listing_text, "json": as_json}
SHOW_REPORTERS: dict[str, Callable[[ShowResult], str]] = {"yaml": show_yaml, "json": as_json}
