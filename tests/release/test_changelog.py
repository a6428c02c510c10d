"""CHANGELOG.md as freeze writes it: the notes under "Unreleased" are released with the next
cohort, and a section's diff names the cohort, never the commit the freeze started from."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from catalogctl.release.changelog import unreleased_notes, upsert_section
from catalogctl.release.freeze import FreezeRequest, freeze
from tests.helpers import commit_all, git, replace_in, write
from tests.release_repo import SEEDS_A, make_freezable

NOW = dt.datetime(2026, 8, 28, 12, 0, tzinfo=dt.UTC)
NOTES = "### Added\n\n- gsm8k joins the evaluation pack.\n"


@pytest.fixture
def repo(catalog_repo: Path) -> Path:
    return make_freezable(catalog_repo)


def test_the_section_diff_names_the_cohort_not_a_pre_release_commit(repo: Path, tmp_path: Path) -> None:
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A)
    freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k"], seeds_file=seeds, now=NOW))
    c0 = git(repo, "rev-parse", "HEAD")
    replace_in(repo, "benchmark_suite/benchmarks/gsm8k.yaml", "max_new_tokens: 256", "max_new_tokens: 512")
    start = commit_all(repo, "gsm8k: longer answers")
    result = freeze(repo, FreezeRequest("2026-09-C1", now=NOW))
    assert f"### Catalog diff: `2026-09-C0 ({c0[:12]})` → `2026-09-C1`\n" in result.changelog_section
    assert start[:12] not in (repo / "CHANGELOG.md").read_text()


def test_the_notes_under_unreleased_are_released_with_the_cohort(repo: Path, tmp_path: Path) -> None:
    write(repo, "CHANGELOG.md", f"# Catalog release notes\n\nIntro.\n\n## Unreleased\n\n{NOTES}")
    commit_all(repo, "Notes")
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A)
    planned = freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k"], seeds_file=seeds, now=NOW, dry_run=True))
    assert "the notes under Unreleased in CHANGELOG.md are released with 2026-09-C0" in planned.notes
    section = planned.changelog_section
    assert section.startswith("## 2026-09-C0\n\nSubmissions on Wednesday 2026-09-02 · the first cohort · ruleset ")
    assert f"\n\n{NOTES}\n| benchmark | contract digest | since the previous cohort |\n" in section
    freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k"], seeds_file=seeds, now=NOW))
    text = (repo / "CHANGELOG.md").read_text()
    assert text.startswith("# Catalog release notes\n\nIntro.\n\n## Unreleased\n\n## 2026-09-C0\n\nSubmissions on ")
    assert text.count("gsm8k joins the evaluation pack") == 1
    again = freeze(repo, FreezeRequest("2026-09-C1", now=NOW))  # nothing new under Unreleased: no notes
    assert not any("Unreleased" in note for note in again.notes)
    assert "## Unreleased\n\n## 2026-09-C1\n" in (repo / "CHANGELOG.md").read_text()


@pytest.mark.parametrize(
    ("text", "notes"),
    [
        ("# Notes\n\n## Unreleased\n\n- a\n- b\n\n## 2026-09-C0\n\nold\n", "- a\n- b"),
        ("# Notes\n\n## Unreleased\n", ""),
        ("# Notes\n\n## 2026-09-C0\n\nold\n", ""),
    ],
)
def test_unreleased_notes(text: str, notes: str) -> None:
    assert unreleased_notes(text) == notes


def test_a_section_replaced_in_place_leaves_unreleased_alone() -> None:
    text = "# Notes\n\n## Unreleased\n\n- later\n\n## 2026-09-C0\n\nold\n"
    assert upsert_section(text, "2026-09-C0", "## 2026-09-C0\n\nnew\n") == (
        "# Notes\n\n## Unreleased\n\n- later\n\n## 2026-09-C0\n\nnew\n\n"
    )
