"""A git remote's refs and pushes, within the network deadline: over git://, http(s):// and
ssh://, a server that accepts and never answers, or trickles a valid-looking answer one byte a
second, is `RemoteTimeout` (exit 6) naming the remote, its credentials removed; and a remote
that cannot be reached (an environment error) or that answers and refuses (not one)."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pygit2
import pytest

from catalogctl.errors import RemoteProblem, RemoteTimeout, RemoteUnreachable
from catalogctl.io import gitremote, gitrepo
from tests.helpers import git
from tests.release_repo import REFUSE_TAGS_HOOK, free_port, git_daemon
from tests.stalling_remote import GREETINGS, STALLS, finished_within, loopback_tls, services, stalling


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
        gitremote.remote_refs(repo, remote)
    assert str(listed.value) == f"cannot list the refs of `{remote}`: {reason}"
    assert listed.value.exit_code == 2
    with pytest.raises(RemoteUnreachable) as pushed:
        gitremote.push(repo, remote, ["refs/heads/main:refs/heads/main"])
    assert str(pushed.value) == f"push to `{remote}` failed: {reason}"
    assert pushed.value.hint == "check the remote's URL and the network"


def test_a_remote_that_answers_and_refuses(catalog_repo: Path, tmp_path: Path, daemon: str) -> None:
    repo = gitrepo.open_repository(catalog_repo)
    with pytest.raises(RemoteProblem) as listed:
        gitremote.remote_refs(repo, f"{daemon}/missing.git")
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
        gitremote.push(repo, f"{daemon}/remote.git", ["refs/tags/v1:refs/tags/v1"])
    assert gitremote.remote_refs(repo, f"{daemon}/remote.git") == {}


# -- the deadline ---------------------------------------------------------------------------------

DEADLINE_S = 1
# How long a test waits for a call that should end at the deadline before calling it a hang:
# the deadline, a child process's start and a busy machine's slack.
HANG_S = DEADLINE_S + 20
HINT = (
    "retry later, or check the remote's URL and the network; CATALOGCTL_TIMEOUT sets the deadline in seconds "
    "(60 by default)"
)


@pytest.fixture(autouse=True)
def deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CATALOGCTL_TIMEOUT", str(DEADLINE_S))
    # Should libgit2 run the ssh program (its exec backend), it must neither read the user's
    # configuration nor ask anything.
    monkeypatch.setenv("GIT_SSH_COMMAND", "ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no")


def timed_out(call: object) -> RemoteTimeout:
    assert isinstance(call, RemoteTimeout), f"expected a RemoteTimeout, got {call!r}"
    assert call.exit_code == 6
    assert call.hint == HINT
    return call


@pytest.mark.slow
@pytest.mark.parametrize(("scheme", "mode"), STALLS)
def test_a_remote_that_never_finishes_answering_is_a_timeout(catalog_repo: Path, scheme: str, mode: str) -> None:
    repo = gitrepo.open_repository(catalog_repo)
    with stalling(mode, greeting=GREETINGS.get(scheme, b"")) as (port, _):
        url = f"{scheme}://127.0.0.1:{port}/x.git"
        listed = timed_out(finished_within(HANG_S, lambda: gitremote.remote_listing(repo, url)))
        assert str(listed) == f"`{url}` gave no complete answer within 1 s (listing its refs)"
        pushed = timed_out(finished_within(HANG_S, lambda: gitremote.push(repo, url, ["refs/tags/v1:refs/tags/v1"])))
        assert str(pushed) == f"`{url}` gave no complete answer within 1 s (pushing refs/tags/v1:refs/tags/v1)"


def test_an_https_remote_that_trickles_after_the_handshake_is_a_timeout(
    catalog_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tls, cert = loopback_tls(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # libgit2 (OpenSSL) trusts the test's certificate
    repo = gitrepo.open_repository(catalog_repo)
    with stalling("trickle", greeting=GREETINGS["http"], tls=tls) as (port, stall):
        url = f"https://127.0.0.1:{port}/x.git"
        listed = timed_out(finished_within(HANG_S, lambda: gitremote.remote_listing(repo, url)))
    assert str(listed) == f"`{url}` gave no complete answer within 1 s (listing its refs)"
    assert stall.opened[0].startswith(b"GET /x.git/info/refs?service=git-upload-pack HTTP/1.1")  # past TLS


def test_a_timeout_names_the_remote_without_its_credentials(catalog_repo: Path) -> None:
    repo = gitrepo.open_repository(catalog_repo)
    with stalling("silent") as (port, _):
        url = f"http://gitlab-ci-token:SECRET@127.0.0.1:{port}/x.git?private_token=SECRET"
        listed = timed_out(finished_within(HANG_S, lambda: gitremote.remote_refs(repo, url)))
    assert str(listed) == (
        f"`http://127.0.0.1:{port}/x.git?private_token=REDACTED` gave no complete answer within 1 s (listing its refs)"
    )


def test_a_configured_remote_is_named_as_configured(catalog_repo: Path) -> None:
    repo = gitrepo.open_repository(catalog_repo)
    with stalling("silent") as (port, stall):
        repo.remotes.create("origin", f"git://127.0.0.1:{port}/x.git")
        listed = timed_out(finished_within(HANG_S, lambda: gitremote.remote_listing(repo, "origin")))
    assert str(listed) == "`origin` gave no complete answer within 1 s (listing its refs)"
    assert services(stall) == ["git-upload-pack"]


def test_the_child_reads_the_configuration_this_process_reads(catalog_repo: Path, tmp_path: Path) -> None:
    # The child is given this process's config search path (the sealed one of the tests here), so
    # `url.<base>.insteadOf` and the like apply to a remote exactly as they did in this process.
    served = tmp_path / "served"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(served / "origin.git"))
    git(catalog_repo, "push", "-q", str(served / "origin.git"), "main")
    main = git(catalog_repo, "rev-parse", "main")
    repo = gitrepo.open_repository(catalog_repo)
    user_config = Path(pygit2.settings.search_path[pygit2.enums.ConfigLevel.GLOBAL]) / ".gitconfig"
    for url in git_daemon(served):
        user_config.write_text(f'[url "{url}/"]\n\tinsteadOf = catalog:\n')
        listing = gitremote.remote_listing(repo, "catalog:origin.git")
        assert (listing.refs, listing.default_branch) == ({"HEAD": main, "refs/heads/main": main}, "refs/heads/main")
        # What the child answers, asked in this process: the same heads.
        request = {"op": "list", "remote": "catalog:origin.git", "repo": repo.path, "search_path": {}}
        assert gitremote.answer(request) == {
            "heads": [["HEAD", main, "refs/heads/main"], ["refs/heads/main", main, ""]]
        }


def test_a_remote_on_this_machine_is_asked_without_a_child(
    catalog_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A path has no server to wait for: no child's start for it.
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    repo = gitrepo.open_repository(catalog_repo)
    monkeypatch.setattr(gitremote, "run_within", no_child)
    for remote in (str(bare), f"file://{bare}"):
        gitremote.push(repo, remote, ["refs/heads/main:refs/heads/main"])
        assert gitremote.remote_refs(repo, remote)["refs/heads/main"] == git(catalog_repo, "rev-parse", "main")
    repo.remotes.create("origin", str(bare))
    repo.remotes.set_push_url("origin", f"git://127.0.0.1:{free_port()}/x.git")  # pushes go over the network
    for remote in ("origin", f"git://127.0.0.1:{free_port()}/x.git"):
        with pytest.raises(AssertionError, match="a child was started"):
            gitremote.remote_refs(repo, remote)


def no_child(*args: object) -> None:
    raise AssertionError("a child was started")


def test_a_remote_that_libgit2_reaches_over_ssh_is_asked_in_a_child(
    catalog_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # libgit2 (on POSIX) takes any URL with a colon that is not `file://` for SSH: `0:x.git` is
    # host 0 (0.0.0.0, this machine's port 22), a path with a colon in it a host named after the
    # path. Both were asked in this process, with no deadline: a silent sshd on port 22 held
    # `0:x.git` forever.
    with_colon = tmp_path / "a:b" / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(with_colon))
    repo = gitrepo.open_repository(catalog_repo)
    monkeypatch.setattr(gitremote, "run_within", no_child)
    for remote in ("0:x.git", str(with_colon), f"FILE://{with_colon}"):
        with pytest.raises(AssertionError, match="a child was started"):
            gitremote.remote_refs(repo, remote)
    repo.remotes.create("origin", str(tmp_path / "origin.git"))
    repo.remotes.set_push_url("origin", "0:x.git")
    with pytest.raises(AssertionError, match="a child was started"):
        gitremote.push(repo, "origin", ["refs/heads/main:refs/heads/main"])


def test_a_deadline_of_a_month_is_no_crash(
    catalog_repo: Path, tmp_path: Path, daemon: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # It was an OverflowError (a bug, exit 70): the wait for the child took the deadline as is.
    monkeypatch.setenv("CATALOGCTL_TIMEOUT", "3000000")
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(tmp_path / "served" / "origin.git"))
    repo = gitrepo.open_repository(catalog_repo)
    assert gitremote.remote_refs(repo, f"{daemon}/origin.git") == {}


def test_a_child_slow_to_start_is_not_charged_to_the_remote(
    catalog_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # CI failed on it: on a loaded machine the child's own start (Python, pygit2) took the whole
    # 1 s deadline, so the child was killed before it connected, and the remote was blamed for it.
    # The deadline is the remote's: it starts once the child is ready to ask.
    slow_start = tmp_path / "slow-start"
    slow_start.mkdir()
    (slow_start / "sitecustomize.py").write_text("import time\ntime.sleep(1.5)\n")
    monkeypatch.setenv("PYTHONPATH", str(slow_start))
    repo = gitrepo.open_repository(catalog_repo)
    with stalling("silent") as (port, stall):
        url = f"git://127.0.0.1:{port}/x.git"
        listed = timed_out(finished_within(HANG_S, lambda: gitremote.remote_listing(repo, url)))
        # Connections are recorded by the server's threads: wait for the one the child opened.
        assert finished_within(HANG_S, lambda: wait_for(lambda: stall.opened)) is True
    assert str(listed) == f"`{url}` gave no complete answer within 1 s (listing its refs)"
    assert services(stall) == ["git-upload-pack"]


def wait_for(condition: Callable[[], object]) -> bool:
    """True once `condition()` holds (polled every 50 ms); the caller bounds the wait."""
    while not condition():
        time.sleep(0.05)
    return True


@pytest.mark.parametrize("inherited", ["ignored", "blocked"])
def test_a_deadline_holds_when_the_tool_inherits_sigalrm_ignored_or_blocked(catalog_repo: Path, inherited: str) -> None:
    # Found by a breaker: an ignored or blocked SIGALRM passes through fork and exec (a shell's
    # `trap '' ALRM`, a supervisor's mask), so the child's own deadline never fired and a silent
    # remote held the verb for the deadline plus the 30 s allowance for the child's start.
    repo = gitrepo.open_repository(catalog_repo)

    def listed_with_sigalrm_inherited(url: str) -> object:
        if inherited == "blocked":  # this thread's mask, which the child it starts inherits
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        return gitremote.remote_listing(repo, url)

    before = signal.signal(
        signal.SIGALRM, signal.SIG_IGN if inherited == "ignored" else signal.getsignal(signal.SIGALRM)
    )
    try:
        with stalling("silent") as (port, _):
            url = f"git://127.0.0.1:{port}/x.git"
            listed = timed_out(finished_within(HANG_S, lambda: listed_with_sigalrm_inherited(url)))
    finally:
        signal.signal(signal.SIGALRM, before)
    assert str(listed) == f"`{url}` gave no complete answer within 1 s (listing its refs)"
