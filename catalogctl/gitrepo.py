"""The only place pygit2 is used: find the repository, resolve refs, read trees.

Trees are read straight from the object database: nothing is checked out, nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pygit2

from .errors import EnvironmentProblem, RefNotFound
from .tree import Entry, EntryKind, UnsafePath

_KIND_BY_MODE: dict[int, EntryKind] = {
    pygit2.enums.FileMode.BLOB: "file",
    pygit2.enums.FileMode.BLOB_EXECUTABLE: "file",
    pygit2.enums.FileMode.TREE: "dir",
    pygit2.enums.FileMode.LINK: "symlink",
}


def open_repository(path: Path) -> pygit2.Repository:
    """The git repository containing `path`."""
    found = pygit2.discover_repository(str(path))
    if found is None:
        raise EnvironmentProblem(
            f"no git repository at {path}", "run inside a clone of the catalog repository, or pass its path"
        )
    return pygit2.Repository(found)


def work_dir(repo: pygit2.Repository) -> Path:
    """The top folder of the repository's working tree."""
    if repo.workdir is None:
        raise EnvironmentProblem(f"{repo.path} is a bare repository", "run in a clone with a working tree")
    return Path(repo.workdir)


@dataclass(frozen=True)
class ResolvedRef:
    """A ref, the commit it names, and how it was found when that is worth saying."""

    name: str
    commit: pygit2.Commit
    note: str = ""


def _lookup(repo: pygit2.Repository, ref: str) -> pygit2.Commit | None:
    for candidate in (f"refs/tags/{ref}", f"refs/heads/{ref}", f"refs/remotes/{ref}", ref):
        try:
            return repo.revparse_single(candidate).peel(pygit2.Commit)
        except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError):
            continue
    return None


def _has_path(commit: pygit2.Commit, path: str) -> bool:
    try:
        commit.tree[path]
    except KeyError:
        return False
    return True


def commit_adding(repo: pygit2.Repository, path: str) -> pygit2.Commit | None:
    """The newest commit reachable from HEAD that added `path` (its parents lack it)."""
    if repo.head_is_unborn:
        return None
    for commit in repo.walk(repo.head.target, pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.TIME):
        if _has_path(commit, path) and not any(_has_path(parent, path) for parent in commit.parents):
            return commit
    return None


def resolve_ref(repo: pygit2.Repository, ref: str, *, ruleset_fallback: bool = True) -> ResolvedRef:
    """The commit a tag, branch, remote branch, (abbreviated) commit id or cohort names.

    A cohort id names its release tag. Where the tag is missing (a fresh clone without tags),
    read-only verbs may fall back to the commit that added `rulesets/<cohort>.yaml`; the result
    says so in its note.
    """
    from .cohorts import is_cohort_id

    commit = _lookup(repo, ref)
    if commit is not None:
        return ResolvedRef(ref, commit)
    if ruleset_fallback and is_cohort_id(ref):
        adding = commit_adding(repo, f"rulesets/{ref}.yaml")
        if adding is not None:
            note = f"tag `{ref}` not found: using {str(adding.id)[:12]}, the commit that added rulesets/{ref}.yaml"
            return ResolvedRef(ref, adding, note)
    hint = "fetch it first: git fetch --tags origin"
    if repo.is_shallow:
        hint = "this is a shallow clone: fetch the full history (git fetch --unshallow --tags, or fetch-depth: 0)"
    raise RefNotFound(f"unknown ref `{ref}`", hint)


class GitTree:
    """The tree of one commit, read from the object database."""

    def __init__(self, repo: pygit2.Repository, commit: pygit2.Commit, ref: str, note: str = "") -> None:
        self.repo = repo
        self.commit = commit
        self.label = f"{ref} ({str(commit.id)[:12]})"
        self.note = note

    @property
    def tree_id(self) -> str:
        """The id of the commit's root tree."""
        return str(self.commit.tree.id)

    def _object(self, path: str) -> pygit2.Object | None:
        try:
            return self.commit.tree[path] if path else self.commit.tree
        except KeyError:
            return None

    def kind(self, path: str) -> EntryKind | None:
        """What `path` is; None when absent."""
        obj = self._object(path)
        if obj is None:
            return None
        if not path:
            return "dir"
        return _KIND_BY_MODE.get(obj.filemode, "other")

    def entries(self, folder: str) -> list[Entry]:
        """Direct children of `folder`."""
        obj = self._object(folder)
        if not isinstance(obj, pygit2.Tree):
            return []
        prefix = f"{folder.rstrip('/')}/" if folder else ""
        found = [Entry(prefix + (e.name or ""), _KIND_BY_MODE.get(e.filemode, "other")) for e in obj]
        return sorted(found, key=lambda e: e.path)

    def file_ids(self, folder: str) -> dict[str, str]:
        """The git blob id of every entry directly in `folder` (free: no blob is read)."""
        obj = self._object(folder)
        if not isinstance(obj, pygit2.Tree):
            return {}
        prefix = f"{folder.rstrip('/')}/" if folder else ""
        return {prefix + (e.name or ""): f"{e.filemode:o}:{e.id}" for e in obj}

    def read(self, path: str) -> bytes:
        """The bytes of a blob; a symlink blob is never read as a file."""
        obj = self._object(path)
        if not isinstance(obj, pygit2.Blob) or _KIND_BY_MODE.get(obj.filemode) != "file":
            raise UnsafePath(f"{path} is not a regular file at {self.label}")
        return obj.data
