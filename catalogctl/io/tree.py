"""A tree of files to read a catalog from: the working directory here, a git tree in `gitrepo`.

Every verb reads through this protocol, so what is above it is identical for both.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

EntryKind = Literal["file", "dir", "symlink", "other"]


@dataclass(frozen=True)
class Entry:
    """A direct child of a folder: its repository-relative posix path and what it is."""

    path: str
    kind: EntryKind


class UnsafePath(OSError):
    """A path that is, or passes through, a symlink: never read."""


class Tree(Protocol):
    """Read-only access to a set of files addressed by repository-relative posix paths."""

    label: str
    note: str  # how the tree was found, when worth saying (e.g. a cohort without its tag)

    def kind(self, path: str) -> EntryKind | None:
        """What `path` is, without following a symlink; None when absent."""

    def entries(self, folder: str) -> list[Entry]:
        """The direct children of `folder`, sorted by name; [] when it does not exist."""

    def read(self, path: str) -> bytes:
        """The bytes of a regular file (never through a symlink)."""

    def file_ids(self, folder: str) -> dict[str, str]:
        """An id of the content of every entry directly in `folder`, equal to the git tree's
        for the same content: two trees hold the same file when the ids match."""


def blob_id(data: bytes) -> str:
    """The git blob id of `data` (what `git hash-object` prints)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def _kind_of(mode: int) -> EntryKind:
    if stat.S_ISLNK(mode):
        return "symlink"
    if stat.S_ISDIR(mode):
        return "dir"
    if stat.S_ISREG(mode):
        return "file"
    return "other"


class WorkingTree:
    """The files on disk under `root`."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.label = "working tree"
        self.note = ""

    def _local(self, path: str) -> Path:
        parts = [p for p in path.split("/") if p]
        if any(p in (".", "..") for p in parts):
            raise ValueError(f"path escapes the repository: {path}")
        return self.root.joinpath(*parts)

    def kind(self, path: str) -> EntryKind | None:
        """What `path` is, without following a symlink."""
        try:
            return _kind_of(os.lstat(self._local(path)).st_mode)
        except FileNotFoundError:
            return None

    def entries(self, folder: str) -> list[Entry]:
        """Direct children of `folder`; a folder reached through a symlink is never listed."""
        if self.kind(folder) != "dir":
            return []
        prefix = f"{folder.rstrip('/')}/" if folder else ""
        with os.scandir(self._local(folder)) as it:
            found = [Entry(prefix + e.name, _kind_of(e.stat(follow_symlinks=False).st_mode)) for e in it]
        return sorted(found, key=lambda e: e.path)

    def file_ids(self, folder: str) -> dict[str, str]:
        """Git blob ids computed from the files' bytes (mode-prefixed, as `GitTree` gives them)."""
        ids: dict[str, str] = {}
        for entry in self.entries(folder):
            if entry.kind == "file":
                data = self._local(entry.path).read_bytes()
                blob = blob_id(data)
                mode = os.lstat(self._local(entry.path)).st_mode
                ids[entry.path] = f"{'100755' if mode & stat.S_IXUSR else '100644'}:{blob}"
            else:
                ids[entry.path] = f"{entry.kind}:"  # never equal to a git id: reported as changed
        return ids

    def read(self, path: str) -> bytes:
        """Read a regular file; refuse anything that is or passes through a symlink."""
        local = self._local(path)
        real = Path(os.path.realpath(local))
        if real != local or not real.is_relative_to(self.root):
            raise UnsafePath(f"{path} resolves through a symlink; not read")
        return local.read_bytes()
