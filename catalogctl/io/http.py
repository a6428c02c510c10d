"""The GitHub REST API: where a release tag points on GitHub, and the PR comment. httpx is used
here, in `download` (dataset downloads) and in `transport` (the deadline and the one retry loop
both go through) only.

The API's address comes from `GITHUB_API_URL` (set by GitHub Actions; default
https://api.github.com) and the token from `GITHUB_TOKEN` or `GH_TOKEN`. Requests time out,
server errors (5xx) are retried with a short backoff, and 401, 403, 404 and rate limits each
get a message that says what to do. Every call has a `transport.Deadline` (60 s, or
`CATALOGCTL_TIMEOUT` seconds), and an API reply is read at most `MAX_REPLY_BYTES` long.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from catalogctl import words
from catalogctl.errors import (
    CatalogError,
    EnvironmentProblem,
    GitHubProblem,
    RemoteUnreachable,
)
from catalogctl.io.github_replies import Comment, Comments, GitObject, GitRef, Pull, read_reply
from catalogctl.io.transport import (
    ATTEMPTS,
    DEADLINE_ENV,
    Deadline,
    DeadlinePassed,
    Retry,
    deadline_client,
    network_deadline,
    retrying,
)

DEFAULT_API = "https://api.github.com"
TIMEOUT_S = 10.0
API_DEADLINE_S = 60.0  # one API call in all, retries included
MAX_REPLY_BYTES = 16 * 1024 * 1024  # GitHub's largest replies (100 comments a page) are far smaller
T = TypeVar("T")
_GITHUB_URL = re.compile(r"^(?:https://|git@|ssh://git@)github\.com[:/]([^/]+)/([^/]+?)(?:\.git)?/?$")


def origin(url: str) -> tuple[str, str, int | None]:
    """Scheme, host and port of a URL (the port spelled out when it is the scheme's default)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:  # not a port number: an origin nothing else has
        port = -1
    default = {"http": 80, "https": 443}.get(parts.scheme.lower())
    return parts.scheme.lower(), (parts.hostname or "").lower(), port if port is not None else default


def _shown_origin(url: str) -> str:
    """The origin of `url` as a URL: `https://host:port` (no port when there is none)."""
    scheme, host, port = origin(url)
    return f"{scheme}://{host}{f':{port}' if port else ''}"


def _absolute(url: str) -> bool:
    """Whether `url` names its scheme (in any case: `HTTP://` too), rather than a path under the API."""
    from urllib.parse import urlsplit

    return bool(urlsplit(url).scheme)


def github_repository(url: str) -> str | None:
    """`owner/name` when a remote URL is a GitHub repository."""
    match = _GITHUB_URL.match(url.strip())
    return f"{match.group(1)}/{match.group(2)}" if match else None


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


def _reset_time(reset: str | None) -> str:
    """When a rate limit resets (`X-RateLimit-Reset`, epoch seconds), or `later` for a value that
    is no time: negative, not a number, or past what the platform's clock can hold."""
    if not reset or not reset.isascii() or not reset.isdigit():
        return "later"
    try:
        return time.strftime("%H:%M:%S UTC", time.gmtime(int(reset)))
    except (OverflowError, OSError, ValueError):  # `Value too large`: a year past 2**31 or 9999
        return "later"


@dataclass(frozen=True)
class GitHubClient:
    """A small client of the GitHub REST API."""

    api: str
    token: str | None
    timeout: float = TIMEOUT_S
    attempts: int = ATTEMPTS
    backoff_s: float = 0.5
    deadline_s: float = field(default_factory=lambda: network_deadline(API_DEADLINE_S))
    # What a 404 means depends on what was asked: the tag check's client reads a tag.
    NOT_FOUND_HINT: ClassVar[str] = "the tag is not on GitHub, or the repository is private and the token lacks access"

    @classmethod
    def from_environment(cls) -> GitHubClient:
        """The API address and token of this environment."""
        api = os.environ.get("GITHUB_API_URL") or DEFAULT_API
        token = os.environ.get("GITHUB_TOKEN") or os.environ.get("GH_TOKEN") or None
        return cls(api.rstrip("/"), token)

    def get(self, path: str, shape: type[T]) -> T:
        """GET a JSON document held to `shape`, with retries on server errors and failed
        connections; after the last attempt, a server error is `GitHubProblem`, no answer at all
        `RemoteUnreachable`."""
        hint = "retry later, or pass --offline to record that the remote was not verified"
        return self.reply(self._answer(self.request("GET", path, hint=hint), path), shape, "GET", path)

    def reply(self, response: Any, shape: type[T], method: str, url: str) -> T:
        """The body of `response` held to `shape` (see `github_replies.read_reply`)."""
        endpoint = f"{method} {url.removeprefix(self.api)}"
        return read_reply(response.content, response.headers.get("content-type", ""), shape, endpoint, self.api)

    def request(self, method: str, url: str, body: dict[str, Any] | None = None, *, hint: str) -> Any:
        """One API call (`url` absolute, or a path under the API), retried on server errors and
        failed connections except for POST, which could act twice; returns the httpx response of
        the first answer below 500. When every attempt failed: `GitHubProblem` if GitHub answered
        (5xx), `RemoteUnreachable` if it never did; `GitHubProblem` too past the call's deadline
        or for a reply over MAX_REPLY_BYTES."""

        if _absolute(url) and origin(url) != origin(self.api):
            # An absolute URL comes from an answer (a Link header): the token goes to the API only.
            raise GitHubProblem(
                f"GitHub's answer points at {_shown_origin(url)}, not at the API ({self.api}): "
                "not followed, the token goes to the API only",
                f"check that GITHUB_API_URL ({self.api}) is the GitHub REST API",
            )
        headers = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        target = url if _absolute(url) else f"{self.api}{url}"
        attempts = 1 if method == "POST" else self.attempts
        deadline = Deadline(self.deadline_s)
        hooks = {"request": [self._same_origin]}  # called for each request, every redirect's included
        with deadline_client(
            deadline, timeout=self.timeout, headers=headers, follow_redirects=True, event_hooks=hooks
        ) as client:

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
        where = f"{self.api} after {words.count(attempts, 'attempt')} ({method} {url}: {outcome.reason})"
        if outcome.reached:
            raise GitHubProblem(f"GitHub API failed at {where}", hint)
        raise RemoteUnreachable(f"GitHub API unreachable at {where}", hint)

    def _same_origin(self, request: Any) -> None:
        """Refuse a request to another origin than the API's (scheme, host and port): GitHub
        redirects within the API (a renamed repository), and an answer from elsewhere would be
        taken for GitHub's. Raised before anything is sent there."""
        if origin(str(request.url)) != origin(self.api):
            raise GitHubProblem(
                f"GitHub's answer redirects to {_shown_origin(str(request.url))}, not to the API ({self.api}): "
                "not followed, the answer would not be GitHub's",
                f"check that GITHUB_API_URL ({self.api}) is the GitHub REST API",
            )

    def _answer(self, response: Any, path: str) -> Any:
        status = response.status_code
        if status == 200:
            return response
        if status == 401:
            raise GitHubProblem("GitHub rejected the token (401)", "check GITHUB_TOKEN (or GH_TOKEN)")
        if status in (403, 429) and (
            response.headers.get("x-ratelimit-remaining") == "0"
            or status == 429
            or "rate limit" in response.text.lower()
        ):
            when = _reset_time(response.headers.get("x-ratelimit-reset"))
            raise GitHubProblem(
                f"GitHub API rate limit reached (HTTP {status}); it resets at {when}",
                "retry after the reset"
                if self.token
                else "set GITHUB_TOKEN for a higher limit, or retry after the reset",
            )
        if status == 403:
            raise GitHubProblem("GitHub refused access (403)", "the token lacks read access to the repository")
        if status == 404:
            raise GitHubProblem(f"not found on GitHub: {path} (404)", self.NOT_FOUND_HINT)
        raise GitHubProblem(f"unexpected answer from GitHub: HTTP {status} for {path}")

    def tag_commit(self, repository: str, tag: str) -> str:
        """The commit a tag points at on GitHub (an annotated tag is peeled)."""
        obj: GitObject = self.get(f"/repos/{repository}/git/ref/tags/{tag}", GitRef).object
        for _ in range(5):  # a tag of a tag is allowed, but not forever
            if obj.type == "commit":
                return obj.sha
            if obj.type != "tag":
                raise GitHubProblem(f"GitHub's tag `{tag}` points at a {obj.type or 'nothing'}, not a commit")
            obj = self.get(f"/repos/{repository}/git/tags/{obj.sha}", GitRef).object
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


# A URI reference as RFC 3986 spells it: no space, control, backslash, quote or angle bracket,
# which parsers read differently (`\\` is `/` to a browser, not to urllib).
_URI_REFERENCE = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+")
_LINK_VALUE = re.compile(r"\s*<([^<>]*)>\s*((?:;[^;,]*)*)\s*")


def _next_link(header: str | None, here: str, endpoint: str, api: str) -> str | None:
    """The `rel="next"` URL of a Link header (GitHub's pagination), resolved against `here` (the
    URL that answered) so that the origin check sees the URL that will be requested; a Link that
    does not parse is a GitHubProblem naming `endpoint`."""
    from urllib.parse import urljoin, urlsplit

    for part in (header or "").split(","):
        if 'rel="next"' not in part:
            continue
        value = _LINK_VALUE.fullmatch(part)
        target = urljoin(here, value.group(1)) if value and _URI_REFERENCE.fullmatch(value.group(1)) else ""
        if not urlsplit(target).hostname:  # `https:/host` resolves to no host at all
            raise GitHubProblem(
                f"unexpected answer from GitHub to {endpoint}: a malformed Link header ({part.strip()[:100]!r})",
                f"check that GITHUB_API_URL ({api}) is the GitHub REST API",
            )
        return target
    return None


class CommentClient(GitHubClient):
    """GitHubClient with what the comment job needs: paginated reads, POST and PATCH."""

    NOT_FOUND_HINT: ClassVar[str] = (
        "check --repo and --pr: no such repository or pull request, or the token cannot read it "
        "(a private repository needs a token of that repository)"
    )

    @classmethod
    def from_environment(cls) -> CommentClient:
        """The API address and token of this environment."""
        base = GitHubClient.from_environment()
        return cls(base.api, base.token)

    def send(self, method: str, url: str, shape: type[T], body: dict[str, Any] | None = None) -> T:
        """One request (see `request`) and its answer held to `shape`; an answer that is not a
        success raises GitHubProblem with a hint."""
        return self.reply(self._sent(method, url, body), shape, method, url)

    def _sent(self, method: str, url: str, body: dict[str, Any] | None = None) -> Any:
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

    def comments(self, path: str) -> list[Comment]:
        """Every comment of a paginated list, following the Link headers."""
        items: list[Comment] = []
        url: str | None = f"{path}{'&' if '?' in path else '?'}per_page=100"
        for _ in range(1000):  # 100,000 comments: beyond that something is wrong
            if url is None:
                return items
            response = self._sent("GET", url)
            items.extend(self.reply(response, Comments, "GET", url))
            here = url if _absolute(url) else f"{self.api}{url}"
            url = _next_link(response.headers.get("link"), here, f"GET {url.removeprefix(self.api)}", self.api)
        raise GitHubProblem(f"too many pages at {path}")


def upsert_comment(
    client: CommentClient, repository: str, number: int, body: str, marker: str, head_sha: str | None = None
) -> CommentResult:
    """Create the pull request's comment that carries `marker`, or update it if a bot's does
    (anyone can paste the marker). With `head_sha`, the pull request's head must
    be that commit: a number read from an artifact cannot send the report to another PR."""
    if not client.token:  # without one GitHub answers 401 or 404: say what is missing, send nothing
        raise EnvironmentProblem(
            "no GitHub token to comment with: set GITHUB_TOKEN (or GH_TOKEN)",
            "in a workflow: `env: GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}`, with `permissions: pull-requests: write`",
        )
    if marker not in body:
        raise CatalogError(f"the comment body does not carry the marker {marker}", "render it with `catalogctl ci`")
    if head_sha is not None:
        actual = client.send("GET", f"/repos/{repository}/pulls/{number}", Pull).head.sha
        if actual != head_sha:
            raise GitHubProblem(
                f"pull request #{number} is at {actual[:12] or 'nothing'}, not {head_sha[:12]}: not commenting",
                "the PR number does not belong to this run, or the PR moved on (its next run will comment)",
            )
    marked = [c for c in client.comments(f"/repos/{repository}/issues/{number}/comments") if marker in (c.body or "")]
    # Only a bot's: a person's comment carrying the marker (the PR author's, say) is theirs to
    # edit back to "passed" after every update, so it is never taken for the gate's.
    mine = next((c for c in marked if c.user is not None and c.user.type == "Bot"), None)
    if mine is not None:
        answer = client.send("PATCH", f"/repos/{repository}/issues/comments/{mine.id}", Comment, {"body": body})
        return CommentResult("updated", answer.id, answer.html_url)
    answer = client.send("POST", f"/repos/{repository}/issues/{number}/comments", Comment, {"body": body})
    return CommentResult("created", answer.id, answer.html_url)


def fetch_public(url: str, what: str, max_bytes: int = 64 * 1024) -> bytes:
    """The body of one GET of a public URL (no token is sent), read within the network deadline
    (`CATALOGCTL_TIMEOUT`, 60 s by default): a beacon relay's round. An answer other than 200, or
    longer than `max_bytes`, is a `CatalogError`; none in time or at all, `RemoteUnreachable`."""
    import httpx

    deadline = Deadline(network_deadline(API_DEADLINE_S))
    hint = f"check the URL and the network; {DEADLINE_ENV} sets the deadline in seconds"
    try:
        with deadline_client(deadline, timeout=TIMEOUT_S, follow_redirects=True) as client:
            response = _read_reply(client, "GET", url, None, deadline)
    except (DeadlinePassed, httpx.TimeoutException):  # a socket timeout is the deadline, cut to what was left
        raise RemoteUnreachable(f"{what} gave no complete answer within {deadline.seconds:g} s ({url})", hint) from None
    except httpx.HTTPError as exc:
        raise RemoteUnreachable(f"{what} is unreachable ({url}): {exc}", hint) from None
    if isinstance(response, bytes) or len(response.content) > max_bytes:
        raise CatalogError(f"{what} answered more than {max_bytes:,} bytes ({url})", "is the URL a beacon relay?")
    if response.status_code != 200:
        raise CatalogError(f"{what} answered HTTP {response.status_code} ({url})", hint)
    return bytes(response.content)
