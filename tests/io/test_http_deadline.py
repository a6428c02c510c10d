"""The GitHub client within its deadline and reply cap: a server that trickles or never ends is a
message, not a hang; the deadline comes from CATALOGCTL_TIMEOUT."""

from __future__ import annotations

import pytest

from catalogctl.errors import GitHubProblem, UsageError
from catalogctl.io import http
from catalogctl.io.http import GitHubClient
from catalogctl.io.transport import network_deadline
from tests.slow_server import slow_server

TAG = "/repos/o/r/git/ref/tags/v1"


@pytest.mark.parametrize("mode", ["trickle-body", "trickle-head"])
def test_a_slow_reply_is_cut_off_at_the_deadline(mode: str) -> None:
    with slow_server(mode) as (base, _), pytest.raises(GitHubProblem) as caught:
        GitHubClient(base, None, timeout=5.0, backoff_s=0, deadline_s=0.3).tag_commit("o/r", "v1")
    assert str(caught.value) == f"GitHub API gave no complete answer within 0.3 s (GET {TAG})"
    assert caught.value.hint == (
        "retry later, or pass --offline to record that the remote was not verified; "
        "CATALOGCTL_TIMEOUT sets the deadline in seconds"
    )


def test_a_reply_over_the_cap_is_not_read_further(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http, "MAX_REPLY_BYTES", 100_000)
    with slow_server("endless") as (base, behaviour), pytest.raises(GitHubProblem) as caught:
        GitHubClient(base, None, backoff_s=0, deadline_s=30).tag_commit("o/r", "v1")
    assert str(caught.value) == f"GitHub API reply to GET {TAG} is over 100,000 bytes"
    assert len(behaviour.requests) == 1  # not retried


def test_the_deadline_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CATALOGCTL_TIMEOUT", "2.5")
    assert GitHubClient.from_environment().deadline_s == 2.5
    monkeypatch.delenv("CATALOGCTL_TIMEOUT")
    assert GitHubClient.from_environment().deadline_s == 60.0


@pytest.mark.parametrize("value", ["soon", "0", "-1", "inf", "nan"])
def test_a_deadline_that_is_no_time_is_a_usage_error(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("CATALOGCTL_TIMEOUT", value)
    with pytest.raises(UsageError) as caught:
        network_deadline(60.0)
    assert str(caught.value) == f"CATALOGCTL_TIMEOUT is `{value}`: not a number of seconds above 0"
    assert caught.value.hint == "unset it for 60 s"
