"""The frozen cohort every generated submission tree is checked against, built once: 2026-10-C1
frozen with the published set A (tests/fixtures/mlperf/seed_sets.yaml), then 2026-11-C0 and
2026-11-C1 (which rotates in set B); what `export mlperf` writes of 2026-11-C1 for the official
checker (A adoptable 2026-10-C1 to 2026-12-C0, B from 2026-11-C1); and a DeepSeek-R1 submission
resolved at 2026-10-C1 with set A. Plain functions, for the test and for bench/conformance_trees.py."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from catalogctl.release.freeze import FreezeRequest, freeze
from tests.helpers import commit_all, copy_catalog, git, init_repo, run_cli, write
from tests.release_repo import NOW, make_freezable
from tests.run_results import DEEPSEEK_SERVED
from tests.sealed import sealed

FIXTURE_SETS = Path(__file__).resolve().parent.parent / "fixtures" / "mlperf" / "seed_sets.yaml"
COHORT = "2026-10-C1"  # the cohort the submission is resolved at
SUBMISSION = f"""\
type: submission
submission_ref: {{cohort: {COHORT}, seed_set_id: A, benchmark: deepseek-r1}}
endpoint_config:
  endpoints: ["http://127.0.0.1:8000/v1"]
  api_type: openai_completions
  served_model: {DEEPSEEK_SERVED}
settings:
  load_pattern: {{type: concurrency, target_concurrency: 1}}
"""


@dataclass(frozen=True)
class TreeCohort:
    """The resolved config, the official checker's seed sets and drafters, and the seeds of each
    published set by id (with the cohorts each is adoptable at)."""

    resolved: Path
    seed_sets: Path
    drafters: Path
    sets: dict[str, dict[str, int]]
    windows: dict[str, tuple[str, ...]]


def freeze_cohort(base: Path) -> TreeCohort:
    """Freeze, export and resolve under `base` (a fresh folder), as the module docstring says."""
    from submission_checker.seed_sets import load_seed_sets

    (base / "home").mkdir(parents=True)
    with pytest.MonkeyPatch.context() as patch, sealed(patch, base / "home"):  # no user git configuration
        repo = copy_catalog(init_repo(base / "repo"))
        commit_all(repo, "Add the catalog")
        git(repo, "tag", "-a", "v1", "-m", "first")
        make_freezable(repo)
        freeze(repo, FreezeRequest(COHORT, add=["gsm8k", "deepseek-r1"], seeds_file=FIXTURE_SETS, now=NOW))
        freeze(repo, FreezeRequest("2026-11-C0", now=NOW))
        freeze(repo, FreezeRequest("2026-11-C1", now=NOW))
        run_cli("export", "mlperf", "2026-11-C1", "-o", base / "mlperf", "-C", repo)
        run_cli("resolve", write(base, "submission.yaml", SUBMISSION), "-C", repo, "-o", base / "resolved.json")
    published = load_seed_sets(base / "mlperf" / "seed_sets.yaml")
    return TreeCohort(
        resolved=base / "resolved.json",
        seed_sets=base / "mlperf" / "seed_sets.yaml",
        drafters=base / "mlperf" / "approved_drafters.yaml",
        sets={ident: dict(s.seeds) for ident, s in published.items()},
        windows={ident: tuple(s.cohorts) for ident, s in published.items()},
    )
