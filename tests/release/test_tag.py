"""`tag` as a verb of its own: a request of only what tagging a merged release takes, called as a
library (the CLI's `catalogctl tag` is tested with the release branch in `test_tagging.py`)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from catalogctl.errors import UsageError
from catalogctl.release.tag import TagRequest, tag
from tests.helpers import git, run_cli
from tests.release_repo import NOW

COHORT = "2026-09-C1"
RULESET = f"rulesets/{COHORT}.yaml"


def test_a_tag_request_holds_only_what_tagging_takes() -> None:
    fields = {f.name for f in dataclasses.fields(TagRequest)}
    assert fields == {
        "cohort",
        "push",
        "message",
        "dry_run",
        "sign",
        "signing_key",
        "signing_format",
        "signature",
        "now",
    }


def test_tag_tags_the_commit_that_added_the_ruleset(repo: Path) -> None:
    run_cli("freeze", COHORT, "--no-tag", "-C", str(repo))
    frozen = git(repo, "rev-parse", "HEAD")
    result = tag(repo, TagRequest(COHORT, message="second round", now=NOW))
    assert (result.state, result.commit, result.tagged, result.pushed) == ("tagged", frozen, True, False)
    assert result.notes[0] == f"{RULESET} was added by {frozen[:12]} on `main`: tagging that commit"
    assert git(repo, "rev-parse", f"{COHORT}^{{commit}}") == frozen
    assert git(repo, "cat-file", "tag", COHORT).split("\n\n", 1)[1].startswith("second round\n\n")


def test_tag_with_nothing_frozen_is_a_usage_error_and_writes_nothing(repo: Path) -> None:
    head = git(repo, "rev-parse", "HEAD")
    with pytest.raises(UsageError, match=f"added {RULESET}: nothing to tag"):
        tag(repo, TagRequest(COHORT))
    assert git(repo, "rev-parse", "HEAD") == head
    assert git(repo, "tag", "--list", COHORT) == ""
