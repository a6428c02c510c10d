"""A tree of files to read a catalog from: the working directory here, a git tree in `gittree`.

Every verb reads through this protocol, so what is above it is identical for both.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol, runtime_checkable

EntryKind = Literal["file", "dir", "symlink", "other"]
# A file changed less than this before it was hashed may change again with the same stat (a
# coarse clock, or a filesystem with 1 s or 2 s timestamps): its blob id is not kept across runs.
_SETTLED_NS = 3_000_000_000
# A file id naming a regular file's SHA-1 blob: the only kind `BlobReader` may stand in for.
_REGULAR_BLOB = re.compile(r"100(?:644|755):([0-9a-f]{40})")


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


@runtime_checkable
class BlobReader(Protocol):
    """A tree that reads a blob by its id, no path walked (a git tree): where a file whose id is
    the same on another tree may be read instead, equal ids meaning equal bytes."""

    def read_blob(self, oid: str) -> bytes:
        """The bytes of the blob `oid` (40 hex digits); OSError when there is no such blob."""


def regular_blob(file_id: str) -> str | None:
    """The blob id in the id of a regular file (`100644:<40 hex>` or `100755:…`, from
    `file_ids`); None for anything else: a symlink, a folder, a submodule, a non-file."""
    found = _REGULAR_BLOB.fullmatch(file_id)
    return found.group(1) if found else None


def blob_id(data: bytes) -> str:
    """The git blob id of `data` (what `git hash-object` prints)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def undecodable(path: str) -> bool:
    """Whether a path holds bytes that are not UTF-8: the operating system's listing and git's
    trees give them as lone surrogates (Python's surrogateescape), which no output can encode."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def shown_path(path: str) -> str:
    """A path as every output can show it: a byte that is not UTF-8 escaped (`gsm\\xff8k.yaml`)."""
    try:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a surrogate no byte decoded to
        return path.encode("utf-8", "backslashreplace").decode("utf-8")


def folders_above(path: str) -> list[str]:
    """The folders a repository-relative path passes through, outermost first (`a/b/c.yaml`:
    `a`, `a/b`)."""
    parts = path.split("/")
    return ["/".join(parts[:depth]) for depth in range(1, len(parts))]


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
        # Within one run each file is hashed once: its blob id, by path and stat.
        self._blobs: dict[str, tuple[tuple[int, ...], str]] = {}
        # Hashed by this run from files last changed well before: a later run may trust them.
        self._settled: dict[str, tuple[tuple[int, ...], str]] = {}
        self._recorded: dict[str, tuple[tuple[int, ...], str]] = {}  # as the store holds them
        self._listed: dict[str, set[str]] = {}  # the entries of each folder this run listed
        self._served: dict[str, str] = {}  # path -> blob id of what `read` returned last
        self._safe_folders: set[Path] = {self.root}  # folders resolving to themselves, in the root

    def _local(self, path: str) -> Path:
        parts = [p for p in path.split("/") if p]
        if any(p in (".", "..") for p in parts):
            raise ValueError(f"path escapes the repository: {path}")
        return self.root.joinpath(*parts)

    def kind(self, path: str) -> EntryKind | None:
        """What `path` is, without following a symlink."""
        try:
            return _kind_of(os.lstat(self._local(path)).st_mode)
        except (FileNotFoundError, NotADirectoryError):  # absent, or below a file
            return None

    def _scan(self, folder: str) -> list[tuple[str, str, os.stat_result]]:
        """(path, local path, lstat) of each direct child of `folder`, sorted by path; [] unless
        `folder` is a real folder (one reached through a symlink is never listed)."""
        if self.kind(folder) != "dir":
            return []
        prefix = f"{folder.rstrip('/')}/" if folder else ""
        with os.scandir(self._local(folder)) as it:
            found = [(prefix + e.name, e.path, e.stat(follow_symlinks=False)) for e in it]
        self._listed[folder.rstrip("/")] = {child[0] for child in found}
        return sorted(found, key=lambda child: child[0])

    def entries(self, folder: str) -> list[Entry]:
        """Direct children of `folder`; a folder reached through a symlink is never listed."""
        return [Entry(path, _kind_of(info.st_mode)) for path, _, info in self._scan(folder)]

    def file_ids(self, folder: str) -> dict[str, str]:
        """Git blob ids computed from the files' bytes (mode-prefixed, as `GitTree` gives them);
        a file whose stat is what it was when this tree hashed it (or when a run recorded it,
        `known_ids`) is not read again."""
        ids: dict[str, str] = {}
        for path, local, info in self._scan(folder):
            if not stat.S_ISREG(info.st_mode):
                ids[path] = f"{_kind_of(info.st_mode)}:"  # never equal to a git id: reported as changed
                continue
            known = self._blobs.get(path)
            if known is None or known[0] != _stamp(info):
                self._read(path, Path(local))
                known = self._blobs[path]
            ids[path] = f"{'100755' if info.st_mode & stat.S_IXUSR else '100644'}:{known[1]}"
        return ids

    def known_ids(self, known: dict[str, tuple[tuple[int, ...], str]]) -> None:
        """Blob ids by path and stat from an earlier run (`settled_ids`): taken while the stat
        is unchanged, as git's index is."""
        for path, entry in known.items():
            self._blobs.setdefault(path, entry)
        self._recorded = dict(known)

    def settled_ids(self) -> dict[str, tuple[tuple[int, ...], str]] | None:
        """Every blob id a later run may trust by stat, or None when that is what the store holds
        already: those recorded, and those this run hashed from files last changed well before,
        less the files gone from a folder this run listed. A file changed in the same clock tick
        as its hashing could change again with the same stat ("racily clean" in git's terms): it
        is hashed again."""
        trusted = {**self._recorded, **self._settled}
        for path in list(trusted):
            folder = path.rpartition("/")[0]
            if folder in self._listed and path not in self._listed[folder]:
                del trusted[path]
        if trusted == self._recorded:
            return None
        self._recorded = trusted  # given once: a second flush does not write them again
        return trusted

    def read(self, path: str) -> bytes:
        """Read a regular file; refuse anything that is or passes through a symlink."""
        local = self._local(path)
        folder = local.parent
        if folder not in self._safe_folders:
            real = Path(os.path.realpath(folder))
            if real != folder or not real.is_relative_to(self.root):
                raise UnsafePath(f"{path} resolves through a symlink; not read")
            self._safe_folders.add(folder)
        data = self._read(path, local)
        self._served[path] = self._blobs[path][1]
        return data

    def served_ids(self) -> dict[str, str]:
        """The blob id of what `read` last returned for each path read."""
        return dict(self._served)

    def _read(self, path: str, local: Path) -> bytes:
        # O_NOFOLLOW refuses a file that is a symlink; its folders were checked once each.
        try:
            handle = os.open(local, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise UnsafePath(f"{path} resolves through a symlink; not read") from exc
            raise
        with os.fdopen(handle, "rb") as file:
            data = file.read()
            info = os.fstat(handle)
        entry = self._blobs[path] = (_stamp(info), blob_id(data))
        if time.time_ns() - max(info.st_mtime_ns, info.st_ctime_ns) > _SETTLED_NS:
            self._settled[path] = entry
        else:
            self._settled.pop(path, None)  # hashed again, too soon after a change
        return data


def _stamp(info: os.stat_result) -> tuple[int, ...]:
    """What says a file is unchanged within a run (as git's index does)."""
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_mode)


def file_blobs(file_ids: dict[str, str]) -> dict[str, str]:
    """The git blob ids of the regular files among a tree's file ids (`mode:id`), by path."""
    return {path: blob for path, file_id in file_ids.items() if (blob := regular_blob(file_id)) is not None}
