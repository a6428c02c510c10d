"""The endpoints client's run folder, read as results: how its datasets map onto a contract's,
what it leaves unreported, and folders that are not what `check` expects."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalogctl.errors import InputsUnusable
from catalogctl.run.endpoints import read_run_folder
from tests.helpers import run_cli, write
from tests.run_results import pin_all, resolved_config

CONFIG = """\
model_params:
  temperature: 1
  top_p: 1
  top_k: 0
  max_new_tokens: 32768
datasets:
- name: gpt_oss_perf
  type: performance
- name: aime25
  type: accuracy
  accuracy_config: {eval_method: pass_at_1}
  generation_config_override: {max_new_tokens: 10240, chat_template_kwargs: {reasoning_effort: low}}
- name: gpqa::cot
  type: accuracy
  accuracy_config: {eval_method: pass_at_1}
- name: livecodebench
  type: accuracy
  accuracy_config: {eval_method: code_bench_scorer}
- name: warmup
  type: warmup
settings:
  runtime: {scheduler_random_seed: 1, dataloader_random_seed: 2}
endpoint_config: {api_type: openai}
"""
SCORES = {
    "accuracy_scores": [
        {"dataset_name": "aime25", "dataset_type": "accuracy", "score": 0.9, "total_samples": 240},
        {"dataset_name": "gpqa::cot", "dataset_type": "accuracy", "score": 0.8, "total_samples": 990},
        {
            "dataset_name": "livecodebench",
            "dataset_type": "accuracy",
            "score": 0.84,
            "total_samples": 3165,
            "output_sequence_lengths": {"avg": 812.5},
        },
        {"dataset_name": "gpt_oss_perf", "dataset_type": "performance", "score": 1.0},
    ]
}
SUMMARY = {
    "duration_ns": 600_500_000_000,
    "n_samples_issued": 6400,
    "n_samples_completed": 6396,
    "ttft": {"percentiles": {"50.0": 900_000_000}},  # no 99th percentile: not reported
    "tpot": {"percentiles": {"99.0": 70_000_000}},  # no early-stopping estimate: the plain one
}


@pytest.fixture
def gpt_oss(catalog_dir: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A resolved gpt-oss-120b config, and a run folder of the four datasets under their ids."""
    pin_all(catalog_dir)
    resolved = write(tmp_path, "resolved.json", json.dumps(resolved_config(catalog_dir, "gpt-oss-120b").to_data()))
    folder = tmp_path / "run"
    write(folder, "config.yaml", CONFIG)
    write(folder, "accuracy/accuracy_results.json", json.dumps(SCORES))
    write(folder, "performance/result_summary.json", json.dumps(SUMMARY))
    return resolved, folder


def test_datasets_map_by_id_each_on_its_contract_scorers_scale(catalog_dir: Path, gpt_oss: tuple[Path, Path]) -> None:
    _, folder = gpt_oss
    results = read_run_folder(folder, resolved_config(catalog_dir, "gpt-oss-120b").contract)
    base = {"temperature": 1.0, "top_p": 1.0, "top_k": 0, "max_new_tokens": 32768}
    assert results.model_dump(exclude_none=True, exclude={"schema_"}) == {
        "benchmark": "gpt-oss-120b",
        "source": f"endpoints run folder {folder}",
        "api_type": "openai",
        "seeds": {"scheduler_rng_seed": 1, "sample_index_rng_seed": 2},  # the client records no model seed
        "datasets": [  # warmup is no phase: left out
            {"dataset": "gpt_oss_perf", "phase": "performance", "samples_issued": 6400},
            {"dataset": "aime25", "phase": "accuracy"},
            {"dataset": "gpqa", "phase": "accuracy"},  # the `::cot` variant of gpqa
            {"dataset": "livecodebench", "phase": "accuracy"},
        ],
        "generation": [
            {"phase": "performance", **base},
            {"phase": "accuracy", **base},
            {"phase": "accuracy", "dataset": "aime25", **base, "max_new_tokens": 10240, "reasoning_effort": "low"},
        ],
        "performance": {"duration_ms": 600500.0, "sample_count": 6396, "tpot_p99_ms": 70.0},
        # a score of the performance phase is no accuracy
        "accuracy": [
            {"dataset": "aime25", "scale": "fraction", "pooled_score": 0.9, "samples_scored": 240},
            {"dataset": "gpqa", "scale": "fraction", "pooled_score": 0.8, "samples_scored": 990},
            {"dataset": "livecodebench", "scale": "fraction", "pooled_score": 0.84, "samples_scored": 3165},
        ],
        "metrics": {},  # an average output length stands for TOKENS_PER_SAMPLE only with one dataset
    }
    (folder / "config.yaml").write_text(CONFIG.replace("{eval_method: code_bench_scorer}", "{eval_method: pass_at_1}"))
    with pytest.raises(
        InputsUnusable,
        match="accuracy dataset `livecodebench` was scored by `pass_at_1`; the contract "
        "scores it by `code_bench_scorer`",
    ):
        read_run_folder(folder, resolved_config(catalog_dir, "gpt-oss-120b").contract)


def test_reasoning_effort_is_read_where_the_client_takes_it(catalog_dir: Path, gpt_oss: tuple[Path, Path]) -> None:
    # Was read from `model_params.reasoning_effort`, a key the client refuses (its ModelParams forbids
    # extra keys): the effort sent through `chat_template_kwargs` was never seen, so
    # generation_integrity said "not reported" on every run of gpt-oss-120b.
    _, folder = gpt_oss
    (folder / "config.yaml").write_text(
        CONFIG.replace(
            "  max_new_tokens: 32768\n", "  max_new_tokens: 32768\n  chat_template_kwargs: {reasoning_effort: low}\n", 1
        )
    )
    results = read_run_folder(folder, resolved_config(catalog_dir, "gpt-oss-120b").contract)
    assert [(g.phase, g.dataset, g.reasoning_effort, g.max_new_tokens) for g in results.generation] == [
        ("performance", None, "low", 32768),
        ("accuracy", None, "low", 32768),
        ("accuracy", "aime25", "low", 10240),
    ]


def test_a_dataset_of_another_contract_is_refused_not_left_out(gpt_oss: tuple[Path, Path]) -> None:
    # Was left out, and the run graded on the rest; an accuracy file of another run graded as this one's.
    resolved, folder = gpt_oss
    (folder / "config.yaml").write_text(
        CONFIG.replace("- name: warmup", "- name: mmlu\n  type: accuracy\n- name: warmup")
    )
    assert run_cli("check", resolved, folder, code=2).stderr == (
        "error: this run is of accuracy dataset `mmlu`; the contract's accuracy datasets are `aime25`, `gpqa`, "
        "`livecodebench`\n"
        "hint: a run of another benchmark is never graded; a dataset's other names are declared as its `aliases`\n"
    )


def test_a_folder_without_config_yaml_is_no_run_folder(gpt_oss: tuple[Path, Path]) -> None:
    resolved, folder = gpt_oss
    (folder / "config.yaml").unlink()
    done = run_cli("check", resolved, folder, code=2)
    assert done.stderr == f"error: {folder} is not an endpoints run folder: no config.yaml\n"


def test_a_config_yaml_that_is_not_yaml_is_shown_at_its_position(gpt_oss: tuple[Path, Path]) -> None:
    resolved, folder = gpt_oss
    write(folder, "config.yaml", "model_params: [\n")
    done = run_cli("check", resolved, folder, code=2)
    assert done.stderr == f"error: {folder / 'config.yaml'}:2:1: did not find expected node content\n"


def test_a_result_summary_that_is_not_json(gpt_oss: tuple[Path, Path]) -> None:
    resolved, folder = gpt_oss
    summary = write(folder, "performance/result_summary.json", "{not json")
    done = run_cli("check", resolved, folder, code=2)
    assert done.stderr == (
        f"error: {summary} is not usable JSON: "
        "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)\n"
    )


def test_the_load_pattern_is_read_from_config_yaml_else_the_summary(catalog_dir: Path, tmp_path: Path) -> None:
    from tests.run_results import run_folder

    contract = resolved_config(catalog_dir, "deepseek-r1").contract
    folder = run_folder(tmp_path, "offline")
    found = read_run_folder(folder, contract).load_pattern
    assert (found.model_dump() if found else None) == {
        "type": "poisson",
        "target_concurrency": None,
        "target_qps": 170.0,
    }
    config = folder / "config.yaml"  # without settings.load_pattern: the offline summary's run_config says it
    config.write_text(config.read_text().replace("  load_pattern:\n    type: poisson\n    target_qps: 170.0\n", ""))
    found = read_run_folder(folder, contract).load_pattern
    assert (found.model_dump() if found else None) == {
        "type": "max_throughput",
        "target_concurrency": None,
        "target_qps": None,
    }
    config.write_text(config.read_text().replace("  client:\n", "  load_pattern: poisson\n  client:\n", 1))
    with pytest.raises(InputsUnusable) as caught:
        read_run_folder(folder, contract)
    assert str(caught.value) == (
        f"{config} does not have the endpoints client's shape: settings.load_pattern is a string, not a mapping"
    )


@pytest.mark.parametrize(("counts", "kind"), [([240], "a list"), ("240", "a string"), (240, "a number")])
def test_a_response_counts_that_is_no_object_is_refused(gpt_oss: tuple[Path, Path], counts: object, kind: str) -> None:
    resolved, folder = gpt_oss
    scores = json.loads(json.dumps(SCORES))
    scores["accuracy_scores"][1]["response_counts"] = counts
    accuracy = write(folder, "accuracy/accuracy_results.json", json.dumps(scores))
    assert run_cli("check", resolved, folder, code=2).stderr == (
        f"error: {accuracy} does not have the endpoints client's shape: "
        f"accuracy_scores[1].response_counts is {kind}, not a mapping\n"
    )
