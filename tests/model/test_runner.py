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


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"version": "=>0.4"}, "`=>0.4` is not a PEP 440 version specifier: write one such as >=0.4,<0.5"),
        ({"version": "0.4.13"}, "`0.4.13` is not a PEP 440 version specifier"),
        ({"version": " "}, "an empty specifier allows every version"),
        ({"tasks": ["gsm8k", "gsm8k"]}, "task `gsm8k` is listed twice"),
        ({"extra_args": ["--limit", "10"]}, "`--limit` would run part of the data or score none of it"),
        ({"extra_args": ["--limit=10"]}, "`--limit=10` would run part of the data"),
        ({"extra_args": ["-x"]}, "`-x` would run part of the data or score none of it"),
        ({"extra_args": ["-L10"]}, "`-L10` would run part of the data"),
        ({"extra_args": ["--lim", "10"]}, "`--lim` would run part of the data"),
        ({"extra_args": ["--gen_kw", "temperature=1"]}, "`--gen_kw` is written by runner-config"),
        ({"extra_args": ["--num_fewshot", "0"]}, "`--num_fewshot` is written by runner-config from the contract"),
        ({"rubric": "mlcommons/helpfulness"}, "runner `lm-eval` has no judge to grade with a rubric"),
    ],
)
def test_what_an_lm_eval_pack_may_not_state(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        runner(**{"name": "lm-eval", "tasks": ["gsm8k"], **fields})


def test_arguments_that_only_look_like_those_options_are_taken() -> None:
    args = ["--confirm_run_unsafe_code", "-w", "--seed", "-1", "--device=cpu"]
    assert runner(name="lm-eval", tasks=["gsm8k"], extra_args=args).extra_args == args


@pytest.mark.parametrize("version", [">=0.4,<0.5", "==0.4.13", "~=1.14", "==0.3.*"])
def test_pep_440_specifiers_are_taken(version: str) -> None:
    assert runner(name="lm-eval", tasks=["gsm8k"], version=version).version == version


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": "evalscope", "batch_size": "auto"}, "`auto` is lm-eval's batch size: evalscope takes an integer"),
        ({"name": "inspect", "batch_size": 8}, "runner `inspect` takes no `batch_size`"),
        ({"name": "evalscope", "task_hashes": {"ceval": "a" * 64}}, "`task_hashes` are lm-eval's"),
        ({"name": "evalscope", "extra_args": ["--dataset-args", "{}"]}, "`--dataset-args` is written by"),
        ({"name": "inspect", "extra_args": ["--sample-id", "3"]}, "`--sample-id` would run part of the data"),
    ],
)
def test_what_other_harnesses_may_not_state(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        runner(**{"tasks": ["ceval"], **fields})


@pytest.mark.parametrize("name", ["endpoints", "external"])
def test_runners_without_a_command_line_take_no_batch_size_or_arguments(name: str) -> None:
    with pytest.raises(ValidationError, match=f"runner `{name}` takes no `batch_size`"):
        runner(name=name, batch_size=4)
    with pytest.raises(ValidationError, match=f"runner `{name}` takes no `extra_args`"):
        runner(name=name, extra_args=["--verbose"])


def test_a_rubric_goes_to_a_judge() -> None:
    assert runner(name="inspect", tasks=["inspect_evals/healthbench"], rubric="openai/healthbench").rubric
    assert runner(name="evalscope", tasks=["alpaca_eval"], rubric="tatsu-lab/alpaca_eval").rubric
    assert runner(name="external", rubric="lmarena/arena-hard").rubric
    with pytest.raises(ValidationError, match="runner `endpoints` has no judge"):
        runner(name="endpoints", rubric="lmarena/arena-hard")
