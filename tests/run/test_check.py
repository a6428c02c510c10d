"""The gates on the shipped contracts: each passing and failing, the figures behind them, and
the endpoints client's real result files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from catalogctl.cli import app
from catalogctl.model.results import RunResults
from catalogctl.run.check import CheckReport, check_run
from catalogctl.run.endpoints import read_run_folder
from catalogctl.run.gates import GATES, Check
from tests.run_results import gpt_oss_results, pin_all, resolved_config

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "endpoints"  # real files of a published v6.1 run
runner = CliRunner()


@pytest.fixture
def pinned(catalog_dir: Path) -> Path:
    pin_all(catalog_dir)
    return catalog_dir


def gate(report: CheckReport, name: str) -> tuple[str, list[Check]]:
    found = next(g for g in report.gates if g.name == name)
    return found.verdict, found.checks


def test_a_good_gpt_oss_run_passes_every_gate(pinned: Path) -> None:
    report = check_run(resolved_config(pinned, "gpt-oss-120b"), gpt_oss_results())
    assert [(g.name, g.verdict) for g in report.gates] == [
        ("dataset_integrity", "pass"),
        ("model_integrity", "pass"),
        ("generation_integrity", "pass"),
        ("seeds", "pass"),
        ("requirements", "pass"),
        ("accuracy_gate", "pass"),
    ]
    assert report.passed
    _, checks = gate(report, "accuracy_gate")
    assert checks == [Check("exact_match", ">= 82.2987 (83.13 x 0.99)", "83.523", "pass")]
    _, requirements = gate(report, "requirements")
    assert requirements[-1] == Check("accuracy samples scored", ">= 4395", "4395", "pass")  # 8x30 + 5x198 + 3x1055


def test_accuracy_below_99_percent_of_reference_fails(pinned: Path) -> None:
    accuracy: list[dict[str, Any]] = [
        {"dataset": "aime25", "scale": "fraction", "repeat_scores": [0.9] * 8, "samples_scored": 240},
        {"dataset": "gpqa", "scale": "fraction", "repeat_scores": [0.8] * 5, "samples_scored": 990},
        {"dataset": "livecodebench", "scale": "fraction", "repeat_scores": [0.80] * 3, "samples_scored": 3165},
    ]
    report = check_run(resolved_config(pinned, "gpt-oss-120b"), gpt_oss_results(accuracy=accuracy))
    verdict, checks = gate(report, "accuracy_gate")
    assert verdict == "fail"
    assert checks == [Check("exact_match", ">= 82.2987 (83.13 x 0.99)", "80.2338", "fail")]
    assert not report.passed


def test_missing_repeat_scores_are_not_evaluable_and_do_not_pass(pinned: Path) -> None:
    accuracy = [
        {"dataset": d, "scale": "fraction", "samples_scored": n}
        for d, n in (("aime25", 240), ("gpqa", 990), ("livecodebench", 3165))
    ]
    report = check_run(resolved_config(pinned, "gpt-oss-120b"), gpt_oss_results(accuracy=accuracy))
    verdict, checks = gate(report, "accuracy_gate")
    assert verdict == "not-evaluable"
    assert checks[0].observed == "aime25: mean_of_k needs per-repeat scores, which the run did not report"
    assert not report.passed


def test_too_few_accuracy_samples(pinned: Path) -> None:
    accuracy = [
        {"dataset": "aime25", "scale": "fraction", "repeat_scores": [0.9] * 8, "samples_scored": 239},
        {"dataset": "gpqa", "scale": "fraction", "repeat_scores": [0.8] * 5, "samples_scored": 990},
        {"dataset": "livecodebench", "scale": "fraction", "repeat_scores": [0.84] * 3, "samples_scored": 3165},
    ]
    report = check_run(resolved_config(pinned, "gpt-oss-120b"), gpt_oss_results(accuracy=accuracy))
    verdict, checks = gate(report, "requirements")
    assert verdict == "fail"
    assert checks[-1] == Check("accuracy samples scored", ">= 4395", "4394", "fail")


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("duration_ms", 599999.0, Check("duration_ms", ">= 600000 ms", "599999 ms", "fail")),
        ("sample_count", 6395, Check("sample_count", ">= 6396", "6395", "fail")),
        ("context_length", 32768, Check("context_length", ">= 65536", "32768", "fail")),
        ("ttft_p99_ms", 3000.5, Check("ttft_p99_ms", "<= 3000 ms", "3000.5 ms", "fail")),
        ("tpot_p99_ms", None, Check("tpot_p99_ms", "<= 80 ms", "not reported", "unknown")),
    ],
)
def test_performance_requirements(pinned: Path, field: str, value: object, expected: Check) -> None:
    performance = {
        "duration_ms": 600500.0,
        "sample_count": 6396,
        "context_length": 65536,
        "ttft_p99_ms": 2500.0,
        "tpot_p99_ms": 70.0,
        field: value,
    }
    report = check_run(resolved_config(pinned, "gpt-oss-120b"), gpt_oss_results(performance=performance))
    verdict, checks = gate(report, "requirements")
    assert expected in checks
    assert verdict == ("fail" if expected.status == "fail" else "not-evaluable")


def test_generation_and_api_type_as_contracted(pinned: Path) -> None:
    results = gpt_oss_results(api_type="openai_completions")
    generation = [g.model_dump() for g in results.generation]
    generation[2]["max_new_tokens"] = 10240  # gpqa run without the override
    report = check_run(
        resolved_config(pinned, "gpt-oss-120b"), gpt_oss_results(api_type="openai_completions", generation=generation)
    )
    verdict, checks = gate(report, "generation_integrity")
    assert verdict == "fail"
    assert [c for c in checks if c.status == "fail"] == [
        Check("api_type", "openai", "openai_completions", "fail"),
        Check("accuracy gpqa max_new_tokens", "32768", "10240", "fail"),
    ]


def test_seeds_must_be_exactly_the_resolved_set(pinned: Path) -> None:
    seeds = {"scheduler_rng_seed": 16159082839903944937, "sample_index_rng_seed": 2747215439041700203, "model_seed": 42}
    verdict, checks = gate(check_run(resolved_config(pinned, "gpt-oss-120b"), gpt_oss_results(seeds=seeds)), "seeds")
    assert verdict == "fail"
    assert checks[0] == Check("scheduler_rng_seed", "16159082839903944936", "16159082839903944937", "fail")


def test_dataset_integrity(pinned: Path, catalog_dir: Path) -> None:
    datasets = [d.model_dump() for d in gpt_oss_results().datasets]
    datasets[1]["sha256"] = "0" * 64
    datasets[2]["sha256"] = None
    verdict, checks = gate(
        check_run(resolved_config(pinned, "gpt-oss-120b"), gpt_oss_results(datasets=datasets)), "dataset_integrity"
    )
    assert verdict == "fail"
    assert [(c.what, c.status) for c in checks] == [
        ("gpt_oss_perf sha256", "pass"),
        ("aime25 sha256", "fail"),
        ("gpqa sha256", "unknown"),
        ("livecodebench sha256", "pass"),
    ]


def test_model_integrity_is_soft(pinned: Path) -> None:
    report = check_run(resolved_config(pinned, "gpt-oss-120b"), gpt_oss_results(model_sha="f" * 40))
    assert gate(report, "model_integrity")[0] == "fail"
    assert report.passed  # a soft gate warns


def test_results_of_another_benchmark_are_refused(pinned: Path) -> None:
    from catalogctl.errors import UsageError

    with pytest.raises(UsageError, match="the results are of benchmark `gpt-oss-120b`, the resolved config of `gsm8k`"):
        check_run(resolved_config(pinned, "gsm8k"), gpt_oss_results())


# -- the post-training benchmark -----------------------------------------------------------------


def training_results(**overrides: Any) -> RunResults:
    data: dict[str, Any] = {
        "benchmark": "llm-post-training",
        "model_sha": None,
        "seeds": {
            "scheduler_rng_seed": 16159082839903944936,
            "sample_index_rng_seed": 2747215439041700203,
            "model_seed": 42,
        },
        "datasets": [{"dataset": "r2e-gym-subset", "phase": "validation", "sha256": None}],
        "generation": [{"phase": "validation", "temperature": 0.1, "top_p": 0.95}],
        "metrics": {"pass_at_4": 0.70},
        "training": {"gbs": 512, "first_evaluation_samples": 5120},
    }
    data.update(overrides)
    return RunResults.model_validate(data)


def test_post_training_quality_target_and_schedule(pinned: Path) -> None:
    config = resolved_config(pinned, "llm-post-training")
    report = check_run(config, training_results())
    assert gate(report, "quality_target") == ("pass", [Check("pass_at_4", ">= 0.69", "0.7", "pass")])
    assert gate(report, "evaluation_schedule") == (
        "pass",
        [Check("first evaluation at gbs 512", ">= 5120 samples", "5120 samples", "pass")],
    )
    missed = check_run(
        config, training_results(metrics={"pass_at_4": 0.68}, training={"gbs": 256, "first_evaluation_samples": 4000})
    )
    assert gate(missed, "quality_target")[1] == [Check("pass_at_4", ">= 0.69", "0.68", "fail")]
    assert gate(missed, "evaluation_schedule")[1] == [
        Check("first evaluation at gbs 256", ">= 4608 samples", "4000 samples", "fail")
    ]
    unknown = check_run(config, training_results(metrics={"pass_at_4": None}, training=None))
    assert gate(unknown, "quality_target") == ("fail", [Check("pass_at_4", ">= 0.69", "not reported", "fail")])
    assert gate(unknown, "evaluation_schedule")[1] == [
        Check("first evaluation", "gbs * ceil(2.5 + 3840 / gbs)", "gbs not reported", "unknown")
    ]
    assert not unknown.passed


def test_every_registered_gate_is_exercised() -> None:
    assert sorted(GATES) == sorted(
        [
            "dataset_integrity",
            "model_integrity",
            "generation_integrity",
            "seeds",
            "requirements",
            "accuracy_gate",
            "quality_target",
            "evaluation_schedule",
        ]
    )


# -- the endpoints client's real files -----------------------------------------------------------


def run_folder(tmp_path: Path, scenario: str, with_accuracy: bool = True) -> Path:
    folder = tmp_path / scenario
    (folder / "performance").mkdir(parents=True)
    shutil.copy(FIXTURES / "v6.1-nvidia-deepseek-r1-interactive.config.yaml", folder / "config.yaml")
    shutil.copy(
        FIXTURES / f"v6.1-nvidia-deepseek-r1-{scenario}.result_summary.json",
        folder / "performance" / "result_summary.json",
    )
    if with_accuracy:
        (folder / "accuracy").mkdir()
        shutil.copy(
            FIXTURES / "v6.1-nvidia-deepseek-r1-interactive.accuracy_results.json",
            folder / "accuracy" / "accuracy_results.json",
        )
    return folder


@pytest.fixture
def deepseek(pinned: Path) -> Path:
    text = (pinned / "benchmark_suite/benchmarks/deepseek-r1.yaml").read_text()
    (pinned / "benchmark_suite/benchmarks/deepseek-r1.yaml").write_text(
        text.replace("min_sample_count: <TBD>", "min_sample_count: 4388")
    )
    return pinned


def test_endpoints_run_folder_against_the_deepseek_contract(deepseek: Path, tmp_path: Path) -> None:
    config = resolved_config(deepseek, "deepseek-r1")
    results = read_run_folder(run_folder(tmp_path, "interactive"), config.contract)
    assert results.seeds.scheduler_rng_seed == 16159082839903944936
    assert results.seeds.model_seed is None
    assert results.performance is not None
    assert results.performance.duration_ms == pytest.approx(2077965.287526)
    assert results.performance.ttft_p99_ms == pytest.approx(484.730193)  # the early-stopping estimate
    report = check_run(config, results)
    assert [(g.name, g.verdict) for g in report.gates] == [
        ("dataset_integrity", "not-evaluable"),  # the client writes no sha256
        ("model_integrity", "not-evaluable"),
        ("generation_integrity", "pass"),
        ("seeds", "not-evaluable"),  # no model seed in the files
        ("requirements", "pass"),
        ("accuracy_gate", "pass"),
    ]
    assert gate(report, "accuracy_gate")[1] == [
        Check("exact_match", ">= 80.544618 (81.3582 x 0.99)", "80.629", "pass"),
        Check("TOKENS_PER_SAMPLE", ">= 3497.60466 (3886.2274 x 0.9)", "3825.63", "pass"),
        Check("TOKENS_PER_SAMPLE", "<= 4274.85014 (3886.2274 x 1.1)", "3825.63", "pass"),
    ]
    assert not report.passed  # facts the files do not carry never pass


def test_a_non_streaming_run_has_no_ttft(deepseek: Path, tmp_path: Path) -> None:
    config = resolved_config(deepseek, "deepseek-r1")
    results = read_run_folder(run_folder(tmp_path, "offline", with_accuracy=False), config.contract)
    assert results.performance is not None
    assert results.performance.ttft_p99_ms is None
    assert results.accuracy == []
    report = check_run(config, results)
    verdict, checks = gate(report, "accuracy_gate")
    assert verdict == "fail"  # TOKENS_PER_SAMPLE is missing: a failure
    assert [c.status for c in checks] == ["unknown", "fail", "fail"]  # exact_match: no accuracy results to score


def test_check_command_exit_codes_and_formats(deepseek: Path, tmp_path: Path, pinned: Path) -> None:
    resolved = tmp_path / "resolved.json"
    resolved.write_text(json.dumps(resolved_config(deepseek, "deepseek-r1").to_data()))
    result = runner.invoke(app, ["check", str(resolved), str(run_folder(tmp_path, "interactive"))])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == f"source: endpoints run folder {tmp_path / 'interactive'}"
    assert (
        lines[-1] == "deepseek-r1: INVALID (hard gates not passed: dataset_integrity, seeds); warnings: model_integrity"
    )
    as_json = json.loads(
        runner.invoke(app, ["check", str(resolved), str(tmp_path / "interactive"), "-f", "json"]).stdout
    )
    assert as_json["schema"] == "catalogctl/check/v1"
    assert as_json["valid"] is False
    markdown = runner.invoke(app, ["check", str(resolved), str(tmp_path / "interactive"), "-f", "markdown"]).stdout
    assert "| accuracy_gate | pass | exact_match | >= 80.544618 (81.3582 x 0.99) | 80.629 |" in markdown

    good = tmp_path / "gpt.json"
    good.write_text(json.dumps(resolved_config(pinned, "gpt-oss-120b").to_data()))
    results = tmp_path / "results.json"
    results.write_text(gpt_oss_results().model_dump_json(by_alias=True))
    ok = runner.invoke(app, ["check", str(good), str(results)])
    assert ok.exit_code == 0, ok.stdout
    assert ok.stdout.splitlines()[-1] == "gpt-oss-120b: VALID"
    missing = runner.invoke(app, ["check", str(good), str(tmp_path / "nope.json")])
    assert missing.exit_code == 2
    assert missing.stderr.startswith("error: cannot read ")
    bad = tmp_path / "bad.json"
    bad.write_text('{"benchmark": "gpt-oss-120b", "seeds": {"model_seed": true}}')
    invalid = runner.invoke(app, ["check", str(good), str(bad)])
    assert invalid.exit_code == 1
    assert "seeds.model_seed" in invalid.stderr


def test_gates_and_metrics_listings(catalog_dir: Path) -> None:
    gates = runner.invoke(app, ["gates", "--format", "json"])
    data = json.loads(gates.stdout)
    assert {g["name"]: g["severity"] for g in data["gates"]}["model_integrity"] == "soft"
    metrics = runner.invoke(app, ["metrics", "-C", str(catalog_dir)])
    assert metrics.exit_code == 0
    assert metrics.stdout.splitlines()[0].split() == ["KEY", "LABEL", "UNIT", "DIRECTION"]


def test_a_missing_or_null_threshold_metric_fails(deepseek: Path, tmp_path: Path) -> None:
    config = resolved_config(deepseek, "deepseek-r1")
    results = read_run_folder(run_folder(tmp_path, "interactive"), config.contract)
    for metrics in ({}, {"TOKENS_PER_SAMPLE": None}):
        report = check_run(config, results.model_copy(update={"metrics": metrics}))
        verdict, checks = gate(report, "accuracy_gate")
        assert verdict == "fail"
        assert [c.status for c in checks if c.what == "TOKENS_PER_SAMPLE"] == ["fail", "fail"]


# -- what a run reports must be plausible before it can pass -------------------------------------


def test_a_percentage_labelled_a_fraction_cannot_pass(pinned: Path) -> None:
    accuracy = [
        {"dataset": "aime25", "scale": "fraction", "repeat_scores": [90.0] * 8, "samples_scored": 240},
        {"dataset": "gpqa", "scale": "fraction", "repeat_scores": [0.8] * 5, "samples_scored": 990},
        {"dataset": "livecodebench", "scale": "fraction", "repeat_scores": [0.84] * 3, "samples_scored": 3165},
    ]
    report = check_run(resolved_config(pinned, "gpt-oss-120b"), gpt_oss_results(accuracy=accuracy))
    verdict, checks = gate(report, "accuracy_gate")
    assert verdict == "not-evaluable"
    assert checks[0].observed == "aime25 repeat score: 90 is not a fraction (0..1)"


def test_a_reported_ratio_metric_out_of_range_cannot_pass(pinned: Path) -> None:
    config = resolved_config(pinned, "llm-post-training")
    report = check_run(config, training_results(metrics={"pass_at_4": 69.0}))
    assert gate(report, "quality_target") == (
        "fail",
        [Check("pass_at_4", ">= 0.69", "pass_at_4: 69 is not a fraction (0..1)", "fail")],
    )


def test_only_the_contracts_datasets_count_towards_accuracy_samples(pinned: Path) -> None:
    accuracy = [
        {"dataset": "aime25", "scale": "fraction", "repeat_scores": [0.9] * 8, "samples_scored": 240},
        {"dataset": "gpqa", "scale": "fraction", "repeat_scores": [0.8] * 5, "samples_scored": 990},
        {"dataset": "gsm8k", "scale": "fraction", "repeat_scores": [0.8], "samples_scored": 3165},
    ]
    report = check_run(resolved_config(pinned, "gpt-oss-120b"), gpt_oss_results(accuracy=accuracy))
    verdict, checks = gate(report, "requirements")
    assert verdict == "not-evaluable"
    assert checks[-1] == Check("accuracy samples scored", ">= 4395", "not reported", "unknown")


def test_pass_at_k_over_fewer_tasks_than_the_dataset_is_not_evaluable(pinned: Path) -> None:
    text = (pinned / "benchmark_suite/benchmarks/gsm8k.yaml").read_text()
    (pinned / "benchmark_suite/benchmarks/gsm8k.yaml").write_text(
        text.replace(
            "      num_repeats: 1\n", "      num_repeats: 1\n      repeat_aggregation: {method: pass_at_k, k: 1}\n"
        )
        .replace(
            "  reported_metrics:",
            "  thresholds:\n    exact_match:\n      reference: 80.0\n      lower_factor: 0.99\n"
            "      scale: percent\n  reported_metrics:",
        )
        .replace("    - generation_integrity\n", "    - generation_integrity\n    - accuracy_gate\n")
    )
    results = RunResults.model_validate(
        {
            "benchmark": "gsm8k",
            "accuracy": [
                {"dataset": "gsm8k", "scale": "fraction", "task_attempts": {"t1": [True]}, "samples_scored": 1}
            ],
        }
    )
    verdict, checks = gate(check_run(resolved_config(pinned, "gsm8k"), results), "accuracy_gate")
    assert verdict == "not-evaluable"
    assert checks[0].observed == "gsm8k: the run reported 1 tasks, the dataset has 1319"


def test_min_new_tokens_is_a_generation_parameter_a_run_can_report(pinned: Path) -> None:
    generation = [{**g.model_dump(), "min_new_tokens": 1} for g in gpt_oss_results().generation]
    assert gpt_oss_results(generation=generation).generation[0].min_new_tokens == 1


def test_odd_run_folders_are_messages_not_tracebacks(deepseek: Path, tmp_path: Path) -> None:
    from catalogctl.errors import UsageError

    config = resolved_config(deepseek, "deepseek-r1")
    folder = run_folder(tmp_path, "interactive")
    text = (folder / "config.yaml").read_text()
    (folder / "config.yaml").write_text(text.replace("  temperature: 0.0", "  temperature: hot"))
    with pytest.raises(UsageError, match=r"has an unexpected type \(temperature: Input should be a valid number\)"):
        read_run_folder(folder, config.contract)
    (folder / "config.yaml").write_text(text.replace("settings:\n", "settings: [1]\nignored:\n"))
    with pytest.raises(UsageError, match="do not have the endpoints client's shape"):
        read_run_folder(folder, config.contract)


def test_a_hand_edited_resolved_config_is_a_message(pinned: Path, tmp_path: Path) -> None:
    data = resolved_config(pinned, "gpt-oss-120b").to_data()
    del data["contract"]["accuracy"]["thresholds"]
    resolved = tmp_path / "resolved.json"
    resolved.write_text(json.dumps(data))
    results = tmp_path / "results.json"
    results.write_text(gpt_oss_results().model_dump_json(by_alias=True))
    outcome = runner.invoke(app, ["check", str(resolved), str(results)])
    assert outcome.exit_code == 2
    assert outcome.stderr.startswith("error: the resolved config's contract lacks what gate `accuracy_gate` needs")


def test_a_deeply_nested_run_config_is_a_message_not_a_crash(deepseek: Path, tmp_path: Path) -> None:
    # A 200 KB config.yaml nested 100,000 deep once crashed `check` (exit 139: libyaml's
    # recursive composer). Run the command in a child so a crash fails this test.
    resolved = tmp_path / "resolved.json"
    resolved.write_text(json.dumps(resolved_config(deepseek, "deepseek-r1").to_data()))
    folder = run_folder(tmp_path, "interactive")
    (folder / "config.yaml").write_bytes(b"a: " + b"[" * 100_000 + b"]" * 100_000 + b"\n")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run(
        [sys.executable, "-m", "catalogctl", "check", str(resolved), str(folder)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"error: {folder / 'config.yaml'}:1:67: nesting deeper than 64 levels\n"
