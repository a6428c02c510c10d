"""`catalogctl comment` against a stand-in for the GitHub API on loopback: no request without a
token, messages that speak of the pull request (not of a tag), and a body cut to GitHub's limit."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from catalogctl.render.review import COMMENT_CAP, COMMENT_MARKER
from tests.helpers import run_cli
from tests.loopback_http import QuickStopServer

COMMENTS = "/repos/o/r/issues/7/comments"


def comment(body: Path, *extra: str, code: int = 0) -> str:
    done = run_cli("comment", "--repo", "o/r", "--pr", "7", "--body", str(body), *extra, code=code)
    return done.stderr if code else done.stdout


@pytest.fixture
def api(httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> HTTPServer:
    monkeypatch.setenv("GITHUB_API_URL", httpserver.url_for("/").rstrip("/"))
    monkeypatch.setenv("GITHUB_TOKEN", "t0ken")
    return httpserver


@pytest.fixture
def body(tmp_path: Path) -> Path:
    path = tmp_path / "comment.md"
    path.write_text(f"{COMMENT_MARKER}\nreport\n")
    return path


def test_without_a_token_nothing_is_sent(api: HTTPServer, body: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GITHUB_TOKEN")
    monkeypatch.delenv("GH_TOKEN", raising=False)
    err = comment(body, code=2)  # was a request, then "GitHub rejected the token (401)"
    assert err == (
        "error: no GitHub token to comment with: set GITHUB_TOKEN (or GH_TOKEN)\n"
        "hint: in a workflow: `env: GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}`, with `permissions: "
        "pull-requests: write`\n"
    )
    assert api.log == []


@pytest.mark.parametrize(
    ("path", "extra"), [(COMMENTS, ()), ("/repos/o/r/pulls/7", ("--head-sha", "a" * 40))], ids=["list", "pull"]
)
def test_a_404_speaks_of_the_repository_and_the_pull_request(
    api: HTTPServer, body: Path, path: str, extra: tuple[str, ...]
) -> None:
    api.expect_request(path, method="GET").respond_with_json({"message": "Not Found"}, status=404)
    err = comment(body, *extra, code=1)
    shown = f"{path}?per_page=100" if path == COMMENTS else path
    assert err == (  # was the tag check's hint: "the tag is not on GitHub, ..."
        f"error: not found on GitHub: {shown} (404)\n"
        "hint: check --repo and --pr: no such repository or pull request, or the token cannot read it "
        "(a private repository needs a token of that repository)\n"
    )


def test_a_body_over_githubs_limit_is_cut_with_a_note(api: HTTPServer, body: Path) -> None:
    lines = [f"| finding {n} | {'m' * 200} |\n" for n in range(25_000)]  # about 5 MB
    body.write_text(f"{COMMENT_MARKER}\n### ❌ Catalog gate failed\n" + "".join(lines))
    api.expect_request(COMMENTS, method="GET").respond_with_json([])
    api.expect_request(COMMENTS, method="POST").respond_with_json({"id": 9}, status=201)
    assert comment(body) == "created comment 9 on o/r#7\n"
    sent = json.loads(api.log[-1][0].data)["body"]
    assert len(sent) <= COMMENT_CAP  # was the whole body
    assert sent.startswith(f"{COMMENT_MARKER}\n### ❌ Catalog gate failed\n| finding 0 | ")
    kept, note = sent.rsplit("\n\n", 1)
    assert kept.splitlines()[-1] == lines[len(kept.splitlines()) - 3].rstrip("\n")  # cut at a line
    assert note == (
        "… cut to fit GitHub's limit of 65536 characters: the rest is in the gate job's summary and "
        "annotations, and `catalogctl ci` prints the full report.\n"
    )


def test_a_marker_past_the_limit_is_kept(api: HTTPServer, body: Path) -> None:
    body.write_text("x" * 80 + "\n" + ("y" * 100 + "\n") * 1000 + COMMENT_MARKER + "\n")
    api.expect_request(COMMENTS, method="GET").respond_with_json([])
    api.expect_request(COMMENTS, method="POST").respond_with_json({"id": 9}, status=201)
    comment(body)
    sent = json.loads(api.log[-1][0].data)["body"]
    assert len(sent) <= COMMENT_CAP
    assert sent.startswith(f"{COMMENT_MARKER}\n{'x' * 80}\n")


def test_a_rate_limit_with_a_token_does_not_ask_for_one(api: HTTPServer, body: Path) -> None:
    api.expect_request(COMMENTS, method="GET").respond_with_json({"message": "slow down"}, status=429)
    err = comment(body, code=1)  # was "set GITHUB_TOKEN for a higher limit", with the token set
    assert err == "error: GitHub API rate limit reached (HTTP 429); it resets at later\nhint: retry after the reset\n"


@pytest.mark.parametrize(
    "reset",
    ["99999999999999999", "-5", "soon"],  # too large for gmtime, negative, a word
)
def test_a_rate_limit_reset_that_is_no_time_resets_later(api: HTTPServer, body: Path, reset: str) -> None:
    # 99999999999999999 was exit 70: `OSError: [Errno 75] Value too large for defined data type`.
    api.expect_request(COMMENTS, method="GET").respond_with_json(
        {"message": "API rate limit exceeded"},
        status=403,
        headers={"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset},
    )
    err = comment(body, code=1)
    assert err == "error: GitHub API rate limit reached (HTTP 403); it resets at later\nhint: retry after the reset\n"


def _listing(api: HTTPServer, link: str) -> None:
    """The comment list answers with `link` as its Link header; any other page and the POST succeed."""

    def page(request: Request) -> Response:
        headers = {"Link": link} if request.path == COMMENTS else {}
        return Response("[]", 200, headers=headers, content_type="application/json")

    api.expect_request(re.compile(r"/repos/o/r/issues/7/.*"), method="GET").respond_with_handler(page)
    api.expect_request(COMMENTS, method="POST").respond_with_json({"id": 1, "html_url": ""}, status=201)


@pytest.fixture
def other() -> Iterator[HTTPServer]:
    """A second server: another host, which must never see the token."""
    server = QuickStopServer()
    server.expect_request(re.compile(".*")).respond_with_json([])
    server.start()
    yield server
    server.stop()


@pytest.mark.parametrize(
    "link",
    [
        '<http://{other}/page2; rel="next"',
        '< http://{other}/page2>; rel="next"',
        '<\thttp://{other}/page2>; rel="next"',
        '<http://{other}\\@{api}/page2>; rel="next"',
        '<https:/{other}/page2>; rel="next"',
    ],
)
def test_a_malformed_link_is_a_problem_naming_the_endpoint(
    api: HTTPServer, other: HTTPServer, body: Path, link: str
) -> None:
    # It was exit 70 (ValueError, httpx.InvalidURL), or a request to another host.
    header = link.format(other=f"127.0.0.1:{other.port}", api=f"localhost:{api.port}")
    _listing(api, header)
    err = comment(body, code=1)
    assert err == (
        f"error: unexpected answer from GitHub to GET {COMMENTS}?per_page=100: a malformed Link header ({header!r})\n"
        f"hint: check that GITHUB_API_URL (http://localhost:{api.port}) is the GitHub REST API\n"
    )
    assert other.log == []


@pytest.mark.parametrize("link", ["<HTTP://{other}/page2>", "<//{other}/page2>", "<http://{api}@{other}/page2>"])
def test_a_link_to_another_host_in_any_spelling_is_not_followed(
    api: HTTPServer, other: HTTPServer, body: Path, link: str
) -> None:
    _listing(api, link.format(other=f"127.0.0.1:{other.port}", api=f"localhost:{api.port}") + '; rel="next"')
    err = comment(body, code=1)
    assert err == (
        f"error: GitHub's answer points at http://127.0.0.1:{other.port}, "
        f"not at the API (http://localhost:{api.port}): "
        "not followed, the token goes to the API only\n"
        f"hint: check that GITHUB_API_URL (http://localhost:{api.port}) is the GitHub REST API\n"
    )
    assert other.log == []


def test_a_link_that_is_a_relative_reference_stays_at_the_api(api: HTTPServer, other: HTTPServer, body: Path) -> None:
    # `<@host/page2>` was appended to the API's address, `http://api@host/page2`: the next page,
    # token and all, went to that host, and its answer was taken for the comment list.
    _listing(api, f'<@127.0.0.1:{other.port}/page2>; rel="next"')
    assert comment(body) == "created comment 1 on o/r#7\n"
    assert other.log == []
    assert api.log[1][0].path == f"/repos/o/r/issues/7/@127.0.0.1:{other.port}/page2"
