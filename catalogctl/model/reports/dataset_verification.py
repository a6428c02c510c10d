"""What `datasets verify` returns (`catalogctl/datasets-verify/v1`): each dataset's source
against its pinned sha256."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from catalogctl.model.reports.base import Report

DATASETS_VERIFY_SCHEMA: Literal["catalogctl/datasets-verify/v1"] = "catalogctl/datasets-verify/v1"
Status = Literal["ok", "mismatch", "pending", "error"]


class VerifiedDataset(Report):
    """One dataset's verification."""

    dataset: str
    status: Status
    expected: str = Field(description="the pinned sha256 (or the pending value)")
    observed: str = Field(description="the sha256 of the bytes read; empty when none were")
    detail: str = ""


class DatasetsReport(Report):
    """The documented JSON shape of `catalogctl datasets verify --format json`."""

    schema_: Literal["catalogctl/datasets-verify/v1"] = Field(DATASETS_VERIFY_SCHEMA, alias="schema")
    datasets: list[VerifiedDataset]

    @property
    def failed(self) -> bool:
        """A source differs from its pin, or could not be read."""
        return any(d.status in ("mismatch", "error") for d in self.datasets)
