"""What an lm-evaluation-harness 0.4.x results file holds, as far as `check` reads it.

lm-eval writes `results_<timestamp>.json` from `simple_evaluate`'s dict (its shape is the
`EvalResults` TypedDict of lm-eval 0.4.13's `lm_eval/result_schema.py`, every key optional), and,
with `--log_samples`, one `samples_<task>_<timestamp>.jsonl` per task (`SampleResult`: one line per
document and filter). The format drifted across 0.4.x: keys appear in later versions (`n-samples`,
`task_hashes`, `model_name`), `config.model_args` is a string (`pretrained=x,dtype=y`) or a mapping,
a stderr may be `"N/A"`. So every key is optional here and unknown keys are ignored; a key that is
present must have its documented type, or the file is refused with that key named.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from catalogctl.model.common import Sha256


class _Read(BaseModel):
    """A part of a harness's file: strict types, the harness's other keys ignored."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True, populate_by_name=True)


class SampleCount(_Read):
    """`n-samples` of a task: the documents of its test split, and those evaluated (fewer under `--limit`)."""

    original: int = Field(ge=0)
    effective: int = Field(ge=0)


class MetricSpec(_Read):
    """One entry of a task's `metric_list`: the metric and how its per-sample values aggregate."""

    metric: str | None = None
    aggregation: str | None = None


class TaskConfig(_Read):
    """A task's configuration as the run used it (`configs[task]`), CLI overrides merged."""

    num_fewshot: int | None = None
    output_type: str | None = None
    metadata: dict[str, Any] | None = None
    generation_kwargs: dict[str, Any] | None = None
    metric_list: list[MetricSpec] | None = None


class RunConfig(_Read):
    """The run's `config`: the model and the options lm-eval was invoked with."""

    model: str | None = None
    model_args: str | dict[str, Any] | None = None
    limit: int | float | None = None
    gen_kwargs: str | dict[str, Any] | None = None
    model_sha: str | None = None


class LmEvalResults(_Read):
    """An lm-eval results file: per-task metric values (`metric,filter` keys), the settings per
    task, the run's config, the model, and the task hashes."""

    results: dict[str, dict[str, Any]]
    groups: dict[str, dict[str, Any]] = Field(default_factory=dict)
    group_subtasks: dict[str, list[str]] = Field(default_factory=dict)
    configs: dict[str, TaskConfig] = Field(default_factory=dict)
    versions: dict[str, str | int | float | None] = Field(default_factory=dict)
    n_shot: dict[str, int] = Field(default_factory=dict, alias="n-shot")
    n_samples: dict[str, SampleCount] = Field(default_factory=dict, alias="n-samples")
    config: RunConfig | None = None
    task_hashes: dict[str, Sha256] = Field(default_factory=dict)
    model_name: str | None = None
    lm_eval_version: str | None = None


class SampleLine(_Read):
    """One line of a samples file: the hashes of its document, prompt and target, its filter, and
    the names of the metrics it holds a value of (the values are keys of the line itself)."""

    doc_id: int
    filter: str
    doc_hash: str
    prompt_hash: str
    target_hash: str
    metrics: list[str] = Field(default_factory=list)
