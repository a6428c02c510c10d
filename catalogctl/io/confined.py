"""Files under one folder, reached without ever following a symbolic link.

Every path is relative to the folder and walked one component at a time with
`O_NOFOLLOW | O_DIRECTORY` from the folder's own descriptor (`openat`), so neither a `..` nor a
link planted anywhere on the way (even after it was checked) leads outside: the folder's own
files are read, replaced and removed, never what a link names. A component that is not a real
folder raises `NotAFolder`.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

Kind = Literal["missing", "file", "folder", "link", "other"]

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class NotAFolder(Exception):
    """A component of a path is a link or a file where a folder was expected."""

    def __init__(self, rel: str, kind: Kind) -> None:
        super().__init__(f"{rel} is {'a symbolic link' if kind == 'link' else 'a file'}, not a folder")
        self.rel = rel
        self.kind = kind


def _kind(mode: int) -> Kind:
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "folder"
    return "file" if stat.S_ISREG(mode) else "other"


def digest_bytes(data: bytes) -> str:
    """The digest a confined file is compared by: `sha256:<hex>`."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


class Confined:
    """A folder whose files are reached only through real folders beneath it."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @contextlib.contextmanager
    def _parent(self, rel: str, create: bool = False) -> Iterator[tuple[int, str]]:
        """The descriptor of `rel`'s folder and `rel`'s last name; folders made on the way when
        `create` (FileNotFoundError otherwise)."""
        *folders, name = rel.split("/")
        fd = os.open(self.root, _DIR_FLAGS)
        try:
            for depth, part in enumerate(folders):
                if create:
                    with contextlib.suppress(FileExistsError):
                        os.mkdir(part, 0o777, dir_fd=fd)
                try:
                    child = os.open(part, _DIR_FLAGS, dir_fd=fd)
                except OSError as exc:
                    if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
                        raise
                    here = "/".join(folders[: depth + 1])
                    raise NotAFolder(here, _kind(os.stat(part, dir_fd=fd, follow_symlinks=False).st_mode)) from None
                os.close(fd)
                fd = child
            yield fd, name
        finally:
            os.close(fd)

    def kind(self, rel: str) -> Kind:
        """What `rel` is (a link is a link, never what it names); "missing" when it or one of
        its folders does not exist."""
        try:
            with self._parent(rel) as (fd, name):
                return _kind(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode)
        except FileNotFoundError:
            return "missing"

    @contextlib.contextmanager
    def _open_file(self, rel: str) -> Iterator[io.BufferedReader | None]:
        """`rel` opened for reading if it is a regular file (not a link, FIFO, socket or device), else None."""
        handle: int | None = None
        try:
            with self._parent(rel) as (fd, name):
                # Only a regular file is opened: opening a socket fails (ENXIO), a device may act.
                if stat.S_ISREG(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode):
                    handle = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, dir_fd=fd)
        except (FileNotFoundError, NotAFolder):
            yield None
            return
        except OSError as exc:
            if exc.errno != errno.ELOOP:  # ELOOP: the last name is a link
                raise
            yield None
            return
        if handle is None:
            yield None
            return
        with os.fdopen(handle, "rb") as file:
            yield file if stat.S_ISREG(os.fstat(file.fileno()).st_mode) else None

    def read(self, rel: str, max_bytes: int) -> bytes | None:
        """The bytes of `rel` if it is a regular file of at most `max_bytes`, else None."""
        with self._open_file(rel) as file:
            data = file.read(max_bytes + 1) if file else None
        return data if data is not None and len(data) <= max_bytes else None

    def digest(self, rel: str) -> str | None:
        """The digest of `rel` if it is a regular file, else None (read in blocks, any size)."""
        with self._open_file(rel) as file:
            return "sha256:" + hashlib.file_digest(file, "sha256").hexdigest() if file else None

    def replace(self, source: Path, rel: str) -> None:
        """Move `source` (a file, or a folder to where nothing is; on the same filesystem) to
        `rel` in one rename: a link or file at `rel` is replaced itself, never written through;
        missing folders are made."""
        with self._parent(rel, create=True) as (fd, name):
            os.replace(source, name, dst_dir_fd=fd)

    def remove_if(self, rel: str, digest: str) -> bool:
        """Remove `rel` if it is a regular file whose digest is `digest`, then the folders above
        it that this left empty. Whether it was removed."""
        if self.digest(rel) != digest:
            return False
        try:
            with self._parent(rel) as (fd, name):
                os.unlink(name, dir_fd=fd)
        except (FileNotFoundError, NotAFolder):
            return False
        folders = rel.split("/")[:-1]
        while folders:
            try:
                with self._parent("/".join(folders)) as (fd, name):
                    os.rmdir(name, dir_fd=fd)  # only an empty folder; never what a link names
            except (OSError, NotAFolder):
                break
            folders.pop()
        return True
