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
# The one error accepted.yaml may accept: a new ruleset that skips a cohort.
GAP = "bfac650c852ae1b9"
GAP_FINDING = (
    "rulesets/2026-10-C0.yaml:3:9: error ruleset-cohort-gap{status}: new ruleset 2026-10-C0: skips 1 cohort "
    "(2026-09-C1) after 2026-09-C0, the last frozen cohort (the next cohort is 2026-09-C1; if the gap is meant, "
    f"accept this finding) [{GAP}]"
)
GAP_DRAFT = (
    f"  - fingerprint: {GAP}\n"
    "    finding: 'error ruleset-cohort-gap: new ruleset 2026-10-C0: skips 1 cohort (2026-09-C1) after 2026-09-C0, "
    "the last frozen cohort'\n"
    "    reason: <TBD>\n"
    "    approver: <TBD>\n"
    "    expires: 2026-09-29\n"
)


def make_frozen(catalog_repo: Path, scratch: Path) -> Path:
    """Freeze cohort 2026-09-C0 (gsm8k, deepseek-r1, seed set A) on `main`; check out a `pr` branch."""
    repo = make_freezable(catalog_repo)
    seeds = write(scratch, "seeds-a.yaml", SEEDS_A)
    freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k", "deepseek-r1"], seeds_file=seeds, now=NOW))
    git(repo, "checkout", "-q", "-b", "pr")
    return repo


def skip_a_cohort(repo: Path) -> None:
    """The pull request freezes 2026-10-C0 right after 2026-09-C0: finding GAP."""
    freeze(repo, FreezeRequest("2026-10-C0", skip_cohorts=1, now=NOW))


def gate(repo: Path, *args: str, code: int = 0) -> CliResult:
    """`catalogctl ci` from `main` to the working tree, on TODAY."""
    return run_cli("ci", "--base", "main", "-C", str(repo), "--today", TODAY, *args, code=code)


def verdict(repo: Path, result: str) -> str:
    """The gate's last line, without its counts."""
    return f"gate {result}: main ({git(repo, 'rev-parse', 'main')[:12]}) -> working tree"
