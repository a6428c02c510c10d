"""`runner`: the harness a benchmark names, its tasks and its run defaults."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from catalogctl.model.documents.metrics import Metric
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


@pytest.mark.parametrize(
    "key",
    [
        "exact_match,strict-match",  # lm-eval: metric,filter
        "accuracy:mean",  # evalscope 1.14.1: MetricIdentity.key, name:aggregation
        "pass_at_k:pass_at_k[k=4]",  # ... with its dimensions
        "match/accuracy",  # inspect_ai 0.3.285: score/metric, as it prints a log's metrics
        "match/accuracy[mean]",  # ... with a reducer that is not avg
    ],
)
def test_a_metric_key_is_the_harness_name_verbatim(key: str) -> None:
    metric = Metric.model_validate(
        {"key": key, "label": "L", "unit": "fraction", "direction": "higher", "ratio": True, "description": "D"}
    )
    assert metric.key == key


@pytest.mark.parametrize("key", ["match accuracy", 'accuracy:mean[subset="main"]', "/accuracy", "a" * 129])
def test_a_metric_key_stays_a_plain_name(key: str) -> None:
    with pytest.raises(ValidationError, match="is not a valid metric key"):
        Metric.model_validate(
            {"key": key, "label": "L", "unit": "fraction", "direction": "higher", "ratio": True, "description": "D"}
        )
