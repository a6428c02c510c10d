"""`cohorts` and `verify`: the state of every release tag, and one release checked in full."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from catalogctl.api import list_releases, verify_release
from catalogctl.catalog.cohorts import Cohort
from catalogctl.release.freeze import FreezeRequest, freeze
from catalogctl.release.releases import next_cohort
from tests.helpers import commit_all, git, replace_in, run_cli, write
from tests.release_repo import SEEDS_A, make_freezable

NOW = dt.datetime(2026, 8, 28, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def released(catalog_repo: Path, tmp_path: Path) -> Path:
    """Two frozen cohorts: 2026-09-C0 (gsm8k, seed set A imported) and 2026-09-C1 (+ deepseek-r1)."""
    repo = make_freezable(catalog_repo)
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A)
    freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k"], seeds_file=seeds, now=NOW))
    freeze(repo, FreezeRequest("2026-09-C1", add=["deepseek-r1"], now=NOW))
    return repo


def test_cohorts_lists_releases_and_the_next_cohort(released: Path) -> None:
    releases = list_releases(released)
    assert [(c.cohort, c.benchmarks, c.seed_sets, c.tag) for c in releases.cohorts] == [
        ("2026-09-C0", ["gsm8k"], ["A"], "matches"),
        ("2026-09-C1", ["deepseek-r1", "gsm8k"], ["A"], "matches"),
    ]
    assert releases.next.cohort == "2026-10-C0"
    result = run_cli("cohorts", "-C", str(released))
    assert result.stdout.splitlines() == [
        "COHORT      DATE        BENCHMARKS  SEED SETS  TAG      SIGNER",
        "2026-09-C0  2026-09-02  1           A          matches  unsigned",
        "2026-09-C1  2026-09-16  2           A          matches  unsigned",
        "next: 2026-10-C0 (2026-10-07)",
    ]


def test_cohorts_reports_moved_missing_and_lightweight_tags(released: Path) -> None:
    git(released, "tag", "-f", "-a", "2026-09-C0", "-m", "moved", "HEAD")  # moved
    git(released, "tag", "-d", "2026-09-C1")
    git(released, "tag", "2026-09-C1", "HEAD")  # lightweight, at the right commit
    states = [c.tag for c in list_releases(released).cohorts]
    assert states == ["moved", "present"]
    git(released, "tag", "-d", "2026-09-C1")
    assert [c.tag for c in list_releases(released).cohorts] == ["moved", "missing"]
    result = run_cli("cohorts", "-C", str(released), "--format", "json", code=1)
    data = json.loads(result.stdout)
    assert data["schema"] == "catalogctl/cohorts/v1"
    assert [c["tag"] for c in data["cohorts"]] == ["moved", "missing"]
    assert data["next"] == {"cohort": "2026-10-C0", "submission_date": "2026-10-07"}


def test_cohorts_says_on_stderr_why_it_fails_on_a_moved_or_missing_tag(released: Path) -> None:
    added = {c.cohort: c.ruleset_commit for c in list_releases(released).cohorts}
    git(released, "tag", "-f", "-a", "2026-09-C0", "-m", "moved", "HEAD")
    git(released, "tag", "-d", "2026-09-C1")
    head = git(released, "rev-parse", "HEAD")
    result = run_cli("cohorts", "-C", str(released), code=1)
    assert result.stderr.splitlines() == [
        f"error: 2026-09-C0: its release tag has moved: it points at {head[:12]}, "
        f"the commit that added its ruleset is {str(added['2026-09-C0'])[:12]}",
        f"error: 2026-09-C1: its release tag is missing (the commit that added its ruleset is "
        f"{str(added['2026-09-C1'])[:12]})",
        "hint: `catalogctl verify 2026-09-C0` checks that release step by step",
        "hint: `catalogctl verify 2026-09-C1` checks that release step by step",
    ]


def test_next_cohort_without_any_release() -> None:
    assert next_cohort([], dt.date(2026, 11, 30)) == Cohort.parse("2026-12-C0")
    assert next_cohort([], dt.date(2026, 12, 2)).id == "2026-12-C0"  # the submission day itself
    assert next_cohort([], dt.date(2026, 12, 3)).id == "2026-12-C1"
    assert next_cohort([], dt.date(2026, 12, 17)).id == "2027-01-C0"


def test_verify_a_good_release(released: Path) -> None:
    result = verify_release(released, "2026-09-C0")
    assert result.ok
    assert result.passed[-1] == "gsm8k: contract digest matches"
    cli = run_cli("verify", "2026-09-C1", "-C", str(released))
    assert cli.stdout.splitlines()[-1].startswith("2026-09-C1: verified (contracts at 2026-09-C1 (")


def test_verify_reports_a_moved_tag_naming_both_commits(released: Path) -> None:
    added = git(released, "rev-parse", "2026-09-C0^{commit}")
    git(released, "tag", "-f", "-a", "2026-09-C0", "-m", "moved\n\nruleset-digest: sha256:x", "HEAD")
    head = git(released, "rev-parse", "HEAD")
    result = verify_release(released, "2026-09-C0")
    assert not result.ok
    assert result.problems[0] == (
        f"tag `2026-09-C0` points at {head[:12]}, but rulesets/2026-09-C0.yaml was added by {added[:12]}: the tag moved"
    )
    cli = run_cli("verify", "2026-09-C0", "-C", str(released), code=1)
    assert "FAIL  tag `2026-09-C0` points at" in cli.stdout


def test_verify_reports_contract_drift_against_a_ref(released: Path) -> None:
    replace_in(released, "benchmark_suite/benchmarks/gsm8k.yaml", "max_new_tokens: 256", "max_new_tokens: 300")
    commit_all(released, "Longer answers")
    assert verify_release(released, "2026-09-C1").ok  # the tag's own contracts still match
    result = verify_release(released, "2026-09-C1", ref="HEAD")
    assert not result.ok
    assert [p.split(":")[0] for p in result.problems] == ["gsm8k"]
    assert "the ruleset says sha256:" in result.problems[0]


def test_verify_a_lightweight_or_missing_tag(released: Path) -> None:
    git(released, "tag", "-d", "2026-09-C1")
    assert verify_release(released, "2026-09-C1").problems == ["the release tag `2026-09-C1` is missing"]
    git(released, "tag", "2026-09-C1", "HEAD")
    problems = verify_release(released, "2026-09-C1").problems
    assert problems == ["tag `2026-09-C1` is lightweight: a release tag is annotated"]


def test_verify_a_tag_whose_digest_does_not_match(released: Path) -> None:
    git(released, "tag", "-f", "-a", "2026-09-C1", "-m", "re-tagged\n\nruleset-digest: sha256:0000", "HEAD")
    problems = verify_release(released, "2026-09-C1").problems
    assert len(problems) == 1
    assert problems[0].startswith("tag `2026-09-C1` carries ruleset digest sha256:0000, but the ruleset's is sha256:")


def test_verify_a_bad_cohort_id_exits_2(released: Path) -> None:
    cli = run_cli("verify", "2026-13-C0", "-C", str(released), code=2)
    assert cli.stderr == "error: `2026-13-C0` is not a cohort id: write YYYY-MM-C0 or YYYY-MM-C1\n"


def test_verify_a_cohort_nobody_froze_is_no_such_cohort(released: Path) -> None:
    cli = run_cli("verify", "2027-01-C0", "-C", str(released), code=2)
    assert cli.stdout == ""  # was "FAIL tag `2027-01-C0` is missing", exit 1
    assert cli.stderr == (
        "error: no such cohort `2027-01-C0`: no release tag and no rulesets/2027-01-C0.yaml\n"
        "hint: list the frozen cohorts with `catalogctl cohorts`\n"
    )


def test_verify_a_cohort_known_by_its_tag_alone(released: Path) -> None:
    git(released, "tag", "-a", "2027-01-C0", "-m", "a tag, but no ruleset anywhere", "HEAD")
    assert verify_release(released, "2027-01-C0").problems == [
        f"tag `2027-01-C0` points at {git(released, 'rev-parse', 'HEAD')[:12]}, which has no rulesets/2027-01-C0.yaml"
    ]


def test_verify_a_tag_whose_ruleset_is_not_yaml(released: Path) -> None:
    # Was a YamlProblem traceback (old: catalogctl/freeze.py ruleset_digest -> yamlio.parse_document).
    write(released, "rulesets/2026-09-C0.yaml", "cohort: [unclosed\n")
    commit_all(released, "Break the ruleset")
    git(released, "tag", "-f", "-a", "2026-09-C0", "-m", "moved", "HEAD")
    head = git(released, "rev-parse", "HEAD")
    added = git(released, "rev-list", "-1", "HEAD~1", "--", "rulesets/2026-09-C0.yaml")
    cli = run_cli("verify", "2026-09-C0", "-C", str(released), code=1)
    assert cli.stderr == ""
    assert cli.stdout.splitlines() == [
        "ok    the tag is annotated",
        "ok    the tag's commit is on the default branch `main`",
        f"FAIL  tag `2026-09-C0` points at {head[:12]}, but rulesets/2026-09-C0.yaml was added by {added[:12]}: "
        "the tag moved",
        "FAIL  rulesets/2026-09-C0.yaml is not valid YAML at the tag: did not find expected ',' or ']'",
        "2026-09-C0: NOT verified: 2 problems",
    ]


def test_verify_a_tag_moved_to_a_commit_that_deleted_the_ruleset(released: Path) -> None:
    # Was a KeyError traceback from gitrepo.read_blob.
    git(released, "rm", "-q", "rulesets/2026-09-C1.yaml")
    commit_all(released, "Delete the ruleset")
    git(released, "tag", "-f", "-a", "2026-09-C1", "-m", "moved", "HEAD")
    head = git(released, "rev-parse", "HEAD")
    added = git(released, "rev-parse", "HEAD~1")
    cli = run_cli("verify", "2026-09-C1", "-C", str(released), code=1)
    assert cli.stderr == ""
    assert cli.stdout.splitlines()[-1] == "2026-09-C1: NOT verified: 2 problems"
    assert verify_release(released, "2026-09-C1").problems == [
        f"tag `2026-09-C1` points at {head[:12]}, but rulesets/2026-09-C1.yaml was added by {added[:12]}: "
        "the tag moved",
        f"rulesets/2026-09-C1.yaml was deleted at the tag's commit {head[:12]}",
    ]


def test_freeze_command_end_to_end(catalog_repo: Path, tmp_path: Path) -> None:
    repo = make_freezable(catalog_repo)
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A)
    dry = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--seeds", str(seeds), "--dry-run", "-C", str(repo))
    assert "dry run: nothing written. rulesets/2026-09-C0.yaml would be:" in dry.stdout
    assert git(repo, "tag", "--list") == ""
    done = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--seeds", str(seeds), "-C", str(repo))
    assert done.stdout.splitlines()[-1].startswith("froze 2026-09-C0: committed rulesets/2026-09-C0.yaml")
    again = run_cli("freeze", "2026-09-C0", "-C", str(repo))
    assert again.stdout.startswith("note: 2026-09-C0 is already frozen at ")
    pending = run_cli("freeze", "2026-09-C1", "--add", "gpt-oss-120b", "-C", str(repo), code=1)
    assert pending.stderr.startswith("error: pending values block freezing gpt-oss-120b")
    assert "  benchmark_suite/datasets/aime25.yaml:7:8: error pending-value: dataset `aime25`" in pending.stderr
    write(repo, "scratch.txt", "x")
    dirty = run_cli("freeze", "2026-09-C1", "-C", str(repo), code=2)
    assert dirty.stderr == (
        "error: the working tree has uncommitted changes: scratch.txt\nhint: commit or stash them first\n"
    )
