"""Rendering of the gate registry (`catalogctl gates`): a table, JSON."""

from __future__ import annotations

from collections.abc import Callable

from catalogctl.model.reports.gates import GateListing
from catalogctl.render.common import as_json, table


def gates_text(listing: GateListing) -> str:
    """One row per gate: name, severity, kinds, description."""
    cells = [[g.name, g.severity, ", ".join(g.kinds), g.description] for g in listing.gates]
    return table(["gate", "severity", "kinds", "description"], cells)


REPORTERS: dict[str, Callable[[GateListing], str]] = {"text": gates_text, "json": as_json}
