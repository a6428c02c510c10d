"""A catalog repository with three frozen cohorts, for the site's tests.

2026-09-C0 freezes gsm8k and deepseek-r1 with seed set A; gsm8k's max_new_tokens then changes
(256 -> 512, its digest changes) and 2026-09-C1 is frozen; 2026-10-C0 introduces seed set B.
Set A is valid from 2026-09-C0 through 2026-10-C1, B from 2026-10-C0 through 2026-11-C1.
"""

from __future__ import annotations

from pathlib import Path

from catalogctl.release.freeze import FreezeRequest, freeze
from tests.helpers import commit_all, replace_in
from tests.release_repo import NOW, SEEDS_A, make_freezable

COHORTS = ("2026-09-C0", "2026-09-C1", "2026-10-C0")


def three_cohorts(catalog_repo: Path, tmp_path: Path) -> Path:
    """The repository of the module docstring."""
    repo = make_freezable(catalog_repo)
    seeds = tmp_path / "seeds.yaml"
    seeds.write_text(SEEDS_A)
    freeze(repo, FreezeRequest(COHORTS[0], add=["gsm8k", "deepseek-r1"], seeds_file=seeds, now=NOW))
    replace_in(repo, "benchmark_suite/benchmarks/gsm8k.yaml", "max_new_tokens: 256", "max_new_tokens: 512")
    commit_all(repo, "gsm8k: longer answers")
    freeze(repo, FreezeRequest(COHORTS[1], now=NOW))
    freeze(repo, FreezeRequest(COHORTS[2], now=NOW))
    return repo
