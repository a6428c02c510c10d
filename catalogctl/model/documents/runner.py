"""A benchmark's `runner`: the harness that runs it, in that harness's own words.

Evaluation packs (seed 004) declare "what to run, which numbers to read, and how to run it by
default". What to run is `name` and `tasks` (the task names the harness understands); how to run it
by default is `batch_size` and `extra_args`. The few-shot count, the sampling and the minimum sample
count are not repeated here: the contract already states them (`preprocessing.num_fewshot`,
`accuracy.generation`, `accuracy.requirements`), and `check` compares the harness's record with
those. A `limit` is not a field: a run over part of the data is never a valid run.

A benchmark without `runner` is run by the MLCommons endpoints client, as every benchmark was
before the field existed; its contract, and so its digest, is unchanged.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from catalogctl.model.common import StrictModel

RunnerName = Literal["endpoints", "lm-eval", "evalscope", "inspect", "external"]
# The harnesses that take task names; `endpoints` runs the contract's datasets, `external` reports
# numbers back.
TASK_RUNNERS: frozenset[str] = frozenset({"lm-eval", "evalscope", "inspect"})
# lm-eval task names have capitals (`AraDiCE_...`), inspect_evals' are paths (`inspect_evals/gsm8k`).
TASK_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/:-]{0,127}")
_SHA256 = re.compile(r"[0-9a-f]{64}")


def _check_task(value: str) -> str:
    if not TASK_PATTERN.fullmatch(value):
        raise ValueError(
            f"`{value!r}` is not a task name: use 1-128 characters of letters, digits, '.', '_', '/', ':' and '-'"
        )
    return value


def _check_sha256(value: str) -> str:
    if not _SHA256.fullmatch(value):
        raise ValueError("a task hash is 64 lowercase hexadecimal digits (sha256), as lm-eval writes it")
    return value


TaskName = Annotated[str, AfterValidator(_check_task)]
Sha256Hex = Annotated[str, AfterValidator(_check_sha256)]


class Runner(StrictModel):
    """The harness that runs a benchmark, its task names and its run defaults."""

    name: RunnerName = Field(
        description="endpoints (the MLCommons client), lm-eval (EleutherAI lm-evaluation-harness), evalscope "
        "(ModelScope), inspect (UK AISI inspect_ai), external (scores reported back in catalogctl/results/v1)"
    )
    tasks: list[TaskName] = Field(
        default_factory=list,
        description="the task names the harness understands (lm-eval tasks, evalscope "
        "datasets, inspect tasks); required for lm-eval, evalscope and inspect",
    )
    version: str | None = Field(
        default=None, description="the harness versions the pack is written for, a PEP 440 specifier (>=0.4,<0.5)"
    )
    batch_size: Annotated[int, Field(gt=0)] | Literal["auto"] | None = Field(
        default=None, description="the batch size a run uses by default (a default, not a rule: check ignores it)"
    )
    extra_args: list[str] = Field(
        default_factory=list, description="further arguments the harness needs (--confirm_run_unsafe_code)"
    )
    task_versions: dict[TaskName, str] = Field(
        default_factory=dict, description="the version of each task the run must have used (lm-eval `versions`)"
    )
    task_hashes: dict[TaskName, Sha256Hex] = Field(
        default_factory=dict,
        description="the data and prompts of each task, as lm-eval's `task_hashes` records "
        "them: check compares the results file and recomputes them from the samples files",
    )
    rubric: str | None = Field(
        default=None,
        description="the rubric a judging scorer grades with (owner/name); swap it and it is another benchmark",
    )

    @model_validator(mode="after")
    def _tasks_where_needed(self) -> Runner:
        if self.name in TASK_RUNNERS and not self.tasks:
            raise ValueError(f"runner `{self.name}` needs `tasks`: the task names {self.name} understands")
        if self.name not in TASK_RUNNERS and (self.tasks or self.task_versions or self.task_hashes):
            raise ValueError(f"runner `{self.name}` takes no `tasks`, `task_versions` or `task_hashes`")
        unknown = sorted((set(self.task_versions) | set(self.task_hashes)) - set(self.tasks))
        if unknown:
            raise ValueError(f"`{unknown[0]}` is pinned but not in `tasks`")
        return self
