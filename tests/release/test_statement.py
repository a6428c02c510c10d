"""What a release is (`release.statement`), as every release verb sees it: a tag that names a
commit, on the default branch, in a history the clone has in full."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalogctl.release.freeze import FreezeRequest, freeze
from tests.helpers import git, run_cli, write
from tests.prebuilt import Prebuilt
from tests.release_repo import NOW, SEEDS_A, SUBMISSION, bare_origin


@pytest.fixture
def origin(tmp_path: Path) -> Path:
    """A bare remote, the protected repository."""
    return bare_origin(tmp_path)


@pytest.fixture
def release(catalog_repo: Path, origin: Path, prebuilt: Prebuilt, tmp_path: Path) -> Path:
    """Cohort 2026-09-C0 (gsm8k and deepseek-r1, seed set A) frozen on main, pushed to `origin`."""
    return prebuilt.install("release", tmp_path)


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


# -- a release commit is on the default branch ----------------------------------------------------


def _sibling_release(origin: Path, tmp_path: Path) -> str:
    """Force-push tag 2026-09-C0 to a sibling of the release commit that re-adds an edited
    ruleset, as a freeze would write it (annotated, at the commit that adds it, its digest)."""
    attacker = tmp_path / "attacker"
    git(tmp_path, "clone", "-q", str(origin), str(attacker))
    git(attacker, "checkout", "-q", "-b", "longer", "2026-09-C0~1")
    path = attacker / "benchmark_suite/benchmarks/gsm8k.yaml"
    path.write_text(path.read_text().replace("max_new_tokens: 256", "max_new_tokens: 4096"))
    git(attacker, "commit", "-qam", "Longer answers")
    git(attacker, "tag", "-d", "2026-09-C0")
    seeds = write(tmp_path, "seeds-attacker.yaml", SEEDS_A)
    freeze(attacker, FreezeRequest("2026-09-C0", add=["gsm8k", "deepseek-r1"], seeds_file=seeds, now=NOW))
    git(attacker, "push", "-q", "-f", "origin", "refs/tags/2026-09-C0")
    return git(attacker, "rev-parse", "2026-09-C0^{commit}")


def _runner(origin: Path, tmp_path: Path) -> Path:
    """A fresh runner's clone, at the tag."""
    runner = tmp_path / "runner"
    git(tmp_path, "clone", "-q", str(origin), str(runner))
    git(runner, "checkout", "-q", "2026-09-C0")
    return runner


def test_a_tag_on_a_sibling_of_the_protected_branch_is_no_release(
    release: Path, origin: Path, submission: Path, tmp_path: Path
) -> None:
    sibling = _sibling_release(origin, tmp_path)
    runner = _runner(origin, tmp_path)
    main = git(runner, "rev-parse", "main")
    off = (
        f"tag `2026-09-C0` points at {sibling[:12]}, which is not on the default branch "
        f"(`main` at {main[:12]}, `origin/main` at {main[:12]})"
    )
    hint = (
        "hint: a release is a commit of the protected branch: do not run it; ask the maintainers which commit is it\n"
    )
    output = tmp_path / "resolved.json"
    for verb in (["preflight", str(submission), "-o", str(output)], ["resolve", str(submission), "-o", str(output)]):
        result = run_cli(*verb, "-C", str(runner), code=9)
        assert result.stderr == f"error [release-unreachable]: {off}\n{hint}"
        assert not output.exists()
    cohorts = run_cli("cohorts", "-C", str(runner), code=1)
    assert cohorts.stdout.splitlines()[1].split() == ["2026-09-C0", "2026-09-02", "2", "A", "moved", "unsigned"]
    verify = run_cli("verify", "2026-09-C0", "-C", str(runner), code=1)
    assert f"FAIL  {off}" in verify.stdout.splitlines()
    assert verify.stdout.splitlines()[-1].startswith("2026-09-C0: NOT verified: 1 problem")


def test_preflight_finds_the_release_on_the_remotes_default_branch(
    release: Path, origin: Path, submission: Path, tmp_path: Path
) -> None:
    sibling = _sibling_release(origin, tmp_path)
    runner = _runner(origin, tmp_path)
    main = git(runner, "rev-parse", "main")
    # This clone's branches were moved to the sibling: only the remote still tells the truth.
    git(runner, "update-ref", "refs/heads/main", sibling)
    git(runner, "update-ref", "refs/remotes/origin/main", sibling)
    result = run_cli("preflight", str(submission), "-C", str(runner), code=9)
    assert result.stderr == (
        f"error [release-unreachable]: the release commit {sibling[:12]} is not on the remote `origin`'s "
        f"default branch `main` (at {main[:12]})\n"
        "hint: a release is a commit of the protected branch: do not run it; ask the maintainers which commit is it\n"
    )
    run_cli("preflight", str(submission), "-C", str(runner), "--offline")  # the local view alone cannot tell


def test_preflight_refuses_a_remote_branch_it_has_not_fetched(
    release: Path, origin: Path, submission: Path, tmp_path: Path
) -> None:
    runner = _runner(origin, tmp_path)
    (release / "NOTES.md").write_text("later\n")
    git(release, "add", "NOTES.md")
    git(release, "commit", "-qm", "Later")
    git(release, "push", "-q", "origin", "main")
    later = git(release, "rev-parse", "HEAD")
    result = run_cli("preflight", str(submission), "-C", str(runner), code=2)
    assert result.stderr == (
        f"error: the remote `origin`'s `main` is at {later[:12]}, which this clone has not fetched\n"
        "hint: fetch it: git fetch origin main\n"
    )
    git(runner, "fetch", "-q", "origin")
    run_cli("preflight", str(submission), "-C", str(runner))


def test_the_remotes_head_names_its_default_branch(release: Path, origin: Path, submission: Path) -> None:
    git(release, "push", "-q", "origin", "main:protected")
    git(origin, "symbolic-ref", "HEAD", "refs/heads/protected")
    git(release, "push", "-q", "-f", "origin", "main~1:main")  # main no longer holds the release
    run_cli("preflight", str(submission), "-C", str(release))
    git(origin, "symbolic-ref", "HEAD", "refs/heads/main")
    result = run_cli("preflight", str(submission), "-C", str(release), code=9)
    assert "is not on the remote `origin`'s default branch `main`" in result.stderr


# -- a verdict only on history the clone has --------------------------------------------------------

SHALLOW = (
    "error: this clone is shallow: its history is cut off, so the commit that added rulesets/2026-09-C0.yaml "
    "cannot be found\n"
    "hint: fetch the full history: git fetch --unshallow --tags origin (in GitHub Actions: fetch-depth: 0)\n"
)


@pytest.fixture
def later(release: Path) -> Path:
    """A commit on main after the release (gsm8k answers longer), pushed: the tag is one commit back."""
    path = release / "benchmark_suite/benchmarks/gsm8k.yaml"
    path.write_text(path.read_text().replace("max_new_tokens: 256", "max_new_tokens: 4096"))
    git(release, "commit", "-qam", "Longer answers")
    git(release, "push", "-q", "origin", "main")
    return release


def test_a_shallow_clone_gives_no_verdict_on_history_it_lacks(
    later: Path, origin: Path, submission: Path, tmp_path: Path
) -> None:
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{origin}", str(shallow))
    assert git(shallow, "tag", "--list") == ""  # the tag's commit is not in the one commit fetched
    for verb in (
        ["diff", "2026-09-C0"],
        ["ci", "--base", "2026-09-C0"],
        ["cohorts"],
        ["verify", "2026-09-C0"],
        ["resolve", str(submission)],
        ["preflight", str(submission), "--offline"],
    ):
        assert run_cli(*verb, "-C", str(shallow), code=2).stderr == SHALLOW, verb
    git(shallow, "fetch", "-q", "--unshallow", "--tags", "origin")
    diff = run_cli("diff", "2026-09-C0", "-C", str(shallow))
    assert "max_new_tokens" in diff.stdout
    gate = run_cli("ci", "--base", "2026-09-C0", "-C", str(shallow))  # now it sees the change
    assert "contract-change-next-freeze" in gate.stdout
    assert "(0 errors, 1 warning, 0 accepted)" in gate.stdout


def test_a_shallow_clone_of_the_tag_itself_cannot_prove_the_release(
    release: Path, origin: Path, submission: Path, tmp_path: Path
) -> None:
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "2026-09-C0", f"file://{origin}", str(shallow))
    assert run_cli("preflight", str(submission), "-C", str(shallow), code=2).stderr == SHALLOW


def test_a_clone_without_tags_says_the_tags_were_not_fetched(
    later: Path, origin: Path, submission: Path, tmp_path: Path
) -> None:
    clone = tmp_path / "notags"
    git(tmp_path, "clone", "-q", "--no-tags", str(origin), str(clone))
    message = (
        "error: the release tag `2026-09-C0` is not here: this clone does not fetch tags "
        "(remote.origin.tagopt is --no-tags)\nhint: fetch them: git fetch --tags origin\n"
    )
    for verb in (["cohorts"], ["verify", "2026-09-C0"], ["preflight", str(submission), "--offline"]):
        assert run_cli(*verb, "-C", str(clone), code=2).stderr == message, verb
    git(clone, "fetch", "-q", "--tags", "origin")
    assert run_cli("cohorts", "-C", str(clone)).stdout.splitlines()[1].split()[-2] == "matches"


def test_a_clone_without_the_default_branch_cannot_place_the_tag(release: Path, submission: Path) -> None:
    git(release, "branch", "-m", "main", "work")
    git(release, "update-ref", "-d", "refs/remotes/origin/main")
    result = run_cli("verify", "2026-09-C0", "-C", str(release), code=2)
    assert result.stderr == (
        "error: cannot tell whether tag `2026-09-C0` is on the default branch: this clone has neither `main` "
        "nor `origin/main`\nhint: fetch it: git fetch origin main\n"
    )


def test_a_sibling_release_merged_in_unseen_is_no_release(
    release: Path, origin: Path, submission: Path, tmp_path: Path
) -> None:
    # Found by trying to break it: the sibling merged with `-s ours` (main's tree unchanged, so the
    # PR gate saw nothing) put it on the default branch; preflight, cohorts and verify then took it.
    sibling = _sibling_release(origin, tmp_path)
    attacker = tmp_path / "attacker"
    git(attacker, "checkout", "-q", "main")
    git(attacker, "merge", "-q", "-s", "ours", "longer", "-m", "Merge longer (no change)")
    git(attacker, "push", "-q", "origin", "main")
    runner = _runner(origin, tmp_path)
    released = git(release, "rev-parse", "2026-09-C0^{commit}")
    twice = "rulesets/2026-09-C0.yaml was added by 2 commits on `main` ("
    output = tmp_path / "resolved.json"
    result = run_cli("preflight", str(submission), "-o", str(output), "-C", str(runner), "--offline", code=9)
    assert result.stderr.startswith(f"error [release-unreachable]: {twice}")
    assert sibling[:12] in result.stderr
    assert released[:12] in result.stderr
    assert "): a ruleset is added once, by its freeze\n" in result.stderr
    assert not output.exists()
    verify = run_cli("verify", "2026-09-C0", "-C", str(runner), code=1)
    assert any(line.startswith(f"FAIL  {twice}") for line in verify.stdout.splitlines())
    git(runner, "tag", "-d", "2026-09-C0")  # a clone without the tag, on main: the fallback must not pick one
    git(runner, "checkout", "-q", "main")
    fallback = run_cli("resolve", str(submission), "-C", str(runner), code=1)
    assert fallback.stderr.startswith("error: rulesets/2026-09-C0.yaml was added by 2 commits (")
