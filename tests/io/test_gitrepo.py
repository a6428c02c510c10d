"""The repository as facts: a repository without commits."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import init_repo, run_cli, write

RULESET = """\
cohort: 2026-09-C0
submission_date: 2026-09-02
previous: null
frozen_at: 2026-08-28T12:00:00Z
catalog_tree: 4b825dc642cb6eb9a060e54bf8d69288fbee4904
benchmarks:
  - id: gsm8k
    digest: sha256:a055bce464b0973cd57c20d060960fdff008872c6283cee4a61860ca9e1ddcc5
seed_sets:
  - id: A
    scheduler_rng_seed: 16159082839903944936
    sample_index_rng_seed: 2747215439041700203
    model_seed: 42
    introduced_in: 2026-09-C0
    valid_through: 2026-10-C1
"""


def test_cohorts_before_the_first_commit_reports_the_tag_missing(catalog_dir: Path) -> None:
    repo = init_repo(catalog_dir)
    write(repo, "rulesets/2026-09-C0.yaml", RULESET)
    done = run_cli("cohorts", "-C", str(repo), code=1)
    assert done.stdout.splitlines() == [
        "COHORT      DATE        BENCHMARKS  SEED SETS  TAG      SIGNER",
        "2026-09-C0  2026-09-02  1           A          missing  -",
        "next: 2026-09-C1 (2026-09-16)",
    ]
