"""The transport every network call of the tool goes through: a wall-clock `Deadline` that every
socket operation of its httpx client honours (`deadline_client`), and the one retry loop
(`retrying`).

httpx's timeouts are per read: a server that sends a byte every few seconds, or a body that never
ends, would hold a call forever. So every call also has a deadline, a budget for the whole call
(connect, headers, body, retries and their backoff); `CATALOGCTL_TIMEOUT` (seconds) sets it.
A git remote's calls (`gitremote`) take their deadline from `network_deadline` too; libgit2 has no
hook for one, so they run in a child process that is killed when it passes.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from catalogctl.errors import UsageError

DEADLINE_ENV = "CATALOGCTL_TIMEOUT"
ATTEMPTS = 3
DOWNLOAD_DEADLINE_S = 900.0  # 15 minutes: a few GB on an ordinary connection
T = TypeVar("T")


def network_deadline(default: float) -> float:
    """The overall deadline of a network call, in seconds: `CATALOGCTL_TIMEOUT`, else `default`."""
    value = os.environ.get(DEADLINE_ENV, "").strip()
    if not value:
        return default
    try:
        seconds = float(value)
    except ValueError:
        seconds = 0.0
    if not seconds > 0 or seconds == float("inf"):
        raise UsageError(f"{DEADLINE_ENV} is `{value}`: not a number of seconds above 0", f"unset it for {default:g} s")
    return seconds


class DeadlinePassed(Exception):
    """A call outlasted its `Deadline`; callers turn it into their own message. Not an httpx
    error, so `retrying` lets it through at once."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"deadline of {seconds:g} s passed")
        self.seconds = seconds


class Deadline:
    """A wall-clock budget for one network call, from now."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        """Seconds left (negative once passed)."""
        return self.end - time.monotonic()

    def clip(self, timeout: float | None) -> float:
        """A socket operation's timeout cut to what is left; `DeadlinePassed` when nothing is."""
        left = self.left()
        if left <= 0:
            raise DeadlinePassed(self.seconds)
        return left if timeout is None else min(timeout, left)


class _DeadlineStream:
    """A connection whose every read and write ends by the deadline."""

    def __init__(self, inner: Any, deadline: Deadline) -> None:
        self._inner, self._deadline = inner, deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return bytes(self._inner.read(max_bytes, self._deadline.clip(timeout)))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, self._deadline.clip(timeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None) -> Any:
        inner = self._inner.start_tls(ssl_context, server_hostname, self._deadline.clip(timeout))
        return _DeadlineStream(inner, self._deadline)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _DeadlineBackend:
    """httpcore's network backend, its connections wrapped in `_DeadlineStream`."""

    def __init__(self, inner: Any, deadline: Deadline) -> None:
        self._inner, self._deadline = inner, deadline

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, **options: Any) -> Any:
        stream = self._inner.connect_tcp(host, port, self._deadline.clip(timeout), **options)
        return _DeadlineStream(stream, self._deadline)

    def connect_unix_socket(self, path: str, timeout: float | None = None, **options: Any) -> Any:
        stream = self._inner.connect_unix_socket(path, self._deadline.clip(timeout), **options)
        return _DeadlineStream(stream, self._deadline)

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(min(seconds, max(self._deadline.left(), 0.0)))


def deadline_client(deadline: Deadline, **options: Any) -> Any:
    """An httpx.Client (`options` as for it) whose every connect, read and write -- the response
    head's included, which no check between body chunks could reach -- ends by `deadline`, through
    a proxy from the environment too. httpx has no public hook for this, so the network backend of
    each of its connection pools is wrapped; callers still check the deadline between chunks."""
    import httpx

    client = httpx.Client(**options)
    wrapped = 0
    for transport in (client._transport, *client._mounts.values()):
        pool = getattr(transport, "_pool", None)
        if pool is not None and hasattr(pool, "_network_backend"):
            pool._network_backend = _DeadlineBackend(pool._network_backend, deadline)
            wrapped += 1
    if not wrapped:  # an httpx that pools differently: fail loudly rather than hang on a slow head
        raise RuntimeError(f"httpx {httpx.__version__} has no connection pool to bound by a deadline")
    return client


@dataclass(frozen=True)
class Retry:
    """An attempt worth making again: why it failed, and whether the server answered at all."""

    reason: str
    reached: bool


def retrying(
    attempt: Callable[[], T | Retry], attempts: int, backoff_s: float, deadline: Deadline | None = None
) -> T | Retry:
    """The one retry loop: call `attempt` up to `attempts` times, waiting `backoff_s * 2**n`
    between calls, until it returns something other than a `Retry`; an httpx error counts as a
    `Retry` (a transport error as one that never reached the server). Returns the last `Retry`
    when every attempt failed; any other exception passes through at once. A failed attempt
    after the `deadline` is `DeadlinePassed` (its timeouts were cut short by it)."""
    import httpx

    last = Retry("no attempt made", False)
    for n in range(attempts):
        try:
            outcome = attempt()
        except httpx.HTTPError as exc:
            outcome = Retry(f"{type(exc).__name__}: {exc}", not isinstance(exc, httpx.TransportError))
        if not isinstance(outcome, Retry):
            return outcome
        last = outcome
        if deadline is not None and deadline.left() <= 0:
            raise DeadlinePassed(deadline.seconds)
        if n + 1 < attempts:
            time.sleep(backoff_s * 2**n if deadline is None else min(backoff_s * 2**n, deadline.left()))
    return last
