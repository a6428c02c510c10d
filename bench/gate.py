"""Benchmark what the PR gate and a repeated `validate` cost, with and without the document cache.

    python bench/gate.py                  # N=5000, 3 repetitions, table
    python bench/gate.py --n 500 --repeat 1 --json

The catalog is `synthetic.write_catalog`'s, committed and tagged `bench-v1`; ten files are
edited as `diff.py` edits them, committed and tagged `bench-v2` (the working tree is then
bench-v2). Every command runs in a fresh process (`validate.measure`: wall clock from spawn to
reap, and the child's own peak RSS), interleaved over the repetitions, so the ratios come from
one run on one machine:

  parse floor              a process that parses every .yaml once with ruamel's C loader
  validate                 catalogctl validate, the cache off (the full check)
  validate --ref TAG       catalogctl validate --ref bench-v1, the cache off
  diff T1 T2               catalogctl diff bench-v1 bench-v2 (10 files changed)
  ci --base T1             catalogctl ci --base bench-v1, the cache off (the same 10 changed)
  ci --base T1, cold       the same with the cache on, emptied first
  ci --base T1, warm       the same again: the cache holds both sides
  ci --base T1, new head   the cache warm, one more benchmark edited before each run (a new
                           push: the head's verdict is new, the other files are cached)
  validate, one edited     validate with the cache warm after one more edit (a pre-commit run)
  validate, cold           validate with the cache on, emptied first (it writes every entry)
  validate, warm           validate again: every file from the cache
  check-jsonschema         the committed benchmark schema over benchmarks/*.yaml
  shipped, warm            validate of the shipped catalog (in a git repository), second run
  --help                   catalogctl --help

Targets (issue "The PR gate costs what the pull request changed"): ci --base at most 0.2x
validate, warm and for a new head; validate warm at most 0.1x the parse floor; shipped warm at most 0.25 s;
--help at most 0.15 s; peak RSS of validate at 5,000 no higher than 145 MB.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import shutil
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from diff import NEW, OLD, change_ten_files, refuse_too_small
from synthetic import SHIPPED, SUITE_DIR, git, make_repo, write_catalog
from validate import CLI, PARSE_ONLY, REPO, Run, child_env, measure

TARGETS = {
    "ci_warm_vs_validate": 0.2,
    "ci_new_head_vs_validate": 0.2,  # the same target for a head no run has checked yet
    "validate_warm_vs_parse": 0.1,
    "shipped_warm_s": 0.25,
    "help_s": 0.15,
}
TARGET_RSS_MB = 145.0


def _empty_cache(root: Path) -> Callable[[], None]:
    def empty() -> None:
        shutil.rmtree(root / ".git" / "catalogctl", ignore_errors=True)

    return empty


def _edit_one(root: Path) -> Callable[[], None]:
    """Before each run, one benchmark's title set to a new text: a head no run has checked."""
    benchmarks = sorted((root / SUITE_DIR / "benchmarks").glob("*.yaml"))
    path = benchmarks[len(benchmarks) // 3]
    original = path.read_text(encoding="utf-8")
    counter = itertools.count(1)

    def edit() -> None:
        text = re.sub(r"^title: .*$", f"title: Edited {next(counter)}", original, count=1, flags=re.MULTILINE)
        path.write_text(text, encoding="utf-8")

    return edit


def _nothing() -> None:
    return None


Series = dict[str, tuple[list[str], Callable[[], None], set[int], bool]]


def _series(root: Path, shipped: Path) -> Series:
    """Each measured command: its argv, what to do before each run, the exit codes it may give
    (the ten edits leave errors in the working tree: validate and ci report them), and whether
    the cache is on (off through CATALOGCTL_NO_CACHE, which a catalogctl without a cache
    ignores: the same series measure the code before the cache with `--catalogctl`)."""
    python = sys.executable
    cli = [python, "-c", CLI]
    schema = str(REPO / "schemas" / "benchmark.schema.json")
    benchmarks = sorted(str(p) for p in (root / SUITE_DIR / "benchmarks").glob("*.yaml"))
    jsonschema = str(Path(python).parent / "check-jsonschema")
    empty = _empty_cache(root)
    edit = _edit_one(root)
    return {
        "parse floor": ([python, "-c", PARSE_ONLY, str(root / SUITE_DIR)], _nothing, {0}, False),
        "validate": ([*cli, "validate", str(root)], _nothing, {0, 1}, False),
        "validate --ref TAG": ([*cli, "validate", "--ref", OLD, str(root)], _nothing, {0}, False),
        "diff T1 T2": ([*cli, "diff", OLD, NEW, "-C", str(root)], _nothing, {0}, False),
        "ci --base T1": ([*cli, "ci", "--base", OLD, "-C", str(root)], _nothing, {0, 1}, False),
        "ci --base T1, cold": ([*cli, "ci", "--base", OLD, "-C", str(root)], empty, {0, 1}, True),
        "ci --base T1, warm": ([*cli, "ci", "--base", OLD, "-C", str(root)], _nothing, {0, 1}, True),
        "ci --base T1, new head": ([*cli, "ci", "--base", OLD, "-C", str(root)], edit, {0, 1}, True),
        "validate, one edited": ([*cli, "validate", str(root)], edit, {0, 1}, True),
        "validate, cold": ([*cli, "validate", str(root)], empty, {0, 1}, True),
        "validate, warm": ([*cli, "validate", str(root)], _nothing, {0, 1}, True),
        "check-jsonschema": ([jsonschema, "--schemafile", schema, *benchmarks], _nothing, {0}, False),
        "shipped, warm": ([*cli, "validate", str(shipped)], _nothing, {0}, True),
        "--help": ([*cli, "--help"], _nothing, {0}, False),
    }


def _checked(name: str, run: Run, codes: set[int]) -> Run:
    if run.exit_code not in codes:
        raise SystemExit(f"{name}: exit {run.exit_code}\n{run.stdout[-2000:]}\n{run.stderr[-3000:]}")
    return run


def run_benchmark(
    n: int, repeat: int, only: set[str] | None, progress: bool, code: Path | None, warm_up: bool = True
) -> dict[str, Any]:
    cached = child_env()
    if code is not None:  # another checkout of catalogctl (e.g. the code before the cache)
        cached["PYTHONPATH"] = str(code.resolve())
    cached.pop("CATALOGCTL_NO_CACHE", None)
    uncached = {**cached, "CATALOGCTL_NO_CACHE": "1"}
    with tempfile.TemporaryDirectory(prefix="catalogctl-bench-gate-") as tmp:
        root = Path(tmp) / "catalog"
        root.mkdir()
        shape = write_catalog(root, n)
        make_repo(root, OLD)
        changed = change_ten_files(root)
        git(root, "commit", "-q", "-a", "--no-gpg-sign", "-m", "ten changes")
        git(root, "tag", "-a", "--no-sign", "-m", "ten changes", NEW)
        shipped = Path(tmp) / "shipped"
        shutil.copytree(SHIPPED, shipped / SUITE_DIR)
        make_repo(shipped, "v1")
        series = {k: v for k, v in _series(root, shipped).items() if only is None or k in only}
        walls: dict[str, list[float]] = {name: [] for name in series}
        rss: dict[str, float] = dict.fromkeys(series, 0.0)
        for name, (argv, before, codes, cache) in series.items() if warm_up else ():
            before()  # warm-up: page cache, .pyc, entries
            _checked(name, measure(argv, cached if cache else uncached), codes)
        for r in range(repeat):
            if progress:
                print(f"repetition {r + 1}/{repeat} ...", file=sys.stderr, flush=True)
            for name, (argv, before, codes, cache) in series.items():
                before()
                run = _checked(name, measure(argv, cached if cache else uncached), codes)
                walls[name].append(run.wall_s)
                rss[name] = max(rss[name], run.maxrss_mb)
        return _report(shape.benchmarks, shape.files, changed, repeat, walls, rss)


def _report(
    n: int, files: int, changed: list[str], repeat: int, walls: dict[str, list[float]], rss: dict[str, float]
) -> dict[str, Any]:
    med = {name: statistics.median(values) for name, values in walls.items()}

    def ratio(a: str, b: str) -> float | None:
        return med[a] / med[b] if a in med and b in med else None

    ratios = {
        "validate_vs_parse": ratio("validate", "parse floor"),
        "validate_ref_vs_parse": ratio("validate --ref TAG", "parse floor"),
        "diff_vs_validate": ratio("diff T1 T2", "validate"),
        "ci_vs_validate": ratio("ci --base T1", "validate"),
        "ci_cold_vs_validate": ratio("ci --base T1, cold", "validate"),
        "ci_warm_vs_validate": ratio("ci --base T1, warm", "validate"),
        "ci_new_head_vs_validate": ratio("ci --base T1, new head", "validate"),
        "validate_one_edited_vs_parse": ratio("validate, one edited", "parse floor"),
        "check_jsonschema_vs_validate": ratio("check-jsonschema", "validate"),
        "validate_cold_vs_parse": ratio("validate, cold", "parse floor"),
        "validate_warm_vs_parse": ratio("validate, warm", "parse floor"),
    }
    checks = {
        "ci_warm_vs_validate": ratios["ci_warm_vs_validate"],
        "ci_new_head_vs_validate": ratios["ci_new_head_vs_validate"],
        "validate_warm_vs_parse": ratios["validate_warm_vs_parse"],
        "shipped_warm_s": med.get("shipped, warm"),
        "help_s": med.get("--help"),
    }
    targets = {k: (v is not None and v <= TARGETS[k]) for k, v in checks.items()}
    targets["validate_rss_mb"] = rss.get("validate", 0.0) <= TARGET_RSS_MB
    return {
        "schema": "catalogctl/bench-gate/v1",
        "python": sys.version.split()[0],
        "n": n,
        "files": files,
        "changed_files": changed,
        "repeat": repeat,
        "median_s": med,
        "peak_rss_mb": rss,
        "ratio": ratios,
        "targets": targets,
    }


def table(result: dict[str, Any]) -> str:
    """The figures as a plain-text table."""
    lines = [
        f"N={result['n']} benchmarks ({result['files']} files), {len(result['changed_files'])} files changed "
        f"between {OLD} and {NEW}; median of {result['repeat']}; Python {result['python']}",
        "",
        f"{'command':<24} {'median s':>9} {'peak RSS MB':>12}",
    ]
    for name, median in result["median_s"].items():
        lines.append(f"{name:<24} {median:9.3f} {result['peak_rss_mb'][name]:12.1f}")
    lines += ["", "ratios:"]
    lines += [f"  {k:<30} {v:.3f}" for k, v in result["ratio"].items() if v is not None]
    lines += ["", "targets:"]
    lines += [f"  [{'PASS' if ok else 'FAIL'}] {k}" for k, ok in result["targets"].items()]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--n", type=int, default=5000, help="benchmarks in the synthetic catalog")
    parser.add_argument("--repeat", type=int, default=3, help="measured runs of each command")
    parser.add_argument("--only", action="append", help="measure only this series (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.add_argument("--catalogctl", type=Path, help="measure the catalogctl of this checkout instead")
    parser.add_argument(
        "--no-warm-up",
        dest="warm_up",
        action="store_false",
        help="skip the unmeasured first run of each series (a smoke run: the figures then include cold caches)",
    )
    args = parser.parse_args()
    refuse_too_small(parser, args.n, args.repeat)
    only = set(args.only) if args.only else None
    result = run_benchmark(args.n, args.repeat, only, not args.quiet, args.catalogctl, args.warm_up)
    print(json.dumps(result, indent=2) if args.json else table(result), end="" if not args.json else "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
