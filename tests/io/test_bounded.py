"""The tools catalogctl runs are given no cache key: whatever they start could forge entries."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from catalogctl.io import bounded
from catalogctl.io.cachekey import CACHE_KEY_ENV

KEY = "k" * 64
STALLED = bounded.Stalled("env", "")


def test_a_tool_run_within_a_deadline_is_given_no_cache_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_KEY_ENV, KEY)
    monkeypatch.setenv("CATALOGCTL_PROBE", "seen")
    finished = bounded.run_within(["env"], b"", 10.0)
    assert finished is not None
    shown = finished[1].decode()
    assert "CATALOGCTL_PROBE=seen" in shown  # the rest of the environment is passed on
    assert KEY not in shown


@pytest.mark.parametrize("timeout", [None, 10.0])
def test_an_environment_given_explicitly_loses_the_cache_key_too(timeout: float | None) -> None:
    code, out, _ = bounded.run(["env"], b"", timeout, STALLED, env={"PATH": "/usr/bin:/bin", CACHE_KEY_ENV: KEY})
    assert code == 0
    assert KEY not in out
    assert "PATH=/usr/bin:/bin" in out


@pytest.mark.parametrize("timeout", [3e6, 1e10])
def test_a_deadline_longer_than_the_system_can_wait_is_waited_as_long_as_it_can(timeout: float) -> None:
    # `CATALOGCTL_TIMEOUT=3000000` (a month, "no deadline") was an OverflowError: epoll and
    # Python's clock take at most 2**31 ms (24.8 days), and a bug (exit 70) for the user.
    assert bounded.run_within(["true"], b"", timeout) == (0, b"", b"")


def test_what_a_tool_ended_by_a_signal_started_ends_with_it() -> None:
    # Found by a breaker: a git child ended by its own deadline (SIGALRM) left what it had
    # started running, which the parent's kill at the deadline used to end.
    script = "sleep 100 > /dev/null 2>&1 & echo $!; kill -ALRM $$"
    finished = bounded.run_within(["sh", "-c", script], b"", 10.0)
    assert finished is not None
    code, out, _ = finished
    assert code == -signal.SIGALRM
    left = Path(f"/proc/{int(out)}")
    for _ in range(100):  # the kill is sent; the kernel ends the process a moment later
        if not left.exists() or "State:\tZ" in (left / "status").read_text():
            break
        time.sleep(0.05)
    assert not left.exists() or "State:\tZ" in (left / "status").read_text()
