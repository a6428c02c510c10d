"""A cohort that adopts the seeds a LoadGen release ships (`freeze --loadgen-seeds`): one real
LoadGen run passes both catalogctl's `seeds` gate and the MLPerf Inference checker's seeds check.

The MLPerf Inference submission checker (mlcommons/inference, tools/submission/submission_checker)
is not on PyPI, so its seeds check runs here as it is written at mlcommons/inference@b66003e1:
`checks/performance_check.py`, `PerformanceCheck.seeds_check`, for a LoadGen run (not an endpoints
one, so the QSL seed is compared too), reading the detail log as `parsers/loadgen_parser.py` does
(each `:::MLLOG` line's JSON, the first entry of a key), against `Config.seeds`, which
`configuration/configuration.py` takes from `constants.py` `MODEL_CONFIG[version]["seeds"]`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import commit_all, git, run_cli, write
from tests.release_repo import make_freezable
from tests.run.test_loadgen import TIERS, gates, loadgen, rows, short_deepseek

pytestmark = pytest.mark.conformance

# constants.py MODEL_CONFIG["v6.1"]["seeds"] (mlcommons/inference@b66003e1): the round's seeds,
# equal to those of loadgen/mlperf.conf since b0662794 ("Add random seeds for v6.1").
CHECKER_SEEDS = {
    "qsl_rng_seed": 2085463073848966840,
    "sample_index_rng_seed": 2747215439041700203,
    "schedule_rng_seed": 16159082839903944936,
}
SUBMISSION = """\
type: submission
submission_ref: {cohort: 2026-09-C0, seed_set_id: A, benchmark: deepseek-r1}
endpoint_config:
  endpoints: ["http://127.0.0.1:8000/v1"]
  api_type: openai_completions
settings:
  load_pattern: {type: poisson, target_qps: 170.0}
"""


def official_seeds_check(folder: Path, config_seeds: dict[str, int] = CHECKER_SEEDS) -> list[str]:
    """The errors `PerformanceCheck.seeds_check` logs for the LoadGen run in `folder` ([]: it passes)."""
    log: dict[str, Any] = {}
    for line in (folder / "mlperf_log_detail.txt").read_text(encoding="utf-8").splitlines():
        if line.rstrip().startswith(":::MLLOG"):
            entry = json.loads(line.rstrip()[len(":::MLLOG") :])
            log.setdefault(entry["key"], entry["value"])
    errors = []
    for key in ("qsl_rng_seed", "sample_index_rng_seed", "schedule_rng_seed"):  # its order, not endpoints
        found = log.get(f"effective_{key}")
        if found != config_seeds[key]:
            errors.append(f"{folder} {key} is wrong, expected={config_seeds[key]}, found={found}")
    return errors


@pytest.fixture
def adopted(catalog_repo: Path, tmp_path: Path) -> Path:
    """Cohort 2026-09-C0 (deepseek-r1, minimum durations cut to 200 and 300 ms, 500 samples), its
    seed set imported from the installed LoadGen release, frozen, pushed to a bare `origin`, and a
    submission to it preflighted: the resolved config."""
    pytest.importorskip("mlperf_loadgen", reason="the mlcommons-loadgen wheel exists for Linux x86_64 only")
    repo = make_freezable(catalog_repo)
    path = repo / "benchmark_suite/benchmarks/deepseek-r1.yaml"
    text = path.read_text().replace(
        "min_duration_ms: {by_concurrency: [{up_to: 32, value: 600000}, {value: 1200000}]}", TIERS
    )
    path.write_text(text.replace("min_sample_count: 4388", "min_sample_count: 500"))
    commit_all(repo, "Cut deepseek-r1's minimums to try a run")
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(tmp_path / "origin.git"))
    git(repo, "remote", "add", "origin", str(tmp_path / "origin.git"))
    frozen = run_cli("freeze", "2026-09-C0", "--add", "deepseek-r1", "--loadgen-seeds", "--push", "origin", "-C", repo)
    assert "seed set A imported from mlperf.conf of mlcommons-loadgen 6.0.17" in frozen.stdout
    resolved = tmp_path / "resolved.json"
    run_cli("preflight", write(tmp_path, "submission.yaml", SUBMISSION), "-C", repo, "-o", resolved)
    return resolved


def seeds_rows(resolved: Path, folder: Path) -> list[tuple[str, str, Any, Any]]:
    found = gates(resolved, folder)
    assert found["seeds"]["verdict"] == "pass"
    return rows(found["seeds"])


def test_a_run_with_the_rounds_mlperf_conf_seeds_passes_both_checks(adopted: Path, tmp_path: Path) -> None:
    """A runner that keeps the seeds LoadGen's FromConfig set from its built-in mlperf.conf."""
    folder = loadgen(tmp_path, adopted, "--conf-seeds")
    model_seed = json.loads(adopted.read_text())["seeds"]["model_seed"]
    assert seeds_rows(adopted, folder) == [
        ("scheduler_rng_seed", "pass", CHECKER_SEEDS["schedule_rng_seed"], CHECKER_SEEDS["schedule_rng_seed"]),
        ("sample_index_rng_seed", "pass", *[CHECKER_SEEDS["sample_index_rng_seed"]] * 2),
        ("qsl_rng_seed", "pass", CHECKER_SEEDS["qsl_rng_seed"], CHECKER_SEEDS["qsl_rng_seed"]),
        ("model_seed", "not-applicable", model_seed, None),  # drawn: mlperf.conf has none
    ]
    assert official_seeds_check(folder) == []


def test_a_run_set_by_loadgen_settings_passes_both_checks(adopted: Path, tmp_path: Path) -> None:
    seeds = json.loads(adopted.read_text())["seeds"]
    assert {k: seeds[k] for k in ("qsl_rng_seed", "sample_index_rng_seed")} == {
        k: CHECKER_SEEDS[k] for k in ("qsl_rng_seed", "sample_index_rng_seed")
    }
    assert seeds["scheduler_rng_seed"] == CHECKER_SEEDS["schedule_rng_seed"]
    folder = loadgen(tmp_path, adopted)
    assert [row[1] for row in seeds_rows(adopted, folder)] == ["pass", "pass", "pass", "not-applicable"]
    assert official_seeds_check(folder) == []


def test_a_set_not_imported_from_loadgen_fails_the_official_check(tmp_path: Path) -> None:
    """The other side: a set that holds two of mlperf.conf's seeds but not its QSL seed (the
    proposal's example set A) passes catalogctl's gate with loadgen_settings, and the official
    check fails the run on qsl_rng_seed."""
    resolved = short_deepseek(tmp_path)
    folder = loadgen(tmp_path, resolved)
    assert [row[1] for row in rows(gates(resolved, folder)["seeds"])] == ["pass", "pass", "pass", "not-applicable"]
    assert official_seeds_check(folder) == [
        f"{folder} qsl_rng_seed is wrong, expected=2085463073848966840, found=2747215439041700203"
    ]
