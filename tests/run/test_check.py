"""The gates on the shipped contracts: each passing and failing, the figures behind them, and
the endpoints client's real result files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from catalogctl.errors import InputsUnusable
from catalogctl.model.documents.resolved import ResolvedConfig
from catalogctl.model.documents.results import RunResults
from catalogctl.model.reports.check import Check, CheckReport
from catalogctl.render.check import expected_text, observed_text
from catalogctl.run.check import check_run
from catalogctl.run.endpoints import read_run_folder
from catalogctl.run.gates import GATES
from tests.helpers import run_cli
from tests.run_results import (
    gpt_oss_results,
    pin_all,
    resealed,
    resolved_config,
    run_folder,
    set_deepseek_sample_count,
    sha_of,
)


@pytest.fixture
def pinned(catalog_dir: Path) -> Path:
    pin_all(catalog_dir)
    return catalog_dir


class Shown(NamedTuple):
    """A check as `catalogctl check` shows it."""

    what: str
    expected: str
    observed: str
    status: str


def gate(report: CheckReport, name: str) -> tuple[str, list[Shown]]:
    found = next(g for g in report.gates if g.name == name)
    return found.verdict, [Shown(c.what, expected_text(c), observed_text(c), c.status) for c in found.checks]


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
    assert checks == [Shown("exact_match", ">= 82.2987 (83.13 x 0.99)", "83.523", "pass")]
    _, requirements = gate(report, "requirements")
    assert requirements[-1] == Shown("accuracy samples scored", ">= 4395", "4395", "pass")  # 8x30 + 5x198 + 3x1055


def test_accuracy_below_99_percent_of_reference_fails(pinned: Path) -> None:
    accuracy: list[dict[str, Any]] = [
        {"dataset": "aime25", "scale": "fraction", "repeat_scores": [0.9] * 8, "samples_scored": 240},
        {"dataset": "gpqa", "scale": "fraction", "repeat_scores": [0.8] * 5, "samples_scored": 990},
        {"dataset": "livecodebench", "scale": "fraction", "repeat_scores": [0.80] * 3, "samples_scored": 3165},
    ]
    report = check_run(resolved_config(pinned, "gpt-oss-120b"), gpt_oss_results(accuracy=accuracy))
    verdict, checks = gate(report, "accuracy_gate")
    assert verdict == "fail"
    assert checks == [Shown("exact_match", ">= 82.2987 (83.13 x 0.99)", "80.2338", "fail")]
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
    assert checks[-1] == Shown("accuracy samples scored", ">= 4395", "4394", "fail")


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        (
            "duration_ms",
            599999.0,
            Shown("duration_ms at concurrency 8 (min_duration_ms up to 32)", ">= 600000 ms", "599999 ms", "fail"),
        ),
        ("sample_count", 6395, Shown("sample_count", ">= 6396", "6395", "fail")),
        ("context_length", 32768, Shown("context_length", ">= 65536", "32768", "fail")),
        ("ttft_p99_ms", 3000.5, Shown("ttft_p99_ms", "<= 3000 ms", "3000.5 ms", "fail")),
        ("tpot_p99_ms", None, Shown("tpot_p99_ms", "<= 80 ms", "not reported", "unknown")),
    ],
)
def test_performance_requirements(pinned: Path, field: str, value: object, expected: Shown) -> None:
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


def test_generation_as_contracted(pinned: Path) -> None:
    generation = [g.model_dump() for g in gpt_oss_results().generation]
    generation[2]["max_new_tokens"] = 10240  # gpqa run without the override
    report = check_run(resolved_config(pinned, "gpt-oss-120b"), gpt_oss_results(generation=generation))
    verdict, checks = gate(report, "generation_integrity")
    assert verdict == "fail"
    assert [c for c in checks if c.status == "fail"] == [
        Shown("accuracy gpqa max_new_tokens", "32768", "10240", "fail")
    ]


def test_a_run_of_another_api_type_is_refused_not_graded(pinned: Path) -> None:
    # Was graded: generation_integrity failed on one row, the other gates passed on theirs.
    with pytest.raises(InputsUnusable) as raised:
        check_run(resolved_config(pinned, "gpt-oss-120b"), gpt_oss_results(api_type="openai_completions"))
    assert str(raised.value) == "this run is of API type `openai_completions`; the contract is of API type `openai`"


def test_seeds_must_be_exactly_the_resolved_set(pinned: Path) -> None:
    seeds = {"scheduler_rng_seed": 16159082839903944937, "sample_index_rng_seed": 2747215439041700203, "model_seed": 42}
    verdict, checks = gate(check_run(resolved_config(pinned, "gpt-oss-120b"), gpt_oss_results(seeds=seeds)), "seeds")
    assert verdict == "fail"
    assert checks[0] == Shown("scheduler_rng_seed", "16159082839903944936", "16159082839903944937", "fail")


def test_dataset_integrity(pinned: Path, catalog_dir: Path) -> None:
    datasets = [d.model_dump() for d in gpt_oss_results().datasets]
    datasets[2]["sha256"] = None
    verdict, checks = gate(
        check_run(resolved_config(pinned, "gpt-oss-120b"), gpt_oss_results(datasets=datasets)), "dataset_integrity"
    )
    assert verdict == "not-evaluable"
    assert [(c.what, c.status) for c in checks] == [
        ("gpt_oss_perf sha256", "pass"),
        ("aime25 sha256", "pass"),
        ("gpqa sha256", "unknown"),
        ("livecodebench sha256", "pass"),
    ]


def test_a_run_of_other_data_is_refused_not_graded(pinned: Path) -> None:
    datasets = [d.model_dump() for d in gpt_oss_results().datasets]
    datasets[1]["sha256"] = "0" * 64
    with pytest.raises(InputsUnusable) as raised:
        check_run(resolved_config(pinned, "gpt-oss-120b"), gpt_oss_results(datasets=datasets))
    assert str(raised.value) == (
        f"this run loaded dataset `aime25` with sha256 {'0' * 64}; the contract's is {sha_of('aime25')}: "
        "it is a run of other data"
    )


def test_model_integrity_is_soft(pinned: Path) -> None:
    report = check_run(resolved_config(pinned, "gpt-oss-120b"), gpt_oss_results(model_sha="f" * 40))
    assert gate(report, "model_integrity")[0] == "fail"
    assert report.passed  # a soft gate warns


def test_results_of_another_benchmark_are_refused(pinned: Path) -> None:
    with pytest.raises(InputsUnusable) as raised:
        check_run(resolved_config(pinned, "gsm8k"), gpt_oss_results())
    assert str(raised.value) == "this run is of benchmark `gpt-oss-120b`; the contract is of benchmark `gsm8k`"


# -- the post-training benchmark -----------------------------------------------------------------


SUCCESS = Shown("run_stop status", "success", "success", "pass")  # the run says it converged


def training_results(**overrides: Any) -> RunResults:
    data: dict[str, Any] = {
        "benchmark": "llm-post-training",
        "model": "Qwen/Qwen3.5-397B-A17B",
        "model_sha": None,
        "seeds": {
            "scheduler_rng_seed": 16159082839903944936,
            "sample_index_rng_seed": 2747215439041700203,
            "model_seed": 42,
        },
        "datasets": [{"dataset": "r2e-gym-subset", "phase": "validation", "sha256": None}],
        "generation": [{"phase": "validation", "temperature": 0.1, "top_p": 0.95}],
        "metrics": {"pass_at_4": 0.70},
        "training": {"gbs": 512, "first_evaluation_samples": 5120, "status": "success"},
    }
    data.update(overrides)
    return RunResults.model_validate(data)


def test_post_training_follows_the_official_rules_exactly(pinned: Path) -> None:
    # closed_qwen35_397b_grpo.yaml: converged only beyond 0.69, first evaluation exactly at the formula.
    config = resolved_config(pinned, "llm-post-training")
    at_target = check_run(
        config,
        training_results(
            metrics={"pass_at_4": 0.69}, training={"gbs": 256, "first_evaluation_samples": 4864, "status": "success"}
        ),
    )
    assert gate(at_target, "quality_target") == ("fail", [Shown("pass_at_4", "> 0.69", "0.69", "fail"), SUCCESS])
    assert gate(at_target, "evaluation_schedule") == (
        "fail",
        [Shown("first evaluation at gbs 256", "4608 samples", "4864 samples", "fail")],
    )


def test_post_training_quality_target_and_schedule(pinned: Path) -> None:
    config = resolved_config(pinned, "llm-post-training")
    report = check_run(config, training_results())
    assert gate(report, "quality_target") == ("pass", [Shown("pass_at_4", "> 0.69", "0.7", "pass"), SUCCESS])
    assert gate(report, "evaluation_schedule") == (
        "pass",
        [Shown("first evaluation at gbs 512", "5120 samples", "5120 samples", "pass")],
    )
    missed = check_run(
        config, training_results(metrics={"pass_at_4": 0.68}, training={"gbs": 256, "first_evaluation_samples": 4000})
    )
    assert gate(missed, "quality_target")[1] == [
        Shown("pass_at_4", "> 0.69", "0.68", "fail"),
        Shown("run_stop status", "success", "not reported", "unknown"),
    ]
    assert gate(missed, "evaluation_schedule")[1] == [
        Shown("first evaluation at gbs 256", "4608 samples", "4000 samples", "fail")
    ]
    unknown = check_run(config, training_results(metrics={"pass_at_4": None}, training=None))
    # Not reported is not a measured miss: the gate cannot be evaluated, and the run is not valid.
    assert gate(unknown, "quality_target") == (
        "not-evaluable",
        [
            Shown("pass_at_4", "> 0.69", "not reported", "unknown"),
            Shown("run_stop status", "success", "not reported", "unknown"),
        ],
    )
    assert gate(unknown, "evaluation_schedule")[1] == [
        Shown("first evaluation", "gbs * ceil(2.5 + 3840 / gbs)", "gbs not reported", "unknown")
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
            "training_rules",
        ]
    )


# -- the endpoints client's real files -----------------------------------------------------------


@pytest.fixture
def deepseek(pinned: Path) -> Path:
    return set_deepseek_sample_count(pinned)


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
    # Poisson at 170 QPS for 2,078 s: held to §6.2's open tier (1,200 s), and past it.
    assert gate(report, "requirements")[1][0] == Shown(
        "duration_ms at poisson 170.0 QPS (min_duration_ms above 32)",
        ">= 1200000 ms",
        "2077965.3 ms",
        "pass",
    )
    assert gate(report, "accuracy_gate")[1] == [
        Shown("exact_match", ">= 80.544618 (81.3582 x 0.99)", "80.629", "pass"),
        Shown("TOKENS_PER_SAMPLE", ">= 3497.60466 (3886.2274 x 0.9)", "3825.63", "pass"),
        Shown("TOKENS_PER_SAMPLE", "<= 4274.85014 (3886.2274 x 1.1)", "3825.63", "pass"),
    ]
    assert not report.passed  # facts the files do not carry never pass


def test_a_non_streaming_run_has_no_ttft(deepseek: Path, tmp_path: Path) -> None:
    config = resolved_config(deepseek, "deepseek-r1")
    results = read_run_folder(run_folder(tmp_path, "offline", with_accuracy=False), config.contract)
    assert results.performance is not None
    assert results.performance.ttft_p99_ms is None
    assert results.accuracy == []
    report = check_run(config, results)
    # No accuracy file: neither the score nor TOKENS_PER_SAMPLE was reported, and both say so alike.
    assert gate(report, "accuracy_gate") == (
        "not-evaluable",
        [
            Shown(
                "exact_match",
                ">= 80.544618 (81.3582 x 0.99)",
                "the run reported no accuracy for mlperf_deepseek_r1",
                "unknown",
            ),
            Shown(
                "TOKENS_PER_SAMPLE",
                ">= 3497.60466 (3886.2274 x 0.9)",
                "the run did not report TOKENS_PER_SAMPLE",
                "unknown",
            ),
            Shown(
                "TOKENS_PER_SAMPLE",
                "<= 4274.85014 (3886.2274 x 1.1)",
                "the run did not report TOKENS_PER_SAMPLE",
                "unknown",
            ),
        ],
    )
    assert "accuracy_gate" in [g.name for g in report.gates if g.verdict != "pass"]
    assert not report.passed


def test_check_json_writes_numbers_as_numbers(deepseek: Path, tmp_path: Path) -> None:
    resolved = tmp_path / "resolved.json"
    resolved.write_text(json.dumps(resolved_config(deepseek, "deepseek-r1").to_data()))
    done = run_cli("check", str(resolved), str(run_folder(tmp_path, "interactive")), "-f", "json", code=1)
    checks = {(g["name"], c["what"], c["bound"]): c for g in json.loads(done.stdout)["gates"] for c in g["checks"]}
    exact_match = checks[("accuracy_gate", "exact_match", ">=")]
    assert (exact_match["expected"], exact_match["reference"], exact_match["factor"]) == (80.544618, 81.3582, 0.99)
    assert exact_match["observed"] == pytest.approx(80.629, abs=5e-4)  # the score itself, not "80.629"
    duration = checks[("requirements", "duration_ms at poisson 170.0 QPS (min_duration_ms above 32)", ">=")]
    assert (duration["expected"], duration["unit"]) == (1200000, "ms")
    assert duration["observed"] == pytest.approx(2077965.287526)
    seed = checks[("seeds", "scheduler_rng_seed", None)]
    assert (seed["expected"], seed["observed"]) == (16159082839903944936, 16159082839903944936)  # exact
    assert checks[("seeds", "model_seed", None)]["observed"] is None  # not reported
    sha = checks[("dataset_integrity", "mlperf_deepseek_r1 sha256", None)]
    assert isinstance(sha["expected"], str)


def test_check_command_exit_codes_and_formats(deepseek: Path, tmp_path: Path, pinned: Path) -> None:
    resolved = tmp_path / "resolved.json"
    resolved.write_text(json.dumps(resolved_config(deepseek, "deepseek-r1").to_data()))
    result = run_cli("check", str(resolved), str(run_folder(tmp_path, "interactive")), code=1)
    lines = result.stdout.splitlines()
    assert lines[0] == f"source: endpoints run folder {tmp_path / 'interactive'}"
    assert (
        lines[-1] == "deepseek-r1: INVALID (hard gates not passed: dataset_integrity, seeds); warnings: model_integrity"
    )
    as_json = json.loads(run_cli("check", str(resolved), str(tmp_path / "interactive"), "-f", "json", code=1).stdout)
    assert as_json["schema"] == "catalogctl/check/v1"
    assert as_json["valid"] is False
    markdown = run_cli("check", str(resolved), str(tmp_path / "interactive"), "-f", "markdown", code=1).stdout
    rows = markdown.splitlines()
    at = rows.index("| **accuracy_gate (hard)** | **pass** | | |")
    assert rows[at + 1 : at + 5] == [
        "| exact_match | pass | >= 80.544618 (81.3582 x 0.99) | 80.629 |",
        "| TOKENS_PER_SAMPLE | pass | >= 3497.60466 (3886.2274 x 0.9) | 3825.63 |",
        "| TOKENS_PER_SAMPLE | pass | &lt;= 4274.85014 (3886.2274 x 1.1) | 3825.63 |",
        "",
    ]

    good = tmp_path / "gpt.json"
    good.write_text(json.dumps(resolved_config(pinned, "gpt-oss-120b").to_data()))
    results = tmp_path / "results.json"
    results.write_text(gpt_oss_results().model_dump_json(by_alias=True))
    ok = run_cli("check", str(good), str(results))
    assert ok.stdout.splitlines()[-1] == "gpt-oss-120b: VALID"
    missing = run_cli("check", str(good), str(tmp_path / "nope.json"), code=2)
    assert missing.stderr.startswith("error: cannot read ")
    bad = tmp_path / "bad.json"
    bad.write_text('{"benchmark": "gpt-oss-120b", "seeds": {"model_seed": true}}')
    invalid = run_cli("check", str(good), str(bad), code=2)  # inputs not usable (was 1, as a failed run)
    assert "seeds.model_seed" in invalid.stderr


def test_gates_and_metrics_listings(catalog_dir: Path) -> None:
    gates = run_cli("gates", "--format", "json")
    data = json.loads(gates.stdout)
    assert {g["name"]: g["severity"] for g in data["gates"]}["model_integrity"] == "soft"
    metrics = run_cli("metrics", "-C", str(catalog_dir))
    assert metrics.stdout.splitlines()[0].split() == ["KEY", "LABEL", "UNIT", "DIRECTION"]


@pytest.mark.parametrize(
    ("metrics", "note"),
    [
        ({}, "the run did not report TOKENS_PER_SAMPLE"),
        ({"TOKENS_PER_SAMPLE": None}, "TOKENS_PER_SAMPLE was reported as null"),
    ],
)
def test_a_missing_or_null_threshold_metric_is_not_evaluable(
    deepseek: Path, tmp_path: Path, metrics: dict[str, Any], note: str
) -> None:
    config = resolved_config(deepseek, "deepseek-r1")
    results = read_run_folder(run_folder(tmp_path, "interactive"), config.contract)
    report = check_run(config, results.model_copy(update={"metrics": metrics}))
    assert gate(report, "accuracy_gate") == (
        "not-evaluable",
        [
            Shown("exact_match", ">= 80.544618 (81.3582 x 0.99)", "80.629", "pass"),
            Shown("TOKENS_PER_SAMPLE", ">= 3497.60466 (3886.2274 x 0.9)", note, "unknown"),
            Shown("TOKENS_PER_SAMPLE", "<= 4274.85014 (3886.2274 x 1.1)", note, "unknown"),
        ],
    )
    assert "accuracy_gate" in [g.name for g in report.gates if g.severity == "hard" and g.verdict != "pass"]


def test_a_fact_the_run_did_not_report_has_one_status_in_every_gate(pinned: Path) -> None:
    # Once `fail` where a threshold's metric was missing and `unknown` where a requirement's was.
    contract = resolved_config(pinned, "gpt-oss-120b")
    accuracy = [{"dataset": "aime25", "scale": "fraction", "repeat_scores": [0.9] * 8, "samples_scored": 240}]
    report = check_run(
        contract,
        gpt_oss_results(model_sha=None, seeds={}, datasets=[], generation=[], performance=None, accuracy=accuracy),
    )
    missing = {(g.name, c.what, c.status) for g in report.gates for c in g.checks if c.observed is None}
    assert {status for _, _, status in missing} == {"unknown"}
    assert {name for name, _, _ in missing} == {g.name for g in report.gates}
    assert {g.name: g.verdict for g in report.gates} == {
        "dataset_integrity": "not-evaluable",
        "model_integrity": "not-evaluable",
        "generation_integrity": "not-evaluable",
        "seeds": "not-evaluable",
        "requirements": "not-evaluable",
        "accuracy_gate": "not-evaluable",
    }
    training = check_run(resolved_config(pinned, "llm-post-training"), training_results(metrics={}, training=None))
    shown = {g.name: (g.verdict, [c.status for c in g.checks]) for g in training.gates}
    assert shown["evaluation_schedule"] == ("not-evaluable", ["unknown"])
    assert shown["quality_target"] == ("not-evaluable", ["unknown", "unknown"])
    assert shown["training_rules"][0] == "not-evaluable"
    assert set(shown["training_rules"][1]) == {"unknown"}
    assert not report.passed
    assert not training.passed


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
    # As in accuracy_gate: a value off its scale cannot be judged, so the gate is not evaluable.
    assert gate(report, "quality_target") == (
        "not-evaluable",
        [Shown("pass_at_4", "> 0.69", "pass_at_4: 69 is not a fraction (0..1)", "unknown"), SUCCESS],
    )
    assert not report.passed


def test_a_lower_is_better_quality_metric_off_its_scale_keeps_its_bound(pinned: Path) -> None:
    data = resolved_config(pinned, "llm-post-training").to_data()
    data["contract"]["metrics"]["pass_at_4"]["direction"] = "lower"  # a contract frozen so
    report = check_run(ResolvedConfig.model_validate(resealed(data)), training_results(metrics={"pass_at_4": 69.0}))
    assert gate(report, "quality_target")[1] == [
        Shown("pass_at_4", "<= 0.69", "pass_at_4: 69 is not a fraction (0..1)", "unknown"),
        SUCCESS,
    ]


def test_a_run_reporting_another_dataset_is_refused(pinned: Path) -> None:
    # Its samples once counted towards the contract's minimum; now the run is not graded at all.
    accuracy = [
        {"dataset": "aime25", "scale": "fraction", "repeat_scores": [0.9] * 8, "samples_scored": 240},
        {"dataset": "gpqa", "scale": "fraction", "repeat_scores": [0.8] * 5, "samples_scored": 990},
        {"dataset": "gsm8k", "scale": "fraction", "repeat_scores": [0.8], "samples_scored": 3165},
    ]
    with pytest.raises(InputsUnusable) as raised:
        check_run(resolved_config(pinned, "gpt-oss-120b"), gpt_oss_results(accuracy=accuracy))
    assert str(raised.value) == (
        "this run is of dataset `gsm8k`; the contract is of dataset `aime25` or `gpqa` or `gpt_oss_perf` or "
        "`livecodebench`"
    )


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
            "model": "llama3-1-8b",
            "accuracy": [
                {"dataset": "gsm8k", "scale": "fraction", "task_attempts": {"t1": [True]}, "samples_scored": 1}
            ],
        }
    )
    verdict, checks = gate(check_run(resolved_config(pinned, "gsm8k"), results), "accuracy_gate")
    assert verdict == "not-evaluable"
    assert checks[0].observed == "gsm8k: the run reported 1 task, the dataset has 1319"


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
    with pytest.raises(UsageError) as raised:
        read_run_folder(folder, config.contract)
    assert str(raised.value) == (
        f"{folder / 'config.yaml'} does not have the endpoints client's shape: settings is a list, not a mapping"
    )


@pytest.mark.parametrize(
    ("name", "edit", "problem"),
    [
        ("config.yaml", lambda d: ["a list"], "the document is a list, not a mapping"),
        (
            "config.yaml",
            lambda d: {**d, "datasets": {"a": 1}},
            "datasets is a mapping, not a list; datasets.a is a number, not a mapping",
        ),
        (
            "config.yaml",
            lambda d: {**d, "datasets": [*d["datasets"][:1], None, {"accuracy_config": {"eval_method": ["x"]}}]},
            "datasets[1] is null, not a mapping; datasets[2].accuracy_config.eval_method is a list, not a string",
        ),
        ("performance/result_summary.json", lambda d: [d], "the document is a list, not a mapping"),
        (
            "performance/result_summary.json",
            lambda d: {**d, "ttft": {"percentiles": [1, 2]}},
            "ttft.percentiles is a list, not a mapping",
        ),
        (
            "accuracy/accuracy_results.json",
            lambda d: {"accuracy_scores": [7, {"output_sequence_lengths": "long"}]},
            "accuracy_scores[0] is a number, not a mapping; "
            "accuracy_scores[1].output_sequence_lengths is a string, not a mapping",
        ),
    ],
)
def test_a_run_file_of_another_shape_names_the_file_and_key(
    deepseek: Path, tmp_path: Path, name: str, edit: Any, problem: str
) -> None:
    from catalogctl.errors import UsageError
    from catalogctl.io.yamlio import dump_yaml, read_foreign_yaml

    folder = run_folder(tmp_path, "interactive")
    path = folder / name
    if name.endswith(".json"):
        path.write_text(json.dumps(edit(json.loads(path.read_text()))))
    else:
        path.write_text(dump_yaml(edit(read_foreign_yaml(path.read_bytes()))))
    with pytest.raises(UsageError) as raised:
        read_run_folder(folder, resolved_config(deepseek, "deepseek-r1").contract)
    assert str(raised.value) == f"{path} does not have the endpoints client's shape: {problem}"


def test_a_bug_in_the_endpoints_reader_is_an_internal_error(
    deepseek: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    resolved = tmp_path / "resolved.json"
    resolved.write_text(json.dumps(resolved_config(deepseek, "deepseek-r1").to_data()))

    def buggy(block: Any) -> float:
        raise TypeError("unsupported operand type(s) for /: 'str' and 'int'")

    monkeypatch.setattr("catalogctl.run.endpoints._p99_ms", buggy)
    outcome = run_cli("check", str(resolved), str(run_folder(tmp_path, "interactive")), code=70)
    assert outcome.stdout == ""
    assert outcome.stderr == (
        "internal error: TypeError: unsupported operand type(s) for /: 'str' and 'int'; "
        "rerun with --traceback and report it\n"
    )


def _write_check_inputs(tmp_path: Path, data: dict[str, Any], results: RunResults) -> tuple[Path, Path]:
    resolved = tmp_path / "resolved.json"
    resolved.write_text(json.dumps(data))
    results_file = tmp_path / "results.json"
    results_file.write_text(results.model_dump_json(by_alias=True))
    return resolved, results_file


def test_a_hand_edited_resolved_config_is_a_message(pinned: Path, tmp_path: Path) -> None:
    data = resolved_config(pinned, "gpt-oss-120b").to_data()
    del data["contract"]["accuracy"]["thresholds"]
    resolved, results = _write_check_inputs(tmp_path, resealed(data), gpt_oss_results())  # digests made to match
    outcome = run_cli("check", str(resolved), str(results), code=2)
    assert outcome.stdout == ""
    assert outcome.stderr == (
        f"error: {resolved} cannot be checked: contract.accuracy.thresholds is missing\n"
        "hint: write resolved configs with `catalogctl resolve` or `preflight`\n"
    )


def _drop(data: dict[str, Any], *path: str) -> None:
    for key in path[:-1]:
        data = data[key]
    del data[path[-1]]


def _generation_integrity_without_generation(contract: dict[str, Any]) -> None:
    contract["postprocessing"]["gates"].append("generation_integrity")
    _drop(contract, "validation", "generation")


@pytest.mark.parametrize(
    ("benchmark", "edit", "problem"),
    [
        ("gpt-oss-120b", lambda c: _drop(c, "postprocessing"), "contract.postprocessing is missing"),
        ("gpt-oss-120b", lambda c: _drop(c, "model", "sha"), "contract.model.sha is missing"),
        ("gpt-oss-120b", lambda c: _drop(c, "metrics", "exact_match"), "contract.metrics.exact_match is missing"),
        (
            "gpt-oss-120b",
            lambda c: c["accuracy"].update(thresholds=[]),
            "contract.accuracy.thresholds is a list, not a mapping",
        ),
        (
            "gpt-oss-120b",
            lambda c: c["accuracy"]["datasets"][1].pop("generation"),
            "contract.accuracy.datasets[1].generation is missing",
        ),
        (
            "gpt-oss-120b",
            lambda c: c["performance"].update(requirements=7),
            "contract.performance.requirements is a number, not a mapping",
        ),
        (
            "llm-post-training",
            lambda c: c["postprocessing"]["gates"].append("accuracy_gate"),
            "contract.postprocessing.gates names `accuracy_gate`, a gate of inference benchmarks",
        ),
        (
            "llm-post-training",
            lambda c: _drop(c, "metrics", "pass_at_4", "direction"),
            "contract.metrics.pass_at_4.direction is missing",
        ),
        (
            "llm-post-training",
            _generation_integrity_without_generation,
            "contract.validation.generation is missing",
        ),
        (
            "llm-post-training",
            lambda c: _drop(c, "evaluation_schedule"),
            "contract.evaluation_schedule is missing",
        ),
    ],
)
def test_what_the_gates_read_is_checked_before_they_run(pinned: Path, benchmark: str, edit: Any, problem: str) -> None:
    from catalogctl.errors import InputsUnusable
    from catalogctl.model.documents.resolved import ResolvedConfig

    data = resolved_config(pinned, benchmark).to_data()
    edit(data["contract"])
    with pytest.raises(InputsUnusable) as raised:
        check_run(ResolvedConfig.model_validate(resealed(data)), gpt_oss_results())  # digests made to match
    said = [str(raised.value), *(f"{d.message}" for d in raised.value.diagnostics)]
    where = problem.split(" ")[0].replace("[", ".").replace("]", "")  # pydantic writes datasets.1
    assert any(where in line for line in said), said


def test_a_bug_in_a_gate_is_an_internal_error_not_a_usage_error(
    pinned: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dataclasses

    def buggy(run: Any) -> list[Check]:
        raise KeyError("thresholds")

    monkeypatch.setitem(GATES, "accuracy_gate", dataclasses.replace(GATES["accuracy_gate"], function=buggy))
    resolved, results = _write_check_inputs(
        tmp_path, resolved_config(pinned, "gpt-oss-120b").to_data(), gpt_oss_results()
    )
    outcome = run_cli("check", str(resolved), str(results), code=70)
    assert outcome.stdout == ""
    assert outcome.stderr == "internal error: KeyError: 'thresholds'; rerun with --traceback and report it\n"


@pytest.fixture
def gpt_oss_run(pinned: Path, tmp_path: Path) -> Path:
    results = tmp_path / "results.json"
    results.write_text(gpt_oss_results().model_dump_json(by_alias=True))
    return results


def test_a_resolved_config_that_is_not_json_is_a_usage_error(gpt_oss_run: Path, tmp_path: Path) -> None:
    resolved = tmp_path / "resolved.json"
    resolved.write_text("{")
    assert run_cli("check", resolved, gpt_oss_run, code=2).stderr == (
        f"error: {resolved} is not a resolved config: Expecting property name enclosed in double quotes: "
        "line 1 column 2 (char 1)\n"
    )


def test_a_resolved_config_missing_its_parts_lists_each(gpt_oss_run: Path, tmp_path: Path) -> None:
    resolved = tmp_path / "resolved.yaml"
    resolved.write_text("schema: catalogctl/resolved/v1\nseeds: 1\n")
    assert run_cli("check", resolved, gpt_oss_run, code=2).stderr.splitlines() == [
        f"error: {resolved}: not a valid resolved config",
        f"  {resolved}: error schema-invalid-value: submission_ref: Field required",
        f"  {resolved}: error schema-invalid-value: contract: Field required",
        f"  {resolved}: error schema-invalid-value: seeds: Input should be a valid dictionary or "
        "instance of ResolvedSeeds",
        f"  {resolved}: error schema-invalid-value: provenance: Field required",
        "hint: write it with `catalogctl resolve` or `preflight`",
    ]


def test_a_contract_without_its_id_is_no_resolved_contract(pinned: Path, gpt_oss_run: Path, tmp_path: Path) -> None:
    data = resolved_config(pinned, "gpt-oss-120b").to_data()
    del data["contract"]["id"]
    resolved = tmp_path / "resolved.json"
    resolved.write_text(json.dumps(resealed(data)))  # digests made to match: the shape still refuses it
    assert run_cli("check", resolved, gpt_oss_run, code=2).stderr == (
        f"error: {resolved}: contract.id is missing, but submission_ref.benchmark is 'gpt-oss-120b'\n"
        "hint: resolve it again (catalogctl resolve or preflight) and rerun the check on that file\n"
    )


def test_a_gate_this_tool_does_not_know_cannot_pass(pinned: Path, gpt_oss_run: Path, tmp_path: Path) -> None:
    data = resolved_config(pinned, "gpt-oss-120b").to_data()
    data["contract"]["postprocessing"]["gates"].append("vibes_check")  # e.g. written by a newer catalogctl
    resolved = tmp_path / "resolved.json"
    resolved.write_text(json.dumps(resealed(data)))
    lines = run_cli("check", resolved, gpt_oss_run, code=1).stdout.splitlines()
    assert lines[-3:] == [
        "vibes_check (hard)" + " " * 41 + "NOT EVALUABLE",
        "  vibes_check" + " " * 46 + "UNKNOWN        a registered gate" + " " * 49 + "unknown",
        "gpt-oss-120b: INVALID (hard gates not passed: vibes_check)",
    ]


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


# -- a requirement that depends on the submitter's load (rules §6.2) --------------------------------


def _gpt_oss_at(pinned: Path, load: dict[str, Any], duration_ms: float) -> tuple[str, list[Shown]]:
    performance = {**gpt_oss_results().performance.model_dump(), "duration_ms": duration_ms}  # type: ignore[union-attr]
    report = check_run(resolved_config(pinned, "gpt-oss-120b", load), gpt_oss_results(performance=performance))
    verdict, checks = gate(report, "requirements")
    return verdict, [c for c in checks if c.what.startswith("duration_ms")]


def test_the_minimum_duration_at_concurrency_16_is_600_s(pinned: Path) -> None:
    verdict, duration = _gpt_oss_at(pinned, {"type": "concurrency", "target_concurrency": 16}, 700_000.0)
    assert verdict == "pass"
    assert duration == [
        Shown("duration_ms at concurrency 16 (min_duration_ms up to 32)", ">= 600000 ms", "700000 ms", "pass")
    ]


def test_the_minimum_duration_above_concurrency_32_is_1200_s(pinned: Path) -> None:
    # Was `duration_ms >= 600000 ms pass`: 600 s flat, where §6.2 asks 1,200 s above concurrency 32.
    verdict, duration = _gpt_oss_at(pinned, {"type": "concurrency", "target_concurrency": 64}, 700_000.0)
    assert verdict == "fail"
    assert duration == [
        Shown("duration_ms at concurrency 64 (min_duration_ms above 32)", ">= 1200000 ms", "700000 ms", "fail")
    ]
    assert _gpt_oss_at(pinned, {"type": "concurrency", "target_concurrency": 32}, 700_000.0)[0] == "pass"


def test_a_poisson_load_takes_the_open_tier(pinned: Path) -> None:
    verdict, duration = _gpt_oss_at(pinned, {"type": "poisson", "target_qps": 170.0}, 700_000.0)
    assert verdict == "fail"
    assert duration == [
        Shown(
            "duration_ms at poisson 170.0 QPS (min_duration_ms above 32)",
            ">= 1200000 ms",
            "700000 ms",
            "fail",
        )
    ]
