"""The site's data: what each page shows, gathered from the releases, diffs and contracts."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path

import pytest

from catalogctl.authoring.site import exit_codes, gather_site
from catalogctl.authoring.site_cohorts import CohortTrees
from catalogctl.authoring.site_contract import bound_text, text
from catalogctl.catalog.config import layout_for
from catalogctl.errors import CatalogInvalid
from catalogctl.io.gitrepo import open_repository
from tests.beacon_repo import ROUND, beacon_catalog, beacon_releases, round_data
from tests.helpers import commit_all, replace_in
from tests.release_repo import SEEDS_A
from tests.site_repo import three_cohorts

TODAY = dt.date(2026, 8, 28)


def test_the_site_of_three_cohorts(catalog_repo: Path, tmp_path: Path) -> None:
    data = gather_site(three_cohorts(catalog_repo, tmp_path), today=TODAY)
    assert [c.info.cohort for c in data.cohorts] == ["2026-09-C0", "2026-09-C1", "2026-10-C0"]
    assert data.current is not None
    assert data.current.info.cohort == "2026-10-C0"
    assert data.current.info.seed_sets == ["A", "B"]
    assert data.next.model_dump() == {
        "cohort": "2026-10-C1",
        "submission_date": dt.date(2026, 10, 21),
        "benchmarks": ["deepseek-r1", "gsm8k"],
        "seed_sets": ["A", "B"],
        "new_seed_set_due": False,
        "new_seed_set": "",
    }
    assert data.languages == ["en", "zh"]
    assert {r.id: r.on for r in data.seed_timeline.rows} == {
        "A": ["2026-09-C0", "2026-09-C1", "2026-10-C0", "2026-10-C1"],
        "B": ["2026-10-C0", "2026-10-C1", "2026-11-C0", "2026-11-C1"],
    }
    assert [(c.cohort, c.frozen) for c in data.seed_timeline.columns][-3:] == [
        ("2026-10-C1", False),
        ("2026-11-C0", False),
        ("2026-11-C1", False),
    ]
    second = data.cohorts[1]
    assert [(b.id, b.status) for b in second.benchmarks] == [("deepseek-r1", "identical"), ("gsm8k", "changed")]
    assert second.diff is not None
    assert second.diff.cohorts is not None
    assert second.diff.cohorts.benchmarks_changed == ["gsm8k"]
    assert data.cohorts[0].diff is None
    assert data.cohorts[0].diff_note == "the first cohort"
    assert data.cohorts[2].diff is not None
    assert data.cohorts[2].diff.cohorts is not None
    assert data.cohorts[2].diff.cohorts.seed_sets.introduced == ["B"]


def test_pages_that_show_equal_parts_share_one_model_of_each(catalog_repo: Path, tmp_path: Path) -> None:
    data = gather_site(three_cohorts(catalog_repo, tmp_path), today=TODAY)
    first, second, third = data.cohorts
    # deepseek-r1 is carried unchanged: one line of both cohorts' tables (laid out once).
    assert second.benchmarks[0].status == third.benchmarks[0].status == "identical"
    assert second.benchmarks[0] is third.benchmarks[0]
    assert first.benchmarks[0] is not second.benchmarks[0]  # "added" there
    gates = {b.id: next(s for s in b.sections if s.title == "Gates") for b in data.benchmarks}
    assert gates["deepseek-r1"].facts == gates["gpt-oss-120b"].facts
    assert gates["deepseek-r1"] is gates["gpt-oss-120b"]
    assert gates["deepseek-r1"] is not gates["gsm8k"]  # other gates
    assert gates["deepseek-r1"].facts != gates["gsm8k"].facts
    assert len({id(b.presence.columns[0]) for b in data.benchmarks}) == 1  # one axis


def test_a_cohorts_tree_is_let_go_once_the_diffs_that_read_it_are_made(catalog_repo: Path, tmp_path: Path) -> None:
    repo = three_cohorts(catalog_repo, tmp_path)
    first, second, third = ("2026-09-C0", "2026-09-C1", "2026-10-C0")
    repository = open_repository(repo)
    trees = CohortTrees(repo, layout_for(repo), repository)
    for cohort in (first, second, third):
        trees.identity(cohort)  # each opened, as the site opens them
    assert all(getattr(tree, "repo", None) is repository for tree in trees.trees.values())  # one object cache
    changed = trees.diff(first, second)
    assert list(trees.trees) == [second, third]
    assert trees.diff(second, third)[0] is not None
    assert list(trees.trees) == [third]
    assert trees.diff(first, second) is changed  # made once
    # Asked out of order (a rebuild's history may), a tree let go is opened again.
    backwards = CohortTrees(repo, layout_for(repo))
    assert backwards.diff(second, third)[0] is not None
    assert list(backwards.trees) == [third]
    again = backwards.diff(first, second)
    assert again[0] is not None
    assert again == changed


def test_a_benchmarks_history_names_the_change_that_moved_its_digest(catalog_repo: Path, tmp_path: Path) -> None:
    data = gather_site(three_cohorts(catalog_repo, tmp_path), today=TODAY)
    gsm8k = next(b for b in data.benchmarks if b.id == "gsm8k")
    assert [(h.cohort, h.carried, h.digest_changed, h.changes) for h in gsm8k.history] == [
        ("2026-09-C0", True, False, []),
        ("2026-09-C1", True, True, ["benchmark gsm8k: accuracy.generation.max_new_tokens 256 -> 512"]),
        ("2026-10-C0", True, False, []),
    ]
    assert gsm8k.digest == gsm8k.history[-1].digest
    assert gsm8k.title.i18n == {"zh": "GSM8K · 小学数学应用题"}
    assert gsm8k.presence.rows[0].on == ["2026-09-C0", "2026-09-C1", "2026-10-C0"]
    gpt = next(b for b in data.benchmarks if b.id == "gpt-oss-120b")
    assert not any(h.carried for h in gpt.history)
    accuracy = next(s for s in gpt.sections if s.title == "Accuracy phase")
    threshold = next(f for f in accuracy.facts if f.label == "thresholds.exact_match")
    assert threshold.value == "≥ 82.2987 (83.13 × 0.99) [percent]"
    assert threshold.caption is not None
    assert threshold.caption.text == "Exact match"
    assert accuracy.tables[0].rows[0][:4] == ["aime25", "mlperf_exact_match", "8", "mean_of_k (k=8)"]
    performance = next(s for s in gpt.sections if s.title == "Performance phase")
    duration = next(f for f in performance.facts if f.label == "requirements.min_duration_ms")
    assert duration.value == "600000 up to concurrency 32; 1200000 above"


def test_search_covers_benchmarks_models_datasets_and_metrics(catalog_repo: Path, tmp_path: Path) -> None:
    data = gather_site(three_cohorts(catalog_repo, tmp_path), today=TODAY)
    found = {(e.kind, e.id): e for e in data.search}
    assert found["benchmark", "gpt-oss-120b"].url == "benchmarks/gpt-oss-120b/index.html"
    assert found["model", "gpt-oss-120b"].used_by == ["gpt-oss-120b"]
    assert found["dataset", "aime25"].used_by == ["gpt-oss-120b"]
    assert found["metric", "exact_match,strict-match"].title.i18n == {"zh": "精确匹配（严格）"}
    assert data.submit.cohort == "2026-10-C0"
    assert [(b.id, b.api_type) for b in data.submit.benchmarks] == [
        ("deepseek-r1", "openai_completions"),
        ("gsm8k", "openai_completions"),
    ]


def test_an_empty_repository_has_a_site_without_cohorts(catalog_repo: Path) -> None:
    data = gather_site(catalog_repo, today=TODAY)
    assert data.cohorts == []
    assert data.current is None
    assert (data.next.cohort, data.next.benchmarks, data.next.new_seed_set_due) == ("2026-09-C0", [], True)
    assert data.next.new_seed_set == "the freeze draws it (or imports it with --seeds)"
    assert data.seed_timeline.rows == []
    assert data.submit.cohort is None
    assert data.submit.benchmarks == []
    assert all(not b.history for b in data.benchmarks)


def test_an_invalid_catalog_builds_no_site(catalog_repo: Path) -> None:
    replace_in(catalog_repo, "benchmark_suite/benchmarks/gsm8k.yaml", "model: llama3-1-8b", "model: no-such-model")
    commit_all(catalog_repo, "break it")
    with pytest.raises(CatalogInvalid, match=r"^the catalog at working tree is invalid: no site was built$"):
        gather_site(catalog_repo, today=TODAY)


def test_a_ref_is_published_as_it_was(catalog_repo: Path, tmp_path: Path) -> None:
    repo = three_cohorts(catalog_repo, tmp_path)
    data = gather_site(repo, "2026-09-C0", today=TODAY)
    assert [c.info.cohort for c in data.cohorts] == ["2026-09-C0"]
    assert data.source.startswith("2026-09-C0 (")  # the tree's label: the ref, then its commit


def test_the_exit_codes_are_the_table_of_errors() -> None:
    codes = {e.code: e.meaning for e in exit_codes()}
    assert sorted(codes) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 70, 130]
    assert codes[7] == "`resolve`, `preflight`: the submission does not fit the cohort (`submission-mismatch`)"


def test_values_for_people() -> None:
    assert bound_text({"reference": 81.3582, "lower_factor": 0.99, "scale": "percent"}) == (
        "≥ 80.5446 (81.3582 × 0.99) [percent]"
    )
    assert bound_text({"reference": 2000.0, "lower_factor": 0.9, "upper_factor": 1.1}) == (
        "≥ 1800 (2000.0 × 0.9) and ≤ 2200 (2000.0 × 1.1)"
    )
    assert text(True) == "yes"
    assert text([{"a": 1}]) == '[{"a": 1}]'
    assert text(["exact_match,strict-match", "x"]) == "exact_match,strict-match · x"


def test_each_seed_set_says_where_its_seeds_come_from(catalog_repo: Path, tmp_path: Path) -> None:
    data = gather_site(beacon_releases(catalog_repo, tmp_path), today=TODAY)
    drawn, derived = data.cohorts[1].seed_sets
    assert drawn.provenance.kind == "drawn"
    assert drawn.provenance.statement == (
        "drawn by `catalogctl freeze` with Python's secrets module (no import and no beacon round is recorded)"
    )
    origin = derived.provenance
    assert (origin.kind, origin.round, origin.chain, origin.named_in) == (
        "derived",
        ROUND,
        "drand quicknet",
        "2026-09-C0",
    )
    assert origin.round_time == dt.datetime(2024, 10, 14, 17, 13, 33, tzinfo=dt.UTC)
    assert origin.statement == (
        f"derived from round {ROUND} of drand quicknet (chain 52db9ba70e0c…), published 2024-10-14 17:13:33 UTC, "
        "named by the release of 2026-09-C0 before it was published"
    )
    randomness = round_data()["randomness"]
    assert origin.rederive == (
        "To re-derive: for scheduler_rng_seed, sample_index_rng_seed and model_seed in turn, with COUNTER from 0, "
        f'take the first 8 bytes (big-endian) of sha256("catalogctl-seed-v1\\n{randomness}\\n2026-09-C1\\nB\\n'
        'NAME\\nCOUNTER"), skipping 0 and a value the set already has. The randomness is the sha256 of the '
        "round's signature, which verifies against the chain's public key that suite.yaml pins."
    )


def test_an_imported_set_names_its_file(catalog_repo: Path, tmp_path: Path) -> None:
    data = gather_site(three_cohorts(catalog_repo, tmp_path), today=TODAY)
    origin = data.cohorts[0].seed_sets[0].provenance
    digest = hashlib.sha256(SEEDS_A.encode()).hexdigest()
    assert (origin.kind, origin.file, origin.sha256, origin.source) == ("imported", "seeds.yaml", digest, None)
    assert origin.statement == f"imported by `catalogctl freeze --seeds` from seeds.yaml (sha256 {digest[:12]}…)"


def test_the_next_cohort_says_which_round_its_new_set_comes_from(catalog_repo: Path) -> None:
    data = gather_site(beacon_catalog(catalog_repo), today=TODAY)
    assert data.next.new_seed_set_due
    assert data.next.new_seed_set == (
        f"it is derived from round {ROUND} of drand quicknet (due 2024-10-14 17:13:33 UTC), which the release of "
        "2026-09-C0 named"
    )
