"""The bench scripts run on a small synthetic catalog and report their figures (their targets
are measured at full size by hand, never asserted here: tests do not time anything).

Each script runs once per test run (`tests.once`), with a document cache folder of its own, and
every test that reads its report reads that one run: a bench run costs seconds of CPU."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import REPO_ROOT
from tests.once import once

pytestmark = pytest.mark.bench


# Each script with the arguments of its one run in a test run.
ARGS = {
    "validate.py": ["--n", "40", "--repeat", "1", "--quiet"],
    "diff.py": ["--n", "100", "--repeat", "1"],
    "site.py": ["--n", "40", "--cohorts", "3", "--repeat", "1"],
    "gate.py": ["--n", "40", "--repeat", "1", "--quiet", "--no-warm-up"],
    "fuzz_check.py": ["--cases", "40", "--no-loadgen"],
    "conformance_logs.py": ["--count", "24"],
    "conformance_trees.py": ["--count", "5", "--seed", "1"],
}


@dataclass(frozen=True)
class BenchRun:
    """One run of a bench script: its report, and the document cache folder it was given."""

    report: dict[str, Any]
    cache: Path


def bench_run(factory: pytest.TempPathFactory, script: str) -> BenchRun:
    """`bench/SCRIPT ARGS --json`, run once in this test run; fails the test unless it exits 0."""

    def run(folder: Path) -> None:
        env = {**os.environ, "CATALOGCTL_CACHE_DIR": str(folder / "cache")}
        done = subprocess.run(
            [sys.executable, str(REPO_ROOT / "bench" / script), *ARGS[script], "--json"],
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
            cwd=REPO_ROOT,
            env=env,
        )
        (folder / "returncode").write_text(str(done.returncode), encoding="utf-8")
        (folder / "stdout").write_text(done.stdout, encoding="utf-8")
        (folder / "stderr").write_text(done.stderr, encoding="utf-8")

    folder = once(factory, f"bench-{script}", run)
    stderr = (folder / "stderr").read_text(encoding="utf-8")
    assert (folder / "returncode").read_text(encoding="utf-8") == "0", stderr[-2000:]
    report: dict[str, Any] = json.loads((folder / "stdout").read_text(encoding="utf-8"))
    return BenchRun(report, folder / "cache")


@pytest.mark.parametrize(
    ("script", "keys"),
    [
        ("validate.py", {"n", "median_s", "ratio"}),
        ("diff.py", {"n", "changed_files", "ratio"}),
        ("site.py", {"n", "cohorts", "pages", "ratio"}),
        ("gate.py", {"n", "median_s", "peak_rss_mb", "ratio", "targets"}),
        ("fuzz_check.py", {"cases", "crashes", "forged", "outcomes"}),
        ("conformance_logs.py", {"logs", "judgements", "agree", "rules", "undocumented"}),
        ("conformance_trees.py", {"trees", "judgements", "agree", "rows"}),
    ],
)
def test_a_bench_script_runs_and_reports(tmp_path_factory: pytest.TempPathFactory, script: str, keys: set[str]) -> None:
    # Both once broke unnoticed: the diff edited a folded description into invalid YAML, and the
    # synthetic catalog copied one dataset's aliases into every copy.
    assert keys <= bench_run(tmp_path_factory, script).report.keys()


def test_the_validate_and_diff_baselines_run_with_the_cache_off(tmp_path_factory: pytest.TempPathFactory) -> None:
    # Since the document cache, a second `validate` reads its remembered verdict: a ratio over
    # that measures the cache, not the check. The cache folder each run was given stays empty
    # only if no measured process wrote an entry.
    for script in ("validate.py", "diff.py"):
        cache = bench_run(tmp_path_factory, script).cache
        assert not cache.exists() or not any(cache.iterdir()), script


def test_the_site_bench_names_its_baselines_and_rebuilds_one_page(tmp_path_factory: pytest.TempPathFactory) -> None:
    result = bench_run(tmp_path_factory, "site.py").report
    assert {"site, cold", "site, rebuild after one edit", "validate, cold"} <= result["median_s"].keys()
    assert result["ratio"].keys() == {"site_cold_vs_validate_cold", "rebuild_vs_site_cold", "site_rss_vs_validate_rss"}
    assert all(result["baseline"][k] for k in result["ratio"])  # each ratio says what it is over
    assert result["peak_rss_mb"].keys() == result["median_s"].keys()
    # One benchmark's contract was edited: its page is the only file the rebuild renders again.
    assert result["rebuild_rendered"] == ["benchmarks/" + result["edited"] + "/index.html"]


@pytest.mark.parametrize("script", ["gate.py", "diff.py"])
def test_a_catalog_too_small_to_edit_ten_files_is_refused(script: str) -> None:
    # `--n 20` was an IndexError traceback: ten edits need four model files (31 benchmarks).
    done = subprocess.run(
        [sys.executable, str(REPO_ROOT / "bench" / script), "--n", "20"],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO_ROOT,
    )
    assert (done.returncode, done.stderr.splitlines()[-1]) == (
        2,
        f"{script}: error: --n must be at least 31 and --repeat at least 1",
    )
