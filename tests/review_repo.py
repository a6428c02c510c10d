"""A repository with a frozen cohort on `main` and a `pr` branch, and the PR gate run on it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from catalogctl.release.freeze import FreezeRequest, freeze
from tests.helpers import CliResult, git, run_cli, write
from tests.release_repo import SEEDS_A, make_freezable

NOW = dt.datetime(2026, 8, 28, 12, 0, tzinfo=dt.UTC)
TODAY = "2026-08-30"  # before 2026-09-C0: its seed set A is valid
GSM8K = "benchmark_suite/benchmarks/gsm8k.yaml"
RULESET = "rulesets/2026-09-C0.yaml"


def make_frozen(catalog_repo: Path, scratch: Path) -> Path:
    """Freeze cohort 2026-09-C0 (gsm8k, deepseek-r1, seed set A) on `main`; check out a `pr` branch."""
    repo = make_freezable(catalog_repo)
    seeds = write(scratch, "seeds-a.yaml", SEEDS_A)
    freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k", "deepseek-r1"], seeds_file=seeds, now=NOW))
    git(repo, "checkout", "-q", "-b", "pr")
    return repo


def gate(repo: Path, *args: str, code: int = 0) -> CliResult:
    """`catalogctl ci` from `main` to the working tree, on TODAY."""
    return run_cli("ci", "--base", "main", "-C", str(repo), "--today", TODAY, *args, code=code)


def verdict(repo: Path, result: str) -> str:
    """The gate's last line, without its counts."""
    return f"gate {result}: main ({git(repo, 'rev-parse', 'main')[:12]}) -> working tree"
