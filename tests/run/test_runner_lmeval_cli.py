"""The lm_eval command line runner-config writes, read by lm-eval 0.4.13's own argument parser and
configuration, and the gsm8k pack's facts read from lm-eval's own task files (conformance lane:
lm-eval is heavy, and its task index takes seconds to build)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import run_cli, write
from tests.run_results import pin_all, resolved_config

pytestmark = pytest.mark.conformance


def _command(tmp_path: Path, catalog_dir: Path) -> list[str]:
    pin_all(catalog_dir)
    resolved = write(tmp_path, "resolved.json", json.dumps(resolved_config(catalog_dir, "gsm8k").to_data()))
    done = run_cli("runner-config", resolved, "-o", tmp_path / "out", "--format", "json")
    command: list[str] = json.loads(done.stdout)["command"]
    return command


def _parsed(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    """`argv` as lm-eval's CLI parses it (HarnessCLI inserts its `run` subcommand itself, as it does
    for the flat form every 0.4 release takes), then lm-eval's own EvaluatorConfig of it."""
    from lm_eval._cli.harness import HarnessCLI
    from lm_eval.config.evaluate_config import EvaluatorConfig

    monkeypatch.setattr(sys, "argv", argv)
    return EvaluatorConfig.from_cli(HarnessCLI().parse_args())


def test_lm_eval_parses_the_command_into_the_contract(
    tmp_path: Path, catalog_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = _parsed(_command(tmp_path, catalog_dir), monkeypatch)
    assert (config.model, config.tasks, config.num_fewshot, config.batch_size) == (
        "local-completions",
        ["gsm8k"],
        5,
        "auto",
    )
    assert config.model_args == {
        "model": "meta-llama/Llama-3.1-8B-Instruct",
        "base_url": "http://127.0.0.1:8000/v1/completions",
        "seed": 42,
        "num_concurrent": 8,
    }
    assert config.gen_kwargs == {"temperature": 0.0, "max_gen_toks": 256, "do_sample": False}
    assert (config.log_samples, config.output_path, config.limit, config.samples) == (True, "lm-eval", None, None)


def test_the_gsm8k_pack_states_what_lm_evals_task_defines(catalog_dir: Path) -> None:
    """Task `gsm8k` exists in lm-eval 0.4.13 with the version the pack pins, the contract's few-shot
    count and greedy sampling, and filters whose names make the pack's metric keys."""
    import lm_eval.tasks
    from lm_eval.tasks import TaskManager

    from catalogctl.io.yamlio import read_foreign_yaml

    # The task's YAML, as lm-eval reads it: from its own folder only (indexing every shipped task
    # costs ten seconds of CPU and reads the same file).
    manager = TaskManager(include_defaults=False, include_path=Path(lm_eval.tasks.__file__).parent / "gsm8k")
    task = manager.task_index["gsm8k"].cfg
    bench = read_foreign_yaml((catalog_dir / "benchmark_suite/benchmarks/gsm8k.yaml").read_bytes())
    assert str(task["metadata"]["version"]) == bench["runner"]["task_versions"]["gsm8k"]
    assert task["num_fewshot"] == bench["preprocessing"]["num_fewshot"]
    assert task["generation_kwargs"]["temperature"] == bench["accuracy"]["generation"]["temperature"]
    assert task["generation_kwargs"]["do_sample"] is False
    keys = [f"{m['metric']},{f['name']}" for m in task["metric_list"] for f in task["filter_list"]]
    assert keys == bench["accuracy"]["reported_metrics"]
