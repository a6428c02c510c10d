"""What `--push` may push (issue 27, item 7): `tag` pushes a tag, never a branch, and refuses
before writing anything when the remote's default branch lacks the commit; `--dry-run --push`
names the refspecs; `freeze --push` from a clone behind its remote's branch writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import git, run_cli
from tests.release.test_tagging import BRANCH, COHORT, RULESET, back_on_main, freeze_on_release_branch, merge_on_remote
from tests.release_repo import bare_origin, git_daemon, make_freezable, tags

# A protected `main` as a forge enforces it: the server refuses any update of the branch.
PROTECT_MAIN_HOOK = """#!/bin/sh
while read old new ref; do
  if [ "$ref" = refs/heads/main ]; then echo "main is protected: open a pull request" >&2; exit 1; fi
done
exit 0
"""


def everything(root: Path, bare: Path) -> tuple[str, ...]:
    """HEAD, every ref, the status (ignored files too) and the index of `root`; the refs of `bare`."""
    return (
        git(root, "rev-parse", "HEAD"),
        git(root, "for-each-ref", "--format=%(refname) %(objectname)"),
        git(root, "status", "--porcelain", "--ignored"),
        git(root, "ls-files", "--stage"),
        git(bare, "for-each-ref", "--format=%(refname) %(objectname)"),
    )


def merge_locally(root: Path) -> str:
    """The release branch merged into main in this clone only (never pushed): returns the merge."""
    git(root, "switch", "-q", "main")
    git(root, "merge", "-q", "--no-ff", BRANCH, "-m", "Merge the release, locally")
    return git(root, "rev-parse", "HEAD")


def refusal(remote: str, there: str, frozen: str) -> str:
    return (
        f"error: `{remote}` has main at {there[:12]}, which lacks {frozen[:12]} (the commit that added "
        f"{RULESET}): `tag` pushes the tag, never a branch; nothing was tagged\n"
        f"hint: merge `{BRANCH}` into main on `{remote}` (its pull request) first, or, if main takes direct pushes, "
        f"push it yourself (git push {remote} main); then: git pull && catalogctl tag {COHORT} --push {remote}\n"
    )


def test_tag_after_a_local_only_merge_pushes_no_branch_and_writes_nothing(repo: Path, origin: Path) -> None:
    frozen = freeze_on_release_branch(repo)
    merge_locally(repo)
    there = git(origin, "rev-parse", "main")
    before = everything(repo, origin)
    # the preview refuses as the run would; `freeze` run again on main tags the merged ruleset as `tag` does
    for verb, extra in (("tag", []), ("tag", ["--dry-run"]), ("freeze", [])):
        done = run_cli(verb, COHORT, "--push", "origin", *extra, "-C", str(repo), code=2)
        assert done.stderr == refusal("origin", there, frozen)
        assert everything(repo, origin) == before
    assert git(origin, "rev-parse", "main") == there  # the remote's main did not move to the freeze commit
    assert tags(repo) == ["2026-09-C0"]


def test_a_release_branch_never_pushed_is_named_as_the_one_to_push(repo: Path, origin: Path) -> None:
    git(repo, "switch", "-q", "-c", BRANCH)
    run_cli("freeze", COHORT, "--no-tag", "-C", str(repo))  # committed, never pushed
    frozen = git(repo, "rev-parse", "HEAD")
    merge_locally(repo)
    there = git(origin, "rev-parse", "main")
    done = run_cli("tag", COHORT, "--push", "origin", "-C", str(repo), code=2)
    assert done.stderr.endswith(
        f"which lacks {frozen[:12]} (the commit that added {RULESET}): `tag` pushes the tag, never a "
        "branch; nothing was tagged\n"
        f"hint: push it on a release branch (git push origin {frozen[:12]}:refs/heads/{BRANCH}) and merge its pull "
        "request into main first, or, if main takes direct pushes, push it yourself (git push origin main); then: "
        f"git pull && catalogctl tag {COHORT} --push origin\n"
    )
    assert git(origin, "rev-parse", "main") == there
    assert tags(repo) == ["2026-09-C0"]


def test_tag_against_a_protected_branch_leaves_no_local_tag(repo: Path, origin: Path, tmp_path: Path) -> None:
    frozen = freeze_on_release_branch(repo)  # pushed before the branch was protected
    hook = origin / "hooks/pre-receive"
    hook.write_text(PROTECT_MAIN_HOOK)
    hook.chmod(0o755)
    merge_locally(repo)
    there = git(origin, "rev-parse", "main")
    for url in git_daemon(tmp_path):
        before = everything(repo, origin)
        done = run_cli("tag", COHORT, "--push", f"{url}/{origin.name}", "-C", str(repo), code=2)
        assert done.stderr == refusal(f"{url}/{origin.name}", there, frozen)
        assert everything(repo, origin) == before
    assert tags(repo) == ["2026-09-C0"]  # no tag left behind to delete


def test_tag_dry_run_push_names_exactly_the_refspecs_the_run_pushes(repo: Path, origin: Path, tmp_path: Path) -> None:
    frozen = freeze_on_release_branch(repo)
    merge = merge_on_remote(origin, tmp_path, squash=False)
    back_on_main(repo)
    before = everything(repo, origin)
    preview = run_cli("tag", COHORT, "--dry-run", "--push", "origin", "-C", str(repo))
    assert preview.stdout == (
        f"note: {RULESET} was added by {frozen[:12]} on `main`: tagging that commit\n"
        f"dry run: nothing written. {COHORT} would be tagged at {frozen[:12]}\n"
        f"it would push to `origin`: refs/tags/{COHORT}:refs/tags/{COHORT}\n"
        "the tag would not be signed (no --sign)\n"
    )
    assert everything(repo, origin) == before
    remote_before = set(git(origin, "for-each-ref", "--format=%(refname) %(objectname)").splitlines())
    run_cli("tag", COHORT, "--push", "origin", "-C", str(repo))
    remote_after = set(git(origin, "for-each-ref", "--format=%(refname) %(objectname)").splitlines())
    assert [line.split()[0] for line in remote_after - remote_before] == [f"refs/tags/{COHORT}"]
    assert git(origin, "rev-parse", "main") == merge


def test_freeze_push_from_a_clone_behind_its_remote_writes_nothing(catalog_repo: Path, tmp_path: Path) -> None:
    root = make_freezable(catalog_repo)
    remote = bare_origin(tmp_path)
    git(root, "remote", "add", "origin", str(remote))
    git(root, "push", "-q", "-u", "origin", "main")
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(remote), str(other))
    git(other, "commit", "-q", "--allow-empty", "-m", "Later, elsewhere")
    git(other, "push", "-q", "origin", "main")
    git(root, "fetch", "-q", "origin")  # a plain fetch: this clone knows it is behind
    theirs, ours = git(remote, "rev-parse", "main"), git(root, "rev-parse", "HEAD")
    before = everything(root, remote)
    for extra in ([], ["--no-tag"]):
        done = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--push", "origin", *extra, "-C", str(root), code=1)
        assert done.stderr == (
            f"error: `origin` has main at {theirs[:12]}, which {ours[:12]} does not contain: the push would be "
            "refused; nothing was written\n"
            "hint: bring main up to date (git pull --rebase origin main), then rerun freeze\n"
        )
        assert everything(root, remote) == before
        assert not (root / "CHANGELOG.md").exists()
        assert not (root / "rulesets").exists()


def test_a_remote_branch_this_clone_has_not_fetched_says_to_pull_first(
    repo: Path, origin: Path, tmp_path: Path
) -> None:
    frozen = freeze_on_release_branch(repo)
    merge_locally(repo)
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(origin), str(other))
    git(other, "commit", "-q", "--allow-empty", "-m", "Later, elsewhere")
    git(other, "push", "-q", "origin", "main")
    there = git(origin, "rev-parse", "main")
    done = run_cli("tag", COHORT, "--push", "origin", "-C", str(repo), code=2)
    assert done.stderr == (
        f"error: `origin` has main at {there[:12]}, which this clone has not fetched: it may or may not contain "
        f"{frozen[:12]} (the commit that added {RULESET}); `tag` pushes the tag, never a branch; nothing was tagged\n"
        f"hint: fetch it first (git pull origin main), then rerun: catalogctl tag {COHORT} --push origin\n"
    )
    assert tags(repo) == ["2026-09-C0"]


def test_the_refs_checked_are_those_of_the_pushurl_the_push_goes_to(repo: Path, origin: Path, tmp_path: Path) -> None:
    # libgit2 lists a named remote's refs at its url but pushes to its pushurl: the check must read
    # the repository the tag goes to, whose main here lacks the release.
    freeze_on_release_branch(repo)
    merge_on_remote(origin, tmp_path, squash=False)
    back_on_main(repo)
    mirror = tmp_path / "served" / "push.git"
    git(tmp_path, "clone", "-q", "--bare", str(origin), str(mirror))
    git(mirror, "update-ref", "refs/heads/main", "main~1")  # before the merge
    git((tmp_path / "served"), "clone", "-q", "--bare", str(origin), "fetch.git")
    for url in git_daemon(tmp_path / "served"):
        git(repo, "remote", "set-url", "origin", f"{url}/fetch.git")
        git(repo, "config", "remote.origin.pushurl", f"{url}/push.git")
        before = everything(repo, mirror)
        done = run_cli("tag", COHORT, "--push", "origin", "-C", str(repo), code=2)
        assert "`tag` pushes the tag, never a branch; nothing was tagged" in done.stderr
        assert everything(repo, mirror) == before
    assert tags(repo) == ["2026-09-C0"]


def test_a_tag_on_the_remote_that_this_clone_lacks_is_never_reported_as_ours(
    repo: Path, origin: Path, tmp_path: Path
) -> None:
    # Someone pushed a lightweight tag at the release commit: not a release. `tag` made its own
    # annotated tag here and said "the remote already had them", leaving two different tags.
    frozen = freeze_on_release_branch(repo)
    merge_on_remote(origin, tmp_path, squash=False)
    back_on_main(repo)
    git(origin, "tag", COHORT, frozen)
    before = everything(repo, origin)
    done = run_cli("tag", COHORT, "--push", "origin", "-C", str(repo), code=1)
    assert done.stderr == (
        f"error: `origin` already has tag `{COHORT}` at {frozen[:12]} (as {frozen[:12]}), which this clone does not "
        "have: nothing was tagged\n"
        f"hint: fetch it (git fetch origin tag {COHORT}) and check it (catalogctl verify {COHORT}); a published tag "
        "never moves: ask the maintainers if it is not the release\n"
    )
    assert everything(repo, origin) == before


def test_tag_rechecks_the_default_branch_right_before_pushing_the_tag(repo: Path, origin: Path, tmp_path: Path) -> None:
    from catalogctl.errors import UsageError
    from catalogctl.release.tag import TagRequest, tag

    freeze_on_release_branch(repo)
    merge = merge_on_remote(origin, tmp_path, squash=False)
    back_on_main(repo)

    def rewind(step: str) -> None:  # the merge is undone on the remote between the check and the push
        if step == "push":
            git(origin, "update-ref", "refs/heads/main", f"{merge}~1")

    with pytest.raises(UsageError, match="nothing was pushed"):
        tag(repo, TagRequest(COHORT, push="origin"), failpoint=rewind)
    assert git(origin, "tag", "--list") == "2026-09-C0"
