"""The HTTP client against local stand-ins on loopback: `catalogctl comment` (one PR comment,
created then updated), where a tag points on GitHub, and dataset downloads and their counts."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from catalogctl.errors import GitHubProblem
from catalogctl.io.http import GitHubClient
from catalogctl.render.review import COMMENT_MARKER
from tests.helpers import CliResult, replace_in, run_cli

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


def test_a_comment_the_pull_request_author_wrote_with_the_marker_is_never_the_gates(
    httpserver: HTTPServer, body: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before the gate's first comment, the author posts one that carries the marker: updating it
    # would put the report in a comment its author can edit back to "passed" after every run.
    forged = {"id": 41, "body": f"{COMMENT_MARKER}\n### ✅ Catalog gate passed\n", "user": {"type": "User"}}
    httpserver.expect_ordered_request(COMMENTS, method="GET").respond_with_json([forged])
    httpserver.expect_ordered_request(COMMENTS, method="POST").respond_with_json({"id": 99, "html_url": ""}, status=201)
    done = comment(httpserver, body, monkeypatch)
    assert done.stdout == "created comment 99 on o/r#7\n"
    assert [entry[0].method for entry in httpserver.log] == ["GET", "POST"]


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
    missing = run_cli("comment", "--repo", "o/r", "--pr", "1", "--body", str(tmp_path / "x"), code=2)
    assert missing.stderr == f"error: cannot read {tmp_path / 'x'}: No such file or directory\n"
    (tmp_path / "latin1.md").write_bytes(b"caf\xe9\n")  # was a UnicodeDecodeError traceback
    latin1 = run_cli("comment", "--repo", "o/r", "--pr", "1", "--body", str(tmp_path / "latin1.md"), code=2)
    assert latin1.stderr == (
        f"error: cannot read {tmp_path / 'latin1.md'}: not UTF-8 text\nhint: write it with `catalogctl ci`\n"
    )


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


def test_github_unreachable_is_an_environment_error(
    tmp_path: Path, body: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from catalogctl.io.http import CommentClient
    from tests.release_repo import free_port

    api = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    monkeypatch.setattr(CommentClient, "from_environment", classmethod(lambda cls: cls(api, "t0ken", backoff_s=0)))
    done = run_cli("comment", "--repo", "o/r", "--pr", "7", "--body", body, code=2)  # was 1, as if GitHub had refused
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines[0].startswith(
        f"error: GitHub API unreachable at {api} after 3 attempts (GET {COMMENTS}?per_page=100: ConnectError: "
    )
    assert lines[1:] == ["hint: retry the job later"]


def test_github_failing_with_server_errors_is_a_problem(
    httpserver: HTTPServer, body: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from catalogctl.io.http import CommentClient

    httpserver.expect_request(COMMENTS, method="GET").respond_with_data("down", status=502)
    api = httpserver.url_for("/").rstrip("/")
    monkeypatch.setattr(CommentClient, "from_environment", classmethod(lambda cls: cls(api, "t0ken", backoff_s=0)))
    done = run_cli("comment", "--repo", "o/r", "--pr", "7", "--body", body, code=1)
    assert done.stderr == (
        f"error: GitHub API failed at {api} after 3 attempts (GET {COMMENTS}?per_page=100: HTTP 502)\n"
        "hint: retry the job later\n"
    )
    assert len(httpserver.log) == 3


def test_a_server_error_on_post_is_not_retried(
    httpserver: HTTPServer, body: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A POST that failed on the server may still have created the comment: retrying could post twice.
    httpserver.expect_request(COMMENTS, method="GET").respond_with_json([])
    httpserver.expect_request(COMMENTS, method="POST").respond_with_data("busy", status=502)
    done = comment(httpserver, body, monkeypatch, code=1)
    api = httpserver.url_for("/").rstrip("/")
    assert done.stderr.splitlines() == [
        f"error: GitHub API failed at {api} after 1 attempt (POST {COMMENTS}: HTTP 502)",
        "hint: retry the job later",
    ]
    assert [entry[0].method for entry in httpserver.log] == ["GET", "POST"]


def test_a_server_error_on_get_is_retried(httpserver: HTTPServer, body: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    httpserver.expect_ordered_request(COMMENTS, method="GET").respond_with_data("busy", status=503)
    httpserver.expect_ordered_request(COMMENTS, method="GET").respond_with_json([])
    httpserver.expect_ordered_request(COMMENTS, method="POST").respond_with_json({"id": 8}, status=201)
    done = comment(httpserver, body, monkeypatch)
    assert done.stdout == "created comment 8 on o/r#7\n"
    assert [entry[0].method for entry in httpserver.log] == ["GET", "GET", "POST"]


def test_updating_a_comment_that_vanished_says_what_the_token_needs(
    httpserver: HTTPServer, body: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = {"id": 42, "body": f"{COMMENT_MARKER}\nold", "user": {"type": "Bot"}}
    httpserver.expect_request(COMMENTS, method="GET").respond_with_json([mine])
    httpserver.expect_request("/repos/o/r/issues/comments/42", method="PATCH").respond_with_json({}, status=404)
    done = comment(httpserver, body, monkeypatch, code=1)
    assert done.stderr.splitlines()[0] == "error: not found on GitHub: /repos/o/r/issues/comments/42 (404)"


# -- where a tag points on GitHub -------------------------------------------------------------------


def github(httpserver: HTTPServer) -> GitHubClient:
    return GitHubClient(httpserver.url_for("").rstrip("/"), None, backoff_s=0)


def test_a_tag_of_a_tag_is_peeled_but_not_forever(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/repos/o/r/git/ref/tags/v1").respond_with_json({"object": {"type": "tag", "sha": "t0"}})
    for n in range(5):
        httpserver.expect_request(f"/repos/o/r/git/tags/t{n}").respond_with_json(
            {"object": {"type": "tag", "sha": f"t{n + 1}"}}
        )
    with pytest.raises(GitHubProblem) as caught:
        github(httpserver).tag_commit("o/r", "v1")
    assert str(caught.value) == "GitHub's tag `v1` is a chain of tags too long to follow"


@pytest.mark.parametrize(
    ("answer", "kind"),
    [({"object": {"type": "tree", "sha": "t"}}, "tree"), ({"object": {"type": "", "sha": "t"}}, "nothing")],
)
def test_a_tag_that_points_at_no_commit(httpserver: HTTPServer, answer: dict[str, object], kind: str) -> None:
    httpserver.expect_request("/repos/o/r/git/ref/tags/v1").respond_with_json(answer)
    with pytest.raises(GitHubProblem) as caught:
        github(httpserver).tag_commit("o/r", "v1")
    assert str(caught.value) == f"GitHub's tag `v1` points at a {kind}, not a commit"


def test_an_unexpected_status_names_it(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/repos/o/r/git/ref/tags/v1").respond_with_data("", status=418)
    with pytest.raises(GitHubProblem) as caught:
        github(httpserver).tag_commit("o/r", "v1")
    assert str(caught.value) == "unexpected answer from GitHub: HTTP 418 for /repos/o/r/git/ref/tags/v1"


# -- dataset downloads and local files: sha256, size, records -------------------------------------------


AIME = "benchmark_suite/datasets/aime25.yaml"
ROWS = [{"question": f"{n}+1?", "answer": str(n + 1)} for n in range(31)]


@pytest.mark.parametrize(
    ("name", "content", "samples"),
    [
        ("aime25.json", json.dumps(ROWS).encode(), "samples: 30 -> 31"),
        (
            "aime25.csv",
            b"question,answer\n" + b"".join(b"%d+1?,%d\n" % (n, n + 1) for n in range(31)),
            "samples: 30 -> 31",
        ),
        ("aime25.jsonl", b"".join(json.dumps(row).encode() + b"\n" for row in ROWS)[:-1], "samples: 30 -> 31"),
        ("aime25.json", json.dumps({"rows": ROWS}).encode(), None),  # not a list: nothing to count
        ("aime25.json", b"[{", None),  # not JSON
        ("aime25.parquet", b"PAR1", None),  # a format not counted
    ],
)
def test_pin_counts_the_records_of_the_formats_it_can(
    catalog_dir: Path, tmp_path: Path, name: str, content: bytes, samples: str | None
) -> None:
    data = tmp_path / name
    data.write_bytes(content)
    sha = hashlib.sha256(content).hexdigest()
    # 31 samples: allowed, with the figure gpt-oss-120b computes from them updated to match.
    replace_in(catalog_dir, "benchmark_suite/benchmarks/gpt-oss-120b.yaml", ": 4395", ": 4403")
    done = run_cli("datasets", "pin", "aime25", str(data), "-C", str(catalog_dir), "--update-samples")
    expected = [f"{AIME}: source.sha256: <TBD> -> {sha}", f"{AIME}: source.size: (none) -> {len(content)}"]
    expected += [f"{AIME}: {samples}"] if samples else []
    assert done.stdout.splitlines() == expected


def test_a_json_file_too_large_to_count_keeps_its_samples(
    catalog_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from catalogctl.io import download

    monkeypatch.setattr(download, "MAX_COUNTED_JSON", 100)  # the real cap is 256 MiB
    data = tmp_path / "aime25.json"
    data.write_bytes(json.dumps(ROWS).encode())
    done = run_cli("datasets", "pin", "aime25", str(data), "-C", str(catalog_dir))
    sha, size = hashlib.sha256(data.read_bytes()).hexdigest(), data.stat().st_size
    assert done.stdout == f"{AIME}: source.sha256: <TBD> -> {sha}\n{AIME}: source.size: (none) -> {size}\n"


def test_a_download_reports_its_progress(httpserver: HTTPServer) -> None:
    from catalogctl.io.download import CHUNK, download

    body = b"x" * (CHUNK + 10)
    httpserver.expect_request("/big.parquet").respond_with_data(body)
    seen: list[tuple[int, int | None]] = []
    fetched = download(httpserver.url_for("/big.parquet"), None, lambda done, total: seen.append((done, total)))
    assert (fetched.size, fetched.records) == (len(body), None)
    assert seen[-1] == (len(body), len(body))
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_a_redirect_within_the_api_is_followed(httpserver: HTTPServer) -> None:
    # GitHub answers a renamed repository with a 301 to /repositories/ID/...: same origin, followed.
    moved = "/repositories/42/git/ref/tags/v1"
    httpserver.expect_request("/repos/o/r/git/ref/tags/v1").respond_with_data(
        "", status=301, headers={"Location": httpserver.url_for(moved)}
    )
    httpserver.expect_request(moved).respond_with_json({"object": {"type": "commit", "sha": "c" * 40}})
    assert github(httpserver).tag_commit("o/r", "v1") == "c" * 40
