"""`freeze` under concurrency, crashes, locks, links and pushes that cannot succeed: every
refusal leaves the repository, its index and the remote as they were."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from catalogctl.errors import ConcurrentUpdate, EnvironmentProblem
from catalogctl.release.freeze import FreezeRequest, freeze
from catalogctl.release.ruleset import ruleset_digest
from tests.helpers import git, run_cli, run_console, write
from tests.release_repo import REFUSE_TAGS_HOOK, git_daemon, make_freezable
from tests.stalling_remote import services, stalling

HOLDER = f"pid {os.getpid()} on {socket.gethostname()}"


@pytest.fixture
def repo(catalog_repo: Path) -> Path:
    return make_freezable(catalog_repo)


def state(root: Path) -> tuple[str, str, str]:
    """HEAD, every ref, and the porcelain status (ignored files included)."""
    return (
        git(root, "rev-parse", "HEAD"),
        git(root, "for-each-ref", "--format=%(refname) %(objectname)"),
        git(root, "status", "--porcelain", "--ignored"),
    )


def at(step: str, action: Callable[[], object]) -> Callable[[str], None]:
    def failpoint(current: str) -> None:
        if current == step:
            action()

    return failpoint


def freeze_c0(root: Path, failpoint: Callable[[str], None], **kwargs: object) -> object:
    return freeze(root, FreezeRequest(cohort="2026-09-C0", add=["gsm8k"], **kwargs), failpoint)  # type: ignore[arg-type]


# -- item 1: two freezes, one repository ------------------------------------------------------


def test_a_second_freeze_while_one_runs_is_refused_naming_the_holder(repo: Path) -> None:
    seen: list[str] = []

    def second() -> None:
        done = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "-C", str(repo), code=2)
        seen.append(done.stderr)

    freeze_c0(repo, at("files", second))
    lock = repo / ".git/catalogctl-freeze.lock"
    assert seen == [
        f"error: another freeze is running in this repository: {HOLDER} holds {lock}\nhint: wait for it to finish\n"
    ]
    assert not lock.exists()
    run_cli("verify", "2026-09-C0", "-C", str(repo))
    assert git(repo, "status", "--porcelain") == ""


def test_a_lock_left_by_a_killed_freeze_is_taken_over(repo: Path) -> None:
    (repo / ".git/catalogctl-freeze.lock").write_text("pid 1 on elsewhere\n")  # nobody holds its flock
    run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "-C", str(repo))
    assert not (repo / ".git/catalogctl-freeze.lock").exists()


def test_the_commit_holds_what_freeze_wrote_not_the_index_or_the_disk(repo: Path) -> None:
    ruleset = repo / "rulesets/2026-09-C0.yaml"

    def meddle() -> None:
        ruleset.write_text(ruleset.read_text().replace("gsm8k", "aime25"))
        write(repo, "notes.txt", "staged by someone else\n")
        git(repo, "add", "notes.txt")

    result = freeze_c0(repo, at("files", meddle))
    committed = git(repo, "show", "HEAD:rulesets/2026-09-C0.yaml").encode() + b"\n"
    assert ruleset_digest(committed) == result.ruleset_digest  # type: ignore[attr-defined]
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["CHANGELOG.md", "rulesets/2026-09-C0.yaml"]
    run_cli("verify", "2026-09-C0", "-C", str(repo))
    assert git(repo, "status", "--porcelain") == "A  notes.txt\n M rulesets/2026-09-C0.yaml"


def test_a_failed_commit_deletes_nothing_this_run_did_not_write(repo: Path) -> None:
    ruleset = repo / "rulesets/2026-09-C0.yaml"

    def someone_else() -> None:
        git(repo, "commit", "-q", "--allow-empty", "-m", "someone else")
        ruleset.write_text("theirs\n")

    with pytest.raises(ConcurrentUpdate, match="HEAD moved while committing"):
        freeze_c0(repo, at("files", someone_else))
    assert ruleset.read_text() == "theirs\n"
    assert not (repo / "CHANGELOG.md").exists()  # ours: put back as it was (absent)


# -- item 2: a locked index right after the commit ----------------------------------------------


def test_a_locked_index_after_the_commit_is_a_message_and_a_rerun_repairs_the_index(repo: Path) -> None:
    lock = repo / ".git/index.lock"
    with pytest.raises(EnvironmentProblem) as caught:
        freeze_c0(repo, at("files", lambda: lock.write_text("")))  # an editor's `git status`
    assert str(caught.value) == (
        "cannot update the index (the index is locked; this might be due to a concurrent or crashed process): "
        f"{lock} is held by another git process"
    )
    assert caught.value.hint == "rerun the same command when it has finished: the rerun updates the index"
    lock.unlink()
    done = run_cli("freeze", "2026-09-C0", "-C", str(repo))
    assert "the index did not show the release's rulesets/2026-09-C0.yaml and CHANGELOG.md: updated it" in done.stdout
    assert git(repo, "status", "--porcelain") == ""
    write(repo, "later.txt", "unrelated\n")
    git(repo, "add", "later.txt")
    git(repo, "commit", "-q", "-m", "Unrelated")
    assert git(repo, "show", "--name-only", "--format=", "HEAD") == "later.txt"  # the release stays


# -- item 3: temporary files a killed freeze left -----------------------------------------------


def test_temporary_files_a_killed_freeze_left_are_removed_on_rerun(repo: Path) -> None:
    left = [
        write(repo, "rulesets/.2026-09-C0.yaml.tmcm21h8.tmp", "half"),
        write(repo, ".CHANGELOG.md.ab_12cd3.tmp", ""),
    ]
    other = write(repo, "rulesets/.2026-09-C0.yaml.mine.tmp", "not freeze's\n")
    done = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "-C", str(repo), code=2)
    assert done.stderr == (
        "error: the working tree has uncommitted changes: rulesets/.2026-09-C0.yaml.mine.tmp\n"
        "hint: commit or stash them first\n"
    )
    assert all(p.exists() for p in left)  # a refused freeze leaves everything
    other.unlink()
    done = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "-C", str(repo))
    assert done.stdout.startswith(
        "note: removed .CHANGELOG.md.ab_12cd3.tmp, rulesets/.2026-09-C0.yaml.tmcm21h8.tmp, "
        "left by an interrupted freeze\n"
    )
    assert not any(p.exists() for p in left)
    assert git(repo, "status", "--porcelain", "--ignored") == ""


# -- item 4: a lock taken during the run; a linked worktree --------------------------------------


def test_a_branch_lock_taken_during_the_run_is_a_message_and_leaves_nothing(repo: Path) -> None:
    before = state(repo)
    lock = repo / ".git/refs/heads/main.lock"
    with pytest.raises(EnvironmentProblem) as caught:
        freeze_c0(repo, at("files", lambda: lock.write_text("")))
    assert (str(caught.value), caught.value.hint) == (
        f"cannot commit: {lock} is held by another git process",
        "rerun when it has finished",
    )
    lock.unlink()  # another git process's: freeze never removes it
    assert state(repo) == before
    assert not (repo / "rulesets").exists()


@pytest.mark.parametrize("name", ["refs/heads/rel.lock", "refs/tags/2026-09-C0.lock"])
def test_in_a_linked_worktree_locks_are_looked_for_where_git_keeps_them(repo: Path, tmp_path: Path, name: str) -> None:
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", "-b", "rel", str(linked))
    lock = repo / ".git" / name
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.write_text("")
    before = state(linked)
    done = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "-C", str(linked), code=2)
    assert done.stderr == (
        f"error: leftover lock file: {lock}\n"
        "hint: another git process may be running; if none is, remove the lock yourself (catalogctl never does)\n"
    )
    assert state(linked) == before
    lock.unlink()
    held: list[bool] = []
    freeze_c0(linked, at("files", lambda: held.append((repo / ".git/catalogctl-freeze.lock").exists())))
    assert held == [True]  # one lock for every worktree of the repository
    assert git(linked, "status", "--porcelain") == ""
    run_cli("verify", "2026-09-C0", "-C", str(repo), code=1)  # on `rel`, not yet on the default branch
    git(repo, "merge", "-q", "--ff-only", "rel")  # the release reaches main: now it is one
    run_cli("verify", "2026-09-C0", "-C", str(repo))


# -- item 8: reruns that ask for something else --------------------------------------------------


def test_a_rerun_that_asks_for_another_release_says_so(repo: Path) -> None:
    args = ("freeze", "2026-09-C0", "-C", str(repo))
    run_cli(*args, "--add", "gsm8k", "-m", "September")
    release = git(repo, "rev-parse", "HEAD")[:12]
    before = state(repo)
    done = run_cli(*args, "--add", "deepseek-r1", "-m", "Other", code=1)
    assert done.stderr == (
        f"error: 2026-09-C0 was released at {release}, not as this rerun asks: --add deepseek-r1 (not in the "
        "release); -m 'Other' (the tag says 'September')\n"
        "hint: a release never changes: rerun without those options, or freeze the next cohort, 2026-09-C1\n"
    )
    done = run_cli(*args, "--remove", "gsm8k", code=1)
    assert "not as this rerun asks: --remove gsm8k (in the release)\n" in done.stderr
    assert state(repo) == before
    assert run_cli(*args, "--add", "gsm8k", "-m", "September").stdout.startswith("note: 2026-09-C0 is already frozen")


def test_a_rerun_of_a_commit_without_its_tag_refuses_other_benchmarks(repo: Path) -> None:
    args = ("freeze", "2026-09-C0", "-C", str(repo))
    run_cli(*args, "--add", "gsm8k", "--no-tag")
    before = state(repo)
    done = run_cli(*args, "--add", "deepseek-r1", code=1)
    assert done.stderr.startswith(f"error: 2026-09-C0 was committed at {before[0][:12]}, not as this rerun asks: ")
    assert state(repo) == before


def test_a_lightweight_tag_at_the_release_commit_is_not_frozen(repo: Path) -> None:
    # The same clause of release/statement.py that preflight refuses (tests/run/test_preflight.py).
    run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--no-tag", "-C", str(repo))
    git(repo, "tag", "2026-09-C0", "HEAD")
    before = state(repo)
    done = run_cli("freeze", "2026-09-C0", "-C", str(repo), code=1)
    assert done.stderr == (
        "error: tag `2026-09-C0` is at the release commit but is not a release: "
        "tag `2026-09-C0` is lightweight: a release tag is annotated\n"
        "hint: a published tag never moves: ask the maintainers before replacing it\n"
    )
    assert state(repo) == before
    run_cli("verify", "2026-09-C0", "-C", str(repo), code=1)


# -- item 9: links in what freeze writes -----------------------------------------------------------


@pytest.mark.parametrize(("link", "kind"), [("CHANGELOG.md", "file"), ("rulesets", "folder")])
def test_a_committed_link_where_freeze_writes_is_refused(repo: Path, tmp_path: Path, link: str, kind: str) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    token = write(outside, "token.txt", "SECRET-TOKEN\n")
    (repo / link).symlink_to(token if kind == "file" else outside)
    git(repo, "add", link)
    git(repo, "commit", "-q", "-m", "A link")
    head = git(repo, "rev-parse", "HEAD")[:12]
    before = state(repo)
    done = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "-C", str(repo), code=1)
    assert done.stderr == (
        f"error: {link} is a symlink (HEAD ({head})): freeze writes only regular files and folders\n"
        f"hint: replace {link} with the {kind} itself and commit that\n"
    )
    assert state(repo) == before
    assert sorted(p.name for p in outside.iterdir()) == ["token.txt"]
    assert token.read_text() == "SECRET-TOKEN\n"


def test_an_uncommitted_link_where_freeze_writes_is_refused(repo: Path, tmp_path: Path) -> None:
    (repo / "rulesets").symlink_to(tmp_path, target_is_directory=True)
    (repo / ".git/info/exclude").write_text("rulesets\n")  # not even a change git would show
    done = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "-C", str(repo), code=1)
    assert done.stderr.startswith("error: rulesets is a symlink (working tree): ")
    assert not (tmp_path / "2026-09-C0.yaml").exists()


# -- item 10: a push that cannot succeed is refused before anything is written --------------------


@pytest.fixture
def remote(tmp_path: Path, repo: Path) -> Path:
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "push", "-q", "origin", "main")
    return bare


def everything(root: Path, bare: Path) -> tuple[object, ...]:
    return (*state(root), git(bare, "for-each-ref", "--format=%(refname) %(objectname)"))


def test_push_from_a_detached_head_is_refused_before_anything_is_written(repo: Path, remote: Path) -> None:
    git(repo, "checkout", "-q", "--detach")
    before = everything(repo, remote)
    done = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--push", "origin", "-C", str(repo), code=2)
    assert done.stderr == "error: HEAD is detached\nhint: check out the release branch first\n"
    assert everything(repo, remote) == before


def test_push_to_a_branch_the_remote_moved_past_is_refused_before_anything_is_written(
    repo: Path, remote: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(remote), str(other))
    git(other, "commit", "-q", "--allow-empty", "-m", "Later, elsewhere")
    git(other, "push", "-q", "origin", "main")
    theirs, ours = git(remote, "rev-parse", "main")[:12], git(repo, "rev-parse", "HEAD")[:12]
    before = everything(repo, remote)
    for extra in ([], ["--no-tag"]):
        done = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--push", "origin", *extra, "-C", str(repo), code=1)
        assert done.stderr == (
            f"error: `origin` has main at {theirs}, which {ours} does not contain: the push would be refused; "
            "nothing was written\nhint: bring main up to date (git pull --rebase origin main), then rerun freeze\n"
        )
        assert everything(repo, remote) == before


def test_a_resumed_push_to_a_moved_branch_is_refused_before_the_tag(repo: Path, remote: Path, tmp_path: Path) -> None:
    run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--no-tag", "-C", str(repo))
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(remote), str(other))
    git(other, "commit", "-q", "--allow-empty", "-m", "Later, elsewhere")
    git(other, "push", "-q", "origin", "main")
    before = everything(repo, remote)
    done = run_cli("freeze", "2026-09-C0", "--push", "origin", "-C", str(repo), code=1)
    assert "the push would be refused; nothing was written\n" in done.stderr
    assert everything(repo, remote) == before


def test_a_moved_remote_tag_says_not_to_delete_or_force_fetch_it(repo: Path, remote: Path) -> None:
    git(repo, "tag", "-a", "2026-09-C0", "-m", "someone else's", "HEAD")
    git(repo, "push", "-q", "origin", "2026-09-C0")
    git(repo, "tag", "-d", "2026-09-C0")
    theirs = git(remote, "rev-parse", "2026-09-C0^{commit}")[:12]
    before = everything(repo, remote)
    done = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--push", "origin", "-C", str(repo), code=1)
    assert done.stderr == (
        f"error: `origin` already has tag `2026-09-C0` at {theirs} (ours: none yet)\n"
        "hint: a published tag never moves: do not delete it or force-fetch it; ask the maintainers which commit "
        "is the release\n"
    )
    assert everything(repo, remote) == before


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[str]:
    yield from git_daemon(tmp_path / "served")


@pytest.mark.slow
def test_a_server_refusal_shows_the_servers_own_message(repo: Path, tmp_path: Path, daemon: str) -> None:
    bare = tmp_path / "served/remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    hook = bare / "hooks/update"
    hook.write_text(REFUSE_TAGS_HOOK)
    hook.chmod(0o755)
    url = f"{daemon}/remote.git"
    git(repo, "push", "-q", url, "main")
    done = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--push", url, "-C", str(repo), code=1)
    assert done.stderr.startswith(
        f"error: `{url}` refused the push (refs/tags/2026-09-C0: hook declined); it said: tags are refused here"
    )


# -- a remote that never finishes answering: exit 6 at the deadline, nothing written --------------

HANG_S = 30  # a hang is killed after this long and fails the test: the deadline is 1 s
TIMEOUT_HINT = (
    "retry later, or check the remote's URL and the network; CATALOGCTL_TIMEOUT sets the deadline in seconds "
    "(60 by default)"
)


def untouched(root: Path, bare: Path) -> tuple[object, ...]:
    """The repository (HEAD, refs and tags, working tree, index) and the bare remote's refs."""
    return (*everything(root, bare), git(root, "ls-files", "--stage"))


@pytest.fixture
def served(repo: Path, remote: Path, tmp_path: Path) -> Iterator[int]:
    """The bare `remote` behind a git daemon: its port."""
    for url in git_daemon(tmp_path):
        yield int(url.rsplit(":", 1)[1])


@pytest.mark.slow
def test_a_remote_that_trickles_its_refs_stops_freeze_push_before_anything_is_written(
    repo: Path, remote: Path, served: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # It was a hang until killed, with no output at all.
    monkeypatch.setenv("CATALOGCTL_TIMEOUT", "1")
    before = untouched(repo, remote)
    with stalling("trickle-proxy", target=served) as (port, stall):
        url = f"git://127.0.0.1:{port}/remote.git"
        done = run_console("freeze", "2026-09-C0", "--add", "gsm8k", "--push", url, "-C", repo, code=6, timeout=HANG_S)
    assert done.stdout == ""
    assert done.stderr == (
        f"error: `{url}` gave no complete answer within 1 s (listing its refs)\nhint: {TIMEOUT_HINT}\n"
    )
    assert services(stall) == ["git-upload-pack"]
    assert untouched(repo, remote) == before


@pytest.mark.slow
def test_a_silent_http_remote_stops_freeze_push_before_anything_is_written(
    repo: Path, remote: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CATALOGCTL_TIMEOUT", "1")
    before = untouched(repo, remote)
    with stalling("silent") as (port, _):
        git(repo, "remote", "set-url", "origin", f"http://127.0.0.1:{port}/remote.git")
        done = run_console(
            "freeze", "2026-09-C0", "--add", "gsm8k", "--push", "origin", "-C", repo, code=6, timeout=HANG_S
        )
    assert (
        done.stderr == f"error: `origin` gave no complete answer within 1 s (listing its refs)\nhint: {TIMEOUT_HINT}\n"
    )
    git(repo, "remote", "set-url", "origin", str(remote))
    assert untouched(repo, remote) == before


@pytest.mark.slow
def test_a_push_that_never_finishes_says_what_exists_and_lists_nothing_more(
    repo: Path, remote: Path, served: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CATALOGCTL_TIMEOUT", "1")
    refs = git(remote, "for-each-ref", "--format=%(refname) %(objectname)")
    with stalling("hold-push", target=served) as (port, stall):
        url = f"git://127.0.0.1:{port}/remote.git"
        done = run_console("freeze", "2026-09-C0", "--add", "gsm8k", "--push", url, "-C", repo, code=6, timeout=HANG_S)
    head = git(repo, "rev-parse", "HEAD")
    assert done.stderr == (
        f"error: `{url}` gave no complete answer within 1 s (pushing {head}:refs/heads/main); locally nothing is "
        f"lost: commit {head[:12]} on main, tagged `2026-09-C0`\n"
        f"hint: finish it: git push {url} {head[:12]}:refs/heads/main refs/tags/2026-09-C0, or rerun: "
        f"catalogctl freeze 2026-09-C0 --push {url}; {TIMEOUT_HINT}\n"
    )
    # Listed before anything was written, and again before the push; none after the push that never ended.
    assert services(stall) == ["git-upload-pack", "git-upload-pack", "git-receive-pack"]
    assert git(remote, "for-each-ref", "--format=%(refname) %(objectname)") == refs
