"""Hostile answers of a stand-in for the GitHub API on loopback: every reply of `comment` and of
the tag check that does not fit its model is one message naming the endpoint, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from catalogctl.errors import GitHubProblem
from catalogctl.io.http import GitHubClient
from catalogctl.render.review import COMMENT_MARKER
from tests.helpers import run_cli
from tests.loopback_http import QuickStopServer

COMMENTS = "/repos/o/r/issues/7/comments"
HTML = "<!DOCTYPE html><html><body>Sign in</body></html>"


def hint(server: HTTPServer) -> str:
    return f"hint: check that GITHUB_API_URL ({server.url_for('/').rstrip('/')}) is the GitHub REST API\n"


def run_comment(server: HTTPServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> str:
    body = tmp_path / "comment.md"
    body.write_text(f"{COMMENT_MARKER}\nreport\n")
    monkeypatch.setenv("GITHUB_API_URL", server.url_for("/").rstrip("/"))
    monkeypatch.setenv("GITHUB_TOKEN", "t0ken-secret")
    done = run_cli("comment", "--repo", "o/r", "--pr", "7", "--body", str(body), *extra, code=1)
    assert "t0ken-secret" not in done.stderr
    assert done.stdout == ""
    return done.stderr


@pytest.mark.parametrize(
    ("reply", "content_type", "what"),
    [
        (HTML, "text/html", "not JSON (text/html)"),
        ('{"message": "Moved"}', "application/json", "input should be a valid array"),
        ('[{"body": "hi"}]', "application/json", "no `[0].id`"),
        ('[{"id": "12", "body": "hi"}]', "application/json", "`[0].id`: input should be a valid integer"),
        ('[{"id": 3, "user": "Bot"}]', "application/json", "`[0].user`: input should be an object"),
    ],
)
def test_a_hostile_comment_list(
    httpserver: HTTPServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reply: str, content_type: str, what: str
) -> None:
    httpserver.expect_request(COMMENTS, method="GET").respond_with_data(reply, content_type=content_type)
    err = run_comment(httpserver, tmp_path, monkeypatch)
    assert err == f"error: unexpected answer from GitHub to GET {COMMENTS}?per_page=100: {what}\n" + hint(httpserver)


@pytest.mark.parametrize(
    ("reply", "what"),
    [
        ({"html_url": "https://x"}, "no `id`"),  # was a KeyError
        ([{"id": 1}], "input should be an object"),  # was a TypeError
        (HTML, "not JSON (text/html)"),  # was a JSONDecodeError
    ],
)
def test_a_hostile_answer_to_the_post(
    httpserver: HTTPServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reply: object, what: str
) -> None:
    httpserver.expect_request(COMMENTS, method="GET").respond_with_json([])
    if isinstance(reply, str):
        httpserver.expect_request(COMMENTS, method="POST").respond_with_data(reply, 201, content_type="text/html")
    else:
        httpserver.expect_request(COMMENTS, method="POST").respond_with_json(reply, status=201)
    err = run_comment(httpserver, tmp_path, monkeypatch)
    assert err == f"error: unexpected answer from GitHub to POST {COMMENTS}: {what}\n" + hint(httpserver)


def test_a_hostile_answer_to_the_patch(httpserver: HTTPServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mine = {"id": 42, "body": f"{COMMENT_MARKER}\nold", "user": {"type": "Bot"}}
    httpserver.expect_request(COMMENTS, method="GET").respond_with_json([mine])
    httpserver.expect_request("/repos/o/r/issues/comments/42", method="PATCH").respond_with_json({"id": None})
    err = run_comment(httpserver, tmp_path, monkeypatch)
    assert err == (
        "error: unexpected answer from GitHub to PATCH /repos/o/r/issues/comments/42: `id`: "
        "input should be a valid integer\n" + hint(httpserver)
    )


@pytest.mark.parametrize(
    ("reply", "what"),
    [
        ({"head": "main"}, "`head`: input should be an object"),
        ({"head": {}}, "no `head.sha`"),
        ([], "input should be an object"),
    ],
)
def test_a_hostile_pull_request(
    httpserver: HTTPServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reply: object, what: str
) -> None:
    httpserver.expect_request("/repos/o/r/pulls/7", method="GET").respond_with_json(reply)
    err = run_comment(httpserver, tmp_path, monkeypatch, "--head-sha", "a" * 40)
    assert err == f"error: unexpected answer from GitHub to GET /repos/o/r/pulls/7: {what}\n" + hint(httpserver)
    assert len(httpserver.log) == 1


@pytest.mark.parametrize(
    ("ref", "tag", "what"),
    [
        ({"object": {"type": "commit"}}, None, "GET /repos/o/r/git/ref/tags/v1: no `object.sha`"),
        ({"object": "commit"}, None, "GET /repos/o/r/git/ref/tags/v1: `object`: input should be an object"),
        (
            [{"object": {"type": "commit", "sha": "c" * 40}}],
            None,
            "GET /repos/o/r/git/ref/tags/v1: input should be an object",
        ),
        (
            {"object": {"type": "tag", "sha": "t1"}},
            {"object": {"type": "tag"}},
            "GET /repos/o/r/git/tags/t1: no `object.sha`",
        ),
        (
            {"object": {"type": "tag", "sha": "../../x"}},
            None,
            "GET /repos/o/r/git/ref/tags/v1: `object.sha`: string should match pattern '^[0-9A-Za-z]{1,64}$'",
        ),
    ],
)
def test_a_hostile_tag(httpserver: HTTPServer, ref: object, tag: object, what: str) -> None:
    httpserver.expect_request("/repos/o/r/git/ref/tags/v1").respond_with_json(ref)
    if tag is not None:
        httpserver.expect_request("/repos/o/r/git/tags/t1").respond_with_json(tag)
    client = GitHubClient(httpserver.url_for("").rstrip("/"), "t0ken-secret", backoff_s=0)
    with pytest.raises(GitHubProblem) as caught:
        client.tag_commit("o/r", "v1")
    assert str(caught.value) == f"unexpected answer from GitHub to {what}"
    assert f"hint: {caught.value.hint}\n" == hint(httpserver)


# -- pagination stays on the API's origin: the token is never sent elsewhere ------------------------


@pytest.mark.parametrize("elsewhere", ["other port", "other scheme"])
def test_a_next_page_on_another_origin_is_not_followed(
    httpserver: HTTPServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, elsewhere: str
) -> None:
    other = QuickStopServer(host="127.0.0.1", port=0)
    other.expect_request(COMMENTS).respond_with_json([])
    other.start()
    try:
        page2 = other.url_for(COMMENTS) + "?per_page=100&page=2"
        if elsewhere == "other scheme":  # same host and port, but https: another origin
            page2 = httpserver.url_for(COMMENTS).replace("http://", "https://") + "?page=2"
        origin = page2.split(COMMENTS)[0]
        httpserver.expect_request(COMMENTS, method="GET").respond_with_json(
            [{"id": 1, "body": "chatter"}], headers={"Link": f'<{page2}>; rel="next"'}
        )
        err = run_comment(httpserver, tmp_path, monkeypatch)
        api = httpserver.url_for("/").rstrip("/")
        assert err == (
            f"error: GitHub's answer points at {origin}, not at the API ({api}): not followed, "
            "the token goes to the API only\n" + hint(httpserver)
        )
        assert other.log == []  # was a request carrying `Authorization: Bearer t0ken-secret`
        assert [entry[0].method for entry in httpserver.log] == ["GET"]
    finally:
        other.clear()
        other.stop()


def test_a_next_page_on_the_api_origin_is_followed(httpserver: HTTPServer) -> None:
    from catalogctl.io.http import CommentClient

    page2 = (
        httpserver.url_for(COMMENTS).replace("localhost", "LOCALHOST") + "?page=2"
    )  # host names are not case-sensitive
    httpserver.expect_ordered_request(COMMENTS).respond_with_json([], headers={"Link": f'<{page2}>; rel="next"'})
    httpserver.expect_ordered_request(COMMENTS).respond_with_json([{"id": 2, "body": "hi"}])
    client = CommentClient(httpserver.url_for("/").rstrip("/"), "t0ken", backoff_s=0)
    assert [c.id for c in client.comments(COMMENTS)] == [2]
    assert [entry[0].headers["Authorization"] for entry in httpserver.log] == ["Bearer t0ken"] * 2


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://api.github.com", ("https", "api.github.com", 443)),
        ("HTTPS://API.GitHub.com:443/repos", ("https", "api.github.com", 443)),
        ("http://127.0.0.1:8080/x?page=2", ("http", "127.0.0.1", 8080)),
        ("http://127.0.0.1:port/x", ("http", "127.0.0.1", -1)),
    ],
)
def test_origins(url: str, expected: tuple[str, str, int]) -> None:
    from catalogctl.io.http import origin

    assert origin(url) == expected


def test_a_redirect_to_another_origin_is_not_followed(httpserver: HTTPServer) -> None:
    # It was followed (httpx dropped the token) and the other origin's answer taken for GitHub's.
    from catalogctl.io.http import CommentClient

    other = QuickStopServer(host="127.0.0.1", port=0)
    other.expect_request(COMMENTS).respond_with_json([])
    other.start()
    try:
        httpserver.expect_request(COMMENTS).respond_with_data("", 302, headers={"Location": other.url_for(COMMENTS)})
        client = CommentClient(httpserver.url_for("/").rstrip("/"), "t0ken", backoff_s=0)
        with pytest.raises(GitHubProblem) as caught:
            client.comments(COMMENTS)
        assert str(caught.value).startswith(f"GitHub's answer redirects to {other.url_for('/').rstrip('/')}, not ")
        assert other.log == []  # nothing was sent there
    finally:
        other.clear()
        other.stop()
