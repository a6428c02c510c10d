"""The bench scripts run on a small synthetic catalog and report their figures (their targets
are measured at full size by hand, never asserted here: tests do not time anything)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import REPO_ROOT

pytestmark = pytest.mark.bench


@pytest.mark.parametrize(
    ("script", "args", "keys"),
    [
        ("validate.py", ["--n", "40", "--repeat", "1", "--quiet"], {"n", "median_s", "ratio"}),
        ("diff.py", ["--n", "100", "--repeat", "1"], {"n", "changed_files", "ratio"}),
        ("site.py", ["--n", "40", "--cohorts", "3", "--repeat", "1"], {"n", "cohorts", "pages", "ratio"}),
        ("gate.py", ["--n", "100", "--repeat", "1", "--quiet"], {"n", "median_s", "peak_rss_mb", "ratio", "targets"}),
        ("fuzz_check.py", ["--cases", "40", "--no-loadgen"], {"cases", "crashes", "forged", "outcomes"}),
        ("conformance_logs.py", ["--count", "24"], {"logs", "judgements", "agree", "rules", "undocumented"}),
        ("conformance_trees.py", ["--count", "5", "--seed", "1"], {"trees", "judgements", "agree", "rows"}),
    ],
)
def test_a_bench_script_runs_and_reports(script: str, args: list[str], keys: set[str]) -> None:
    # Both once broke unnoticed: the diff edited a folded description into invalid YAML, and the
    # synthetic catalog copied one dataset's aliases into every copy.
    assert keys <= _bench_json(script, *args).keys()


def _bench_json(script: str, *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(REPO_ROOT / "bench" / script), *args, "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        cwd=REPO_ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_the_validate_and_diff_baselines_run_with_the_cache_off() -> None:
    # Since the document cache, a second `validate` reads its remembered verdict: a ratio over
    # that measures the cache, not the check. The cache folder of this test's environment stays
    # empty only if no measured process wrote an entry.
    cache = Path(os.environ["CATALOGCTL_CACHE_DIR"])
    _bench_json("validate.py", "--n", "20", "--repeat", "1", "--quiet")
    _bench_json("diff.py", "--n", "40", "--repeat", "1")
    assert not cache.exists() or not any(cache.iterdir())


def test_the_site_bench_names_its_baselines_and_rebuilds_one_page() -> None:
    result = _bench_json("site.py", "--n", "30", "--cohorts", "2", "--repeat", "1")
    assert {"site, cold", "site, rebuild after one edit", "validate, cold"} <= result["median_s"].keys()
    assert result["ratio"].keys() == {"site_cold_vs_validate_cold", "rebuild_vs_site_cold", "site_rss_vs_validate_rss"}
    assert all(result["baseline"][k] for k in result["ratio"])  # each ratio says what it is over
    assert result["peak_rss_mb"].keys() == result["median_s"].keys()
    # One benchmark's contract was edited: its page is the only file the rebuild renders again.
    assert result["rebuild_rendered"] == ["benchmarks/" + result["edited"] + "/index.html"]
