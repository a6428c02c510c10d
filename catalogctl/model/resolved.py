"""The resolved config (`catalogctl/resolved/v1`): the one input a runner needs, written by
`resolve` and `preflight`, read by `check`."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from catalogctl.model.seeds import SeedSetName, SeedValues

RESOLVED_SCHEMA: Literal["catalogctl/resolved/v1"] = "catalogctl/resolved/v1"


class _Out(BaseModel):
    model_config = ConfigDict(populate_by_name=True, frozen=True, extra="forbid")


class RemoteVerification(_Out):
    """Whether the release was confirmed on the remote, and how."""

    verified: bool
    remote: str | None = None
    methods: list[str] = Field(default_factory=list, description="git (ls-remote), github (REST API)")
    note: str = ""


class Provenance(_Out):
    """Where a resolved config came from."""

    cohort: str
    tag: str | None = Field(description="the release tag, or null when found by its ruleset's commit")
    commit: str
    ruleset_digest: str
    contract_digest: str
    tool_version: str
    resolved_at: str
    remote: RemoteVerification


class ResolvedSeeds(SeedValues, SeedSetName):
    """The seed set the submission adopted."""


class ResolvedConfig(_Out):
    """The documented shape of a resolved config (`catalogctl/resolved/v1`)."""

    schema_: Literal["catalogctl/resolved/v1"] = Field(RESOLVED_SCHEMA, alias="schema")
    type: Literal["resolved_config"] = "resolved_config"
    submission_ref: dict[str, str]
    contract: dict[str, Any]
    seeds: ResolvedSeeds
    endpoint_config: dict[str, Any]
    settings: dict[str, Any]
    submitter: dict[str, Any] | None = None
    provenance: Provenance

    def to_data(self) -> dict[str, Any]:
        """Plain data, keys in the documented order (64-bit seeds stay exact integers)."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)
