"""The release policy's rules on a new ruleset: order, date, benchmarks and seed sets."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from catalogctl.catalog.cohorts import Cohort
from catalogctl.catalog.layout import DEFAULT
from catalogctl.catalog.loader import load_tree
from catalogctl.catalog.source import open_tree
from catalogctl.model import Ruleset, SeedSet
from catalogctl.release.freeze import FreezeRequest, freeze
from catalogctl.release.ruleset import parse_ruleset, render_ruleset
from catalogctl.review.rulesets import new_rulesets
from catalogctl.review.sides import PolicyInput
from tests.helpers import git, write
from tests.release_repo import SEEDS_A, make_freezable

NOW = dt.datetime(2026, 8, 28, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def frozen(catalog_repo: Path, tmp_path: Path) -> Path:
    """Cohort 2026-09-C0 (gsm8k, deepseek-r1; seed set A) frozen on `main`; `pr` checked out."""
    repo = make_freezable(catalog_repo)
    seeds = write(tmp_path, "seeds-a.yaml", SEEDS_A)
    freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k", "deepseek-r1"], seeds_file=seeds, now=NOW))
    git(repo, "checkout", "-q", "-b", "pr")
    return repo


def seed_set(ident: str, introduced_in: str, valid_through: str, model_seed: int = 7) -> SeedSet:
    return SeedSet(
        id=ident,
        scheduler_rng_seed=1,
        sample_index_rng_seed=2,
        model_seed=model_seed,
        introduced_in=introduced_in,
        valid_through=valid_through,
    )


def propose(repo: Path, cohort: str, **changes: Any) -> list[tuple[str, str]]:
    """Add the ruleset of `cohort` (the frozen one with `changes`) as `freeze` would write it;
    the policy's findings about it (but a gap after 2026-09-C0, which the rotation tests need)."""
    frozen = parse_ruleset((repo / "rulesets/2026-09-C0.yaml").read_bytes())
    fields = {
        "cohort": cohort,
        "submission_date": Cohort.parse(cohort).submission_date,
        "previous": "2026-09-C0",
        **changes,
    }
    ruleset = Ruleset.model_validate({**frozen.model_dump(), **fields})
    write(repo, f"rulesets/{cohort}.yaml", render_ruleset(ruleset, f"rulesets/{cohort}.yaml"))
    base, head = open_tree(repo, "main"), open_tree(repo)
    given = PolicyInput(base, head, load_tree(base), load_tree(head), None, dt.date(2026, 8, 30), DEFAULT)
    return [(f.code, f.message) for f in new_rulesets(given) if f.code != "ruleset-cohort-gap"]


def set_a(repo: Path) -> SeedSet:
    return parse_ruleset((repo / "rulesets/2026-09-C0.yaml").read_bytes()).seed_sets[0]


def test_what_freeze_writes_passes(frozen: Path) -> None:
    assert propose(frozen, "2026-09-C1") == []


def test_a_cohort_not_later_than_the_last_frozen_one(frozen: Path) -> None:
    assert propose(frozen, "2026-08-C1") == [
        ("ruleset-order", "new ruleset 2026-08-C1: not later than 2026-09-C0, the last frozen cohort")
    ]


def test_a_gap_after_the_last_frozen_cohort(frozen: Path) -> None:
    ruleset = parse_ruleset((frozen / "rulesets/2026-09-C0.yaml").read_bytes())
    october = Cohort.parse("2026-10-C0")
    changed = ruleset.model_copy(
        update={"cohort": october.id, "submission_date": october.submission_date, "previous": "2026-09-C0"}
    )
    write(frozen, "rulesets/2026-10-C0.yaml", render_ruleset(changed, "rulesets/2026-10-C0.yaml"))
    base, head = open_tree(frozen, "main"), open_tree(frozen)
    given = PolicyInput(base, head, load_tree(base), load_tree(head), None, dt.date(2026, 8, 30), DEFAULT)
    gaps = [(f.code, f.message, f.hint) for f in new_rulesets(given) if f.code == "ruleset-cohort-gap"]
    assert gaps == [
        (
            "ruleset-cohort-gap",
            "new ruleset 2026-10-C0: skips 1 cohort (2026-09-C1) after 2026-09-C0, the last frozen cohort",
            "the next cohort is 2026-09-C1; if the gap is meant, accept this finding",
        )
    ]


def test_the_submission_date_and_previous_cohort(frozen: Path) -> None:
    assert propose(frozen, "2026-09-C1", submission_date=dt.date(2026, 9, 2), previous=None) == [
        ("ruleset-order", "new ruleset 2026-09-C1: previous is null, but the last frozen cohort is 2026-09-C0"),
        (
            "ruleset-order",
            "new ruleset 2026-09-C1: submission_date is 2026-09-02, but 2026-09-C1 submits on 2026-09-16",
        ),
    ]


def test_an_unknown_benchmark(frozen: Path) -> None:
    benchmarks = [{"id": "nope", "digest": "sha256:" + "0" * 64}]
    assert propose(frozen, "2026-09-C1", benchmarks=benchmarks) == [
        ("ruleset-unknown-benchmark", "new ruleset 2026-09-C1: benchmark `nope` is not in the catalog")
    ]


def test_a_published_set_never_changes(frozen: Path) -> None:
    changed = set_a(frozen).model_copy(update={"model_seed": 43})
    assert propose(frozen, "2026-09-C1", seed_sets=[changed]) == [
        (
            "ruleset-seed-sets",
            "new ruleset 2026-09-C1: seed set A differs from the one already published: a set never changes",
        )
    ]


def test_a_valid_set_is_carried_over_and_none_added_before_rotation_is_due(frozen: Path) -> None:
    assert propose(frozen, "2026-09-C1", seed_sets=[seed_set("B", "2026-09-C1", "2026-10-C1")]) == [
        ("ruleset-seed-sets", "new ruleset 2026-09-C1: seed set A is still valid but not carried over"),
        (
            "ruleset-seed-sets",
            "new ruleset 2026-09-C1: seed set B is new, but no rotation is due (a new set every 2 cohorts)",
        ),
    ]


def test_a_set_is_due_two_cohorts_later(frozen: Path) -> None:
    assert propose(frozen, "2026-10-C0", seed_sets=[set_a(frozen)]) == [
        (
            "ruleset-seed-sets",
            "new ruleset 2026-10-C0: a new seed set is due by the rotation policy, but none was added",
        )
    ]
    assert propose(frozen, "2026-10-C0", seed_sets=[set_a(frozen), seed_set("B", "2026-10-C0", "2026-11-C1")]) == []


def test_the_new_set_has_the_next_id_and_its_window_and_comes_alone(frozen: Path) -> None:
    sets = [set_a(frozen), seed_set("C", "2026-10-C0", "2026-12-C0"), seed_set("D", "2026-10-C0", "2026-11-C1", 8)]
    assert propose(frozen, "2026-10-C0", seed_sets=sets) == [
        (
            "ruleset-seed-sets",
            "new ruleset 2026-10-C0: new seed set C should be B, introduced in 2026-10-C0 and valid through "
            "2026-11-C1 (it says C, 2026-10-C0, 2026-12-C0)",
        ),
        ("ruleset-seed-sets", "new ruleset 2026-10-C0: seed set D: a freeze adds one new set at most"),
    ]
