"""The only place pygit2 is used: find the repository, resolve refs, read trees.

Trees are read straight from the object database: nothing is checked out, nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pygit2

from .errors import EnvironmentProblem, RefNotFound
from .tree import Entry, EntryKind

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
    """A ref and the commit it names."""

    name: str
    commit: pygit2.Commit


def resolve_ref(repo: pygit2.Repository, ref: str) -> ResolvedRef:
    """The commit a tag, branch, remote branch or (abbreviated) commit id names."""
    for candidate in (f"refs/tags/{ref}", f"refs/heads/{ref}", f"refs/remotes/{ref}", ref):
        try:
            obj = repo.revparse_single(candidate)
            commit = obj.peel(pygit2.Commit)
        except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError):
            continue
        return ResolvedRef(ref, commit)
    hint = "fetch it first: git fetch --tags origin"
    if repo.is_shallow:
        hint = "this is a shallow clone: fetch the full history (git fetch --unshallow --tags, or fetch-depth: 0)"
    raise RefNotFound(f"unknown ref `{ref}`", hint)


class GitTree:
    """The tree of one commit, read from the object database."""

    def __init__(self, repo: pygit2.Repository, commit: pygit2.Commit, ref: str) -> None:
        self.repo = repo
        self.commit = commit
        self.label = f"{ref} ({str(commit.id)[:12]})"
        self._root = commit.tree
        # Folder path -> its tree object. A lookup by full path (`tree["a/b/c.yaml"]`) reads and
        # parses every tree on the way again, so reading each file of a folder of n files would
        # cost O(n) apiece; looking names up in the cached folder tree keeps it O(log n).
        self._trees: dict[str, pygit2.Tree] = {}

    @property
    def tree_id(self) -> str:
        """The id of the commit's root tree."""
        return str(self.commit.tree.id)

    def _object(self, path: str) -> pygit2.Object | None:
        if not path:
            return self._root
        parts = path.split("/")
        if "" in parts:  # an unusual spelling ('a//b', 'a/'): let libgit2 resolve the whole path
            try:
                return self._root[path]
            except KeyError:
                return None
        parent = self._folder("/".join(parts[:-1]))
        if parent is None:
            return None
        try:
            return parent[parts[-1]]
        except KeyError:
            return None

    def _folder(self, folder: str) -> pygit2.Tree | None:
        """The tree object of a folder (cached), or None when it is absent or not a folder."""
        found = self._trees.get(folder)
        if found is None:
            obj = self._object(folder)
            if not isinstance(obj, pygit2.Tree):
                return None
            self._trees[folder] = found = obj
        return found

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

    def read(self, path: str) -> bytes:
        """The bytes of a blob; a symlink blob is never read as a file."""
        obj = self._object(path)
        if not isinstance(obj, pygit2.Blob) or _KIND_BY_MODE.get(obj.filemode) != "file":
            raise PermissionError(f"{path} is not a regular file at {self.label}")
        return obj.data
