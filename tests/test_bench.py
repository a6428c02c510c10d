"""The bench scripts run on a small synthetic catalog and report their figures (their targets
are measured at full size by hand, never asserted here: tests do not time anything)."""

from __future__ import annotations

import json
import subprocess
import sys

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
    ],
)
def test_a_bench_script_runs_and_reports(script: str, args: list[str], keys: set[str]) -> None:
    # Both once broke unnoticed: the diff edited a folded description into invalid YAML, and the
    # synthetic catalog copied one dataset's aliases into every copy.
    done = subprocess.run(
        [sys.executable, str(REPO_ROOT / "bench" / script), *args, "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        cwd=REPO_ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert keys <= json.loads(done.stdout).keys()
