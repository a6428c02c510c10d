"""The release policy, rule by rule, on a real base and head through `catalogctl ci`: a new
ruleset's order, date, benchmarks and seed-set rotation; frozen rulesets and what they reference."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from catalogctl.catalog.cohorts import Cohort
from catalogctl.catalog.loader import load_tree
from catalogctl.io.tree import WorkingTree
from catalogctl.release.freeze import FreezeRequest, freeze
from catalogctl.release.ruleset import render_ruleset
from tests.helpers import commit_all, git, replace_in, write
from tests.release_repo import SEEDS_A, make_freezable
from tests.review_repo import GSM8K, NOW, RULESET, gate, verdict

C1 = "rulesets/2026-09-C1.yaml"
OCTOBER = "rulesets/2026-10-C0.yaml"
SEEDS_B = "scheduler_rng_seed: 11\nsample_index_rng_seed: 12\nmodel_seed: 13\n"
SET_A = f"""\
- id: A
  scheduler_rng_seed: 16159082839903944936
  sample_index_rng_seed: 2747215439041700203
  model_seed: 42
  introduced_in: 2026-09-C0
  valid_through: 2026-10-C1
  imported_from:
    file: seeds-a.yaml
    sha256: {hashlib.sha256(SEEDS_A.encode()).hexdigest()}
"""
SET_B = f"""\
- id: B
  scheduler_rng_seed: 11
  sample_index_rng_seed: 12
  model_seed: 13
  introduced_in: 2026-10-C0
  valid_through: 2026-11-C1
  imported_from:
    file: seeds-b.yaml
    sha256: {hashlib.sha256(SEEDS_B.encode()).hexdigest()}
"""


def findings(repo: Path) -> list[str]:
    """The lines of a failed gate, its verdict left out."""
    lines = gate(repo, code=1).stdout.splitlines()
    assert lines[-1].startswith(verdict(repo, "failed"))
    return lines[:-1]


@pytest.fixture
def october(frozen: Path, tmp_path: Path) -> Path:
    """The pull request freezes 2026-09-C1, then 2026-10-C0: rotation is due, so set A is carried
    and set B is new."""
    freeze(frozen, FreezeRequest("2026-09-C1", now=NOW))
    freeze(frozen, FreezeRequest("2026-10-C0", seeds_file=write(tmp_path, "seeds-b.yaml", SEEDS_B), now=NOW))
    assert (frozen / OCTOBER).read_text().endswith("seed_sets:\n" + SET_A + SET_B)
    return frozen


def test_the_first_cohort_ever_frozen_passes(catalog_repo: Path, tmp_path: Path) -> None:
    repo = make_freezable(catalog_repo)
    git(repo, "checkout", "-q", "-b", "pr")
    freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k"], seeds_file=write(tmp_path, "a.yaml", SEEDS_A), now=NOW))
    assert gate(repo).stdout == verdict(repo, "passed") + " (0 errors, 0 warnings, 0 accepted)\n"


def test_a_freeze_that_rotates_passes(october: Path) -> None:
    assert gate(october).stdout == verdict(october, "passed") + " (0 errors, 0 warnings, 0 accepted)\n"


# -- order, date and benchmarks ---------------------------------------------------------------------


def test_a_new_cohort_earlier_than_the_last_frozen_one(frozen: Path) -> None:
    catalog = load_tree(WorkingTree(frozen)).catalog
    august = Cohort.parse("2026-08-C1")
    ruleset = catalog.rulesets["2026-09-C0"].model_copy(
        update={"cohort": august.id, "submission_date": august.submission_date, "previous": "2026-09-C0"}
    )
    write(frozen, "rulesets/2026-08-C1.yaml", render_ruleset(ruleset, "rulesets/2026-08-C1.yaml"))
    assert findings(frozen) == [
        "rulesets/2026-08-C1.yaml:3:9: error ruleset-order: new ruleset 2026-08-C1: not later than 2026-09-C0, the "
        "last frozen cohort [4a796a8a6714a088]"
    ]


def test_a_new_ruleset_with_the_wrong_submission_date(frozen: Path) -> None:
    freeze(frozen, FreezeRequest("2026-09-C1", now=NOW))
    replace_in(frozen, C1, "submission_date: 2026-09-16", "submission_date: 2026-09-17")
    assert findings(frozen) == [
        "rulesets/2026-09-C1.yaml:4:18: error ruleset-order: new ruleset 2026-09-C1: submission_date is 2026-09-17, "
        "but 2026-09-C1 submits on 2026-09-16 [9b2129fe87d7681f]"
    ]


def test_a_new_ruleset_naming_a_benchmark_the_catalog_lacks(frozen: Path) -> None:
    freeze(frozen, FreezeRequest("2026-09-C1", now=NOW))
    replace_in(frozen, C1, "- id: deepseek-r1\n", "- id: deepseek-r9\n")
    assert findings(frozen) == [
        "rulesets/2026-09-C1.yaml:9:7: error ruleset-unknown-benchmark: new ruleset 2026-09-C1: benchmark "
        "`deepseek-r9` is not in the catalog [960f247cc01e5ceb]"
    ]


# -- seed sets ----------------------------------------------------------------------------------


def test_a_published_seed_set_changed_in_a_new_ruleset(frozen: Path) -> None:
    freeze(frozen, FreezeRequest("2026-09-C1", now=NOW))
    replace_in(frozen, C1, "model_seed: 42", "model_seed: 43")
    assert findings(frozen) == [
        "rulesets/2026-09-C1.yaml:14:3: error ruleset-seed-sets: new ruleset 2026-09-C1: seed set A differs from the "
        "one already published: a set never changes [3b8de9844ab4c54f]"
    ]


def test_a_set_still_valid_left_out(october: Path) -> None:
    replace_in(october, OCTOBER, SET_A, "")
    assert findings(october) == [
        "rulesets/2026-10-C0.yaml:14:1: error ruleset-seed-sets: new ruleset 2026-10-C0: seed set A is still valid "
        "but not carried over [bf76d01ffce36ec9]"
    ]


def test_no_new_set_when_rotation_is_due(october: Path) -> None:
    replace_in(october, OCTOBER, SET_B, "")
    assert findings(october) == [
        "rulesets/2026-10-C0.yaml:14:1: error ruleset-seed-sets: new ruleset 2026-10-C0: a new seed set is due by "
        "the rotation policy, but none was added [1f61c1cf59850a46]"
    ]


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("- id: B\n", "- id: C\n", "C, 2026-10-C0, 2026-11-C1) [6d51c30e74815e5f]"),
        ("introduced_in: 2026-10-C0", "introduced_in: 2026-09-C1", "B, 2026-09-C1, 2026-11-C1) [37197a6813e0ef46]"),
        ("valid_through: 2026-11-C1", "valid_through: 2026-12-C0", "B, 2026-10-C0, 2026-12-C0) [0657577868f88ae2]"),
    ],
)
def test_a_new_set_with_the_wrong_id_or_window(october: Path, old: str, new: str, says: str) -> None:
    replace_in(october, OCTOBER, old, new)
    ident = says[0]
    assert findings(october) == [
        f"rulesets/2026-10-C0.yaml:23:3: error ruleset-seed-sets: new ruleset 2026-10-C0: new seed set {ident} should "
        f"be B, introduced in 2026-10-C0 and valid through 2026-11-C1 (it says {says}"
    ]


def test_two_new_sets_in_one_freeze(october: Path) -> None:
    set_c = SET_B.replace("id: B", "id: C").replace(": 1", ": 2")
    replace_in(october, OCTOBER, SET_B, SET_B + set_c)
    assert findings(october) == [
        "rulesets/2026-10-C0.yaml:14:1: error ruleset-seed-sets: new ruleset 2026-10-C0: seed set C: a freeze adds "
        "one new set at most [3c2202b6eb68a3a1]"
    ]


def test_a_set_left_out_of_the_second_of_two_new_rulesets(frozen: Path, tmp_path: Path) -> None:
    freeze(frozen, FreezeRequest("2026-09-C1", now=NOW))
    freeze(frozen, FreezeRequest("2026-10-C0", seeds_file=write(tmp_path, "seeds-b.yaml", SEEDS_B), now=NOW))
    replace_in(frozen, OCTOBER, SET_A, "")
    assert findings(frozen) == [
        "rulesets/2026-10-C0.yaml:14:1: error ruleset-seed-sets: new ruleset 2026-10-C0: seed set A is still valid "
        "but not carried over [bf76d01ffce36ec9]"
    ]


def test_a_benchmark_whose_dependencies_do_not_validate_is_not_also_a_digest_mismatch(frozen: Path) -> None:
    freeze(frozen, FreezeRequest("2026-09-C1", now=NOW))
    replace_in(frozen, "benchmark_suite/models/llama3-1-8b.yaml", "sha: ", "sha: x")
    assert findings(frozen) == [
        "benchmark_suite/models/llama3-1-8b.yaml:5:6: error schema-invalid-value: sha: "
        "`x0e9e39f249a16976918f6564b8830bc894c89659` is not a git commit id: 40 lowercase hex digits "
        "[a5743ba702611843]",
        "note: the head does not validate: contract changes were not classified",
    ]


def test_without_a_suite_only_the_missing_file_is_reported(frozen: Path) -> None:
    # The rotation policy lives in suite.yaml: without it the seed sets cannot be judged.
    freeze(frozen, FreezeRequest("2026-09-C1", now=NOW))
    (frozen / "benchmark_suite/suite.yaml").unlink()
    assert findings(frozen) == [
        "benchmark_suite/suite.yaml: error file-missing: `benchmark_suite/suite.yaml` is missing [2c25d22f3eda8075]",
        "note: the head does not validate: contract changes were not classified",
    ]


# -- frozen rulesets and the references they hold ------------------------------------------------------


def test_a_line_appended_to_a_frozen_ruleset_is_pointed_at(frozen: Path) -> None:
    path = frozen / RULESET
    path.write_text(path.read_text() + "# reviewed\n")
    assert findings(frozen) == [
        "rulesets/2026-09-C0.yaml:23:1: error ruleset-modified: frozen ruleset 2026-09-C0 was modified: its text "
        "changed (revert the edit; a cohort changes only by freezing the next one) [f9ea12ae2234d29e]"
    ]


def test_a_removal_is_located_in_the_base_when_the_head_deleted_the_ruleset(frozen: Path) -> None:
    (frozen / RULESET).unlink()
    (frozen / GSM8K).unlink()
    assert findings(frozen) == [
        "rulesets/2026-09-C0.yaml:1:1: error ruleset-deleted: frozen ruleset 2026-09-C0 was deleted: a cohort's "
        "ruleset is never removed (restore the file; to stop offering a benchmark, freeze a new cohort with --remove) "
        "[cba3475f757d8626]",
        "rulesets/2026-09-C0.yaml:11:7: error frozen-reference-removed: benchmark `gsm8k` was removed, but frozen "
        "cohort 2026-09-C0 uses it; 2026-09-C0 still has valid seed sets (keep it until the cohorts that use it "
        "expire; add what replaces it beside it) [c752ece68fea77bd]",
    ]


def test_a_benchmark_the_base_already_lacks_is_not_blamed_on_the_pull_request(frozen: Path) -> None:
    git(frozen, "checkout", "-q", "main")
    (frozen / GSM8K).unlink()
    commit_all(frozen, "Remove gsm8k (merged earlier)")
    git(frozen, "checkout", "-q", "-b", "later-pr")
    assert gate(frozen).stdout == verdict(frozen, "passed") + " (0 errors, 0 warnings, 0 accepted)\n"


def test_a_contract_change_to_a_benchmark_no_cohort_holds_is_no_finding(catalog_repo: Path, tmp_path: Path) -> None:
    repo = make_freezable(catalog_repo)
    freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k"], seeds_file=write(tmp_path, "a.yaml", SEEDS_A), now=NOW))
    git(repo, "checkout", "-q", "-b", "pr")
    deepseek = "benchmark_suite/benchmarks/deepseek-r1.yaml"
    replace_in(repo, deepseek, "{up_to: 32, value: 600000}", "{up_to: 32, value: 900000}")
    assert gate(repo).stdout == verdict(repo, "passed") + " (0 errors, 0 warnings, 0 accepted)\n"
