"""The library's entry points read the layout the repository configures, as the commands do:
with `catalog = "suite/catalog"` a library call finds the catalog there, with nothing set
around it (on the code before this, `freeze(path, FreezeRequest(...))` said "`benchmark_suite/`
not found" where `load_catalog` worked)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import catalogctl
from catalogctl import api
from catalogctl.model.reports.release import FreezeResult
from catalogctl.release.freeze import FreezeRequest
from tests.helpers import commit_all, git, replace_in, run_cli, write
from tests.release_repo import NOW, SEEDS_A, SUBMISSION, make_freezable
from tests.run.test_integrity import GSM8K_RUN

COHORT = "2026-09-C0"
RULESET = "releases/2026-09-C0.yaml"


@pytest.fixture
def moved(catalog_repo: Path) -> Path:
    """The shipped catalog, freezable, under suite/catalog with its rulesets to go in releases/."""
    root = make_freezable(catalog_repo)
    (root / "suite").mkdir()
    git(root, "mv", "benchmark_suite", "suite/catalog")
    write(root, "catalogctl.toml", 'catalog = "suite/catalog"\nrulesets = "releases"\n')
    commit_all(root, "Move the catalog to suite/catalog")
    return root


def _request(tmp_path: Path, **more: object) -> FreezeRequest:
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A)
    return FreezeRequest(COHORT, add=["gsm8k", "deepseek-r1"], seeds_file=seeds, now=NOW, **more)  # type: ignore[arg-type]


@pytest.fixture
def frozen(moved: Path, tmp_path: Path) -> Path:
    """Cohort 2026-09-C0 frozen in the moved layout by the library call."""
    api.freeze(moved, _request(tmp_path))
    return moved


def test_the_documented_freeze_call_writes_in_the_configured_folder(moved: Path, tmp_path: Path) -> None:
    from catalogctl.release.freeze import freeze

    result = freeze(moved, _request(tmp_path))
    assert (result.state, result.ruleset_path, result.tagged) == ("frozen", RULESET, True)
    assert git(moved, "show", "--name-only", "--format=", "HEAD").splitlines() == ["CHANGELOG.md", RULESET]


def test_freeze_and_tag_are_entry_points_of_the_api(moved: Path, tmp_path: Path) -> None:
    git(moved, "checkout", "-q", "-b", "release")
    planned = api.freeze(moved, _request(tmp_path, tag=False))
    assert isinstance(planned, FreezeResult)
    assert (planned.state, planned.ruleset_path, planned.tagged) == ("frozen", RULESET, False)
    git(moved, "checkout", "-q", "main")
    git(moved, "merge", "-q", "--ff-only", "release")
    tagged = api.tag(moved, COHORT)
    assert isinstance(tagged, FreezeResult)
    assert (tagged.state, tagged.ruleset_path, tagged.tagged) == ("tagged", RULESET, True)
    assert git(moved, "rev-list", "-n", "1", COHORT) == planned.commit


def test_every_reading_entry_point_reads_the_configured_folder(frozen: Path, tmp_path: Path) -> None:
    assert catalogctl.load_catalog(frozen).ok
    assert catalogctl.load_catalog(frozen, ref=COHORT).catalog.rulesets[COHORT].cohort == COHORT
    assert api.validate_catalog(frozen).diagnostics == catalogctl.load_catalog(frozen).diagnostics
    assert [c.cohort for c in api.list_releases(frozen).cohorts] == [COHORT]
    assert api.verify_release(frozen, COHORT).ok
    submission = write(tmp_path, "submission.yaml", SUBMISSION)
    resolved = catalogctl.resolve_submission(submission, frozen)
    assert (resolved.submission_ref["cohort"], resolved.contract["id"]) == (COHORT, "gsm8k")
    assert catalogctl.preflight_submission(submission, frozen, offline=True).contract["id"] == "gsm8k"
    replace_in(frozen, "suite/catalog/benchmarks/gsm8k.yaml", "num_fewshot: 5", "num_fewshot: 8")
    assert [c.id for c in catalogctl.diff_refs(frozen, COHORT).changes] == ["gsm8k"]
    tree = catalogctl.open_tree(frozen)
    assert catalogctl.load_tree(tree).catalog.benchmarks["gsm8k"].id == "gsm8k"


def test_check_proves_a_config_against_a_clone_in_the_configured_layout(
    frozen: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    submission = write(tmp_path, "submission.yaml", SUBMISSION)
    resolved = tmp_path / "resolved.json"
    run_cli("resolve", submission, "-C", frozen, "-o", resolved)
    results = write(tmp_path, "results.json", json.dumps(GSM8K_RUN))
    outside = tmp_path / "elsewhere"  # not in the clone: its configuration is found from --catalog
    outside.mkdir()
    monkeypatch.chdir(outside)
    done = run_cli("check", resolved, results, "--catalog", frozen, "--format", "json", code=1)
    assert json.loads(done.stdout)["proven_against"] == f"the release {COHORT} in {frozen}"
