"""httpx is used here and in `download` only: the GitHub REST API (where a release tag points on
GitHub, the PR comment) here, dataset downloads there, all through one retry loop (`retrying`).

The API's address comes from `GITHUB_API_URL` (set by GitHub Actions; default
https://api.github.com) and the token from `GITHUB_TOKEN` or `GH_TOKEN`. Requests time out,
server errors (5xx) are retried with a short backoff, and 401, 403, 404 and rate limits each
get a message that says what to do.

httpx's timeouts are per read: a server that sends a byte every few seconds, or a body that never
ends, would hold a call forever. So every call also has a `Deadline`, a wall-clock budget for the
whole call (connect, headers, body, retries and their backoff), which every socket operation of
its client honours (`deadline_client`); `CATALOGCTL_TIMEOUT` (seconds) sets it. An API reply is
read at most `MAX_REPLY_BYTES` long.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from catalogctl.errors import CatalogError, GitHubProblem, RemoteUnreachable, UsageError

DEFAULT_API = "https://api.github.com"
TIMEOUT_S = 10.0
API_DEADLINE_S = 60.0  # one API call in all, retries included
MAX_REPLY_BYTES = 16 * 1024 * 1024  # GitHub's largest replies (100 comments a page) are far smaller
DEADLINE_ENV = "CATALOGCTL_TIMEOUT"
ATTEMPTS = 3
T = TypeVar("T")
_GITHUB_URL = re.compile(r"^(?:https://|git@|ssh://git@)github\.com[:/]([^/]+)/([^/]+?)(?:\.git)?/?$")


def github_repository(url: str) -> str | None:
    """`owner/name` when a remote URL is a GitHub repository."""
    match = _GITHUB_URL.match(url.strip())
    return f"{match.group(1)}/{match.group(2)}" if match else None


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


def _read_reply(client: Any, method: str, target: str, body: dict[str, Any] | None, deadline: Deadline) -> Any:
    """One answer read in full (decoded) as an httpx.Response, or, when its body is over
    MAX_REPLY_BYTES, the bytes read so far: streamed, so that neither size nor time is unbounded."""
    import httpx

    with client.stream(method, target, json=body) as response:
        data = bytearray()
        for chunk in response.iter_bytes():
            data += chunk
            if len(data) > MAX_REPLY_BYTES:
                return bytes(data)
            deadline.clip(None)
    # The body is decoded already: the rebuilt response must not decode it again.
    skip = {"content-encoding", "content-length", "transfer-encoding"}
    headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() not in skip]
    return httpx.Response(response.status_code, headers=headers, content=bytes(data), request=response.request)


@dataclass(frozen=True)
class GitHubClient:
    """A small client of the GitHub REST API."""

    api: str
    token: str | None
    timeout: float = TIMEOUT_S
    attempts: int = ATTEMPTS
    backoff_s: float = 0.5
    deadline_s: float = field(default_factory=lambda: network_deadline(API_DEADLINE_S))

    @classmethod
    def from_environment(cls) -> GitHubClient:
        """The API address and token of this environment."""
        api = os.environ.get("GITHUB_API_URL") or DEFAULT_API
        token = os.environ.get("GITHUB_TOKEN") or os.environ.get("GH_TOKEN") or None
        return cls(api.rstrip("/"), token)

    def get(self, path: str) -> Any:
        """GET a JSON document, with retries on server errors and failed connections; after the
        last attempt, a server error is `GitHubProblem`, no answer at all `RemoteUnreachable`."""
        hint = "retry later, or pass --offline to record that the remote was not verified"
        return self._answer(self.request("GET", path, hint=hint), path)

    def request(self, method: str, url: str, body: dict[str, Any] | None = None, *, hint: str) -> Any:
        """One API call (`url` absolute, or a path under the API), retried on server errors and
        failed connections except for POST, which could act twice; returns the httpx response of
        the first answer below 500. When every attempt failed: `GitHubProblem` if GitHub answered
        (5xx), `RemoteUnreachable` if it never did; `GitHubProblem` too past the call's deadline
        or for a reply over MAX_REPLY_BYTES."""
        headers = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        target = url if url.startswith(("http://", "https://")) else f"{self.api}{url}"
        attempts = 1 if method == "POST" else self.attempts
        deadline = Deadline(self.deadline_s)
        with deadline_client(deadline, timeout=self.timeout, headers=headers, follow_redirects=True) as client:

            def attempt() -> Any:
                response = _read_reply(client, method, target, body, deadline)
                if isinstance(response, bytes):  # not retried: the next answer would be as long
                    raise GitHubProblem(f"GitHub API reply to {method} {url} is over {MAX_REPLY_BYTES:,} bytes", hint)
                return Retry(f"HTTP {response.status_code}", True) if response.status_code >= 500 else response

            try:
                outcome = retrying(attempt, attempts, self.backoff_s, deadline)
            except DeadlinePassed as late:
                raise GitHubProblem(
                    f"GitHub API gave no complete answer within {late.seconds:g} s ({method} {url})",
                    f"{hint}; {DEADLINE_ENV} sets the deadline in seconds",
                ) from None
        if not isinstance(outcome, Retry):
            return outcome
        where = f"{self.api} after {attempts} attempt{'s' if attempts != 1 else ''} ({method} {url}: {outcome.reason})"
        if outcome.reached:
            raise GitHubProblem(f"GitHub API failed at {where}", hint)
        raise RemoteUnreachable(f"GitHub API unreachable at {where}", hint)

    def _answer(self, response: Any, path: str) -> Any:
        status = response.status_code
        if status == 200:
            return response.json()
        if status == 401:
            raise GitHubProblem("GitHub rejected the token (401)", "check GITHUB_TOKEN (or GH_TOKEN)")
        if status in (403, 429) and (
            response.headers.get("x-ratelimit-remaining") == "0"
            or status == 429
            or "rate limit" in response.text.lower()
        ):
            reset = response.headers.get("x-ratelimit-reset")
            when = time.strftime("%H:%M:%S UTC", time.gmtime(int(reset))) if reset and reset.isdigit() else "later"
            raise GitHubProblem(
                f"GitHub API rate limit reached (HTTP {status}); it resets at {when}",
                "set GITHUB_TOKEN for a higher limit, or retry after the reset",
            )
        if status == 403:
            raise GitHubProblem("GitHub refused access (403)", "the token lacks read access to the repository")
        if status == 404:
            raise GitHubProblem(
                f"not found on GitHub: {path} (404)",
                "the tag is not on GitHub, or the repository is private and the token lacks access",
            )
        raise GitHubProblem(f"unexpected answer from GitHub: HTTP {status} for {path}")

    def tag_commit(self, repository: str, tag: str) -> str:
        """The commit a tag points at on GitHub (an annotated tag is peeled)."""
        ref = self.get(f"/repos/{repository}/git/ref/tags/{tag}")
        obj = ref.get("object", {}) if isinstance(ref, dict) else {}
        for _ in range(5):  # a tag of a tag is allowed, but not forever
            if obj.get("type") == "commit":
                return str(obj["sha"])
            if obj.get("type") != "tag":
                raise GitHubProblem(f"GitHub's tag `{tag}` points at a {obj.get('type', 'nothing')}, not a commit")
            tag_object = self.get(f"/repos/{repository}/git/tags/{obj['sha']}")
            obj = tag_object.get("object", {}) if isinstance(tag_object, dict) else {}
        raise GitHubProblem(f"GitHub's tag `{tag}` is a chain of tags too long to follow")


# -- pull request comments: the gate's one comment, created or updated ------------------------------

WRITE_HINT = (
    "the token cannot write to the pull request: on a pull request from a fork the token is read-only, "
    "so post from a `workflow_run` job (see .github/workflows/catalog-gate-comment.yml) with "
    "`permissions: pull-requests: write`"
)


@dataclass(frozen=True)
class CommentResult:
    """What `upsert_comment` did."""

    action: str  # "created" or "updated"
    id: int
    url: str


def _next_link(header: str | None) -> str | None:
    """The `rel="next"` URL of a Link header (GitHub's pagination)."""
    for part in (header or "").split(","):
        if 'rel="next"' in part and "<" in part:
            return part[part.index("<") + 1 : part.index(">")]
    return None


class CommentClient(GitHubClient):
    """GitHubClient with what the comment job needs: paginated reads, POST and PATCH."""

    @classmethod
    def from_environment(cls) -> CommentClient:
        """The API address and token of this environment."""
        base = GitHubClient.from_environment()
        return cls(base.api, base.token)

    def send(self, method: str, url: str, body: dict[str, Any] | None = None) -> Any:
        """One request (see `request`); an answer that is not a success raises GitHubProblem with
        a hint."""
        return self._checked(self.request(method, url, body, hint="retry the job later"), method, url)

    def _checked(self, response: Any, method: str, url: str) -> Any:
        if response.status_code in (200, 201):
            return response
        if response.status_code == 403 and response.headers.get("x-ratelimit-remaining") != "0":
            raise GitHubProblem(f"GitHub refused {method} {url} (403)", WRITE_HINT)
        if response.status_code == 404 and method != "GET":
            raise GitHubProblem(f"not found on GitHub: {url} (404)", WRITE_HINT)
        self._answer(response, url)  # raises with the matching message
        raise GitHubProblem(f"unexpected answer from GitHub: HTTP {response.status_code} for {method} {url}")

    def get_all(self, path: str) -> list[Any]:
        """Every item of a paginated list, following the Link headers."""
        items: list[Any] = []
        url: str | None = f"{path}{'&' if '?' in path else '?'}per_page=100"
        for _ in range(1000):  # 100,000 comments: beyond that something is wrong
            if url is None:
                return items
            response = self.send("GET", url)
            page = response.json()
            if not isinstance(page, list):
                raise GitHubProblem(f"unexpected answer from GitHub for {path}: not a list")
            items.extend(page)
            url = _next_link(response.headers.get("link"))
        raise GitHubProblem(f"too many pages at {path}")


def upsert_comment(
    client: CommentClient, repository: str, number: int, body: str, marker: str, head_sha: str | None = None
) -> CommentResult:
    """Create the pull request's comment that carries `marker`, or update it if one exists (a
    bot's first, since anyone can paste the marker). With `head_sha`, the pull request's head must
    be that commit: a number read from an artifact cannot send the report to another PR."""
    if marker not in body:
        raise CatalogError(f"the comment body does not carry the marker {marker}", "render it with `catalogctl ci`")
    if head_sha is not None:
        pull = client.send("GET", f"/repos/{repository}/pulls/{number}").json()
        actual = str(pull.get("head", {}).get("sha", "")) if isinstance(pull, dict) else ""
        if actual != head_sha:
            raise GitHubProblem(
                f"pull request #{number} is at {actual[:12] or 'nothing'}, not {head_sha[:12]}: not commenting",
                "the PR number does not belong to this run, or the PR moved on (its next run will comment)",
            )
    comments = [c for c in client.get_all(f"/repos/{repository}/issues/{number}/comments") if isinstance(c, dict)]
    marked = [c for c in comments if marker in str(c.get("body", ""))]
    bots = [c for c in marked if isinstance(c.get("user"), dict) and c["user"].get("type") == "Bot"]
    mine = next(iter(bots or marked), None)
    if mine is not None:
        answer = client.send("PATCH", f"/repos/{repository}/issues/comments/{mine['id']}", {"body": body}).json()
        return CommentResult("updated", int(answer["id"]), str(answer.get("html_url", "")))
    answer = client.send("POST", f"/repos/{repository}/issues/{number}/comments", {"body": body}).json()
    return CommentResult("created", int(answer["id"]), str(answer.get("html_url", "")))
