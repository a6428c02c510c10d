"""`catalogctl comment` against a stand-in for the GitHub API on loopback: no request without a
token, messages that speak of the pull request (not of a tag), and a body cut to GitHub's limit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from catalogctl.render.review import COMMENT_CAP, COMMENT_MARKER
from tests.helpers import run_cli

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
