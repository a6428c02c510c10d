"""The base of every verb's result model: what `--format json` writes, versioned by `schema`."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Report(BaseModel):
    """A verb's result: unknown keys refused, fields by name or alias, every field present in
    the JSON (so the schema marks it required)."""

    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
        frozen=True,
        json_schema_serialization_defaults_required=True,
    )
