"""Which catalog files differ between two trees."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalogctl.catalog.layout import DEFAULT
from catalogctl.catalog.source import changed_files, open_tree
from tests.helpers import commit_all, git, replace_in, run_cli, write
from tests.prebuilt import Prebuilt


def test_changed_files_between_a_tag_and_the_working_tree(catalog_repo: Path) -> None:
    tagged = open_tree(catalog_repo, "v1")
    assert changed_files(tagged, open_tree(catalog_repo), DEFAULT) == set()
    replace_in(catalog_repo, "benchmark_suite/datasets/aime25.yaml", "samples: 30", "samples: 31")
    replace_in(catalog_repo, "benchmark_suite/metrics.yaml", "metrics:", "# a comment\nmetrics:")
    (catalog_repo / "benchmark_suite/models/llama3-1-8b.yaml").unlink()
    write(catalog_repo, "rulesets/2026-09-C0.yaml", "cohort: 2026-09-C0\n")
    write(catalog_repo, "benchmark_suite/datasets/NOTES.md", "not a catalog file\n")
    write(catalog_repo, "README.md", "outside the catalog's folders\n")
    assert changed_files(tagged, open_tree(catalog_repo), DEFAULT) == {
        "benchmark_suite/datasets/aime25.yaml",
        "benchmark_suite/metrics.yaml",  # a comment is a change of the file
        "benchmark_suite/models/llama3-1-8b.yaml",  # removed
        "rulesets/2026-09-C0.yaml",  # added
        "benchmark_suite/datasets/NOTES.md",  # a file the catalog does not read, still in its folders
    }


# -- clones as CI makes them (actions/checkout: depth 1, no tags, maybe one branch) -------------

SHALLOW = (
    "error: this clone is shallow: its history is cut off, so the commit that added rulesets/{cohort}.yaml cannot "
    "be found\nhint: fetch the full history: git fetch --unshallow --tags origin (in GitHub Actions: fetch-depth: 0)\n"
)


@pytest.fixture
def origin(catalog_repo: Path, prebuilt: Prebuilt, tmp_path: Path) -> Path:
    """A bare origin holding release 2026-09-C0 and a contract change after it, on main and on a
    pull request's branch."""
    repo = prebuilt.install("release", tmp_path)
    bare = tmp_path / "origin.git"
    write(repo, "NOTES.md", "main moved past the release\n")  # so that a clone of depth 1 lacks its tag
    commit_all(repo, "Notes")
    git(repo, "push", "-q", "origin", "main")
    git(repo, "switch", "-q", "-c", "pr")
    replace_in(repo, "benchmark_suite/benchmarks/gsm8k.yaml", "max_new_tokens: 256", "max_new_tokens: 512")
    commit_all(repo, "gsm8k: longer answers")
    git(repo, "push", "-q", "origin", "pr")
    return bare


def test_every_verb_that_needs_history_says_what_to_fetch(origin: Path, tmp_path: Path) -> None:
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{origin}", str(shallow))
    here = ["-C", str(shallow)]
    for verb, cohort in (
        (["freeze", "2026-09-C1", "--dry-run", *here], "2026-09-C1"),
        (["tag", "2026-09-C0", *here], "2026-09-C0"),
        (["validate", str(shallow), "--ref", "2026-09-C0"], "2026-09-C0"),
        (["ls", "--ref", "2026-09-C0", *here], "2026-09-C0"),
        (["diff", "2026-09-C0", "HEAD", *here], "2026-09-C0"),
        (["export", "mlperf", "2026-09-C0", "-o", str(tmp_path / "out"), *here], "2026-09-C0"),
    ):
        assert run_cli(*verb, code=2).stderr == SHALLOW.format(cohort=cohort), verb
    done = run_cli("diff", "HEAD~1", "-C", str(shallow), code=2)
    assert done.stderr == (
        "error: unknown ref `HEAD~1`\nhint: this is a shallow clone, which may lack it: fetch the full history: "
        "git fetch --unshallow --tags origin (in GitHub Actions: actions/checkout with fetch-depth: 0)\n"
    )


def test_a_pull_request_clone_of_one_branch_is_told_how_to_fetch_the_base(origin: Path, tmp_path: Path) -> None:
    clone = tmp_path / "pr"
    git(tmp_path, "clone", "-q", "--depth", "1", "--single-branch", "--branch", "pr", f"file://{origin}", str(clone))
    done = run_cli("ci", "--base", "origin/main", "-C", str(clone), code=2)
    fetch = "git fetch --unshallow --tags origin +refs/heads/main:refs/remotes/origin/main"
    assert done.stderr == (
        "error: unknown ref `origin/main`\nhint: this is a shallow clone, which may lack it: fetch the full history: "
        f"{fetch} (in GitHub Actions: actions/checkout with fetch-depth: 0)\n"
    )
    git(clone, *fetch.split()[1:])  # exactly the command the hint gives
    gate = run_cli("ci", "--base", "origin/main", "-C", str(clone))
    assert "(0 errors, 1 warning, 0 accepted)" in gate.stdout  # the change of a released contract


def test_an_unknown_remote_branch_in_a_full_clone_names_its_refspec(origin: Path, tmp_path: Path) -> None:
    clone = tmp_path / "one-branch"
    git(tmp_path, "clone", "-q", "--single-branch", "--branch", "pr", f"file://{origin}", str(clone))
    done = run_cli("diff", "origin/main", "-C", str(clone), code=2)
    assert done.stderr == (
        "error: unknown ref `origin/main`\n"
        "hint: fetch it first: git fetch origin +refs/heads/main:refs/remotes/origin/main\n"
    )
    assert run_cli("diff", "no-such-ref", "-C", str(clone), code=2).stderr == (
        "error: unknown ref `no-such-ref`\nhint: fetch it first: git fetch --tags origin\n"
    )


def test_a_cohort_nobody_froze_is_no_such_cohort_in_a_clone_with_every_tag(origin: Path, tmp_path: Path) -> None:
    # `diff` said "fetch it first: git fetch --tags origin" where verify and resolve say "no such cohort".
    clone = tmp_path / "full"
    git(tmp_path, "clone", "-q", f"file://{origin}", str(clone))
    unknown = (
        "error: no such cohort `2026-11-C0`: no release tag and no rulesets/2026-11-C0.yaml\n"
        "hint: list the frozen cohorts with `catalogctl cohorts`\n"
    )
    for verb in (["diff", "2026-11-C0"], ["verify", "2026-11-C0"], ["validate", "--ref", "2026-11-C0"]):
        assert run_cli(*verb, "-C", str(clone), code=2).stderr == unknown, verb
    tagless = tmp_path / "tagless"  # it may lack the tag: the fetch hint stays
    git(tmp_path, "clone", "-q", "--no-tags", f"file://{origin}", str(tagless))
    assert run_cli("diff", "2026-11-C0", "-C", str(tagless), code=2).stderr == (
        "error: unknown ref `2026-11-C0`\nhint: fetch it first: git fetch --tags origin\n"
    )
