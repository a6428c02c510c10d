"""Releasing through a protected default branch: `freeze --no-tag` on a release branch, the pull
request merged on the remote (a merge commit, or a squash), then `catalogctl tag` (or `freeze`
again) on the default branch; and what a failed push says."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from catalogctl.catalog.layout import DEFAULT
from catalogctl.io import gitrepo
from catalogctl.release.statement import state_release
from tests.gpgkeys import gpg_home
from tests.helpers import commit_all, git, replace_in, run_cli, run_console
from tests.release_repo import REFUSE_TAGS_HOOK, commit_count, git_daemon, tags
from tests.signing import make_key
from tests.stalling_remote import services, stalling

COHORT = "2026-09-C1"
BRANCH = f"release/{COHORT}"
RULESET = f"rulesets/{COHORT}.yaml"


@pytest.fixture
def served(repo: Path, origin: Path, tmp_path: Path) -> Iterator[Path]:
    """`origin` served by a git daemon (a local push runs no server hook), as the remote `origin`."""
    for url in git_daemon(tmp_path):
        git(repo, "remote", "set-url", "origin", f"{url}/{origin.name}")
        yield origin


def freeze_on_release_branch(repo: Path) -> str:
    """The maintainer's pull request: the freeze commit on a release branch, pushed, no tag."""
    git(repo, "switch", "-q", "-c", BRANCH)
    done = run_cli("freeze", COHORT, "--no-tag", "--push", "origin", "-C", str(repo))
    commit = git(repo, "rev-parse", "HEAD")
    assert done.stdout == (
        f"froze {COHORT}: committed {RULESET} and CHANGELOG.md in {commit[:12]}; pushed the branch {BRANCH}\n"
    )
    assert tags(repo) == ["2026-09-C0"]
    return commit


def merge_on_remote(origin: Path, tmp_path: Path, *, squash: bool) -> str:
    """The pull request merged as the forge does it, in another clone: `--no-ff`, or a squash."""
    merger = tmp_path / "merger"
    git(tmp_path, "clone", "-q", str(origin), str(merger))
    if squash:
        git(merger, "merge", "-q", "--squash", f"origin/{BRANCH}")
        git(merger, "commit", "-q", "-m", f"Freeze cohort {COHORT} (#12)")
    else:
        git(merger, "merge", "-q", "--no-ff", f"origin/{BRANCH}", "-m", "Merge pull request #12")
    git(merger, "push", "-q", "origin", "main")
    return git(merger, "rev-parse", "HEAD")


def back_on_main(repo: Path) -> None:
    git(repo, "switch", "-q", "main")
    git(repo, "pull", "-q", "--ff-only", "origin", "main")


def digest_line(repo: Path) -> str:
    return git(repo, "cat-file", "tag", COHORT).split("ruleset-digest: ", 1)[1].split("\n", 1)[0]


def test_tag_after_a_merge_commit_tags_the_freeze_commit_and_pushes_only_the_tag(
    repo: Path, origin: Path, tmp_path: Path
) -> None:
    frozen = freeze_on_release_branch(repo)
    merge = merge_on_remote(origin, tmp_path, squash=False)
    back_on_main(repo)
    assert git(repo, "rev-parse", "HEAD") == merge
    done = run_cli("tag", COHORT, "--push", "origin", "-C", str(repo))
    assert done.stdout == (
        f"note: {RULESET} was added by {frozen[:12]} on `main`: tagging that commit\n"
        f"released {COHORT}: the commit that added {RULESET} is {frozen[:12]}; "
        f"tagged {COHORT} (ruleset digest {digest_line(repo)}); pushed the tag\n"
    )
    assert git(repo, "rev-parse", f"{COHORT}^{{commit}}") == frozen  # the commit the merge brought in
    assert git(origin, "rev-parse", f"{COHORT}^{{commit}}") == frozen
    assert git(origin, "rev-parse", "main") == merge  # the branch was not pushed: it has the release
    assert state_release(gitrepo.open_repository(repo), COHORT, DEFAULT).ok
    run_cli("verify", COHORT, "-C", str(repo))
    again = run_cli("tag", COHORT, "--push", "origin", "-C", str(repo))
    assert again.stdout.startswith(f"note: {COHORT} is already frozen at {frozen[:12]}: nothing to do\n")


def test_tag_after_a_squash_tags_the_squash_commit(repo: Path, origin: Path, tmp_path: Path) -> None:
    frozen = freeze_on_release_branch(repo)
    squash = merge_on_remote(origin, tmp_path, squash=True)
    back_on_main(repo)
    assert squash != frozen
    assert git(repo, "rev-parse", f"{squash}:{RULESET}") == git(repo, "rev-parse", f"{frozen}:{RULESET}")
    done = run_cli("tag", COHORT, "-m", "September, second round", "-C", str(repo))
    assert done.stdout.startswith(f"note: {RULESET} was added by {squash[:12]} on `main`: tagging that commit\n")
    assert git(repo, "rev-parse", f"{COHORT}^{{commit}}") == squash
    assert git(repo, "cat-file", "tag", COHORT).split("\n\n", 1)[1].startswith("September, second round\n\n")
    # the release statement holds for a squash: the tag is at the commit that added the ruleset on main
    assert state_release(gitrepo.open_repository(repo), COHORT, DEFAULT).ok
    run_cli("verify", COHORT, "-C", str(repo))
    listed = run_cli("cohorts", "-C", str(repo))
    assert f"{COHORT}  2026-09-16  2           A          matches  unsigned" in listed.stdout


def test_freeze_again_on_main_recognises_the_merged_ruleset(repo: Path, origin: Path, tmp_path: Path) -> None:
    frozen = freeze_on_release_branch(repo)
    merge_on_remote(origin, tmp_path, squash=False)
    back_on_main(repo)
    commits = commit_count(repo)
    done = run_cli("freeze", COHORT, "--push", "origin", "-C", str(repo))
    assert done.stdout.startswith(f"note: {RULESET} was added by {frozen[:12]} on `main`: tagging that commit\n")
    assert done.stdout.endswith("; pushed the tag\n")
    assert commit_count(repo) == commits  # nothing frozen anew
    assert git(origin, "rev-parse", f"{COHORT}^{{commit}}") == frozen


def test_tag_refuses_a_commit_not_yet_on_the_default_branch(repo: Path) -> None:
    frozen = freeze_on_release_branch(repo)
    done = run_cli("tag", COHORT, "-C", str(repo), code=2)
    assert done.stderr == (
        f"error: {frozen[:12]}, which added {RULESET}, is not on the default branch `main`: a release is tagged on "
        "the default branch; nothing was tagged\n"
        f"hint: merge the release pull request first, then on `main` (git switch main && git pull): "
        f"catalogctl tag {COHORT}\n"
    )
    assert tags(repo) == ["2026-09-C0"]


def test_tag_without_a_frozen_ruleset_says_how_to_freeze(repo: Path) -> None:
    head = git(repo, "rev-parse", "HEAD")
    done = run_cli("tag", COHORT, "-C", str(repo), code=2)
    assert done.stderr == (
        f"error: no commit in the history of HEAD ({head[:12]}) added {RULESET}: nothing to tag\n"
        f"hint: freeze it first (catalogctl freeze {COHORT} --no-tag on a release branch), merge the pull request, "
        "then tag on the default branch\n"
    )


def test_tag_refuses_a_squash_that_brought_another_contract_change(repo: Path, origin: Path, tmp_path: Path) -> None:
    freeze_on_release_branch(repo)
    # meanwhile, main changes gsm8k again; the squash of the older release branch holds both
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(origin), str(other))
    replace_in(other, "benchmark_suite/benchmarks/gsm8k.yaml", "max_new_tokens: 512", "max_new_tokens: 1024")
    commit_all(other, "gsm8k: even longer answers")
    git(other, "push", "-q", "origin", "main")
    squash = merge_on_remote(origin, tmp_path, squash=True)
    back_on_main(repo)
    done = run_cli("tag", COHORT, "-C", str(repo), code=1)
    assert done.stderr.startswith(
        f"error: the contracts at {squash[:12]} are not the ones {RULESET} froze: `gsm8k` has contract digest sha256:"
    )
    assert done.stderr.endswith(
        "nothing was tagged\nhint: the merge brought another change to these contracts in with the ruleset (a "
        "squash of a branch cut before it?): ask the maintainers; a tag there would name contracts nobody froze\n"
    )
    assert tags(repo) == ["2026-09-C0"]


def test_tag_refuses_a_ruleset_edited_after_the_merge(repo: Path, origin: Path, tmp_path: Path) -> None:
    frozen = freeze_on_release_branch(repo)
    merge_on_remote(origin, tmp_path, squash=False)
    back_on_main(repo)
    (repo / RULESET).write_text((repo / RULESET).read_text() + "# edited\n")
    edited = commit_all(repo, "Edit the ruleset")
    done = run_cli("tag", COHORT, "-C", str(repo), code=1)
    assert done.stderr == (
        f"error: {RULESET} was edited after {frozen[:12]} added it (HEAD is {edited[:12]}): a frozen ruleset never "
        "changes; nothing was tagged\n"
        f"hint: restore the ruleset {frozen[:12]} added (git checkout {frozen[:12]} -- {RULESET}) in a pull request\n"
    )


def test_tag_signs_when_the_policy_requires_it(repo: Path, origin: Path, tmp_path: Path) -> None:
    replace_in(
        repo, "benchmark_suite/suite.yaml", "policies:\n", "policies:\n  releases:\n    require_signature: true\n"
    )
    commit_all(repo, "Require signed releases")
    git(repo, "push", "-q", "origin", "main")
    key = make_key(tmp_path / "keys")
    frozen = freeze_on_release_branch(repo)
    merge_on_remote(origin, tmp_path, squash=False)
    back_on_main(repo)
    refused = run_cli("tag", COHORT, "-C", str(repo), code=2)
    assert "requires signed releases (policies.releases.require_signature)" in refused.stderr
    done = run_cli("tag", COHORT, "--signing-key", str(key), "-C", str(repo))
    assert done.stdout.endswith(f", signed with {key} (" + done.stdout.rsplit("(", 1)[1])
    assert git(repo, "rev-parse", f"{COHORT}^{{commit}}") == frozen
    assert git(repo, "cat-file", "tag", COHORT).endswith("-----END SSH SIGNATURE-----")


def test_a_push_to_a_clone_with_a_working_tree_says_what_exists_and_how_to_finish(
    catalog_repo: Path, tmp_path: Path
) -> None:
    from tests.release_repo import make_freezable

    repo = make_freezable(catalog_repo)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    git(repo, "remote", "add", "origin", str(clone))
    done = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--push", "origin", "-C", str(repo), code=1)
    head = git(repo, "rev-parse", "HEAD")
    assert done.stderr == (
        "error: push to `origin` failed: local push doesn't (yet) support pushing to non-bare repos.; "
        f"locally nothing is lost: commit {head[:12]} on main, tagged `2026-09-C0`\n"
        "hint: `origin` is a clone with a working tree: libgit2 pushes only to bare repositories (and git refuses to "
        "update a branch checked out there); push to the bare repository or server the team shares instead: "
        f"git push REMOTE {head[:12]}:refs/heads/main refs/tags/2026-09-C0, or rerun: "
        "catalogctl freeze 2026-09-C0 --push REMOTE\n"
    )
    assert tags(repo) == ["2026-09-C0"]


@pytest.mark.slow
def test_a_refused_tag_push_gives_the_command_that_finishes_it(repo: Path, served: Path, tmp_path: Path) -> None:
    origin = served
    hook = origin / "hooks/update"
    hook.write_text(REFUSE_TAGS_HOOK)
    hook.chmod(0o755)
    frozen = freeze_on_release_branch(repo)
    merge_on_remote(origin, tmp_path, squash=False)
    back_on_main(repo)
    done = run_cli("tag", COHORT, "--push", "origin", "-C", str(repo), code=1)
    assert done.stderr.startswith(f"error: `origin` refused the push (refs/tags/{COHORT}: ")
    assert done.stderr.endswith(
        f"; locally nothing is lost: commit {frozen[:12]} on main, tagged `{COHORT}`\n"
        f"hint: finish it: git push origin refs/tags/{COHORT}, or rerun: catalogctl tag {COHORT} --push origin\n"
    )
    hook.unlink()
    git(repo, "push", "-q", "origin", f"refs/tags/{COHORT}")  # the command the hint gives
    assert git(origin, "rev-parse", f"{COHORT}^{{commit}}") == frozen
    assert state_release(gitrepo.open_repository(repo), COHORT, DEFAULT).ok


def test_a_refused_branch_push_of_a_no_tag_freeze_names_the_branch(repo: Path, served: Path) -> None:
    hook = served / "hooks/update"
    hook.write_text('#!/bin/sh\n[ "$1" = refs/heads/main ] || exit 0\necho "main is protected" >&2\nexit 1\n')
    hook.chmod(0o755)
    done = run_cli("freeze", COHORT, "--no-tag", "--push", "origin", "-C", str(repo), code=1)
    head = git(repo, "rev-parse", "HEAD")
    assert done.stderr.endswith(
        f"; locally nothing is lost: commit {head[:12]} on main\n"
        f"hint: finish it: git push origin {head[:12]}:refs/heads/main, or rerun: "
        f"catalogctl freeze {COHORT} --no-tag --push origin; if `main` is protected: git push origin "
        f"{head[:12]}:refs/heads/release/{COHORT}, merge that pull request, then on `main`: "
        f"catalogctl tag {COHORT} --push origin\n"
    )
    # the way the hint gives: a release branch, its pull request merged, then `tag`
    git(repo, "push", "-q", "origin", f"{head[:12]}:refs/heads/release/{COHORT}")
    assert git(served, "rev-parse", f"release/{COHORT}") == head


def test_tag_in_a_clone_without_tags_fetches_them_first(repo: Path, origin: Path, tmp_path: Path) -> None:
    freeze_on_release_branch(repo)
    merge_on_remote(origin, tmp_path, squash=False)
    back_on_main(repo)
    run_cli("tag", COHORT, "--push", "origin", "-C", str(repo))
    clone = tmp_path / "notags"
    git(tmp_path, "clone", "-q", "--no-tags", str(origin), str(clone))
    done = run_cli("tag", COHORT, "-C", str(clone), code=2)
    assert done.stderr == (
        f"error: this clone does not fetch tags (remote.origin.tagopt is --no-tags): tag `{COHORT}` may exist on "
        "the remote already; nothing was tagged\nhint: fetch them first: git fetch --tags origin\n"
    )
    assert tags(clone) == []


def test_tag_signs_with_gpg_where_asked(
    repo: Path, origin: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with gpg_home(monkeypatch) as home:
        key = home.make_key("Maintainer <m@example.org>")
        frozen = freeze_on_release_branch(repo)
        merge_on_remote(origin, tmp_path, squash=True)
        back_on_main(repo)
        done = run_cli("tag", COHORT, "--sign", "--signing-format", "openpgp", "--signing-key", key, "-C", str(repo))
        assert done.stdout.endswith(f"signed with gpg key {key} ({key})\n")
        assert git(repo, "rev-parse", f"{COHORT}^{{commit}}") != frozen  # the squash commit
        assert git(repo, "cat-file", "tag", COHORT).endswith("-----END PGP SIGNATURE-----")
        verified = subprocess.run(["git", "tag", "-v", COHORT], cwd=repo, capture_output=True, text=True, check=False)
        assert verified.returncode == 0, verified.stderr


# -- a remote that never finishes answering -------------------------------------------------------


def local_and_remote(repo: Path, origin: Path) -> tuple[str, ...]:
    """HEAD, every ref and tag, the working tree and the index here; every ref of the remote."""
    refs = "--format=%(refname) %(objectname)"
    return (
        git(repo, "rev-parse", "HEAD"),
        git(repo, "for-each-ref", refs),
        git(repo, "status", "--porcelain", "--ignored"),
        git(repo, "ls-files", "--stage"),
        git(origin, "for-each-ref", refs),
    )


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["trickle-proxy", "silent"])
def test_tag_push_to_a_remote_that_never_finishes_answering_tags_nothing(
    repo: Path, origin: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    # It was a hang until killed, with no output at all.
    freeze_on_release_branch(repo)
    merge_on_remote(origin, tmp_path, squash=False)
    back_on_main(repo)
    before = local_and_remote(repo, origin)
    monkeypatch.setenv("CATALOGCTL_TIMEOUT", "1")
    for daemon in git_daemon(tmp_path):
        with stalling(mode, target=int(daemon.rsplit(":", 1)[1])) as (port, stall):
            url = f"git://127.0.0.1:{port}/{origin.name}"
            done = run_console("tag", COHORT, "--push", url, "-C", repo, code=6, timeout=30)
    assert done.stdout == ""
    assert done.stderr == (
        f"error: `{url}` gave no complete answer within 1 s (listing its refs)\n"
        "hint: retry later, or check the remote's URL and the network; CATALOGCTL_TIMEOUT sets the deadline in "
        "seconds (60 by default)\n"
    )
    assert services(stall) == ["git-upload-pack"]
    assert local_and_remote(repo, origin) == before
