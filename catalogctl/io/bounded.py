"""Running a signing tool (ssh-keygen, gpg, gpgv) within a time limit: in a session of its own,
so that a tool that never answers is killed with everything it started (an agent, a pinentry)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from dataclasses import dataclass

from catalogctl.errors import EnvironmentProblem
from catalogctl.io.cachekey import CACHE_KEY_ENV

DEFAULT_SECONDS = 60.0  # these tools answer at once unless they wait on an agent or a prompt
# The longest wait epoll and Python's clock take is 2**31 ms (24.8 days): a longer limit, as good
# as none, is waited this long rather than be an OverflowError.
LONGEST_WAIT_S = 24 * 24 * 3600.0


def seconds_from(variable: str) -> float:
    """The limit `$variable` sets in seconds, else 60; anything but a positive number is refused."""
    value = os.environ.get(variable)
    if not value:
        return DEFAULT_SECONDS
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not seconds > 0:
        raise EnvironmentProblem(f"{variable} is {value!r}: not a number of seconds", "unset it, or set e.g. 60")
    return seconds


def child_environment(env: dict[str, str] | None) -> dict[str, str]:
    """What a child is given: `env` (else ours) without the cache's key, which no tool needs and
    which would let whatever the tool runs (an agent, a hook, ssh) forge cache entries."""
    given = dict(os.environ if env is None else env)
    given.pop(CACHE_KEY_ENV, None)
    return given


@dataclass(frozen=True)
class Stalled:
    """What to say when the tool does not answer in time: who it is, and the usual cause."""

    what: str  # e.g. "ssh-keygen", "gpg"
    hint: str
    doing: str = ""  # what it was asked, e.g. " (ssh-keygen -Y sign)"


def run(
    argv: list[str], payload: bytes, timeout: float | None, stalled: Stalled, env: dict[str, str] | None = None
) -> tuple[int, str, str]:
    """`argv` with `payload` on its stdin; exit status, stdout and stderr. With a `timeout` it runs
    in a session of its own and is killed with its children when it does not answer in time;
    without one it keeps the caller's terminal (a passphrase prompt) and may take what it needs."""
    if timeout is None:
        with subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_environment(env)
        ) as process:
            out, err = process.communicate(payload)
        code = process.returncode
    else:
        finished = run_within(argv, payload, timeout, env)
        if finished is None:
            raise EnvironmentProblem(
                f"{stalled.what} did not answer within {timeout:g} s{stalled.doing}: stopped it", stalled.hint
            )
        code, out, err = finished
    return code, out.decode(errors="replace"), err.decode(errors="replace")


def run_within(
    argv: list[str], payload: bytes, timeout: float, env: dict[str, str] | None = None
) -> tuple[int, bytes, bytes] | None:
    """`argv` with `payload` on its stdin, in a session of its own: its exit status, stdout and
    stderr; None when it had not ended after `timeout` seconds. Then, or on Ctrl-C, it is killed
    with everything it started (its session's process group), so nothing outlives the call."""
    with subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=child_environment(env),
        start_new_session=True,
    ) as process:
        try:
            out, err = process.communicate(payload, timeout=min(timeout, LONGEST_WAIT_S))
        except BaseException as exc:  # the deadline, or an interrupt the child in its own session never sees
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            if isinstance(exc, subprocess.TimeoutExpired):
                return None
            raise
    if process.returncode < 0:  # ended by a signal (its own deadline): what it started could not end with it
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    return process.returncode, out, err
