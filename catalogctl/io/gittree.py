"""A commit's tree, read straight from git's object database as a `Tree` (nothing is checked out,
nothing is written): the reader every verb that takes `--ref` reads the catalog through."""

from __future__ import annotations

import pygit2

from catalogctl.io.tree import Entry, EntryKind, UnsafePath

_KIND_BY_MODE: dict[int, EntryKind] = {
    pygit2.enums.FileMode.BLOB: "file",
    pygit2.enums.FileMode.BLOB_EXECUTABLE: "file",
    pygit2.enums.FileMode.TREE: "dir",
    pygit2.enums.FileMode.LINK: "symlink",
}


class GitTree:
    """The tree of one commit, read from the object database."""

    def __init__(self, repo: pygit2.Repository, commit: pygit2.Commit, ref: str, note: str = "") -> None:
        self.repo = repo
        self.commit = commit
        self.label = f"{ref} ({str(commit.id)[:12]})"
        self.note = note
        self._root = commit.tree
        # Folder path -> its tree object. A lookup by full path (`tree["a/b/c.yaml"]`) reads and
        # parses every tree on the way again, so reading each file of a folder of n files would
        # cost O(n) apiece; looking names up in the cached folder tree keeps it O(log n).
        self._trees: dict[str, pygit2.Tree] = {}
        self._ids: dict[str, dict[str, str]] = {}  # folder -> `file_ids`: a commit's tree never changes

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

    def file_ids(self, folder: str) -> dict[str, str]:
        """The git blob id of every entry directly in `folder` (free: no blob is read)."""
        known = self._ids.get(folder)
        if known is None:
            obj = self._object(folder)
            if not isinstance(obj, pygit2.Tree):
                return {}
            prefix = f"{folder.rstrip('/')}/" if folder else ""
            known = self._ids[folder] = {prefix + (e.name or ""): f"{e.filemode:o}:{e.id}" for e in obj}
        return dict(known)  # a copy: a caller may change its own

    def read(self, path: str) -> bytes:
        """The bytes of a blob; a symlink blob is never read as a file."""
        obj = self._object(path)
        if not isinstance(obj, pygit2.Blob) or _KIND_BY_MODE.get(obj.filemode) != "file":
            raise UnsafePath(f"{path} is not a regular file at {self.label}")
        return obj.data

    def read_blob(self, oid: str) -> bytes:
        """The bytes of the blob `oid`, straight from the object database (`BlobReader`). No
        path is walked, so nothing here says it is a regular file: `file_ids` says so."""
        try:
            kind, data = self.repo.odb.read(oid)
        except (pygit2.GitError, KeyError, ValueError) as exc:  # absent, or not an object id
            raise FileNotFoundError(f"no blob {oid} at {self.label}") from exc
        if kind != pygit2.enums.ObjectType.BLOB:
            raise UnsafePath(f"{oid} is not a blob at {self.label}")
        return bytes(data)
