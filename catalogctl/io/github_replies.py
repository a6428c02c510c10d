"""The shapes of the GitHub REST API's answers that the tool reads, and the one reader that holds
an answer to its shape: a reply that does not fit (an HTML sign-in page, a list where an object
belongs, a comment without an id) is a `GitHubProblem` naming the endpoint, never a traceback.

They live in `io`, beside the client, because `io` cannot import `model`; fields the tool does
not read are ignored, so GitHub may add to its answers.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from catalogctl.errors import GitHubProblem

T = TypeVar("T")
# An object id goes into the next request's path: letters and digits only, so that a reply
# cannot steer the client to another endpoint (`../../`).
ObjectId = Annotated[str, Field(pattern=r"^[0-9A-Za-z]{1,64}$")]


class _Reply(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True, extra="ignore")


class GitObject(_Reply):
    """What a ref or an annotated tag points at."""

    type: str
    sha: ObjectId


class GitRef(_Reply):
    """`GET /repos/{repo}/git/ref/tags/{tag}`, and an annotated tag object `GET …/git/tags/{sha}`."""

    object: GitObject


class PullHead(_Reply):
    """The head commit of a pull request."""

    sha: str


class Pull(_Reply):
    """`GET /repos/{repo}/pulls/{number}`."""

    head: PullHead


class User(_Reply):
    """A comment's author: `Bot` for an app's token."""

    type: str = ""


class Comment(_Reply):
    """An issue comment, as listed, created or updated."""

    id: int
    body: str | None = None
    user: User | None = None
    html_url: str = ""


Comments = list[Comment]


def _where(loc: tuple[int | str, ...]) -> str:
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc).removeprefix(".")


def _what(error: Any, content_type: str) -> str:
    """One validation error in words: `no `object.sha``, `not JSON (text/html)`."""
    where = _where(tuple(error["loc"]))
    if error["type"] == "json_invalid":
        return f"not JSON ({content_type or 'no content type'})"
    if error["type"] == "missing":
        return f"no `{where}`"
    message = str(error["msg"])
    message = message[:1].lower() + message[1:]
    return f"`{where}`: {message}" if where else message


def read_reply(content: bytes, content_type: str, shape: type[T], endpoint: str, api: str) -> T:
    """The reply `content` held to `shape`; one that does not fit is a GitHubProblem naming
    `endpoint` (method and path, never a header)."""
    try:
        return TypeAdapter(shape).validate_json(content)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise GitHubProblem(
            f"unexpected answer from GitHub to {endpoint}: {_what(errors[0], content_type.split(';')[0])}{more}",
            f"check that GITHUB_API_URL ({api}) is the GitHub REST API",
        ) from None
