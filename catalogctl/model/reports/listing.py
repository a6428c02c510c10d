"""What `ls` and `show` return: the rows of a listing (`catalogctl/ls/v1`; `metrics` is `ls
metrics`) and one entity's document (`catalogctl/show/v1`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from catalogctl.model.reports.base import Report

LS_SCHEMA: Literal["catalogctl/ls/v1"] = "catalogctl/ls/v1"
SHOW_SCHEMA: Literal["catalogctl/show/v1"] = "catalogctl/show/v1"
EntityKind = Literal["benchmark", "model", "dataset", "metric"]
PendingCount = Annotated[int, Field(ge=0, description="pending values that block freezing it")]


class BenchmarkRow(Report):
    """A benchmark; `pending` counts its own, its model's and its datasets' pending values."""

    id: str
    kind: Literal["inference", "training"]
    title: str
    model: str
    runner: str | None = Field(
        description="the harness that runs an inference benchmark (endpoints when its contract names none); "
        "null for a training benchmark, whose run writes MLLOG logs"
    )
    datasets: list[str]
    pending: PendingCount


class ModelRow(Report):
    """A model: its hub repository and commit (`<TBD>` while pending)."""

    id: str
    reference_id: str
    sha: str
    pending: PendingCount


class DatasetRow(Report):
    """A dataset: its sample count (a string while pending)."""

    id: str
    samples: int | str
    description: str | None
    pending: PendingCount


class MetricRow(Report):
    """A metric of the registry."""

    key: str
    label: str
    unit: str
    direction: Literal["higher", "lower", "neutral"]


class BenchmarkListing(Report):
    """`ls benchmarks`."""

    schema_: Literal["catalogctl/ls/v1"] = Field(LS_SCHEMA, alias="schema")
    tree: str
    benchmarks: list[BenchmarkRow]


class ModelListing(Report):
    """`ls models`."""

    schema_: Literal["catalogctl/ls/v1"] = Field(LS_SCHEMA, alias="schema")
    tree: str
    models: list[ModelRow]


class DatasetListing(Report):
    """`ls datasets`."""

    schema_: Literal["catalogctl/ls/v1"] = Field(LS_SCHEMA, alias="schema")
    tree: str
    datasets: list[DatasetRow]


class MetricListing(Report):
    """`ls metrics` (and `metrics`)."""

    schema_: Literal["catalogctl/ls/v1"] = Field(LS_SCHEMA, alias="schema")
    tree: str
    metrics: list[MetricRow]


# The rows sit under the kind's name, so each kind is its own shape of one schema.
Listing = BenchmarkListing | ModelListing | DatasetListing | MetricListing


class ShowResult(Report):
    """The documented JSON shape of `catalogctl show --format json`."""

    schema_: Literal["catalogctl/show/v1"] = Field(SHOW_SCHEMA, alias="schema")
    tree: str
    kind: EntityKind
    id: str
    resolved: bool = Field(description="the benchmark's full contract, with its digest")
    document: dict[str, Any] = Field(
        description="the entity as the catalog reads it (see its kind's schema), or the resolved contract"
    )
    notes: list[str] = Field(description="for people: an id shared by another kind, a hint")
