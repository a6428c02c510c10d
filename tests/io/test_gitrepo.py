"""Remotes: one that cannot be reached is an environment error, one that answers and refuses is not."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from catalogctl.errors import RemoteProblem, RemoteUnreachable
from catalogctl.io import gitrepo
from tests.helpers import git
from tests.release_repo import REFUSE_TAGS_HOOK, free_port, git_daemon


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[str]:
    yield from git_daemon(tmp_path / "served")


@pytest.mark.parametrize(
    ("remote", "reason"),
    [
        ("git://127.0.0.1:{port}/x.git", "failed to connect to 127.0.0.1: Connection refused"),
        ("http://127.0.0.1:{port}/x.git", "failed to connect to 127.0.0.1: Connection refused"),
        ("{tmp}/no-such-remote.git", "unsupported URL protocol"),  # libgit2's word for a missing path
        ("{tmp}", "could not find repository at '{tmp}'"),
        ("file://{tmp}/nothing.git", "failed to resolve path '{tmp}/nothing.git': No such file or directory"),
    ],
)
def test_a_remote_that_cannot_be_reached(catalog_repo: Path, tmp_path: Path, remote: str, reason: str) -> None:
    port = free_port()
    remote, reason = (text.format(port=port, tmp=tmp_path) for text in (remote, reason))
    repo = gitrepo.open_repository(catalog_repo)
    with pytest.raises(RemoteUnreachable) as listed:
        gitrepo.remote_refs(repo, remote)
    assert str(listed.value) == f"cannot list the refs of `{remote}`: {reason}"
    assert listed.value.exit_code == 2
    with pytest.raises(RemoteUnreachable) as pushed:
        gitrepo.push(repo, remote, ["refs/heads/main:refs/heads/main"])
    assert str(pushed.value) == f"push to `{remote}` failed: {reason}"
    assert pushed.value.hint == "check the remote's URL and the network"


def test_a_remote_that_answers_and_refuses(catalog_repo: Path, tmp_path: Path, daemon: str) -> None:
    repo = gitrepo.open_repository(catalog_repo)
    with pytest.raises(RemoteProblem) as listed:
        gitrepo.remote_refs(repo, f"{daemon}/missing.git")
    assert str(listed.value) == (
        f"cannot list the refs of `{daemon}/missing.git`: remote error: access denied or repository not exported: "
        "/missing.git"
    )
    assert listed.value.exit_code == 1
    bare = tmp_path / "served" / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    (bare / "hooks/update").write_text(REFUSE_TAGS_HOOK)
    (bare / "hooks/update").chmod(0o755)
    with pytest.raises(RemoteProblem, match=r"^`.*/remote.git` refused the push \(refs/tags/v1: "):
        gitrepo.push(repo, f"{daemon}/remote.git", ["refs/tags/v1:refs/tags/v1"])
    assert gitrepo.remote_refs(repo, f"{daemon}/remote.git") == {}
