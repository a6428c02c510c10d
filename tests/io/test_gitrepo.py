"""The git layer: who commits, repositories without commits, and a tree's blobs read by their ids."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalogctl.io import gitrepo
from catalogctl.io.tree import BlobReader, UnsafePath, WorkingTree, regular_blob
from tests.helpers import git, init_repo, run_cli, write
from tests.release_repo import SEEDS_A, make_freezable, tags


@pytest.fixture
def anonymous(catalog_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository ready to freeze, then no committer in the environment (the sealed test
    config sets one) nor in any git config."""
    repo = make_freezable(catalog_repo)
    for var in ("GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL"):
        monkeypatch.delenv(var)
    return repo


def freeze_args(repo: Path, seeds: Path) -> list[str]:
    return ["freeze", "2026-09-C0", "--add", "gsm8k", "--seeds", str(seeds), "-C", str(repo)]


def test_freeze_without_a_git_identity_says_how_to_set_one_and_leaves_nothing(anonymous: Path, tmp_path: Path) -> None:
    repo = anonymous
    before = (git(repo, "rev-parse", "HEAD"), (repo / "CHANGELOG.md").exists())
    done = run_cli(*freeze_args(repo, write(tmp_path, "a.yaml", SEEDS_A)), code=2)
    assert done.stderr == (
        'error: no git identity to commit with\nhint: set it: git config user.name "…" && git config user.email "…"\n'
    )
    assert (git(repo, "rev-parse", "HEAD"), (repo / "CHANGELOG.md").exists()) == before
    assert git(repo, "status", "--porcelain") == ""
    assert tags(repo) == []


def test_freeze_commits_and_tags_as_the_repository_identity(anonymous: Path, tmp_path: Path) -> None:
    repo = anonymous
    git(repo, "config", "user.name", "Release Manager")
    git(repo, "config", "user.email", "releases@example.invalid")
    run_cli(*freeze_args(repo, write(tmp_path, "a.yaml", SEEDS_A)))
    assert git(repo, "log", "-1", "--format=%an <%ae> / %cn <%ce>") == (
        "Release Manager <releases@example.invalid> / Release Manager <releases@example.invalid>"
    )
    assert git(repo, "tag", "-l", "--format=%(taggername) %(taggeremail)", "2026-09-C0") == (
        "Release Manager <releases@example.invalid>"
    )


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


def test_an_identity_with_angle_brackets_is_a_message_naming_its_setting(
    catalog_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git refuses such a name or email too; libgit2's refusal was an internal error (exit 70)."""
    repo = make_freezable(catalog_repo)
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Evil <x> Name")
    done = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "-C", str(repo), code=2)
    assert done.stderr == (
        "error: the git identity 'Evil <x> Name' <tester@example.invalid> holds '<' or '>': git writes no such "
        "identity in a commit; nothing was written\n"
        'hint: set another: export GIT_COMMITTER_NAME="…" GIT_COMMITTER_EMAIL="…"\n'
    )
    monkeypatch.delenv("GIT_COMMITTER_NAME")
    monkeypatch.delenv("GIT_COMMITTER_EMAIL", raising=False)
    git(repo, "config", "user.name", "Evil <x> Name")
    git(repo, "config", "user.email", "m@example.org")
    done = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "-C", str(repo), code=2)
    assert done.stderr.splitlines()[-1] == 'hint: set another: git config user.name "…" && git config user.email "…"'


def test_a_blob_is_read_by_its_id_and_file_ids_are_a_copy(catalog_repo: Path) -> None:
    repo = gitrepo.open_repository(catalog_repo)
    commit = gitrepo.lookup(repo, "v1")
    assert commit is not None
    tree = gitrepo.GitTree(repo, commit, "v1")
    assert isinstance(tree, BlobReader)
    assert not isinstance(WorkingTree(catalog_repo), BlobReader)
    folder = "benchmark_suite/benchmarks"
    ids = tree.file_ids(folder)
    path, file_id = sorted(ids.items())[0]
    oid = regular_blob(file_id)
    assert oid is not None
    assert tree.read_blob(oid) == tree.read(path) == (catalog_repo / path).read_bytes()
    ids.clear()  # the caller's copy: the tree keeps its own
    assert tree.file_ids(folder)[path] == file_id
    with pytest.raises(FileNotFoundError, match=r"^no blob 0{40} at v1"):
        tree.read_blob("0" * 40)
    with pytest.raises(FileNotFoundError):
        tree.read_blob("not an id")
    with pytest.raises(UnsafePath, match="is not a blob"):
        tree.read_blob(str(commit.tree.id))
