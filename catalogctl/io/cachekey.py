"""The secret that authenticates the document cache's entries: never kept in the store.

Every entry of the store carries an HMAC-SHA256 under this key, so whoever can write the store
but not read the key can delete or spoil entries (a miss: the file is checked again), never
forge one. The key is `CATALOGCTL_CACHE_KEY` when set (a CI secret, shared by the runs that
share a store), else the user's key file, `$XDG_CONFIG_HOME/catalogctl/cache.key` (default
`~/.config/catalogctl/cache.key`), made on first use: 32 random bytes as hex, mode 0600 in a
folder of mode 0700. A key file that is a symlink or not a regular file, that is not the user's,
that others may read or write, or whose folder others may write, is not used: the run goes on
without the cache, with a `CacheKeyWarning` saying why (the CLI prints it once).
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
import warnings
from pathlib import Path

CACHE_KEY_ENV = "CATALOGCTL_CACHE_KEY"
KEY_NAME = "cache.key"
MIN_KEY_CHARS = 32  # a shorter secret could be guessed offline from any entry of the store
_MAX_KEY_BYTES = 4096


class CacheKeyWarning(UserWarning):
    """The cache's key cannot be had or trusted: this run goes on without the cache."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.hint = hint


class _Refused(Exception):
    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.hint = hint


def key_path() -> Path:
    """Where the user's key file is (XDG base directory rules)."""
    base = os.environ.get("XDG_CONFIG_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".config"
    return root / "catalogctl" / KEY_NAME


def cache_key() -> bytes | None:
    """The key entries are authenticated with: `CATALOGCTL_CACHE_KEY`, else the user's key file
    (made when absent); None, with a `CacheKeyWarning`, when there is none to trust."""
    try:
        given = os.environ.get(CACHE_KEY_ENV, "").strip()
        if given:
            return _secret(given, CACHE_KEY_ENV)
        try:
            path = key_path()
        except RuntimeError:  # no home folder to keep a key in
            raise _Refused("there is no home folder for its key file", f"set {CACHE_KEY_ENV}") from None
        try:
            return _read(path)
        except FileNotFoundError:
            return _create(path)
    except _Refused as exc:
        warnings.warn(CacheKeyWarning(f"the cache is off for this run: {exc}", exc.hint), stacklevel=2)
        return None


def _secret(text: str, where: str) -> bytes:
    if len(text) < MIN_KEY_CHARS:
        raise _Refused(
            f"{where} holds a key shorter than {MIN_KEY_CHARS} characters",
            'use a random one, e.g. `python3 -c "import secrets; print(secrets.token_hex(32))"`',
        )
    return text.encode("utf-8", "surrogateescape")


def _check_folder(folder: Path) -> None:
    """Others who may write the key's folder could put their own key in it."""
    info = os.stat(folder)
    if info.st_uid != os.getuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise _Refused(
            f"the folder of its key, {folder}, is not yours alone (owner uid {info.st_uid}, "
            f"mode {stat.S_IMODE(info.st_mode):04o})",
            f"`chmod 700 {folder}` (owned by you), or set {CACHE_KEY_ENV}",
        )


def _read(path: Path) -> bytes:
    """The key in `path`, checked on the open file (a swap after the check changes nothing);
    FileNotFoundError when there is none yet."""
    try:
        _check_folder(path.parent)
        # O_NOFOLLOW: a symlink is refused; O_NONBLOCK: a FIFO put there does not hang the run.
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _Refused(
                f"its key file {path} is a symlink", f"remove it (a new key is made), or set {CACHE_KEY_ENV}"
            ) from None
        raise _Refused(f"its key file {path} cannot be read ({exc.strerror})", f"set {CACHE_KEY_ENV}") from None
    with os.fdopen(handle, "rb") as file:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise _Refused(f"its key file {path} is not a regular file", "remove it (a new key is made)")
        if info.st_uid != os.getuid():
            raise _Refused(
                f"its key file {path} is owned by uid {info.st_uid}, not by you", "remove it (a new key is made)"
            )
        if info.st_mode & 0o077:
            raise _Refused(
                f"its key file {path} may be read or written by others (mode {stat.S_IMODE(info.st_mode):04o})",
                f"`chmod 600 {path}` if no one else read it, else remove it (a new key is made)",
            )
        text = file.read(_MAX_KEY_BYTES).decode("utf-8", "surrogateescape").strip()
    return _secret(text, f"its key file {path}")


def _create(path: Path) -> bytes:
    """A new random key in `path`, written whole before it appears there (another run making
    one at the same time: both read the one that appeared first)."""
    folder = path.parent
    scratch = folder / f".{KEY_NAME}.{os.getpid()}.{secrets.token_hex(4)}"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        _check_folder(folder)
        handle = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            with os.fdopen(handle, "w", encoding="ascii") as file:
                file.write(secrets.token_hex(32) + "\n")
                file.flush()
                os.fsync(file.fileno())
            try:
                os.link(scratch, path)  # never replaces a key another run just made
            except FileExistsError:
                pass
            except OSError:  # a file system without hard links
                os.replace(scratch, path)
        finally:
            scratch.unlink(missing_ok=True)
    except _Refused:
        raise
    except OSError as exc:
        raise _Refused(
            f"its key file {path} cannot be made ({exc.strerror})",
            f"set {CACHE_KEY_ENV}, or make {folder.parent} writable; CATALOGCTL_NO_CACHE=1 turns the cache off",
        ) from None
    return _read(path)
