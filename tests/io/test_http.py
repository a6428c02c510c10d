"""`catalogctl comment`: one PR comment, created then updated, against a local stand-in for GitHub."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from catalogctl.render.review import COMMENT_MARKER
from tests.helpers import CliResult, run_cli

COMMENTS = "/repos/o/r/issues/7/comments"


@pytest.fixture
def body(tmp_path: Path) -> Path:
    path = tmp_path / "comment.md"
    path.write_text(f"{COMMENT_MARKER}\n### ✅ Catalog gate passed\n")
    return path


def comment(
    httpserver: HTTPServer, body: Path, monkeypatch: pytest.MonkeyPatch, *extra: str, code: int = 0
) -> CliResult:
    monkeypatch.setenv("GITHUB_API_URL", httpserver.url_for("/").rstrip("/"))
    monkeypatch.setenv("GITHUB_TOKEN", "t0ken")
    return run_cli("comment", "--repo", "o/r", "--pr", "7", "--body", str(body), *extra, code=code)


def test_creates_the_comment_when_none_carries_the_marker(
    httpserver: HTTPServer, body: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    httpserver.expect_ordered_request(COMMENTS, method="GET").respond_with_json([{"id": 1, "body": "LGTM"}])
    httpserver.expect_ordered_request(COMMENTS, method="POST").respond_with_json(
        {"id": 99, "html_url": "https://github.example/o/r/pull/7#issuecomment-99"}, status=201
    )
    done = comment(httpserver, body, monkeypatch)
    assert done.stdout == "created comment 99 on o/r#7 https://github.example/o/r/pull/7#issuecomment-99\n"
    get, post = (entry[0] for entry in httpserver.log)
    assert get.args["per_page"] == "100"
    assert post.headers["Authorization"] == "Bearer t0ken"
    assert json.loads(post.data) == {"body": body.read_text()}


def test_updates_its_own_comment_found_on_a_later_page(
    httpserver: HTTPServer, body: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page2 = httpserver.url_for(COMMENTS) + "?per_page=100&page=2"

    def first_page(request: Request) -> Response:
        if request.args.get("page") == "2":
            return Response(
                json.dumps(
                    [
                        {"id": 41, "body": f"quoting {COMMENT_MARKER}", "user": {"type": "User"}},
                        {"id": 42, "body": f"{COMMENT_MARKER}\nold report", "user": {"type": "Bot"}},
                    ]
                ),
                200,
            )
        return Response(
            json.dumps([{"id": n, "body": "chatter"} for n in range(100)]),
            200,
            headers={"Link": f'<{page2}>; rel="next", <{page2}>; rel="last"'},
        )

    httpserver.expect_request(COMMENTS, method="GET").respond_with_handler(first_page)
    httpserver.expect_request("/repos/o/r/issues/comments/42", method="PATCH").respond_with_json(
        {"id": 42, "html_url": ""}
    )
    done = comment(httpserver, body, monkeypatch)
    assert done.stdout == "updated comment 42 on o/r#7\n"
    assert [entry[0].method for entry in httpserver.log] == ["GET", "GET", "PATCH"]


def test_a_read_only_token_says_how_to_post_from_a_fork(
    httpserver: HTTPServer, body: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    httpserver.expect_request(COMMENTS, method="GET").respond_with_json([])
    httpserver.expect_request(COMMENTS, method="POST").respond_with_json(
        {"message": "Resource not accessible by integration"}, status=403
    )
    done = comment(httpserver, body, monkeypatch, code=1)
    assert done.stderr.splitlines() == [
        f"error: GitHub refused POST {COMMENTS} (403)",
        "hint: the token cannot write to the pull request: on a pull request from a fork the token is read-only, so "
        "post from a `workflow_run` job (see .github/workflows/catalog-gate-comment.yml) with "
        "`permissions: pull-requests: write`",
    ]


def test_a_body_without_the_marker_is_refused(
    httpserver: HTTPServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = tmp_path / "plain.md"
    plain.write_text("hello\n")
    done = comment(httpserver, plain, monkeypatch, code=1)
    assert done.stderr.startswith(f"error: the comment body does not carry the marker {COMMENT_MARKER}")
    assert httpserver.log == []


def test_usage_errors(tmp_path: Path) -> None:
    done = run_cli("comment", "--repo", "oops", "--pr", "1", "--body", str(tmp_path / "x"), code=2)
    assert done.stderr == "error: --repo 'oops' is not OWNER/NAME\n"


def test_refuses_a_pull_request_whose_head_is_another_commit(
    httpserver: HTTPServer, body: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    httpserver.expect_request("/repos/o/r/pulls/7", method="GET").respond_with_json({"head": {"sha": "b" * 40}})
    done = comment(httpserver, body, monkeypatch, "--head-sha", "a" * 40, code=1)
    assert done.stderr.splitlines()[0] == (
        "error: pull request #7 is at bbbbbbbbbbbb, not aaaaaaaaaaaa: not commenting"
    )
    assert [entry[0].path for entry in httpserver.log] == ["/repos/o/r/pulls/7"]


def test_comments_when_the_head_matches(httpserver: HTTPServer, body: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    httpserver.expect_request("/repos/o/r/pulls/7", method="GET").respond_with_json({"head": {"sha": "a" * 40}})
    httpserver.expect_request(COMMENTS, method="GET").respond_with_json([])
    httpserver.expect_request(COMMENTS, method="POST").respond_with_json({"id": 5}, status=201)
    done = comment(httpserver, body, monkeypatch, "--head-sha", "a" * 40)
    assert done.stdout == "created comment 5 on o/r#7\n"
