"""What `gates` returns (`catalogctl/gates/v1`): the registry of post-run gates."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from catalogctl.model.reports.base import Report
from catalogctl.model.reports.check import GateSeverity

GATES_SCHEMA: Literal["catalogctl/gates/v1"] = "catalogctl/gates/v1"


class GateInfo(Report):
    """A gate a contract may name: how bad its failure is, which kinds it applies to."""

    name: str
    severity: GateSeverity = Field(description="soft gates warn instead of failing the run")
    kinds: list[str]
    description: str


class GateListing(Report):
    """The documented JSON shape of `catalogctl gates --format json`."""

    schema_: Literal["catalogctl/gates/v1"] = Field(GATES_SCHEMA, alias="schema")
    gates: list[GateInfo]
