"""Benchmark `catalogctl site` on a synthetic catalog of N benchmarks with ten frozen cohorts.

    python bench/site.py                  # N=5000, 10 cohorts, 3 repetitions, table
    python bench/site.py --n 200 --cohorts 3 --repeat 1 --json
    python bench/site.py --catalogctl ../before   # the catalogctl of another checkout

The catalog is `synthetic.write_catalog`'s, committed; then cohorts 2026-09-C0, 2026-09-C1, …
are frozen one after the other (all N benchmarks in the first; before each later one, one
benchmark's generation temperature is edited and committed, so every cohort diff has a contract
change to report). Measured in fresh processes (see validate.py), in this order each repetition:

  validate, cold           catalogctl validate, the document cache off (CATALOGCTL_NO_CACHE=1)
  site, cold               catalogctl site -o DIR into a new folder, the cache off: a first build
                           as the Pages workflow makes it
  site, rebuild unchanged  site -o DIR again, the cache on (this run fills it): nothing changed
  site, rebuild after one edit
                           one benchmark's temperature edited in the working tree, site -o DIR
                           again: the last build in DIR, the cache warm
  site, rebuild after one edit, cache off
                           another edit, the same rebuild with the cache off: what the site's
                           own manifest saves, without the cache

Every ratio names its baseline; the baselines are the cold runs. Targets: the cold site at most
2x the cold validate, in time and in peak RSS; the rebuild after one edit at most 0.3x the cold
site. The targets are on the wall clock; the same ratios in CPU time (user + system, from
`wait4`) are reported beside them, for a machine other processes share. `rebuild_rendered`
lists the files the rebuild after one edit wrote again (their inode changed): the edited
benchmark's page alone.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from synthetic import SUITE_DIR, git, make_repo, write_catalog
from validate import CLI, REPO, child_env, measure

TARGETS = {"site_cold_vs_validate_cold": 2.0, "rebuild_vs_site_cold": 0.3, "site_rss_vs_validate_rss": 2.0}
BASELINES = {
    "site_cold_vs_validate_cold": "validate, cold (CATALOGCTL_NO_CACHE=1), wall time",
    "rebuild_vs_site_cold": "site, cold (a new folder, CATALOGCTL_NO_CACHE=1), wall time",
    "site_rss_vs_validate_rss": "validate, cold, peak RSS",
}
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


def edit_one(root: Path) -> tuple[str, Callable[[], None]]:
    """One benchmark (a third of the way in) and an edit of its temperature, a new value on each
    call: a contract change, shown on its page alone."""
    benchmarks = sorted((root / SUITE_DIR / "benchmarks").glob("*.yaml"))
    path = benchmarks[len(benchmarks) // 3]
    original = path.read_text(encoding="utf-8")
    counter = itertools.count(1)

    def edit() -> None:
        value = f"0.{next(counter):03d}7"
        text, edits = re.subn(r"^(    )temperature: .*$", rf"\g<1>temperature: {value}", original, count=1, flags=re.M)
        if edits != 1:
            raise SystemExit(f"{path.name}: no temperature to edit: the synthetic catalog changed shape")
        path.write_text(text, encoding="utf-8")

    return path.stem, edit


def _stamps(folder: Path) -> dict[str, tuple[int, int]]:
    return {
        p.relative_to(folder).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns)
        for p in folder.rglob("*")
        if p.is_file() and p.name != ".catalogctl-site.json"
    }


def run_benchmark(n: int, cohorts: int, repeat: int, code: Path | None) -> dict[str, Any]:
    python = sys.executable
    cached = child_env()
    if code is not None:  # another checkout of catalogctl (e.g. the code before a change)
        cached["PYTHONPATH"] = str(code.resolve())
    cached.pop("CATALOGCTL_NO_CACHE", None)
    cold = {**cached, "CATALOGCTL_NO_CACHE": "1"}
    load = [os.getloadavg()]
    with tempfile.TemporaryDirectory(prefix="catalogctl-bench-site-") as tmp:
        root = Path(tmp) / "catalog"
        root.mkdir()
        write_catalog(root, n)
        make_repo(root)
        git(root, "tag", "-d", "bench-v1")
        for key, value in (("user.name", "Bench"), ("user.email", "bench@example.invalid")):
            git(root, "config", key, value)
        frozen = freeze_cohorts(root, cohorts, cached)
        edited, edit = edit_one(root)
        out = Path(tmp) / "site"
        site = [python, "-c", CLI, "site", "-o", str(out), "-C", str(root)]
        validate = [python, "-c", CLI, "validate", str(root)]
        fresh = lambda: shutil.rmtree(out, ignore_errors=True)  # noqa: E731 - a new folder, as the workflow builds it
        nothing = lambda: None  # noqa: E731
        series: list[tuple[str, list[str], dict[str, str], Callable[[], None]]] = [
            ("validate, cold", validate, cold, nothing),
            ("site, cold", site, cold, fresh),
            ("site, rebuild unchanged", site, cached, nothing),
            ("site, rebuild after one edit", site, cached, edit),
            ("site, rebuild after one edit, cache off", site, cold, edit),
        ]
        walls: dict[str, list[float]] = {name: [] for name, *_ in series}
        cpus: dict[str, list[float]] = {name: [] for name, *_ in series}
        rss: dict[str, float] = dict.fromkeys(walls, 0.0)
        rendered: list[str] = []
        for r in range(repeat + 1):  # the first round warms the page cache and the bytecode: not counted
            for name, argv, env, before in series:
                before()
                stamps = _stamps(out) if out.exists() else {}
                run = measure(argv, env)
                if run.exit_code != 0:
                    raise SystemExit(f"{name}: exit {run.exit_code}\n{run.stderr[-3000:]}")
                if name == "site, rebuild after one edit":
                    rendered = sorted(rel for rel, stamp in _stamps(out).items() if stamps.get(rel) != stamp)
                if r:
                    walls[name].append(run.wall_s)
                    cpus[name].append(run.cpu_s)
                    rss[name] = max(rss[name], run.maxrss_mb)
        pages = len(list(out.rglob("*.html")))
        size_mb = sum(p.stat().st_size for p in out.rglob("*") if p.is_file()) / 2**20
    load.append(os.getloadavg())
    med = {name: statistics.median(values) for name, values in walls.items()}
    cpu = {name: statistics.median(values) for name, values in cpus.items()}
    ratio = {
        "site_cold_vs_validate_cold": med["site, cold"] / med["validate, cold"],
        "rebuild_vs_site_cold": med["site, rebuild after one edit"] / med["site, cold"],
        "site_rss_vs_validate_rss": rss["site, cold"] / rss["validate, cold"],
    }
    return {
        "schema": "catalogctl/bench-site/v2",
        "n": n,
        "cohorts": frozen,
        "pages": pages,
        "site_mb": round(size_mb, 1),
        "repeat": repeat,
        "edited": edited,
        "rebuild_rendered": rendered,
        "median_s": med,
        "median_cpu_s": cpu,
        "peak_rss_mb": rss,
        "ratio": ratio,
        "cpu_ratio": {  # the same ratios in CPU time (user + system): less moved by other processes
            "site_cold_vs_validate_cold": cpu["site, cold"] / cpu["validate, cold"],
            "rebuild_vs_site_cold": cpu["site, rebuild after one edit"] / cpu["site, cold"],
        },
        "baseline": BASELINES,
        "targets": {k: ratio[k] <= TARGETS[k] for k in TARGETS},
        "load_average": {"start": load[0], "end": load[1]},
        "measured_on": dt.date.today().isoformat(),
        "tool": str(code.resolve() if code else REPO),
    }


def table(result: dict[str, Any]) -> str:
    """The figures as a plain-text table."""
    lines = [
        f"N={result['n']}, {len(result['cohorts'])} cohorts: {result['pages']} pages, {result['site_mb']} MB; "
        f"median of {result['repeat']}; load average {result['load_average']['start'][0]:.2f} at the start, "
        f"{result['load_average']['end'][0]:.2f} at the end",
        "",
        f"{'command':<42} {'median s':>9} {'CPU s':>7} {'peak RSS MB':>12}",
    ]
    for name, median in result["median_s"].items():
        cpu = result["median_cpu_s"][name]
        lines.append(f"{name:<42} {median:9.3f} {cpu:7.2f} {result['peak_rss_mb'][name]:12.1f}")
    lines += ["", "ratios (over the baseline named):"]
    for key, value in result["ratio"].items():
        verdict = "PASS" if result["targets"][key] else "FAIL"
        lines.append(f"  [{verdict}] {key:<28} {value:6.3f} (target {TARGETS[key]}; over {result['baseline'][key]})")
    lines += [f"  (in CPU time: {k} {v:.3f})" for k, v in result["cpu_ratio"].items()]
    shown = ", ".join(result["rebuild_rendered"][:5]) + (" …" if len(result["rebuild_rendered"]) > 5 else "")
    count = len(result["rebuild_rendered"])
    lines += ["", f"the rebuild after editing {result['edited']} wrote {count} files: {shown}"]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--n", type=int, default=5000, help="benchmarks in the synthetic catalog")
    parser.add_argument("--cohorts", type=int, default=10, help="cohorts to freeze")
    parser.add_argument("--repeat", type=int, default=3, help="measured runs of each command")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--catalogctl", type=Path, help="measure the catalogctl of this checkout instead")
    args = parser.parse_args()
    if args.n < 3 or args.cohorts < 1 or args.repeat < 1:
        parser.error("--n must be at least 3, --cohorts and --repeat at least 1")
    result = run_benchmark(args.n, args.cohorts, args.repeat, args.catalogctl)
    print(json.dumps(result, indent=2) if args.json else table(result), end="" if not args.json else "\n")
    return 1 if args.check and not all(result["targets"].values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
