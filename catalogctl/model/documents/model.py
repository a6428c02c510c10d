"""`benchmark_suite/models/<id>.yaml`: a reference checkpoint."""

from __future__ import annotations

from catalogctl.model.common import (
    GitSha,
    HubRepo,
    I18n,
    Id,
    MetadataValue,
    Pendable,
    StrictModel,
    Text,
    display,
    mlperf_name_field,
)


class HubRef(StrictModel):
    """A hub repository pinned at a commit."""

    reference_id: Pendable[HubRepo]
    sha: Pendable[GitSha]


class Model(StrictModel):
    """A model: the hub repository and commit of its reference checkpoint.

    `sha` pins the checkpoint and, with it, the tokenizer and chat template it ships. `tokenizer`
    and `processor` (the image/audio input processor of a multimodal model) are only stated when
    they come from another repository.
    """

    id: Id
    title: Text | None = display(default=None)
    description: Text | None = display(default=None)
    mlperf_name: Id | None = mlperf_name_field()
    reference_id: Pendable[HubRepo]
    sha: Pendable[GitSha]
    tokenizer: HubRef | None = None
    processor: HubRef | None = None
    chat_template: Text | None = None
    license: Text | None = display(default=None)
    i18n: I18n | None = display(default=None)
    renamed_from: Id | None = display(default=None)
    metadata: dict[str, MetadataValue] = display(default_factory=dict)
