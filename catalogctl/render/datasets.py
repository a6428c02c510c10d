"""Rendering of `datasets verify`: a table, JSON."""

from __future__ import annotations

from collections.abc import Callable

from catalogctl.model.reports.dataset_verification import DatasetsReport
from catalogctl.render.common import as_json, table


def datasets_text(report: DatasetsReport) -> str:
    """One row per dataset: status, the pinned and the observed sha256, a detail."""
    return table(
        ["dataset", "status", "expected", "observed", "detail"],
        [[d.dataset, d.status, d.expected, d.observed, d.detail] for d in report.datasets],
    )


REPORTERS: dict[str, Callable[[DatasetsReport], str]] = {"text": datasets_text, "json": as_json}
