"""What a submission point states beyond the endpoints client's files, and what those files record
that the run never applied: the steady-state window §6.2's minimum duration is measured on (§4.4),
the context length the endpoint served (a requirement no client file records), and the model seed
the client's completions adapter never sends."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import run_cli, write
from tests.run_results import SET_A, pin_all, resolved_config, run_folder, set_deepseek_sample_count
from tests.submission_points import Point, point_folder

GPT_OSS_SERVED = "openai/gpt-oss-120b"


@pytest.fixture
def resolved(catalog_dir: Path, tmp_path: Path) -> Path:
    """A resolved deepseek-r1 config (set A of the tests, cohort 2026-09-C0)."""
    set_deepseek_sample_count(catalog_dir)
    pin_all(catalog_dir)
    return write(tmp_path, "resolved.json", json.dumps(resolved_config(catalog_dir, "deepseek-r1").to_data()))


def _checks(report: dict[str, Any], gate: str, start: str = "") -> list[dict[str, Any]]:
    found = next(g for g in report["gates"] if g["name"] == gate)
    return [c for c in found["checks"] if c["what"].startswith(start)]


def _window(duration_s: object) -> dict[str, Any]:
    """A §4.4 steady_state block as the checker's SteadyState reads it."""
    window = {"super_pass_start": 1, "super_pass_end": 6, "super_pass_size": 4388, "n_samples": 26328}
    return {
        "steady_state": {
            "status": "windowable",
            "verdict": "STEADY STATE",
            "window": {**window, **({"duration_s": duration_s} if duration_s is not None else {})},
            "state": {"ttft_p50": "Plateau", "ttft_p90": "Plateau", "tpot_p50": "Plateau", "tpot_p90": "Plateau"},
        }
    }


# -- §4.4: §6.2's minimum on the steady-state window --------------------------------------------------


def test_the_minimum_duration_is_measured_on_the_declared_steady_state_window(resolved: Path, tmp_path: Path) -> None:
    # Was the whole run's 900 s, a pass: the checker (and §4.4) measure the window's 500 s, a fail.
    point = Point(16, duration_s=900.0, extra=_window(500.0))
    report = json.loads(run_cli("check", resolved, point_folder(tmp_path / "r16", point), "-f", "json", code=1).stdout)
    [duration] = _checks(report, "requirements", "duration_ms")
    assert (duration["what"], duration["observed"], duration["expected"], duration["status"]) == (
        "duration_ms of the steady-state window at concurrency 16 (min_duration_ms up to 32)",
        500_000.0,
        600_000,
        "fail",
    )
    assert duration["note"] == "the steady-state window's issue-time span (§4.4)"
    # Above concurrency 32: a window of 1,300 s in a run of 1,250 s passes §6.2's 1,200 s, as the checker says.
    point = Point(64, duration_s=1_100.0, extra=_window(1_300.0))
    report = json.loads(run_cli("check", resolved, point_folder(tmp_path / "r64", point), "-f", "json", code=1).stdout)
    assert [(c["observed"], c["status"]) for c in _checks(report, "requirements", "duration_ms")] == [
        (1_300_000.0, "pass")
    ]


def test_a_point_without_a_window_falls_back_to_the_whole_run(resolved: Path, tmp_path: Path) -> None:
    for name, extra in (("none", {}), ("no-duration", _window(None))):
        point = Point(16, duration_s=700.0, extra=extra)
        folder = point_folder(tmp_path / name / "r16", point)
        report = json.loads(run_cli("check", resolved, folder, "-f", "json", code=1).stdout)
        [duration] = _checks(report, "requirements", "duration_ms")
        assert (duration["what"], duration["observed"], duration["status"], duration["note"]) == (
            "duration_ms at concurrency 16 (min_duration_ms up to 32)",
            700_000.0,
            "pass",
            "",  # the whole run, §4.4's fallback
        )


@pytest.mark.parametrize("value", ["600", True, -1.0, [600]])
def test_a_window_duration_that_is_no_number_of_seconds_is_refused(
    resolved: Path, tmp_path: Path, value: object
) -> None:
    folder = point_folder(tmp_path / "r16", Point(16, extra=_window(value)))
    done = run_cli("check", resolved, folder, code=2)
    assert done.stderr.startswith(
        f"error: {folder / 'point.yaml'}: steady_state.window.duration_s is not a number of seconds"
    )


# -- a model seed the client never sends ----------------------------------------------------------------


def test_a_model_seed_the_completions_adapter_never_sends_is_no_evidence(resolved: Path, tmp_path: Path) -> None:
    # Was a pass of `seeds` and of point_declaration's model_seed row: config.yaml's model_params.seed
    # equals the set's, but the client's openai_completions adapter never sends it to the server.
    folder = point_folder(tmp_path / "r16", Point(16, record_model_seed=True))
    report = json.loads(run_cli("check", resolved, folder, "-f", "json", code=1).stdout)
    [model_seed] = _checks(report, "seeds", "model_seed")
    seen = (model_seed["expected"], model_seed["observed"], model_seed["status"])
    assert seen == (SET_A["model_seed"], None, "unknown")
    assert model_seed["note"] == (
        "config.yaml's model_params.seed (42) was never sent: the endpoints client's openai_completions "
        "adapter sends no seed (mlcommons/endpoints ea332753, src/inference_endpoint/openai/completions_adapter.py)"
    )
    assert _checks(report, "point_declaration", "model_seed recorded") == []
    assert next(g for g in report["gates"] if g["name"] == "seeds")["verdict"] == "not-evaluable"


def test_a_run_folder_of_the_completions_api_has_no_model_seed_either(resolved: Path, tmp_path: Path) -> None:
    folder = run_folder(tmp_path, "interactive")
    config = folder / "config.yaml"
    config.write_text(config.read_text().replace("  temperature: 0.0\n", "  temperature: 0.0\n  seed: 42\n", 1))
    report = json.loads(run_cli("check", resolved, folder, "-f", "json", code=1).stdout)  # Poisson at 170 QPS
    assert [(c["observed"], c["status"]) for c in _checks(report, "seeds", "model_seed")] == [(None, "unknown")]


def test_the_chat_api_sends_the_model_seed_so_it_counts(catalog_dir: Path, tmp_path: Path) -> None:
    pin_all(catalog_dir)
    config = resolved_config(catalog_dir, "gpt-oss-120b", None, served_model=GPT_OSS_SERVED)
    resolved = write(tmp_path, "resolved.json", json.dumps(config.to_data()))
    folder = _gpt_oss_point(tmp_path / "r8", Point(8, record_model_seed=True))
    report = json.loads(run_cli("check", resolved, folder, "-f", "json", code=1).stdout)
    assert [(c["observed"], c["status"]) for c in _checks(report, "seeds", "model_seed")] == [(42, "pass")]


# -- a requirement no client file records: the context length --------------------------------------------


def _gpt_oss_point(folder: Path, point: Point) -> Path:
    """A gpt-oss-120b point of the chat API: the fixture's files, its datasets renamed (no accuracy run)."""
    from dataclasses import replace

    point_folder(folder, replace(point, model_name="gpt-oss-120b", served_model=GPT_OSS_SERVED, accuracy=None))
    config = folder / "config.yaml"
    text = config.read_text().replace("api_type: openai_completions", "api_type: openai")
    text = re.sub(r"- name: deepseek_r1_accuracy\n(  .*\n)+", "", text).replace("dsr1-perf", "gpt_oss_perf")
    config.write_text(text)
    return folder


def test_the_context_length_is_read_from_the_points_declaration(catalog_dir: Path, tmp_path: Path) -> None:
    # Was never evaluable: the endpoints client records no context length anywhere, so the gate
    # of gpt-oss-120b's min_context_length (65,536) could not pass from any client run.
    pin_all(catalog_dir)
    config = resolved_config(catalog_dir, "gpt-oss-120b", None, served_model=GPT_OSS_SERVED)
    resolved = write(tmp_path, "resolved.json", json.dumps(config.to_data()))
    rows = []
    for declared in (131_072, 32_768, None):
        extra = {"context_length": declared} if declared is not None else {}
        folder = _gpt_oss_point(tmp_path / f"c{declared}" / "r8", Point(8, extra=extra))
        report = json.loads(run_cli("check", resolved, folder, "-f", "json", code=1).stdout)
        [row] = _checks(report, "requirements", "context_length")
        rows.append((row["observed"], row["status"], row["note"]))
    unstated = "the endpoints client records none: a submission point declares it (point.yaml context_length)"
    assert rows == [
        (131_072, "pass", "declared by the submitter (point.yaml context_length)"),
        (32_768, "fail", "declared by the submitter (point.yaml context_length)"),
        (None, "unknown", unstated),
    ]


@pytest.mark.parametrize("value", ["65536", True, 0, 1.5])
def test_a_context_length_that_is_no_positive_integer_is_refused(
    catalog_dir: Path, tmp_path: Path, value: object
) -> None:
    pin_all(catalog_dir)
    config = resolved_config(catalog_dir, "gpt-oss-120b", None, served_model=GPT_OSS_SERVED)
    resolved = write(tmp_path, "resolved.json", json.dumps(config.to_data()))
    folder = _gpt_oss_point(tmp_path / "r8", Point(8, extra={"context_length": value}))
    done = run_cli("check", resolved, folder, code=2)
    assert done.stderr.startswith(f"error: {folder / 'point.yaml'}: context_length is not a positive integer")


def test_runner_config_leaves_the_context_length_for_the_submitter_to_declare(catalog_dir: Path) -> None:
    from catalogctl.run.runner import runner_files

    pin_all(catalog_dir)
    files = runner_files(resolved_config(catalog_dir, "gpt-oss-120b", None, served_model=GPT_OSS_SERVED))
    assert "point.yaml context_length" in files.placeholders
    [line] = [line for line in files.point_yaml.splitlines() if line.startswith("context_length:")]
    assert line.startswith("context_length: null  # <TBD: the longest context, in tokens, the served endpoint")
    deepseek = runner_files(resolved_config(catalog_dir, "deepseek-r1"))  # no min_context_length: nothing to declare
    assert "context_length" not in deepseek.point_yaml
    assert "point.yaml context_length" not in deepseek.placeholders  # was listed "to fill", with no key to fill
