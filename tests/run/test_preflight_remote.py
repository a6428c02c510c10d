"""`preflight`'s remote: which one it checks, what it says when it cannot, and that no credential
of its URL reaches an output file, stdout or stderr."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from tests.helpers import git, run_cli, run_console
from tests.loopback_http import QuickStopServer
from tests.release_repo import git_daemon
from tests.stalling_remote import GREETINGS, STALLS, loopback_tls, services, stalling

SECRET = "glcbt-SECRET0123456789"


def with_credentials(url: str) -> str:
    """`url` with a CI job token as its user info, as GitLab CI sets a clone's remote."""
    return url.replace("://", f"://gitlab-ci-token:{SECRET}@", 1)


# -- credentials in the remote's URL ------------------------------------------------------------


@pytest.mark.slow
def test_credentials_in_the_remote_url_are_recorded_and_printed_nowhere(
    release: Path, submission: Path, output: Path, tmp_path: Path
) -> None:
    served = tmp_path / "served"
    for url in git_daemon(served):
        git(served, "clone", "-q", "--bare", str(tmp_path / "origin.git"), str(served / "mirror.git"))
        git(release, "remote", "set-url", "origin", with_credentials(f"{url}/mirror.git"))
        done = [
            run_cli("preflight", submission, "-C", release, "-o", output),
            run_cli("preflight", submission, "-C", release, "--format", "json"),
            run_cli("resolve", submission, "-C", release, "--format", "json"),
            run_cli("freeze", "2026-09-C0", "--push", "origin", "-C", release),
            run_cli("freeze", "2026-09-C0", "--push", with_credentials(f"{url}/mirror.git"), "-C", release),
            # unreachable: the messages name the remote and repeat what libgit2 said
            run_cli(
                "preflight", submission, "-C", release, "--remote", with_credentials("git://127.0.0.1:1/x.git"), code=6
            ),
            run_cli(
                "freeze", "2026-09-C0", "--push", with_credentials("git://127.0.0.1:1/x.git"), "-C", release, code=2
            ),
        ]
        recorded = json.loads(output.read_text())["provenance"]["remote"]
        assert recorded["remote"] == f"{url}/mirror.git"
        assert json.loads(done[1].stdout)["provenance"]["remote"]["remote"] == f"{url}/mirror.git"
        assert "the remote `git://127.0.0.1:1/x.git` is unreachable" in done[5].stderr
        for result in done:
            assert SECRET not in result.stdout + result.stderr, result.command
        assert SECRET not in output.read_text()


# -- which remote ---------------------------------------------------------------------------------

LAST_RESORT = "; as a last resort, --offline skips this check, and the resolved config records it as not verified"


def refused(release: Path, submission: Path, *extra: str) -> str:
    """Preflight's stderr, expecting a remote-mismatch (exit 6) and nothing on stdout."""
    result = run_cli("preflight", submission, "-C", release, *extra, code=6)
    assert result.stdout == ""
    return result.stderr


def recorded_remote(release: Path, submission: Path, *extra: str) -> str:
    """The remote preflight verified, as its resolved config records it."""
    config = json.loads(run_cli("preflight", submission, "-C", release, "--format", "json", *extra).stdout)
    assert config["provenance"]["remote"]["verified"]
    return str(config["provenance"]["remote"]["remote"])


def test_no_remote_at_all(release: Path, submission: Path) -> None:
    git(release, "remote", "remove", "origin")
    assert refused(release, submission) == (
        "error [remote-mismatch]: this clone has no remote to confirm the release on\n"
        "hint: add the catalog's repository (git remote add origin URL), or pass --remote URL" + LAST_RESORT + "\n"
    )


def test_the_upstream_of_the_branch_is_the_remote_whatever_its_name(
    release: Path, submission: Path, tmp_path: Path
) -> None:
    git(release, "remote", "rename", "origin", "upstream")
    git(release, "remote", "add", "fork", str(tmp_path / "nowhere.git"))
    git(release, "config", "branch.main.remote", "upstream")
    assert recorded_remote(release, submission) == str(tmp_path / "origin.git")


def test_two_remotes_and_no_upstream_names_them(release: Path, submission: Path, tmp_path: Path) -> None:
    git(release, "remote", "rename", "origin", "upstream")
    git(release, "remote", "add", "fork", str(tmp_path / "nowhere.git"))
    assert refused(release, submission) == (
        "error [remote-mismatch]: this clone has 2 remotes (`fork`, `upstream`) and the current branch tracks "
        "none of them: which one has the release?\n"
        "hint: pass --remote NAME, or set the branch's upstream (git branch --set-upstream-to NAME/main)\n"
    )
    assert recorded_remote(release, submission, "--remote", "upstream") == str(tmp_path / "origin.git")


def test_the_only_remote_and_else_origin(release: Path, submission: Path, tmp_path: Path) -> None:
    git(release, "remote", "rename", "origin", "catalog")
    assert recorded_remote(release, submission) == str(tmp_path / "origin.git")  # the only one
    git(release, "remote", "rename", "catalog", "origin")
    git(release, "remote", "add", "fork", str(tmp_path / "nowhere.git"))
    git(release, "checkout", "-q", "--detach", "2026-09-C0")  # a runner's checkout: no branch, no upstream
    assert recorded_remote(release, submission) == str(tmp_path / "origin.git")


def test_a_remote_whose_path_does_not_exist(release: Path, submission: Path, tmp_path: Path) -> None:
    gone = tmp_path / "moved-away.git"
    git(release, "remote", "set-url", "origin", str(gone))
    assert refused(release, submission) == (
        f"error [remote-mismatch]: the remote `origin` is the path {gone}, which does not exist\n"
        "hint: fix its URL (git remote set-url origin URL), or pass --remote NAME|URL" + LAST_RESORT + "\n"
    )
    assert refused(release, submission, "--remote", f"file://{gone}") == (
        f"error [remote-mismatch]: the remote `file://{gone}` is the path {gone}, which does not exist\n"
        "hint: fix the path, or pass --remote NAME|URL" + LAST_RESORT + "\n"
    )


def test_a_remote_name_that_is_not_configured(release: Path, submission: Path) -> None:
    assert refused(release, submission, "--remote", "upstream") == (
        "error [remote-mismatch]: this clone has no remote named `upstream` (its remotes: `origin`)\n"
        "hint: pass --remote with one of them, or add it: git remote add upstream URL\n"
    )


def test_a_remote_whose_name_git_does_not_accept(release: Path, submission: Path, tmp_path: Path) -> None:
    # It was "this clone has no remote named `we rd` (its remotes: `origin`, `we rd`)", with the hint
    # `git remote add we rd URL`, unquoted.
    git(release, "config", "remote.we rd.url", str(tmp_path / "origin.git"))
    git(release, "config", "branch.main.remote", "we rd")
    expected = (
        "error [remote-mismatch]: the remote `we rd` has a name that git does not accept, so it cannot be read\n"
        "hint: rename it (git remote rename 'we rd' NEW-NAME), or pass --remote NAME|URL" + LAST_RESORT + "\n"
    )
    assert refused(release, submission) == expected
    assert refused(release, submission, "--remote", "we rd") == expected


def test_a_hint_quotes_the_name_it_repeats(release: Path, submission: Path) -> None:
    assert refused(release, submission, "--remote", "up;stream") == (
        "error [remote-mismatch]: this clone has no remote named `up;stream` (its remotes: `origin`)\n"
        "hint: pass --remote with one of them, or add it: git remote add 'up;stream' URL\n"
    )


def test_an_upstream_that_is_a_url_is_the_remote(release: Path, submission: Path, tmp_path: Path) -> None:
    # It was ignored: preflight checked `origin` instead (git fetches and pushes the URL).
    git(release, "remote", "set-url", "origin", str(tmp_path / "nowhere.git"))
    git(release, "config", "branch.main.remote", str(tmp_path / "origin.git"))
    assert recorded_remote(release, submission) == str(tmp_path / "origin.git")


def test_the_configured_default_remote_is_checked_when_none_is_named(
    release: Path, submission: Path, tmp_path: Path
) -> None:
    git(release, "remote", "rename", "origin", "upstream")
    git(release, "remote", "add", "fork", str(tmp_path / "nowhere.git"))
    (release / "catalogctl.toml").write_text('default-remote = "upstream"\n')
    assert recorded_remote(release, submission) == str(tmp_path / "origin.git")
    (release / "catalogctl.toml").write_text('default-remote = "fork"\n')
    assert recorded_remote(release, submission, "--remote", "upstream") == str(tmp_path / "origin.git")  # named wins


# -- the GitHub API check: an answer from another origin is not GitHub's ---------------------------


@pytest.fixture
def elsewhere() -> Iterator[HTTPServer]:
    """A second loopback server: another port, so another origin than the API's."""
    server = QuickStopServer(host="127.0.0.1", port=0)
    server.start()
    yield server
    server.clear()
    server.stop()


def test_a_redirect_of_the_github_check_to_another_origin_is_refused(
    release: Path,
    submission: Path,
    output: Path,
    httpserver: HTTPServer,
    elsewhere: HTTPServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # It followed the redirect and took the other server's answer for GitHub's: preflight passed.
    path = "/repos/mlcommons/catalog/git/ref/tags/2026-09-C0"
    commit = git(release, "rev-parse", "HEAD")
    moved = elsewhere.url_for(path)
    httpserver.expect_request(path).respond_with_data("", status=302, headers={"Location": moved})
    elsewhere.expect_request(path).respond_with_json({"object": {"type": "commit", "sha": commit}})
    api = httpserver.url_for("/").rstrip("/")
    monkeypatch.setenv("GITHUB_API_URL", api)
    monkeypatch.setenv("GITHUB_TOKEN", "secret-token")
    done = run_cli(
        "preflight", str(submission), "-C", str(release), "-o", str(output), "--github", "mlcommons/catalog", code=6
    )
    assert done.stderr == (
        "error [remote-mismatch]: GitHub could not confirm tag `2026-09-C0`: GitHub's answer redirects to "
        f"{elsewhere.url_for('/').rstrip('/')}, not to the API ({api}): not followed, the answer would not be "
        "GitHub's\n"
        f"hint: check that GITHUB_API_URL ({api}) is the GitHub REST API\n"
    )
    assert elsewhere.log == []  # nothing was sent there
    assert not output.exists()


# -- a remote that never finishes answering -------------------------------------------------------

# A hang is killed after this long and fails the test: the deadline is 1 s.
HANG_S = 30
TIMEOUT_HINT = (
    "hint: retry later, or check the remote's URL and the network; CATALOGCTL_TIMEOUT sets the deadline in "
    "seconds (60 by default)" + LAST_RESORT + "\n"
)


@pytest.fixture
def one_second(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CATALOGCTL_TIMEOUT", "1")
    # Should libgit2 run the ssh program, it must neither read the user's configuration nor ask anything.
    monkeypatch.setenv("GIT_SSH_COMMAND", "ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no")


@pytest.mark.slow
@pytest.mark.usefixtures("one_second")
@pytest.mark.parametrize(("scheme", "mode"), STALLS)
def test_a_remote_that_never_finishes_answering_is_exit_6_within_the_deadline(
    release: Path, submission: Path, output: Path, scheme: str, mode: str
) -> None:
    # It was a hang until killed: preflight waited on the remote forever, CATALOGCTL_TIMEOUT or not.
    with stalling(mode, greeting=GREETINGS.get(scheme, b"")) as (port, _):
        url = with_credentials(f"{scheme}://127.0.0.1:{port}/x.git")
        done = run_console(
            "preflight", submission, "-C", release, "--remote", url, "-o", output, code=6, timeout=HANG_S
        )
    assert done.stdout == ""
    assert done.stderr == (
        f"error [remote-mismatch]: the remote `{scheme}://127.0.0.1:{port}/x.git` gave no complete answer within "
        "1 s (listing its refs)\n" + TIMEOUT_HINT
    )
    assert not output.exists()


@pytest.mark.slow
@pytest.mark.usefixtures("one_second")
def test_an_https_remote_that_trickles_after_the_handshake_is_exit_6(
    release: Path, submission: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tls, cert = loopback_tls(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # libgit2 (OpenSSL) trusts the test's certificate
    with stalling("trickle", greeting=GREETINGS["http"], tls=tls) as (port, stall):
        url = f"https://127.0.0.1:{port}/x.git"
        done = run_console("preflight", submission, "-C", release, "--remote", url, code=6, timeout=HANG_S)
    assert done.stderr == (
        f"error [remote-mismatch]: the remote `{url}` gave no complete answer within 1 s (listing its refs)\n"
        + TIMEOUT_HINT
    )
    assert stall.opened[0].startswith(b"GET /x.git/info/refs?service=git-upload-pack HTTP/1.1")  # past TLS


@pytest.mark.slow
@pytest.mark.usefixtures("one_second")
def test_the_tracked_remote_that_never_answers_is_named(release: Path, submission: Path) -> None:
    with stalling("silent") as (port, stall):
        git(release, "remote", "set-url", "origin", f"git://127.0.0.1:{port}/x.git")
        done = run_console("preflight", submission, "-C", release, code=6, timeout=HANG_S)
    assert done.stderr == (
        "error [remote-mismatch]: the remote `origin` gave no complete answer within 1 s (listing its refs)\n"
        + TIMEOUT_HINT
    )
    assert services(stall) == ["git-upload-pack"]


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid`, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError, ValueError):
            if entry.name.isdigit() and int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _running(pid: int) -> bool:
    """Whether `pid` is a process that has not ended (a zombie has)."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _within(seconds: float, condition: Callable[[], object]) -> bool:
    """Whether `condition` holds within `seconds`, asked every 50 ms."""
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP])
def test_a_preflight_killed_while_the_remote_stalls_leaves_no_process_behind(
    release: Path, submission: Path, monkeypatch: pytest.MonkeyPatch, stop: signal.Signals
) -> None:
    # The git child runs in a session of its own (so that it can be killed with what it starts),
    # so it gets neither the SIGTERM of a CI job's cancellation nor the SIGHUP of a closed
    # terminal: it outlived its parent, connected to the silent remote until the remote closed.
    monkeypatch.setenv("CATALOGCTL_TIMEOUT", "2")
    with stalling("silent") as (port, stall):
        url = f"git://127.0.0.1:{port}/x.git"
        argv = [sys.executable, "-m", "catalogctl", "preflight", str(submission), "-C", str(release), "--remote", url]
        with subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as preflight:
            assert _within(HANG_S, lambda: stall.opened), "preflight never asked the remote"
            children = _children(preflight.pid)
            assert children, "no git child"
            preflight.send_signal(stop)
            preflight.wait(timeout=HANG_S)
        try:
            assert _within(HANG_S, lambda: not any(_running(child) for child in children)), "the git child outlived it"
        finally:
            for child in children:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child, signal.SIGKILL)
