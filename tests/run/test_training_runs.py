"""A folder of MLLOG result files, one run (one seed) each, as a submission holds a benchmark's runs:
each run graded, the seeds judged as mlperf-logging's seed checker judges them, and the result
derived as its result summarizer derives it (the olympic mean of the times to train)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from catalogctl.run.check import check_files
from tests.helpers import replace_in, run_cli
from tests.run.test_mllog import write_log
from tests.run_results import pin_all, resolved_config

MINUTE = 60_000
# What an MLLOG can prove: without the two integrity gates (an MLLOG names no dataset digest and no
# checkpoint) a run that follows the rules is valid, and so is a folder of such runs.
_GATES = "    - dataset_integrity\n    - model_integrity\n"


def _resolved(catalog_dir: Path, tmp_path: Path, *, provable_only: bool) -> Path:
    pin_all(catalog_dir)
    if provable_only:
        replace_in(catalog_dir, "benchmark_suite/benchmarks/llm-post-training.yaml", _GATES, "")
    path = tmp_path / "resolved.json"
    path.write_text(json.dumps(resolved_config(catalog_dir, "llm-post-training").to_data()))
    return path


@pytest.fixture
def provable(catalog_dir: Path, tmp_path: Path) -> Path:
    return _resolved(catalog_dir, tmp_path, provable_only=True)


def three_runs(folder: Path, failing: tuple[int, ...] = (1,), **changes: Any) -> Path:
    """result_0..2.txt, seeds 1..3, 50, 40 and 45 minutes to train; `changes` to the `failing` runs."""
    folder.mkdir()
    for number, minutes in enumerate((50, 40, 45)):
        changed = changes if number in failing else {}
        write_log(folder / f"result_{number}.txt", train_ms=minutes * MINUTE, seed=number + 1, **changed)
    return folder


def official_result(folder: Path) -> float | None:
    """The result summarizer's score of the folder, in minutes (it runs the compliance checker on each file)."""
    from mlperf_logging.result_summarizer import result_summarizer

    score: float | None
    score, _, _ = result_summarizer._compute_strong_score_standalone(
        "qwen35_397b_grpo", "64xGB300", False, str(folder), "training", "6.1.0"
    )
    return score


@pytest.mark.conformance
def test_a_folder_of_three_valid_runs_is_valid_and_has_the_official_result(provable: Path, tmp_path: Path) -> None:
    folder = three_runs(tmp_path / "qwen35_397b_grpo")
    report = check_files(provable, folder)
    assert report.layout == "mllog-runs"
    assert [(r.run, r.passed, r.time_to_train_ms) for r in report.runs] == [
        ("result_0.txt", True, 50 * MINUTE),
        ("result_1.txt", True, 40 * MINUTE),
        ("result_2.txt", True, 45 * MINUTE),
    ]
    assert [(c.what, c.observed, c.status) for c in report.gates[0].checks] == [
        ("result_0.txt seed", 1, "pass"),
        ("result_1.txt seed", 2, "pass"),
        ("result_2.txt seed", 3, "pass"),
    ]
    assert report.passed
    assert report.score is not None
    assert (report.score.minutes, report.score.mean_of, report.score.dropped) == (45.0, ["result_2.txt"], [])
    assert report.score.minutes == official_result(folder)
    text = run_cli("check", str(provable), str(folder)).stdout
    assert "\nrun result_1.txt: VALID\n" in text
    assert "\ntime to train: 2400.0 s (run_start → run_stop)\n" in text
    assert text.endswith(
        "result: 45.00 min (olympic mean of result_2.txt; the fastest run left out and the slowest)\n"
        "\nllm-post-training runs (3 runs): VALID\n"
    )
    data = json.loads(run_cli("check", str(provable), str(folder), "--format", "json").stdout)
    assert [(r["run"], r["valid"], r["time_to_train_ms"]) for r in data["runs"]] == [
        ("result_0.txt", True, 3_000_000),
        ("result_1.txt", True, 2_400_000),
        ("result_2.txt", True, 2_700_000),
    ]
    assert data["score"] == {"minutes": 45.0, "mean_of": ["result_2.txt"], "dropped": [], "note": report.score.note}
    assert data["valid"] is True


@pytest.mark.conformance
def test_a_folder_with_a_failing_run_is_invalid_naming_it(provable: Path, tmp_path: Path) -> None:
    folder = three_runs(tmp_path / "qwen35_397b_grpo", evals=[(5120, 0.62), (5632, 0.69)])  # never beyond 0.69
    report = check_files(provable, folder)
    assert [(r.run, r.passed) for r in report.runs] == [
        ("result_0.txt", True),
        ("result_1.txt", False),
        ("result_2.txt", True),
    ]
    assert not report.passed
    assert report.score is not None
    # the summarizer drops the failing run as the slowest, and the fastest of the others: result_0's 50 min
    assert (report.score.minutes, report.score.dropped) == (50.0, ["result_1.txt"])
    assert official_result(folder) == 50.0
    text = run_cli("check", str(provable), str(folder), code=1).stdout
    assert "\nrun result_1.txt: INVALID (hard gates not passed: quality_target)\n" in text
    assert text.endswith("\nllm-post-training runs (3 runs): INVALID (runs not valid: result_1.txt)\n")
    markdown = run_cli("check", str(provable), str(folder), "--format", "markdown", code=1).stdout
    assert "#### run result_1.txt: INVALID (hard gates not passed: quality_target)\n" in markdown
    assert "\nTime to train: 2400.0 s (run_start → run_stop)\n" in markdown
    assert "\n**llm-post-training runs (3 runs): INVALID (runs not valid: result_1.txt)**\n" in markdown


@pytest.mark.conformance
def test_two_failing_runs_leave_no_result(provable: Path, tmp_path: Path) -> None:
    folder = three_runs(tmp_path / "qwen35_397b_grpo", (1, 2), opt_base_learning_rate=1.1e-6)
    report = check_files(provable, folder)
    assert report.score is not None
    assert report.score.minutes is None
    assert report.score.dropped == ["result_1.txt", "result_2.txt"]
    assert official_result(folder) is None
    text = run_cli("check", str(provable), str(folder), code=1).stdout
    assert "\nresult: none (more than one run is not valid or logged no time to train: no result)\n" in text


@pytest.mark.conformance
def test_runs_that_log_the_same_seed_at_the_same_line_fail_as_the_seed_checker(provable: Path, tmp_path: Path) -> None:
    from mlperf_logging.package_checker.seed_checker import SeedChecker

    folder = tmp_path / "qwen35_397b_grpo"
    folder.mkdir()
    files = [write_log(folder / f"result_{n}.txt", seed=7 if n < 2 else 8) for n in range(3)]
    assert not SeedChecker("6.1.0").check_seeds([str(f) for f in files])
    report = check_files(provable, folder)
    rows = [(c.what, c.observed, c.status, c.note) for c in report.gates[0].checks]
    at = next(r for r in rows if r[2] == "fail")[3]
    assert rows[0] == ("result_0.txt seed", 7, "pass", "")
    assert rows[1][:3] == ("result_1.txt seed", 7, "fail")
    assert at.startswith("result_0.txt logs it too, at ")
    assert at.endswith("tests/conformance/logs.py:" + at.rsplit(":", 1)[1])
    assert rows[2] == ("result_2.txt seed", 8, "pass", "")
    assert [r.passed for r in report.runs] == [True, True, True]
    assert not report.passed
    assert run_cli("check", str(provable), str(folder), code=1).stdout.endswith(
        "\nllm-post-training runs (3 runs): INVALID (hard gates not passed: run_seeds)\n"
    )


@pytest.mark.conformance
def test_a_run_that_logs_no_seed_fails_as_the_seed_checker(provable: Path, tmp_path: Path) -> None:
    from mlperf_logging.package_checker.seed_checker import SeedChecker

    folder = three_runs(tmp_path / "qwen35_397b_grpo")
    lines = (folder / "result_2.txt").read_text().splitlines()
    (folder / "result_2.txt").write_text("\n".join(line for line in lines if '"key": "seed"' not in line) + "\n")
    assert not SeedChecker("6.1.0").check_seeds([str(f) for f in sorted(folder.iterdir())])
    checks = check_files(provable, folder).gates[0].checks
    assert [(c.what, c.status, c.note) for c in checks][2] == ("result_2.txt seed", "fail", "no seed logged")


def test_with_the_shipped_gates_no_run_is_valid_from_its_log_alone(catalog_dir: Path, tmp_path: Path) -> None:
    resolved = _resolved(catalog_dir, tmp_path, provable_only=False)
    report = check_files(resolved, three_runs(tmp_path / "qwen35_397b_grpo"))
    assert [r.passed for r in report.runs] == [False, False, False]
    assert not report.passed
    assert report.score is not None
    assert report.score.minutes is None


@pytest.mark.conformance
def test_two_runs_leave_no_result_once_the_fastest_and_the_slowest_are_left_out(provable: Path, tmp_path: Path) -> None:
    folder = three_runs(tmp_path / "qwen35_397b_grpo")
    (folder / "result_2.txt").unlink()
    report = check_files(provable, folder)
    assert report.passed
    assert report.score is not None
    assert (report.score.minutes, report.score.note) == (
        None,
        "2 runs: none left once the fastest and the slowest are left out",
    )
    assert official_result(folder) is None
