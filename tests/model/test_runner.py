"""`runner`: the harness a benchmark names, its tasks and its run defaults."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from catalogctl.model.documents.runner import Runner


def runner(**fields: Any) -> Runner:
    return Runner.model_validate(fields, strict=False)


def test_a_harness_with_tasks_and_pins() -> None:
    made = runner(name="lm-eval", tasks=["gsm8k"], batch_size="auto", task_versions={"gsm8k": "3.0"})
    assert (made.tasks, made.batch_size, made.task_versions) == (["gsm8k"], "auto", {"gsm8k": "3.0"})


@pytest.mark.parametrize("name", ["lm-eval", "evalscope", "inspect"])
def test_a_task_harness_needs_its_task_names(name: str) -> None:
    with pytest.raises(ValidationError, match=f"runner `{name}` needs `tasks`"):
        runner(name=name)


@pytest.mark.parametrize("name", ["endpoints", "external"])
def test_runners_without_tasks_refuse_them(name: str) -> None:
    with pytest.raises(ValidationError, match="takes no `tasks`"):
        runner(name=name, tasks=["gsm8k"])


def test_a_pin_names_one_of_the_tasks() -> None:
    with pytest.raises(ValidationError, match="`gsm8k_cot` is pinned but not in `tasks`"):
        runner(name="lm-eval", tasks=["gsm8k"], task_hashes={"gsm8k_cot": "a" * 64})


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"task_hashes": {"gsm8k": "A" * 64}}, "64 lowercase hexadecimal digits"),
        ({"tasks": ["gsm 8k"]}, "is not a task name"),
        ({"batch_size": 0}, "greater than 0"),
        ({"limit": 10}, "Extra inputs are not permitted"),
    ],
)
def test_malformed_fields_are_refused(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        runner(**{"name": "lm-eval", "tasks": ["gsm8k"], **fields})


def test_an_unknown_runner_is_refused() -> None:
    with pytest.raises(ValidationError, match="'endpoints', 'lm-eval', 'evalscope', 'inspect' or 'external'"):
        runner(name="lm_eval", tasks=["gsm8k"])
