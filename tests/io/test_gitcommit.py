"""Who commits: the committer's identity from the environment or git config, refused with the
setting to change when git would refuse it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import git, run_cli, write
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
