"""`preflight`'s remote: which one it checks, what it says when it cannot, and that no credential
of its URL reaches an output file, stdout or stderr."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import git, run_cli
from tests.release_repo import git_daemon

SECRET = "glcbt-SECRET0123456789"


def with_credentials(url: str) -> str:
    """`url` with a CI job token as its user info, as GitLab CI sets a clone's remote."""
    return url.replace("://", f"://gitlab-ci-token:{SECRET}@", 1)


# -- credentials in the remote's URL ------------------------------------------------------------


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
