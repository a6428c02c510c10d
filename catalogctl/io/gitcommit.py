"""Writing to a repository: who commits, a commit of given bytes on top of HEAD (a
compare-and-swap), and the index told about it. Neither the index nor the working tree is read
to make a commit."""

from __future__ import annotations

import datetime as dt
import os

import pygit2

from catalogctl.errors import ConcurrentUpdate, EnvironmentProblem
from catalogctl.io.gitrepo import config_value, git_dirs, has_path, work_dir


def signature(repo: pygit2.Repository, at: dt.datetime | None = None) -> pygit2.Signature:
    """Who commits: GIT_COMMITTER_NAME/EMAIL when set (as git does), else user.name/user.email;
    dated `at` when given (a caller's clock), else now."""
    name, email = os.environ.get("GIT_COMMITTER_NAME"), os.environ.get("GIT_COMMITTER_EMAIL")
    hint = 'set another: export GIT_COMMITTER_NAME="…" GIT_COMMITTER_EMAIL="…"'
    if not (name and email):
        name, email = _config_identity(repo)
        hint = 'set another: git config user.name "…" && git config user.email "…"'
    if any(c in name + email for c in "<>"):  # libgit2 refuses it, as git does
        raise EnvironmentProblem(
            f"the git identity {name!r} <{email}> holds '<' or '>': git writes no such identity in a commit; "
            "nothing was written",
            hint,
        )
    if at is None:
        return pygit2.Signature(name, email)
    offset = at.utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    return pygit2.Signature(name, email, int(at.timestamp()), minutes)


def _config_identity(repo: pygit2.Repository) -> tuple[str, str]:
    """user.name and user.email as git config holds them."""
    name, email = config_value(repo, "user.name"), config_value(repo, "user.email")
    if not (name and email):
        raise EnvironmentProblem(
            "no git identity to commit with", 'set it: git config user.name "…" && git config user.email "…"'
        )
    return name, email


def _lock_failure(exc: Exception) -> str | None:
    """The lock file a libgit2 error names ("failed to lock file '…' for writing"), if any."""
    text = str(exc)
    marker = "failed to lock file '"
    if marker not in text:
        return None
    return text.split(marker, 1)[1].split("'", 1)[0]


def _tree_with(repo: pygit2.Repository, files: dict[str, bytes], parent: pygit2.Commit) -> pygit2.Oid:
    """`parent`'s tree with `files` (path -> bytes, regular files) in it, written as objects only."""
    index = pygit2.Index()
    index.read_tree(parent.tree)
    for path, data in files.items():
        index.add(pygit2.IndexEntry(path, repo.create_blob(data), pygit2.enums.FileMode.BLOB))
    return index.write_tree(repo)


def commit_id(
    repo: pygit2.Repository, files: dict[str, bytes], message: str, parent: pygit2.Commit, author: pygit2.Signature
) -> str:
    """The id `commit_files` will give this commit with this `author` (its time included): the
    commit is written as an object that no ref names, so nothing a user sees changes."""
    return str(repo.create_commit(None, author, author, message, _tree_with(repo, files, parent), [parent.id]))


def commit_files(
    repo: pygit2.Repository,
    files: dict[str, bytes],
    message: str,
    parent: pygit2.Commit,
    author: pygit2.Signature | None = None,
) -> pygit2.Commit:
    """Commit `parent`'s tree with `files` (path -> bytes, regular files) on top of `parent`, which
    must still be HEAD (libgit2 refuses when HEAD moved: a compare-and-swap). Neither the index
    nor the working tree is read: the commit holds these bytes and nothing else that changed."""
    tree = _tree_with(repo, files, parent)
    author = author or signature(repo)
    try:
        oid = repo.create_commit("HEAD", author, author, message, tree, [parent.id])
    except (pygit2.GitError, OSError) as exc:
        lock = _lock_failure(exc)
        if lock is not None:
            raise EnvironmentProblem(
                f"cannot commit: {lock} is held by another git process", "rerun when it has finished"
            ) from None
        raise ConcurrentUpdate(
            f"HEAD moved while committing ({exc})", "another freeze ran at the same time; rerun"
        ) from None
    return repo[oid].peel(pygit2.Commit)


def stage_committed(
    repo: pygit2.Repository, commit: pygit2.Commit, paths: list[str], *, only_clean: bool = False
) -> list[str]:
    """Make the index hold `commit`'s blobs at `paths` (a commit made outside the index leaves them
    to stage), with the files' stat data where the working tree holds the same bytes, so that
    `git status` shows them clean; `only_clean`: only there (a repair never stages over someone's
    edit). Returns the paths it changed; a locked index is an error."""
    index = repo.index
    index.read()
    changed: list[str] = []
    for path in paths:
        blob = commit.tree[path] if has_path(commit, path) else None
        if blob is None:
            continue
        if path in index and index[path].id == blob.id:
            continue
        on_disk = work_dir(repo) / path
        same = on_disk.is_file() and not on_disk.is_symlink() and pygit2.hash(on_disk.read_bytes()) == blob.id
        if only_clean and not same:
            continue
        if same:
            index.add(path)  # reads the file: the same bytes, and records its stat data
        else:
            index.add(pygit2.IndexEntry(path, blob.id, pygit2.enums.FileMode.BLOB))
        changed.append(path)
    if changed:
        try:
            index.write()
        except (pygit2.GitError, OSError) as exc:
            own, _ = git_dirs(repo)
            raise EnvironmentProblem(
                f"cannot update the index ({exc}): {own / 'index.lock'} is held by another git process",
                "rerun the same command when it has finished: the rerun updates the index",
            ) from None
    return changed
