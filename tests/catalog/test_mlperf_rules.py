"""The post-training benchmark states the official MLPerf Training 6.1 rules: each value is read
back from the files mlperf-logging 4.1.68 ships (its compliance rules and its reference
convergence points), so a catalog that drifts from them fails here."""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

import yaml

from catalogctl.model import TrainingBenchmark
from tests.helpers import REPO_ROOT

RULES = files("mlperf_logging") / "compliance_checker" / "training_6.1.0" / "closed_qwen35_397b_grpo.yaml"
RCPS = files("mlperf_logging") / "rcp_checker" / "training_6.1.0" / "rcps_qwen35_397b_grpo.json"


def benchmark() -> TrainingBenchmark:
    text = (REPO_ROOT / "benchmark_suite/benchmarks/llm-post-training.yaml").read_text(encoding="utf-8")
    return TrainingBenchmark.model_validate(yaml.safe_load(text))


def sci(value: float) -> str:
    """`1e-9` as the rules file spells it (Python writes 1e-09)."""
    return f"{value:.0e}".replace("e-0", "e-")


def official_checks() -> dict[str, Any]:
    """Each key's CHECK text (a list joined), and the BEGIN code, from the official rules file."""
    found: dict[str, Any] = {}
    for record in yaml.load(RULES.read_text(encoding="utf-8"), Loader=yaml.BaseLoader):
        if "BEGIN" in record:
            found["BEGIN"] = record["BEGIN"]["CODE"]
        else:
            key = record["KEY"]
            check = key.get("CHECK", "")
            found[key["NAME"]] = " and ".join(check) if isinstance(check, list) else check
            found[key["NAME"] + ".POST"] = key.get("POST", "")
            found[key["NAME"] + ".ATLEAST_ONE_CHECK"] = key.get("ATLEAST_ONE_CHECK", "")
    return found


def test_the_reference_points_are_the_official_rcps() -> None:
    rcps = json.loads(RCPS.read_text(encoding="utf-8"))
    official = {r["BS"]: set(r["Epochs to converge"]) for r in rcps.values() if r["Benchmark"] == "qwen35_397b_grpo"}
    stated = {p.gbs: {p.samples} for p in benchmark().evaluation_schedule.reference_points}
    assert stated == official == {256: {4608}, 512: {5120}, 1024: {7168}}
    hyper = {r["BS"]: r["Hyperparams"] for r in rcps.values()}
    assert all(h["num_prompts_per_step"] * h["num_generations_per_prompt"] == gbs for gbs, h in hyper.items())


def test_every_value_the_catalog_states_is_the_official_rule() -> None:
    bench, checks = benchmark(), official_checks()
    optimizer, training = bench.optimizer, bench.training
    assert optimizer is not None
    assert training.generation is not None
    expected = {
        "max_sequence_length": f" v['value'] == {bench.limits.max_context_tokens} ",
        "eval_samples": f" v['value'] == {bench.validation.samples} ",
        "init_checkpoint_step": f" v['value'] == {training.init_checkpoint_step} ",
        "opt_name": f" v['value'] == '{optimizer.name}' ",
        "opt_adamw_beta_1": f" v['value'] == {optimizer.beta_1} ",
        "opt_adamw_beta_2": f" v['value'] == {optimizer.beta_2} ",
        "opt_adamw_epsilon": f" v['value'] == {sci(optimizer.epsilon)} ",
        "opt_adamw_weight_decay": f" v['value'] == {optimizer.weight_decay} ",
        "opt_learning_rate_warmup_steps": f" v['value'] == {optimizer.warmup_steps} ",
        "opt_learning_rate_decay_schedule": f" v['value'] == '{optimizer.schedule}' ",
        "generation_training_rollout_temperature": f" v['value'] == {training.generation.temperature} ",
        "generation_training_rollout_top_p": f" v['value'] == {training.generation.top_p} ",
        "generation_validation_rollout_temperature": f" v['value'] == {bench.validation.generation.temperature} ",
        "generation_validation_rollout_top_p": f" v['value'] == {bench.validation.generation.top_p} ",
        "num_generations_per_prompt": f"v['value'] == {bench.limits.generations_per_prompt} and "
        f"s['global_batch_size'] == s['num_prompts_per_step'] * v['value']",
        "opt_gradient_clip_norm": " abs(v['value'] - "
        + optimizer.gradient_clip_norm.replace("gbs", "s['global_batch_size']")
        + f") < {sci(optimizer.tolerance)} ",
        "opt_base_learning_rate": f" abs(v['value'] - s['learning_rate']) < {sci(optimizer.tolerance)} ",
        "eval_accuracy.ATLEAST_ONE_CHECK": f"v['value'] {bench.quality_target.bound} s['target_accuracy']",
    }
    assert {k: checks[k] for k in expected} == expected
    post = checks["global_batch_size.POST"]
    learning_rate = optimizer.learning_rate.replace("1e-6", "1.0e-6").replace("gbs", "s['global_batch_size']")
    assert f"s['learning_rate'] = {learning_rate}" in post
    schedule = bench.evaluation_schedule.first_evaluation_samples.replace("ceil", "math.ceil")
    assert f"s['validation_start_samples'] = {schedule.replace('gbs', 'v[' + repr('value') + ']')}" in post
    assert f"'target_accuracy': {bench.quality_target.target}," in checks["BEGIN"]
    assert checks["eval_accuracy"] == (
        "'samples_count' in v['metadata'] and v['metadata']['samples_count'] == s['next_validation_samples'] "
        "and 0.0 <= v['value'] <= 1.0"
    )
    assert "s['next_validation_samples'] += s['global_batch_size']" in checks["eval_accuracy.POST"]
