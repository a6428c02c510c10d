"""Previews and reruns: `freeze --dry-run` on a dirty tree previews (a real freeze refuses), and
`--add` of a benchmark the cohort carries over anyway is a note, so a script can be rerun."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import git, run_cli, write
from tests.release_repo import SEEDS_A, make_freezable, tags


@pytest.fixture
def repo(catalog_repo: Path) -> Path:
    return make_freezable(catalog_repo)


def test_a_dry_run_on_a_dirty_tree_previews_and_says_a_freeze_would_refuse(repo: Path, tmp_path: Path) -> None:
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A)
    (repo / "benchmark_suite/benchmarks/gsm8k.yaml").write_text("edited, not committed\n")
    write(repo, "scratch.txt", "untracked\n")
    head, status = git(repo, "rev-parse", "HEAD"), git(repo, "status", "--porcelain")
    args = ("freeze", "2026-09-C0", "--add", "gsm8k", "--seeds", str(seeds), "-C", str(repo))
    done = run_cli(*args, "--dry-run")
    assert done.stdout.startswith(
        "note: the working tree has uncommitted changes: benchmark_suite/benchmarks/gsm8k.yaml, scratch.txt: a real "
        "freeze would refuse (commit or stash them first); this preview reads HEAD's tree\n"
        "note: seed set A imported, valid through 2026-10-C1\n"
        "dry run: nothing written. rulesets/2026-09-C0.yaml would be:\n"
    )
    assert "\n- id: gsm8k\n" in done.stdout  # HEAD's gsm8k, not the file on disk
    assert (git(repo, "rev-parse", "HEAD"), git(repo, "status", "--porcelain"), tags(repo)) == (head, status, [])
    refused = run_cli(*args, code=2)
    assert refused.stderr == (
        "error: the working tree has uncommitted changes: benchmark_suite/benchmarks/gsm8k.yaml, scratch.txt\n"
        "hint: commit or stash them first\n"
    )


def test_adding_a_benchmark_already_carried_over_is_a_note(repo: Path, tmp_path: Path) -> None:
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A)
    run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--seeds", str(seeds), "-C", str(repo))
    done = run_cli("freeze", "2026-09-C1", "--add", "gsm8k", "--add", "deepseek-r1", "-C", str(repo))
    assert done.stdout.startswith(
        "note: `gsm8k` is already in 2026-09-C0 and carries over: --add gsm8k changes nothing\nfroze 2026-09-C1: "
    )
    ruleset = git(repo, "show", "HEAD:rulesets/2026-09-C1.yaml")
    assert "\n- id: deepseek-r1\n" in ruleset
    assert "\n- id: gsm8k\n" in ruleset
    # the same script again: the release is there, nothing to do
    again = run_cli("freeze", "2026-09-C1", "--add", "gsm8k", "--add", "deepseek-r1", "-C", str(repo))
    assert again.stdout.endswith(": nothing to do\n")
