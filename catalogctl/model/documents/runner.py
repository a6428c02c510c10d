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

from pydantic import AfterValidator, Field, ValidationInfo, field_validator, model_validator

from catalogctl.io.pep440 import specifier_problem
from catalogctl.model.common import StrictModel

RunnerName = Literal["endpoints", "lm-eval", "evalscope", "inspect", "external"]
# The harnesses that take task names; `endpoints` runs the contract's datasets, `external` reports
# numbers back.
TASK_RUNNERS: frozenset[str] = frozenset({"lm-eval", "evalscope", "inspect"})
# lm-eval task names have capitals (`AraDiCE_...`), inspect_evals' are paths (`inspect_evals/gsm8k`).
TASK_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/:-]{0,127}")
_SHA256 = re.compile(r"[0-9a-f]{64}")
# The runners whose scorers can be a judge model grading against a rubric: inspect
# (inspect_ai.scorer's model_graded_qa and model_graded_fact), evalscope (its `--judge`
# configuration, evalscope/arguments.py) and external (scores judged elsewhere). lm-eval 0.4.13's
# metrics are its tasks' own functions, and the endpoints client's scorers compare with a
# reference: neither has a judge to give a rubric to.
JUDGING_RUNNERS: frozenset[str] = frozenset({"inspect", "evalscope", "external"})
# What `batch_size` is to each runner: lm-eval's `--batch_size` (an integer or `auto`), evalscope's
# `--eval-batch-size` (an integer: requests in flight when the submission's load has no
# concurrency). inspect has none (its `--max-connections` is the submission's concurrency), the
# endpoints client reads its concurrency from the submission, and an external run is not ours.
BATCH_RUNNERS: frozenset[str] = frozenset({"lm-eval", "evalscope"})
# Options of each harness that runner-config writes from the contract and the submission, or that
# run part of the data (a limited run is never valid): `extra_args` may not set them.
# lm_eval/_cli/run.py (0.4.13), evalscope/arguments.py (1.14.1), inspect_ai/_cli/eval.py (0.3.285).
PARTIAL_OPTIONS: dict[str, tuple[str, ...]] = {
    "lm-eval": ("--limit", "-L", "--samples", "-E", "--predict_only", "-x"),
    "evalscope": ("--limit",),
    "inspect": ("--limit", "--sample-id", "--no-score"),
}
WRITTEN_OPTIONS: dict[str, tuple[str, ...]] = {
    "lm-eval": (
        "--model", "-M", "--model_args", "-a", "--tasks", "-t", "--num_fewshot", "-f", "--batch_size", "-b",
        "--gen_kwargs", "--log_samples", "-s", "--output_path", "-o", "--apply_chat_template",
    ),
    "evalscope": (
        "--model", "--api-url", "--api-key", "--eval-type", "--datasets", "--dataset-args", "--generation-config",
        "--eval-batch-size", "--repeats", "--work-dir", "--no-timestamp",
    ),
    "inspect": (
        "--model", "--model-base-url", "--temperature", "--top-p", "--top-k", "--max-tokens", "--reasoning-effort",
        "--seed", "--max-connections", "--epochs", "--log-format", "--log-dir",
    ),
}  # fmt: skip


def _option(arg: str) -> str:
    """The option an argument names: `--limit=10` and `-L10` (a short option with its value
    attached, as argparse reads it) name `--limit` and `-L`; anything else is itself."""
    if arg.startswith("--"):
        return arg.split("=", 1)[0]
    return arg[:2] if arg.startswith("-") and len(arg) > 2 and not arg[1].isdigit() else arg


def _names(option: str, options: tuple[str, ...]) -> bool:
    """Whether `option` is one of `options`, or a prefix of a long one: lm-eval's and evalscope's
    argparse parsers take an unambiguous prefix (`--lim` for `--limit`)."""
    long = option.startswith("--") and len(option) > 2
    return option in options or (long and any(o.startswith(option) for o in options if o.startswith("--")))


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

    @field_validator("version")
    @classmethod
    def _pep440(cls, value: str | None) -> str | None:
        problem = None if value is None else specifier_problem(value)
        if problem:
            raise ValueError(f"{problem}: write one such as >=0.4,<0.5 or ==0.4.13 (PEP 440)")
        return value

    @field_validator("tasks")
    @classmethod
    def _each_task_once(cls, value: list[str]) -> list[str]:
        twice = sorted({t for t in value if value.count(t) > 1})
        if twice:
            raise ValueError(f"task `{twice[0]}` is listed twice")
        return value

    @field_validator("batch_size")
    @classmethod
    def _batch_where_taken(cls, value: int | str | None, info: ValidationInfo) -> int | str | None:
        name = info.data.get("name")
        if value is None or name is None:
            return value
        if name not in BATCH_RUNNERS:
            raise ValueError(f"runner `{name}` takes no `batch_size`: its requests in flight are the submission's")
        if value == "auto" and name != "lm-eval":
            raise ValueError(f"`auto` is lm-eval's batch size: {name} takes an integer")
        return value

    @field_validator("extra_args")
    @classmethod
    def _extra_args_add(cls, value: list[str], info: ValidationInfo) -> list[str]:
        name = info.data.get("name")
        if not value or name is None:
            return value
        if name not in TASK_RUNNERS:
            raise ValueError(f"runner `{name}` takes no `extra_args`: runner-config writes no command line for it")
        for arg in value:
            option = _option(arg)
            if _names(option, PARTIAL_OPTIONS[name]):
                raise ValueError(f"`{arg}` would run part of the data or score none of it: such a run is never valid")
            if _names(option, WRITTEN_OPTIONS[name]):
                raise ValueError(f"`{option}` is written by runner-config from the contract and the submission")
        return value

    @field_validator("task_hashes")
    @classmethod
    def _hashes_are_lmevals(cls, value: dict[str, str], info: ValidationInfo) -> dict[str, str]:
        name = info.data.get("name")
        if value and name is not None and name != "lm-eval":
            raise ValueError(f"`task_hashes` are lm-eval's (its results' `task_hashes`): runner `{name}` has none")
        return value

    @field_validator("rubric")
    @classmethod
    def _rubric_for_a_judge(cls, value: str | None, info: ValidationInfo) -> str | None:
        name = info.data.get("name")
        if value is not None and name is not None and name not in JUDGING_RUNNERS:
            raise ValueError(f"runner `{name}` has no judge to grade with a rubric: give one to inspect or evalscope")
        return value

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
