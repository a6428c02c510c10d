"""Benchmark `catalogctl site` on a synthetic catalog of N benchmarks with ten frozen cohorts.

    python bench/site.py                  # N=5000, 10 cohorts, 3 repetitions, table
    python bench/site.py --n 200 --cohorts 3 --repeat 1 --json

The catalog is `synthetic.write_catalog`'s, committed; then cohorts 2026-09-C0, 2026-09-C1, …
are frozen one after the other (all N benchmarks in the first; before each later one, one
benchmark's generation temperature is edited and committed, so every cohort diff has a contract
change to report). Measured in fresh processes (see validate.py): `catalogctl site -o DIR` into
a fresh folder (as the Pages workflow builds it; replacing an old site also deletes its files)
next to a full `catalogctl validate` of the same working tree. Target: the site takes at most 2x
the full validate.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from synthetic import SUITE_DIR, git, make_repo, write_catalog
from validate import CLI, REPO, child_env, measure

TARGET_RATIO = 2.0
FIRST = (2026, 9)
FREEZE = """
import datetime as dt, sys
from pathlib import Path
from catalogctl.release.freeze import FreezeRequest, freeze
root, cohort, add = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
freeze(root, FreezeRequest(cohort, add=add, now=dt.datetime(2026, 8, 28, tzinfo=dt.UTC)))
"""


def cohort_ids(count: int) -> list[str]:
    """`count` consecutive cohorts from 2026-09-C0."""
    ids = []
    year, month = FIRST
    for index in range(count):
        slot = index % 2
        ids.append(f"{year:04d}-{month:02d}-C{slot}")
        if slot:
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return ids


def freeze_cohorts(root: Path, count: int, env: dict[str, str]) -> list[str]:
    """Freeze `count` cohorts, one benchmark's contract edited before each but the first."""
    benchmarks = sorted((root / SUITE_DIR / "benchmarks").glob("*.yaml"))
    cohorts = cohort_ids(count)
    for index, cohort in enumerate(cohorts):
        add = [p.stem for p in benchmarks] if index == 0 else []
        if index:
            path = benchmarks[index * 7 % len(benchmarks)]
            text, edits = re.subn(
                r"^(    )temperature: .*$", rf"\g<1>temperature: 0.{index}", path.read_text(), count=1, flags=re.M
            )
            if edits != 1:
                raise SystemExit(f"{path.name}: no temperature to edit: the synthetic catalog changed shape")
            path.write_text(text)
            git(root, "commit", "-q", "-a", "--no-gpg-sign", "-m", f"edit {path.stem}")
        done = subprocess.run([sys.executable, "-c", FREEZE, str(root), cohort, *add], env=env, capture_output=True)
        if done.returncode != 0:
            raise SystemExit(f"freeze {cohort} failed:\n{done.stderr.decode()[-3000:]}")
    return cohorts


def run_benchmark(n: int, cohorts: int, repeat: int) -> dict[str, Any]:
    python = sys.executable
    env = child_env()
    with tempfile.TemporaryDirectory(prefix="catalogctl-bench-site-") as tmp:
        root = Path(tmp) / "catalog"
        root.mkdir()
        write_catalog(root, n)
        make_repo(root)
        git(root, "tag", "-d", "bench-v1")
        for key, value in (("user.name", "Bench"), ("user.email", "bench@example.invalid")):
            git(root, "config", key, value)
        frozen = freeze_cohorts(root, cohorts, env)
        out = Path(tmp) / "site"
        series = {
            "site": [python, "-c", CLI, "site", "-o", str(out), "-C", str(root)],
            "validate": [python, "-c", CLI, "validate", str(root)],
        }
        walls: dict[str, list[float]] = {name: [] for name in series}
        rss: dict[str, float] = dict.fromkeys(series, 0.0)
        for argv in series.values():
            measure(argv, env)  # warm-up: the page cache, not the answer
        for _ in range(repeat):
            for name, argv in series.items():
                if name == "site":
                    shutil.rmtree(out, ignore_errors=True)  # a fresh folder, as the workflow builds it
                run = measure(argv, env)
                if run.exit_code != 0:
                    raise SystemExit(f"{name}: exit {run.exit_code}\n{run.stderr[-3000:]}")
                walls[name].append(run.wall_s)
                rss[name] = max(rss[name], run.maxrss_mb)
        pages = len(list(out.rglob("*.html")))
        size_mb = sum(p.stat().st_size for p in out.rglob("*") if p.is_file()) / 2**20
    medians = {name: statistics.median(values) for name, values in walls.items()}
    ratio = medians["site"] / medians["validate"]
    return {
        "n": n,
        "cohorts": frozen,
        "pages": pages,
        "site_mb": round(size_mb, 1),
        "median_s": medians,
        "peak_rss_mb": rss,
        "ratio": ratio,
        "target_ratio": TARGET_RATIO,
        "ok": ratio <= TARGET_RATIO,
        "measured_on": dt.date.today().isoformat(),
        "tool": str(REPO),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--n", type=int, default=5000, help="benchmarks in the synthetic catalog")
    parser.add_argument("--cohorts", type=int, default=10, help="cohorts to freeze")
    parser.add_argument("--repeat", type=int, default=3, help="measured runs of each command")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--check", action="store_true", help="exit 1 when the target is missed")
    args = parser.parse_args()
    result = run_benchmark(args.n, args.cohorts, args.repeat)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"N={result['n']}, {len(result['cohorts'])} cohorts: {result['pages']} pages, {result['site_mb']} MB")
        for name, median in result["median_s"].items():
            print(f"  {name:<10} median {median:7.3f} s   peak RSS {result['peak_rss_mb'][name]:6.1f} MB")
        verdict = "meets" if result["ok"] else "MISSES"
        print(f"  site / validate = {result['ratio']:.3f} ({verdict} the target of {TARGET_RATIO})")
    return 1 if args.check and not result["ok"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
