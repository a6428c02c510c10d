"""What a submission point's `point.yaml` states about its performance that the endpoints client's
files do not record, read into the run's results with the client's own facts.

- `steady_state.window.duration_s`: the steady-state window's issue-time span. The endpoints rules
  (§4.4, as endpoints-submission-cli 1.5.3.0 quotes them in `models/file/steady_state.py` and
  applies them in `models/aggregate/point_result.py`, `_duration_basis`) measure §6.2's minimum
  duration on it, and on the whole run only where a point states no window.
- `context_length`: the longest context (prompt and output tokens) the served endpoint accepts.
  The client records none (mlcommons/endpoints ea332753: no such key in `config/schema.py`), so a
  contract's `min_context_length` is judged on the submitter's declaration.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from catalogctl.errors import InputsUnusable
from catalogctl.model.documents.results import PerformanceResult, RunResults

WINDOW_KEYS = ("steady_state", "window", "duration_s")


def _window_seconds(point: dict[str, Any], path: Path) -> float | None:
    """The window's duration_s; None where the point states no window, or a window without one
    (§4.4's fallback: the whole run)."""
    node: Any = point
    for key in WINDOW_KEYS:
        if not isinstance(node, dict):  # a block that is not a mapping: refused by the point's shape
            return None
        node = node.get(key)
    if node is None:
        return None
    if isinstance(node, bool) or not isinstance(node, int | float) or not math.isfinite(node) or node < 0:
        raise InputsUnusable(
            f"{path}: {'.'.join(WINDOW_KEYS)} is not a number of seconds: {node!r}",
            "state the steady-state window's issue-time span in seconds (§4.4), or no window",
        )
    return float(node)


def _context_length(point: dict[str, Any], path: Path) -> int | None:
    value = point.get("context_length")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputsUnusable(
            f"{path}: context_length is not a positive integer: {value!r}",
            "declare the longest context, in tokens, the served endpoint accepts (its maximum model length)",
        )
    return value


def with_declarations(results: RunResults, point: dict[str, Any], path: Path) -> RunResults:
    """`results` with what `point` (read from `path`) declares: the window's span and the context length."""
    window, context = _window_seconds(point, path), _context_length(point, path)
    if window is None and context is None:
        return results
    performance = results.performance or PerformanceResult()
    update: dict[str, Any] = {}
    if window is not None:
        update["window_duration_ms"] = window * 1000.0
    if context is not None:
        update.update(context_length=context, context_length_declared_in="point.yaml")
    return results.model_copy(update={"performance": performance.model_copy(update=update)})


def evidence(fact: str, measured: PerformanceResult | None) -> tuple[str, str]:
    """A performance fact's label in the `requirements` gate, and what it was read from where that is
    not the runner's record."""
    if fact == "duration_ms" and measured is not None and measured.window_duration_ms is not None:
        return "duration_ms of the steady-state window", "the steady-state window's issue-time span (§4.4)"
    if fact != "context_length":
        return fact, ""
    if measured is not None and measured.context_length is not None:
        where = measured.context_length_declared_in
        return fact, f"declared by the submitter ({where} context_length)" if where else ""
    return fact, "the endpoints client records none: a submission point declares it (point.yaml context_length)"
