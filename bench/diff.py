"""Benchmark `catalogctl diff` between two tags of a synthetic catalog that differ in 10 files.

    python bench/diff.py                  # N=5000, 5 repetitions, table
    python bench/diff.py --n 500 --repeat 3 --json

The catalog is `synthetic.write_catalog`'s, committed and tagged `bench-v1`; then ten files are
edited (four benchmark contracts, one benchmark title, two pair datasets' sample counts, one
dataset description, two models' commits) and committed and tagged `bench-v2`. Measured in
fresh processes (see validate.py): `catalogctl diff bench-v1 bench-v2` next to a full
`catalogctl validate --ref bench-v1`, both with the document cache off (`CATALOGCTL_NO_CACHE=1`):
the baseline is the full check, not a remembered verdict. Target: the diff takes at most 0.3x
the full validate.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from synthetic import SUITE_DIR, git, make_repo, write_catalog
from validate import CLI, cold_env, measure

OLD, NEW = "bench-v1", "bench-v2"
TARGET_RATIO = 0.3


def _edit(path: Path, pattern: str, replacement: str) -> None:
    text = path.read_text(encoding="utf-8")
    changed, count = re.subn(pattern, replacement, text, count=1, flags=re.MULTILINE)
    if count != 1:
        raise SystemExit(f"{path.name}: `{pattern}` not found: the synthetic catalog changed shape")
    path.write_text(changed, encoding="utf-8")


# The smallest catalog `change_ten_files` can edit: four model files (ten benchmarks per model).
MIN_BENCHMARKS = 31


def refuse_too_small(parser: argparse.ArgumentParser, n: int, repeat: int) -> None:
    """Exit 2 with argparse's usage error unless ten files can be edited and something is measured."""
    if n < MIN_BENCHMARKS or repeat < 1:
        parser.error(f"--n must be at least {MIN_BENCHMARKS} and --repeat at least 1")


def change_ten_files(root: Path) -> list[str]:
    """Edit ten files of the catalog (at least MIN_BENCHMARKS benchmarks); returns their paths."""
    suite = root / SUITE_DIR
    benchmarks = sorted((suite / "benchmarks").glob("*.yaml"))
    models = sorted((suite / "models").glob("*.yaml"))
    pair_datasets = sorted((suite / "datasets").glob("d*_*.yaml"))
    middle = len(benchmarks) // 2
    edits: list[tuple[Path, str, str]] = [
        *((benchmarks[i], r"^(    )temperature: .*$", r"\g<1>temperature: 0.5") for i in (1, 7, middle, -3)),
        (benchmarks[middle + 5], r"^title: .*$", "title: Renamed for display"),
        *((pair_datasets[i], r"^samples: \d+$", "samples: 999") for i in (2, -2)),
        (pair_datasets[middle // 3], r"^description: .*(?:\n  .*)*", "description: Reworded."),  # a folded block too
        *((models[i], r"^sha: [0-9a-f]{40}$", "sha: " + "1" * 39 + "a") for i in (3, -4)),
    ]
    for path, pattern, replacement in edits:
        _edit(path, pattern, replacement)
    return [str(path.relative_to(root)) for path, _, _ in edits]


def run_benchmark(n: int, repeat: int) -> dict[str, Any]:
    python = sys.executable
    env = cold_env()
    with tempfile.TemporaryDirectory(prefix="catalogctl-bench-diff-") as tmp:
        root = Path(tmp) / "catalog"
        root.mkdir()
        write_catalog(root, n)
        make_repo(root, OLD)
        changed = change_ten_files(root)
        git(root, "commit", "-q", "-a", "--no-gpg-sign", "-m", "ten changes")
        git(root, "tag", "-a", "--no-sign", "-m", "ten changes", NEW)
        check = measure([python, "-c", CLI, "diff", OLD, NEW, "-C", str(root), "--format", "json"], env)
        if check.exit_code != 0:
            raise SystemExit(f"diff failed (exit {check.exit_code}):\n{check.stderr[-3000:]}")
        report = json.loads(check.stdout)
        touched = {c["file"] for c in report["changes"]}
        series = {
            "diff": [python, "-c", CLI, "diff", OLD, NEW, "-C", str(root)],
            "validate --ref, cache off": [python, "-c", CLI, "validate", "--ref", OLD, str(root)],
        }
        walls: dict[str, list[float]] = {name: [] for name in series}
        rss: dict[str, float] = dict.fromkeys(series, 0.0)
        for argv in series.values():
            measure(argv, env)  # warm-up: the page cache, not the answer
        for _ in range(repeat):
            for name, argv in series.items():
                run = measure(argv, env)
                if run.exit_code != 0:
                    raise SystemExit(f"{name}: exit {run.exit_code}\n{run.stderr[-3000:]}")
                walls[name].append(run.wall_s)
                rss[name] = max(rss[name], run.maxrss_mb)
        medians = {name: statistics.median(values) for name, values in walls.items()}
        ratio = medians["diff"] / medians["validate --ref, cache off"]
        return {
            "n": n,
            "changed_files": changed,
            "changes_reported": len(report["changes"]),
            "files_reported": sorted(touched),
            "benchmarks_in_report": len(report["benchmarks"]),
            "median_s": medians,
            "peak_rss_mb": rss,
            "ratio": ratio,
            "baseline": "validate --ref, cache off",
            "target_ratio": TARGET_RATIO,
            "ok": ratio <= TARGET_RATIO,
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--n", type=int, default=5000, help="benchmarks in the synthetic catalog")
    parser.add_argument("--repeat", type=int, default=5, help="measured runs of each command")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--check", action="store_true", help="exit 1 when the target is missed")
    args = parser.parse_args()
    refuse_too_small(parser, args.n, args.repeat)
    result = run_benchmark(args.n, args.repeat)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"N={result['n']}: {len(result['changed_files'])} files changed between {OLD} and {NEW}; "
            f"{result['changes_reported']} changes reported, {result['benchmarks_in_report']} benchmarks in the report"
        )
        for name, median in result["median_s"].items():
            print(f"  {name:<26} median {median:7.3f} s   peak RSS {result['peak_rss_mb'][name]:6.1f} MB")
        verdict = "meets" if result["ok"] else "MISSES"
        print(f"  diff / validate --ref, cache off = {result['ratio']:.3f} ({verdict} the target of {TARGET_RATIO})")
    return 1 if args.check and not result["ok"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
