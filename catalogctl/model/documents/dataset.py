"""`benchmark_suite/datasets/<id>.yaml`: the data a benchmark issues and scores against."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from catalogctl.model.common import (
    I18n,
    Id,
    MetadataValue,
    Pendable,
    PositiveInt,
    Sha256,
    StrictModel,
    Text,
    Url,
    display,
    mlperf_name_field,
)


class Source(StrictModel):
    """Where the bytes come from. The url is provenance; the sha256 is what gets checked."""

    url: Pendable[Url] = display()
    sha256: Pendable[Sha256]
    format: Literal["parquet", "jsonl", "json", "csv", "tar", "directory"] | None = None
    # The file's size in bytes, when stated: `datasets verify` takes no byte more (a download that
    # never ends stops there) and a file of another size is a mismatch whatever its hash.
    size: PositiveInt | None = None


class Prompts(StrictModel):
    """Which column holds the input issued to the system under test."""

    column: Pendable[Text]


class ReferenceAnswers(StrictModel):
    """Answers are compared with a reference column."""

    kind: Literal["reference"]
    column: Pendable[Text]


class TestCases(StrictModel):
    """Answers are checked by running test cases; hidden tests are never shown to an agent."""

    kind: Literal["tests"]
    column: Pendable[Text]
    visible_to_agent: bool


class NoAnswers(StrictModel):
    """A performance-only dataset: nothing to score against."""

    kind: Literal["none"]


Answers = Annotated[ReferenceAnswers | TestCases | NoAnswers, Field(discriminator="kind")]


class EvaluationRecipe(StrictModel):
    """How one answer is scored: extract it from the output, then score it against the truth."""

    scorer: Id
    extractor: Id | None = None
    ground_truth: Pendable[Text]


class Split(StrictModel):
    """A named part of a dataset (train, validation)."""

    samples: PositiveInt
    description: Text | None = display(default=None)


class Environment(StrictModel):
    """For agentic tasks: the per-task container images, pinned by their manifest's sha256."""

    kind: Literal["container"]
    image_format: Literal["apptainer-sif", "oci"]
    harness: Id
    images: Source


class Dataset(StrictModel):
    """A dataset: its pinned source, what is prompted, and what answers are checked against."""

    id: Id
    title: Text | None = display(default=None)
    description: Text = display()
    version: Text | None = None
    mlperf_name: Id | None = mlperf_name_field()
    aliases: list[Id] = Field(
        default_factory=list,
        description="the names runners give this dataset in what they write (the endpoints client's dataset "
        "`name`): a run's dataset is this one when its name is the id or an alias",
    )
    samples: Pendable[PositiveInt]
    source: Source
    prompts: Prompts
    answers: Answers
    evaluation_recipes: dict[Id, EvaluationRecipe] = Field(default_factory=dict)
    splits: dict[Id, Split] | None = None
    environment: Environment | None = None
    license: Text | None = display(default=None)
    i18n: I18n | None = display(default=None)
    renamed_from: Id | None = display(default=None)
    metadata: dict[str, MetadataValue] = display(default_factory=dict)
