"""What a release is (`release.statement`), as every release verb sees it: a tag that names a
commit, on the default branch, in a history the clone has in full."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from catalogctl.release.freeze import FreezeRequest, freeze
from tests.helpers import git, run_cli, write
from tests.release_repo import SEEDS_A, make_freezable

NOW = dt.datetime(2026, 8, 28, 12, 0, tzinfo=dt.UTC)
SUBMISSION = """\
type: submission
submission_ref: {cohort: 2026-09-C0, seed_set_id: A, benchmark: gsm8k}
endpoint_config:
  endpoints: ["http://127.0.0.1:8000/v1"]
  api_type: openai_completions
settings:
  load_pattern: {type: concurrency, target_concurrency: 512}
submitter: {organization: Example Labs}
"""


@pytest.fixture
def origin(tmp_path: Path) -> Path:
    """A bare remote, the protected repository."""
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    return bare


@pytest.fixture
def release(catalog_repo: Path, origin: Path, tmp_path: Path) -> Path:
    """Cohort 2026-09-C0 (gsm8k and deepseek-r1, seed set A) frozen on main, pushed to `origin`."""
    repo = make_freezable(catalog_repo)
    git(repo, "remote", "add", "origin", str(origin))
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A)
    freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k", "deepseek-r1"], seeds_file=seeds, now=NOW, push="origin"))
    return repo


@pytest.fixture
def submission(tmp_path: Path) -> Path:
    return write(tmp_path, "submission.yaml", SUBMISSION)


# -- a release tag names a commit ----------------------------------------------------------------


def _verbs(submission: Path, tmp_path: Path) -> list[list[str]]:
    seeds = write(tmp_path, "seeds-again.yaml", SEEDS_A)
    return [
        ["cohorts"],
        ["verify", "2026-09-C0"],
        ["resolve", str(submission)],
        ["preflight", str(submission), "--offline"],
        ["freeze", "2026-09-C0", "--add", "gsm8k", "--add", "deepseek-r1", "--seeds", str(seeds)],
        ["diff", "2026-09-C0"],
    ]


@pytest.mark.parametrize(
    ("tag_args", "kind", "target"),
    [
        (["-f"], "tree", "HEAD^{tree}"),
        (["-f", "-a", "-m", "a tree"], "tree", "HEAD^{tree}"),
        (["-f"], "blob", "HEAD:CHANGELOG.md"),
    ],
)
def test_a_tag_on_a_tree_or_a_blob_is_a_message_in_every_verb(
    release: Path, submission: Path, tmp_path: Path, tag_args: list[str], kind: str, target: str
) -> None:
    named = git(release, "rev-parse", target)
    git(release, "tag", *tag_args, "2026-09-C0", named)
    before = git(release, "status", "--porcelain"), git(release, "rev-parse", "HEAD")
    for verb in _verbs(submission, tmp_path):
        result = run_cli(*verb, "-C", str(release), code=5)
        assert result.stderr == (
            f"error [tag-invalid]: tag `2026-09-C0` names a {kind} ({named[:12]}), not a commit\n"
            "hint: a release tag names the commit that added its ruleset: "
            "ask the maintainers which commit is the release\n"
        ), verb
    assert (git(release, "status", "--porcelain"), git(release, "rev-parse", "HEAD")) == before
