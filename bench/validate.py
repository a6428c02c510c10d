"""Benchmark `catalogctl validate` on a synthetic catalog of N benchmarks.

    python bench/validate.py                  # N=5000, 5 repetitions, table
    python bench/validate.py --n 500 --repeat 3 --json

Generates the catalog (`synthetic.write_catalog`), commits and tags it in a temporary git
repository (`synthetic.make_repo`), checks that `catalogctl validate` reports 0 errors on both
the working tree and the tag, then measures in fresh processes, each one spawned and reaped with
`os.wait4` so its peak RSS is its own:

  validate        catalogctl validate ROOT (the cache off, as every series here)
  validate --ref  catalogctl validate --ref TAG ROOT
  parse-only      a Python process that lists the same .yaml files and `load()`s each one's
                  bytes with ruamel's C-backed safe loader (one `YAML(typ="safe")` reused); its
                  in-process loop is timed too (listing + reading + parsing, no start-up)
  validate (in-process)  `load_catalog(ROOT)` timed inside a process, without start-up
  --help          catalogctl --help

catalogctl is run from this checkout (PYTHONPATH is set to the folder above bench/), the way
the `catalogctl` console script runs it: `from catalogctl.cli import main; main()`. Every
catalogctl process runs with the document cache off (`CATALOGCTL_NO_CACHE=1`, as `--no-cache`):
these figures are the full check; what the cache saves is `gate.py`'s.

Targets: validate within 1.5x the parse-only time (both fresh processes, wall clock), peak RSS
of validate under 200 MB, `catalogctl --help` under 0.3 s. `--check` exits 1 when one fails.
"""

from __future__ import annotations

import argparse
import atexit
import functools
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from synthetic import SUITE_DIR, CatalogShape, make_repo, write_catalog

REPO = Path(__file__).resolve().parent.parent
TAG = "bench-v1"

TARGET_RATIO = 1.5
TARGET_RSS_MB = 200.0
TARGET_HELP_S = 0.3

CLI = "import sys; from catalogctl.cli import main; sys.exit(main())"

PARSE_ONLY = """
import json, sys, time
from pathlib import Path
t0 = time.perf_counter()
from ruamel.yaml import YAML
yaml = YAML(typ="safe")
t1 = time.perf_counter()
files = sorted(Path(sys.argv[1]).rglob("*.yaml"))
for path in files:
    yaml.load(path.read_bytes())
t2 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "loop_s": t2 - t1, "files": len(files), "parser": yaml.Parser.__name__}))
"""

IN_PROCESS = """
import json, sys, time
t0 = time.perf_counter()
from catalogctl import load_catalog
t1 = time.perf_counter()
result = load_catalog(sys.argv[1])
t2 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "loop_s": t2 - t1, "ok": result.ok}))
"""


@dataclass(frozen=True)
class Run:
    """One measured child process."""

    wall_s: float
    maxrss_mb: float
    exit_code: int
    stdout: str
    stderr: str
    cpu_s: float = 0.0  # user + system: steadier than the wall clock on a machine shared with others


@dataclass
class Series:
    """Repeated runs of one command."""

    name: str
    argv: list[str]
    expect_exit: int = 0
    runs: list[Run] = field(default_factory=list)
    inner_s: list[float] = field(default_factory=list)

    @property
    def wall_s(self) -> float:
        return statistics.median(r.wall_s for r in self.runs)

    @property
    def inner_median_s(self) -> float | None:
        return statistics.median(self.inner_s) if self.inner_s else None

    @property
    def maxrss_mb(self) -> float:
        return max(r.maxrss_mb for r in self.runs)


@functools.cache
def _bytecode_folder() -> str:
    """Where the measured processes keep their bytecode: a temporary folder, removed at exit."""
    folder = tempfile.mkdtemp(prefix="catalogctl-bench-pycache-")
    atexit.register(shutil.rmtree, folder, True)
    return folder


def cold_env() -> dict[str, str]:
    """`child_env` with the document cache off: neither read nor written, every file checked
    from scratch (a second run would otherwise read its remembered verdict)."""
    return {**child_env(), "CATALOGCTL_NO_CACHE": "1"}


def child_env() -> dict[str, str]:
    """The environment of every measured process: this checkout's catalogctl first, its bytecode
    kept between runs (as an installed tool has it) in a temporary folder, not in the checkout."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a run compiling every module is no user's second run
    env["PYTHONPYCACHEPREFIX"] = _bytecode_folder()
    env["GIT_CONFIG_GLOBAL"] = "/dev/null"
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    # `python -c` puts the current folder first on sys.path: run from a checkout, it would import
    # that checkout's catalogctl whatever PYTHONPATH says (`--catalogctl` of gate.py and site.py).
    env["PYTHONSAFEPATH"] = "1"
    return env


def measure(argv: Sequence[str], env: dict[str, str]) -> Run:
    """Run `argv` in a fresh process; wall time from spawn to reap, and its own peak RSS."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        actions = [
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_DUP2, out.fileno(), 1),
            (os.POSIX_SPAWN_DUP2, err.fileno(), 2),
        ]
        start = time.perf_counter()
        pid = os.posix_spawn(argv[0], list(argv), env, file_actions=actions)
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        return Run(
            wall_s=wall,
            maxrss_mb=usage.ru_maxrss / 1024,  # kilobytes on Linux
            exit_code=os.waitstatus_to_exitcode(status),
            stdout=out.read().decode("utf-8", "replace"),
            stderr=err.read().decode("utf-8", "replace"),
            cpu_s=usage.ru_utime + usage.ru_stime,
        )


def checked(series: Series, run: Run) -> Run:
    if run.exit_code != series.expect_exit:
        raise SystemExit(
            f"{series.name}: exit code {run.exit_code} (expected {series.expect_exit})\n"
            f"stdout (tail): {run.stdout[-2000:]}\nstderr (tail): {run.stderr[-2000:]}"
        )
    return run


def require_valid(python: str, root: Path, env: dict[str, str]) -> None:
    """Fail loudly unless validate reports 0 errors on the working tree and on the tag."""
    for extra in ([], ["--ref", TAG]):
        run = measure([python, "-c", CLI, "validate", "--format", "json", *extra, str(root)], env)
        try:
            report = json.loads(run.stdout)
        except json.JSONDecodeError:
            raise SystemExit(
                f"validate {' '.join(extra)} printed no JSON (exit {run.exit_code}):\n{run.stderr[-4000:]}"
            ) from None
        summary = report["summary"]
        if run.exit_code != 0 or summary["errors"] or summary["pending"]:
            shown = "\n".join(
                f"  {d['file']}:{d['line']}: {d['code']} {d['message']}" for d in report["diagnostics"][:20]
            )
            raise SystemExit(
                f"the synthetic catalog does not validate ({report['tree']}): exit {run.exit_code}, {summary}\n{shown}"
            )


def run_benchmark(n: int, repeat: int, seed: int, keep: Path | None, progress: bool) -> dict[str, Any]:
    python = sys.executable
    env = cold_env()
    with tempfile.TemporaryDirectory(prefix="catalogctl-bench-") as tmp:
        root = keep if keep is not None else Path(tmp) / "catalog"
        root.mkdir(parents=True, exist_ok=keep is not None)
        if (root / SUITE_DIR).exists():
            raise SystemExit(f"{root / SUITE_DIR} already exists")

        def say(text: str) -> None:
            if progress:
                print(text, file=sys.stderr, flush=True)

        say(f"generating N={n} in {root} ...")
        t0 = time.perf_counter()
        shape = write_catalog(root, n, seed=seed)
        commit = make_repo(root, TAG)
        took = time.perf_counter() - t0
        say(f"  {shape.files} files, {shape.bytes / 1e6:.1f} MB, commit {commit[:12]} ({took:.1f} s)")
        say("checking that the catalog validates ...")
        require_valid(python, root, env)

        series = [
            Series("validate", [python, "-c", CLI, "validate", str(root)]),
            Series("validate --ref", [python, "-c", CLI, "validate", "--ref", TAG, str(root)]),
            Series("parse-only", [python, "-c", PARSE_ONLY, str(root / SUITE_DIR)]),
            Series("validate (in-process)", [python, "-c", IN_PROCESS, str(root)]),
            Series("--help", [python, "-c", CLI, "--help"]),
        ]
        say("warming up ...")
        for s in series:
            checked(s, measure(s.argv, env))  # page cache, .pyc: not counted
        for r in range(repeat):
            say(f"repetition {r + 1}/{repeat} ...")
            for s in series:  # interleaved, so drift spreads over every command
                run = checked(s, measure(s.argv, env))
                s.runs.append(run)
                if s.name in ("parse-only", "validate (in-process)"):
                    info = json.loads(run.stdout)
                    s.inner_s.append(info["loop_s"])
        parse_info = json.loads(series[2].runs[-1].stdout)
        return report(shape, series, repeat, parse_info)


def report(shape: CatalogShape, series: list[Series], repeat: int, parse_info: dict[str, Any]) -> dict[str, Any]:
    by = {s.name: s for s in series}
    validate, ref, parse, inproc, help_ = (
        by[k] for k in ("validate", "validate --ref", "parse-only", "validate (in-process)", "--help")
    )
    parse_loop = parse.inner_median_s
    assert parse_loop is not None
    peak = max(validate.maxrss_mb, ref.maxrss_mb)
    targets = {
        "validate_within_1.5x_parse_only": validate.wall_s <= TARGET_RATIO * parse.wall_s,
        "validate_ref_within_1.5x_parse_only": ref.wall_s <= TARGET_RATIO * parse.wall_s,
        "peak_rss_under_200mb": peak < TARGET_RSS_MB,
        "help_under_0.3s": help_.wall_s < TARGET_HELP_S,
    }
    return {
        "schema": "catalogctl/bench-validate/v1",
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "n": shape.benchmarks,
        "models": shape.models,
        "datasets": shape.datasets,
        "files": shape.files,
        "catalog_mb": shape.bytes / 1e6,
        "repeat": repeat,
        "yaml_parser": parse_info.get("parser"),
        "median_s": {
            "validate": validate.wall_s,
            "validate_ref": ref.wall_s,
            "parse_only": parse.wall_s,
            "parse_only_loop": parse_loop,
            "validate_in_process": inproc.inner_median_s,
            "help": help_.wall_s,
        },
        "ratio": {
            "validate_vs_parse_only": validate.wall_s / parse.wall_s,
            "validate_ref_vs_parse_only": ref.wall_s / parse.wall_s,
            "validate_in_process_vs_parse_only_loop": (inproc.inner_median_s or 0.0) / parse_loop,
        },
        "peak_rss_mb": {s.name: s.maxrss_mb for s in series},
        "runs_s": {s.name: [r.wall_s for r in s.runs] for s in series},
        "targets": targets,
        "targets_met": all(targets.values()),
    }


def table(result: dict[str, Any]) -> str:
    med = result["median_s"]
    rss = result["peak_rss_mb"]
    ratio = result["ratio"]
    rows: list[tuple[str, str, str, str]] = [
        (
            "validate, cache off (working tree)",
            f"{med['validate']:.3f}",
            f"{ratio['validate_vs_parse_only']:.2f}x",
            f"{rss['validate']:.1f}",
        ),
        (
            "validate --ref <tag>, cache off",
            f"{med['validate_ref']:.3f}",
            f"{ratio['validate_ref_vs_parse_only']:.2f}x",
            f"{rss['validate --ref']:.1f}",
        ),
        ("parse-only (process)", f"{med['parse_only']:.3f}", "1.00x", f"{rss['parse-only']:.1f}"),
        ("parse-only (loop, no start-up)", f"{med['parse_only_loop']:.3f}", "", ""),
        (
            "validate (in-process, no start-up)",
            f"{med['validate_in_process']:.3f}",
            f"{ratio['validate_in_process_vs_parse_only_loop']:.2f}x loop",
            f"{rss['validate (in-process)']:.1f}",
        ),
        ("catalogctl --help", f"{med['help']:.3f}", "", f"{rss['--help']:.1f}"),
    ]
    head = ("command", "median s", "vs parse-only", "peak RSS MB")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(4)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )

    out = [
        f"N={result['n']} benchmarks, {result['models']} models, {result['datasets']} datasets: "
        f"{result['files']} files, {result['catalog_mb']:.1f} MB; median of {result['repeat']} runs; "
        f"Python {result['python']}, {result['cpus']} CPUs, YAML parser {result['yaml_parser']}",
        "",
        line(head),
        line(["-" * w for w in widths]),
        *(line(r) for r in rows),
        "",
        "targets:",
    ]
    labels = {
        "validate_within_1.5x_parse_only": f"validate <= {TARGET_RATIO}x parse-only",
        "validate_ref_within_1.5x_parse_only": f"validate --ref <= {TARGET_RATIO}x parse-only",
        "peak_rss_under_200mb": f"peak RSS of validate < {TARGET_RSS_MB:.0f} MB",
        "help_under_0.3s": f"catalogctl --help < {TARGET_HELP_S} s",
    }
    for key, ok in result["targets"].items():
        out.append(f"  [{'PASS' if ok else 'FAIL'}] {labels[key]}")
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--n", type=int, default=5000, help="number of benchmarks (default 5000)")
    parser.add_argument("--repeat", type=int, default=5, help="measured runs per command (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="generator seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--keep", type=Path, help="write the catalog in this folder and keep it")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is not met")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    if args.n < 1 or args.repeat < 1:
        parser.error("--n and --repeat must be at least 1")
    result = run_benchmark(args.n, args.repeat, args.seed, args.keep, progress=not args.quiet)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(table(result), end="")
    return 1 if args.check and not result["targets_met"] else 0


if __name__ == "__main__":
    sys.exit(main())
