"""`resolve` and `preflight` on real repositories, a bare remote, git daemon and a stand-in for
the GitHub API on loopback. Every refusal names its reason and leaves no output behind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from catalogctl.errors import CatalogInvalid, CheckFailed, GitHubProblem, RemoteUnreachable
from catalogctl.io.http import GitHubClient, github_repository
from catalogctl.run.resolve import resolve
from tests.helpers import commit_all, git, replace_in, run_cli, write
from tests.release_repo import SUBMISSION, free_port, git_daemon
from tests.slow_server import slow_server


def refused(repo: Path, submission: Path, output: Path, *extra: str, code: int) -> str:
    """Run preflight through the CLI, expecting exit `code`; the output file must not exist afterwards."""
    result = run_cli("preflight", str(submission), "-C", str(repo), "-o", str(output), *extra, code=code)
    assert not output.exists()
    assert not output.parent.exists() or not any(output.parent.iterdir())  # no temporary file either
    return result.stderr


def test_preflight_success_writes_the_resolved_config(release: Path, submission: Path, output: Path) -> None:
    run_cli("preflight", str(submission), "-C", str(release), "-o", str(output))
    data = json.loads(output.read_text())
    assert data["schema"] == "catalogctl/resolved/v1"
    assert data["seeds"] == {
        "id": "A",
        "scheduler_rng_seed": 16159082839903944936,
        "sample_index_rng_seed": 2747215439041700203,
        "model_seed": 42,
    }
    assert '"scheduler_rng_seed": 16159082839903944936' in output.read_text()  # exact in JSON, not a float
    provenance = data["provenance"]
    head = git(release, "rev-parse", "HEAD")
    assert (provenance["cohort"], provenance["tag"], provenance["commit"]) == ("2026-09-C0", "2026-09-C0", head)
    assert provenance["remote"] == {
        "verified": True,
        "remote": str(release.parent / "origin.git"),
        "methods": ["git"],
        "note": "",
    }
    assert provenance["contract_digest"].startswith("sha256:")
    assert data["contract"]["accuracy"]["datasets"][0]["generation"]["max_new_tokens"] == 256
    assert data["submitter"] == {"organization": "Example Labs"}
    assert data["endpoint_config"]["api_type"] == "openai_completions"


def test_preflight_as_a_python_api(release: Path, submission: Path) -> None:
    import catalogctl

    config = catalogctl.preflight_submission(submission, release)
    assert isinstance(config, catalogctl.ResolvedConfig)
    assert config.seeds.scheduler_rng_seed == 16159082839903944936
    assert config.provenance.remote.verified
    with pytest.raises(catalogctl.CheckFailed) as caught:
        catalogctl.preflight_submission(submission, release, remote="/nonexistent.git")
    assert (caught.value.code, caught.value.exit_code) == ("remote-mismatch", 6)


def test_resolved_config_as_yaml_round_trips(release: Path, submission: Path, tmp_path: Path) -> None:
    out = tmp_path / "resolved.yaml"
    run_cli("preflight", str(submission), "-C", str(release), "-o", str(out))
    from catalogctl.io.yamlio import parse_document

    data = parse_document(str(out), out.read_bytes()).data
    assert data["seeds"]["scheduler_rng_seed"] == 16159082839903944936


def test_head_one_commit_ahead(release: Path, submission: Path, output: Path) -> None:
    write(release, "NOTES.md", "later work\n")
    head = commit_all(release, "Later work")
    tag = git(release, "rev-parse", "2026-09-C0^{commit}")
    err = refused(release, submission, output, code=3)
    assert err == (
        f"error [checkout-mismatch]: HEAD ({head[:12]}) is 1 commit ahead of 2026-09-C0 ({tag[:12]})\n"
        "hint: check out the release: git checkout 2026-09-C0\n"
    )


def test_head_behind_the_tag(release: Path, submission: Path, output: Path) -> None:
    git(release, "checkout", "-q", "HEAD~1")
    err = refused(release, submission, output, code=3)
    assert "is 1 commit behind 2026-09-C0" in err


def test_a_moved_local_tag(release: Path, submission: Path, output: Path) -> None:
    git(release, "tag", "-f", "-a", "2026-09-C0", "-m", "moved", "HEAD~1")
    before = git(release, "rev-parse", "HEAD~1")
    err = refused(release, submission, output, code=5)
    assert err == (
        f"error [tag-invalid]: tag `2026-09-C0` points at {before[:12]}, which has no rulesets/2026-09-C0.yaml\n"
    )


def test_a_moved_remote_tag(release: Path, submission: Path, output: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(tmp_path / "origin.git"), str(other))
    git(other, "tag", "-f", "-a", "2026-09-C0", "-m", "moved", "HEAD~1")
    git(other, "push", "-q", "--force", "origin", "2026-09-C0")
    there = git(other, "rev-parse", "HEAD~1")
    here = git(release, "rev-parse", "HEAD")
    err = refused(release, submission, output, code=6)
    assert err == (
        f"error [remote-mismatch]: the remote `origin` has tag `2026-09-C0` at {there[:12]}, "
        f"but the local tag is at {here[:12]}\nhint: the tag moved on one side: do not run until the two agree\n"
    )


def test_dirty_catalog_file(release: Path, submission: Path, output: Path) -> None:
    replace_in(release, "benchmark_suite/benchmarks/gsm8k.yaml", "max_new_tokens: 256", "max_new_tokens: 2048")
    err = refused(release, submission, output, code=4)
    assert err == (
        "error [catalog-dirty]: the catalog has uncommitted changes: benchmark_suite/benchmarks/gsm8k.yaml\n"
        "hint: run exactly the release: git stash -u, or a clean checkout\n"
    )


def test_untracked_file_in_the_catalog(release: Path, submission: Path, output: Path) -> None:
    write(release, "benchmark_suite/models/extra.yaml", "id: extra\n")
    err = refused(release, submission, output, code=4)
    assert "benchmark_suite/models/extra.yaml" in err


def test_untracked_file_outside_the_catalog_is_fine(release: Path, submission: Path, output: Path) -> None:
    write(release, "scratch/notes.txt", "x\n")
    run_cli("preflight", str(submission), "-C", str(release), "-o", str(output))


def test_lightweight_tag(release: Path, submission: Path, output: Path) -> None:
    git(release, "tag", "-d", "2026-09-C0")
    git(release, "tag", "2026-09-C0", "HEAD")
    err = refused(release, submission, output, code=5)
    assert err == "error [tag-invalid]: tag `2026-09-C0` is lightweight: a release tag is annotated\n"


def test_missing_tag_is_never_relaxed(release: Path, submission: Path, output: Path) -> None:
    git(release, "tag", "-d", "2026-09-C0")
    err = refused(release, submission, output, code=5)
    assert err == (
        "error [tag-invalid]: the release tag `2026-09-C0` is missing\nhint: fetch it: git fetch --tags origin\n"
    )


def test_seed_set_not_valid_for_the_cohort(release: Path, submission: Path, output: Path) -> None:
    replace_in(release.parent, "submission.yaml", "seed_set_id: A", "seed_set_id: B")
    err = refused(release, submission, output, code=7)
    assert err == (
        "error [submission-mismatch]: seed set `B` is not valid for cohort 2026-09-C0\nhint: valid seed sets: A\n"
    )


def test_benchmark_not_in_the_cohort(release: Path, submission: Path, output: Path) -> None:
    replace_in(release.parent, "submission.yaml", "benchmark: gsm8k", "benchmark: gpt-oss-120b")
    err = refused(release, submission, output, code=7)
    assert err == (
        "error [submission-mismatch]: benchmark `gpt-oss-120b` is not in cohort 2026-09-C0\n"
        "hint: the cohort's benchmarks: deepseek-r1, gsm8k\n"
    )


def test_api_type_mismatch(release: Path, submission: Path, output: Path) -> None:
    replace_in(release.parent, "submission.yaml", "api_type: openai_completions", "api_type: openai")
    err = refused(release, submission, output, code=7)
    assert err == (
        "error [submission-mismatch]: endpoint_config.api_type is openai, but benchmark `gsm8k` uses "
        "openai_completions\n"
    )


def test_invalid_submission_is_reported_with_positions(release: Path, submission: Path, output: Path) -> None:
    replace_in(release.parent, "submission.yaml", "settings:", "setings:")
    err = refused(release, submission, output, code=1)
    assert (
        f"  {submission}:6:1: error schema-unknown-key: unknown key `setings` in the document (did "
        "you mean `settings`?)" in err
    )


def test_unreachable_remote_with_and_without_offline(release: Path, submission: Path, output: Path) -> None:
    err = refused(release, submission, output, "--remote", "git://127.0.0.1:1/nothing.git", code=6)
    assert err.startswith("error [remote-mismatch]: the remote `git://127.0.0.1:1/nothing.git` is unreachable: ")
    assert err.endswith(
        "hint: check its URL and your network or access (git ls-remote git://127.0.0.1:1/nothing.git); as a last "
        "resort, --offline skips this check, and the resolved config records it as not verified\n"
    )
    run_cli(
        "preflight",
        str(submission),
        "-C",
        str(release),
        "-o",
        str(output),
        "--remote",
        "git://127.0.0.1:1/x",
        "--offline",
    )
    remote = json.loads(output.read_text())["provenance"]["remote"]
    assert remote == {"verified": False, "methods": [], "note": "--offline: the remote was not contacted"}


def test_contract_edited_after_the_freeze(release: Path, submission: Path, output: Path) -> None:
    # Someone amends the release commit with a contract edit and re-tags it: the ruleset (and
    # its digest in the tag) are unchanged, but the contract is not what was frozen.
    message = git(release, "tag", "-l", "--format=%(contents)", "2026-09-C0")
    replace_in(release, "benchmark_suite/benchmarks/gsm8k.yaml", "max_new_tokens: 256", "max_new_tokens: 2048")
    git(release, "commit", "-q", "-a", "--amend", "--no-edit")
    git(release, "tag", "-f", "-a", "2026-09-C0", "-m", message)
    err = refused(release, submission, output, "--offline", code=8)
    assert err.startswith("error [contract-mismatch]: the contract of `gsm8k` at 2026-09-C0 (")
    assert "but cohort 2026-09-C0 froze sha256:" in err


def test_resolve_reads_the_tag_not_the_working_tree(release: Path, submission: Path, tmp_path: Path) -> None:
    replace_in(release, "benchmark_suite/benchmarks/gsm8k.yaml", "max_new_tokens: 256", "max_new_tokens: 2048")
    config = resolve(release, submission)
    assert config.contract["accuracy"]["generation"]["max_new_tokens"] == 256
    assert not config.provenance.remote.verified
    commit_all(release, "Edit after the freeze")
    with pytest.raises(CheckFailed, match=r"the contract of `gsm8k` at HEAD \(") as caught:
        resolve(release, submission, ref="HEAD")
    assert caught.value.exit_code == 8


def test_resolve_prints_yaml_and_rejects_an_unknown_output_type(
    release: Path, submission: Path, tmp_path: Path
) -> None:
    printed = run_cli("resolve", str(submission), "-C", str(release))
    assert printed.stdout.startswith("schema: catalogctl/resolved/v1\ntype: resolved_config\n")
    bad = run_cli("resolve", str(submission), "-C", str(release), "-o", str(tmp_path / "x.txt"), code=2)
    assert bad.stderr == f"error: {tmp_path / 'x.txt'}: write the resolved config to a .yaml, .yml or .json file\n"
    assert not (tmp_path / "x.txt").exists()


def test_resolve_unknown_submission_file(release: Path, tmp_path: Path) -> None:
    with pytest.raises(Exception, match="cannot read"):
        resolve(release, tmp_path / "missing.yaml")
    with pytest.raises(CatalogInvalid):
        resolve(release, write(tmp_path, "bad.yaml", "type: submission\n"))


def test_resolve_a_cohort_nobody_froze_is_no_such_cohort(release: Path, tmp_path: Path) -> None:
    other = write(tmp_path, "other.yaml", SUBMISSION.replace("cohort: 2026-09-C0", "cohort: 2027-01-C0"))
    expected = (
        "error: no such cohort `2027-01-C0`: no release tag and no rulesets/2027-01-C0.yaml\n"
        "hint: list the frozen cohorts with `catalogctl cohorts`\n"
    )
    for extra in ([], ["--ref", "main"]):
        done = run_cli("resolve", other, "-C", release, *extra, code=2)  # was "unknown ref", and exit 5
        assert (done.stdout, done.stderr) == ("", expected)


def test_resolve_finds_a_cohort_by_its_ruleset_without_its_tag(release: Path, submission: Path) -> None:
    git(release, "tag", "-d", "2026-09-C0")  # a clone without tags
    config = resolve(release, submission)
    assert config.provenance.tag is None
    assert config.provenance.remote.note.startswith("tag `2026-09-C0` not found: using ")
    git(release, "checkout", "-q", "--orphan", "elsewhere")  # the ruleset only at --ref, not in HEAD's history
    git(release, "commit", "-q", "--allow-empty", "-m", "unrelated")
    assert resolve(release, submission, ref="main").provenance.cohort == "2026-09-C0"


# -- over git:// ----------------------------------------------------------------------------------


def test_preflight_against_git_daemon(release: Path, submission: Path, output: Path, tmp_path: Path) -> None:
    served = tmp_path / "served"
    for url in git_daemon(served):
        git(served, "clone", "-q", "--bare", str(tmp_path / "origin.git"), str(served / "mirror.git"))
        run_cli("preflight", str(submission), "-C", str(release), "-o", str(output), "--remote", f"{url}/mirror.git")
        assert json.loads(output.read_text())["provenance"]["remote"]["methods"] == ["git"]


# -- the GitHub API, stood in for by a local server -----------------------------------------------


def tag_answers(server: HTTPServer, repository: str, tag: str, tag_sha: str, commit: str) -> None:
    server.expect_request(f"/repos/{repository}/git/ref/tags/{tag}").respond_with_json(
        {"ref": f"refs/tags/{tag}", "object": {"type": "tag", "sha": tag_sha}}
    )
    server.expect_request(f"/repos/{repository}/git/tags/{tag_sha}").respond_with_json(
        {"tag": tag, "object": {"type": "commit", "sha": commit}}
    )


def test_preflight_confirms_the_tag_on_github(
    release: Path, submission: Path, output: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    commit = git(release, "rev-parse", "HEAD")
    tag_answers(httpserver, "mlcommons/catalog", "2026-09-C0", "t" * 40, commit)
    monkeypatch.setenv("GITHUB_API_URL", httpserver.url_for("/"))
    monkeypatch.setenv("GITHUB_TOKEN", "secret-token")
    run_cli("preflight", str(submission), "-C", str(release), "-o", str(output), "--github", "mlcommons/catalog")
    assert json.loads(output.read_text())["provenance"]["remote"]["methods"] == ["git", "github"]
    first = httpserver.log[0][0]
    assert first.headers["Authorization"] == "Bearer secret-token"


def test_preflight_refuses_when_github_disagrees(
    release: Path, submission: Path, output: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    tag_answers(httpserver, "mlcommons/catalog", "2026-09-C0", "t" * 40, "e" * 40)
    monkeypatch.setenv("GITHUB_API_URL", httpserver.url_for("/"))
    err = refused(release, submission, output, "--github", "mlcommons/catalog", code=6)
    assert f"on GitHub (mlcommons/catalog) tag `2026-09-C0` points at {'e' * 12}, not " in err


@pytest.mark.parametrize(
    ("reply", "content_type", "what"),
    [
        ("<html><body>Sign in</body></html>", "text/html", "not JSON (text/html)"),  # was a JSONDecodeError
        ('{"object": {"type": "commit"}}', "application/json", "no `object.sha`"),  # was a KeyError
        ('{"object": []}', "application/json", "`object`: input should be an object"),  # was an AttributeError
    ],
)
def test_preflight_with_a_hostile_github_reply(
    release: Path,
    submission: Path,
    output: Path,
    httpserver: HTTPServer,
    monkeypatch: pytest.MonkeyPatch,
    reply: str,
    content_type: str,
    what: str,
) -> None:
    path = "/repos/mlcommons/catalog/git/ref/tags/2026-09-C0"
    httpserver.expect_request(path).respond_with_data(reply, content_type=content_type)
    api = httpserver.url_for("/").rstrip("/")
    monkeypatch.setenv("GITHUB_API_URL", api)
    monkeypatch.setenv("GITHUB_TOKEN", "secret-token")
    err = refused(release, submission, output, "--github", "mlcommons/catalog", code=6)
    assert err == (
        f"error [remote-mismatch]: GitHub could not confirm tag `2026-09-C0`: unexpected answer from GitHub to "
        f"GET {path}: {what}\nhint: check that GITHUB_API_URL ({api}) is the GitHub REST API\n"
    )


@pytest.mark.parametrize(
    ("status", "headers", "message"),
    [
        (401, {}, "GitHub rejected the token (401)"),
        (
            403,
            {"x-ratelimit-remaining": "0", "x-ratelimit-reset": "1767225600"},
            "GitHub API rate limit reached (HTTP 403); it resets at 00:00:00 UTC",
        ),
        (429, {}, "GitHub API rate limit reached (HTTP 429); it resets at later"),
        (403, {}, "GitHub refused access (403)"),
        (404, {}, "not found on GitHub: /repos/o/r/git/ref/tags/2026-09-C0 (404)"),
    ],
)
def test_github_errors_have_clear_messages(
    httpserver: HTTPServer, status: int, headers: dict[str, str], message: str
) -> None:
    httpserver.expect_request("/repos/o/r/git/ref/tags/2026-09-C0").respond_with_data(
        "{}", status=status, headers=headers
    )
    client = GitHubClient(httpserver.url_for("").rstrip("/"), None, backoff_s=0)
    with pytest.raises(GitHubProblem) as caught:
        client.tag_commit("o/r", "2026-09-C0")
    assert str(caught.value) == message


def test_github_server_errors_are_retried(httpserver: HTTPServer) -> None:
    path = "/repos/o/r/git/ref/tags/v1"
    httpserver.expect_ordered_request(path).respond_with_data("busy", status=502)
    httpserver.expect_ordered_request(path).respond_with_data("busy", status=503)
    httpserver.expect_ordered_request(path).respond_with_json({"object": {"type": "commit", "sha": "c" * 40}})
    client = GitHubClient(httpserver.url_for("").rstrip("/"), None, backoff_s=0)
    assert client.tag_commit("o/r", "v1") == "c" * 40
    assert len(httpserver.log) == 3


def test_github_gives_up_after_three_server_errors(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/repos/o/r/git/ref/tags/v1").respond_with_data("down", status=500)
    client = GitHubClient(httpserver.url_for("").rstrip("/"), None, backoff_s=0)
    with pytest.raises(GitHubProblem) as caught:  # it answered: not "unreachable"
        client.tag_commit("o/r", "v1")
    assert (
        str(caught.value)
        == f"GitHub API failed at {client.api} after 3 attempts (GET /repos/o/r/git/ref/tags/v1: HTTP 500)"
    )


def test_github_timeout(httpserver: HTTPServer) -> None:
    import time

    from werkzeug import Request, Response

    def slow(request: Request) -> Response:
        time.sleep(0.5)
        return Response("{}", status=200)

    httpserver.expect_request("/repos/o/r/git/ref/tags/v1").respond_with_handler(slow)
    client = GitHubClient(httpserver.url_for("").rstrip("/"), None, timeout=0.1, attempts=2, backoff_s=0)
    with pytest.raises(
        RemoteUnreachable,
        match=r"^GitHub API unreachable at .* after 2 attempts \(GET /repos/o/r/git/ref/tags/v1: ReadTimeout",
    ):
        client.tag_commit("o/r", "v1")


@pytest.mark.parametrize("mode", ["trickle-body", "trickle-head"])
def test_preflight_with_a_github_that_trickles_stops_at_the_deadline(
    release: Path, submission: Path, output: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    # A byte every 50 ms never trips httpx's per-read timeout: this check hung for ever.
    with slow_server(mode) as (base, _):
        monkeypatch.setenv("GITHUB_API_URL", base)
        monkeypatch.setenv("CATALOGCTL_TIMEOUT", "0.3")
        err = refused(release, submission, output, "--github", "mlcommons/catalog", code=6)
    assert err == (
        "error [remote-mismatch]: GitHub could not confirm tag `2026-09-C0`: GitHub API gave no complete answer "
        "within 0.3 s (GET /repos/mlcommons/catalog/git/ref/tags/2026-09-C0)\n"
        "hint: retry later, or pass --offline to record that the remote was not verified; "
        "CATALOGCTL_TIMEOUT sets the deadline in seconds\n"
    )


def test_preflight_with_github_unreachable_is_a_remote_mismatch(
    release: Path, submission: Path, output: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    port = free_port()  # nothing listens there
    api = GitHubClient(f"http://127.0.0.1:{port}", None, backoff_s=0)
    monkeypatch.setattr(GitHubClient, "from_environment", classmethod(lambda cls: api))
    err = refused(release, submission, output, "--github", "mlcommons/catalog", code=6)
    assert err.startswith(
        f"error [remote-mismatch]: GitHub could not confirm tag `2026-09-C0`: GitHub API unreachable at "
        f"http://127.0.0.1:{port} after 3 attempts "
        "(GET /repos/mlcommons/catalog/git/ref/tags/2026-09-C0: ConnectError: "
    )
    assert err.endswith("hint: retry later, or pass --offline to record that the remote was not verified\n")


@pytest.mark.parametrize(
    ("url", "repository"),
    [
        ("https://github.com/mlcommons/endpoints.git", "mlcommons/endpoints"),
        ("https://github.com/mlcommons/endpoints", "mlcommons/endpoints"),
        ("git@github.com:mlcommons/endpoints.git", "mlcommons/endpoints"),
        ("ssh://git@github.com/mlcommons/endpoints.git", "mlcommons/endpoints"),
        ("https://gitlab.com/mlcommons/endpoints.git", None),
        ("/srv/git/catalog.git", None),
    ],
)
def test_github_remotes_are_recognised(url: str, repository: str | None) -> None:
    assert github_repository(url) == repository


def test_a_detached_checkout_of_the_tag_passes(release: Path, submission: Path, output: Path) -> None:
    write(release, "NOTES.md", "later work\n")
    commit_all(release, "Later work")
    git(release, "checkout", "-q", "2026-09-C0")  # what a runner does: HEAD detached at the release
    run_cli("preflight", str(submission), "-C", str(release), "-o", str(output))
    assert json.loads(output.read_text())["provenance"]["commit"] == git(release, "rev-parse", "2026-09-C0^{commit}")


def test_a_tag_moved_to_an_edited_ruleset_is_refused(release: Path, submission: Path, output: Path) -> None:
    from catalogctl.release.ruleset import ruleset_digest

    added = git(release, "rev-parse", "HEAD")
    replace_in(release, "rulesets/2026-09-C0.yaml", "model_seed: 42", "model_seed: 7")
    moved = commit_all(release, "Tweak the seeds")
    digest = ruleset_digest((release / "rulesets/2026-09-C0.yaml").read_bytes())
    git(release, "tag", "-f", "-a", "2026-09-C0", "-m", f"re-tagged\n\nruleset-digest: {digest}", "HEAD")
    err = refused(release, submission, output, "--offline", code=5)
    assert err == (
        f"error [tag-invalid]: tag `2026-09-C0` points at {moved[:12]}, but rulesets/2026-09-C0.yaml was added by "
        f"{added[:12]}: the tag moved\n"
        "hint: a release tag never moves: ask the maintainers which commit is the release\n"
    )
    with pytest.raises(CheckFailed, match="the tag moved"):
        resolve(release, submission)


def test_resolve_a_poisson_submission(release: Path, tmp_path: Path) -> None:
    # Was `settings.load_pattern.type: should be 'concurrency' (got 'poisson')`.
    poisson = SUBMISSION.replace("{type: concurrency, target_concurrency: 512}", "{type: poisson, target_qps: 170}")
    out = tmp_path / "resolved.json"
    run_cli("resolve", write(tmp_path, "poisson.yaml", poisson), "-C", str(release), "-o", str(out))
    assert json.loads(out.read_text())["settings"] == {"load_pattern": {"type": "poisson", "target_qps": 170.0}}
