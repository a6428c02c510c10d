"""Where cached results are stored, and how an entry is written and read back.

An entry is one file: a header line (the format, the entry's key, the SHA-256 of the payload)
and the payload. `EntryStore.get` returns the payload only when the header names the key asked
for and the checksum matches, so a truncated, corrupt or foreign entry reads as absent and is
rebuilt. Writers write a temporary file in the entry's folder and rename it over the entry: a
reader sees the old entry, the new one, or none, never half of one. Entries are not fsynced: a
crash can at worst leave a torn entry, which its checksum refuses.

The store lives in the repository's common git folder (`.git/catalogctl/cache/`, shared by its
worktrees), or, for a tree outside git, in the user's cache folder (`$XDG_CACHE_HOME/catalogctl`,
default `~/.cache/catalogctl`), or in `$CATALOGCTL_CACHE_DIR` when set (e.g. a folder a CI
runner keeps between runs). `CATALOGCTL_NO_CACHE=1` turns the cache off.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

NO_CACHE_ENV = "CATALOGCTL_NO_CACHE"
CACHE_DIR_ENV = "CATALOGCTL_CACHE_DIR"
_MAGIC = b"catalogctl-cache/1"


def cache_disabled() -> bool:
    """Whether the environment turns the cache off (`CATALOGCTL_NO_CACHE` set, not empty or 0)."""
    return os.environ.get(NO_CACHE_ENV, "") not in ("", "0")


def common_git_dir(git_dir: Path) -> Path:
    """The folder a repository's worktrees share (`commondir` of a worktree's git folder)."""
    try:
        shared = (git_dir / "commondir").read_text(encoding="utf-8").strip()
    except OSError:
        return git_dir
    return (git_dir / shared).resolve() if shared else git_dir


def find_git_dir(start: Path) -> Path | None:
    """The git folder of the repository holding `start` (its `.git`, or where a `.git` file
    points), or None outside git."""
    for folder in (start, *start.parents):
        dot = folder / ".git"
        if dot.is_dir():
            return dot
        if dot.is_file():
            try:
                text = dot.read_text(encoding="utf-8").strip()
            except OSError:
                return None
            if not text.startswith("gitdir:"):
                return None
            return (folder / text[len("gitdir:") :].strip()).resolve()
    return None


def user_cache_dir() -> Path:
    """The user's cache folder for catalogctl (XDG base directory rules)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "catalogctl"


def store_folder(git_dir: Path | None) -> Path:
    """The cache folder of a repository (by its git folder), or the user's outside git;
    `CATALOGCTL_CACHE_DIR` (an absolute path) puts every entry there instead."""
    chosen = os.environ.get(CACHE_DIR_ENV, "")
    if os.path.isabs(chosen):
        return Path(chosen)
    if git_dir is None:
        return user_cache_dir() / "cache"
    return common_git_dir(git_dir) / "catalogctl" / "cache"


class EntryStore:
    """Content-addressed entries (by a hex key) in one folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._folders: set[Path] = set()  # entry folders known to exist

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / key[2:]

    def _header(self, key: str, payload: bytes) -> bytes:
        return b"%s %s %s\n" % (_MAGIC, key.encode("ascii"), hashlib.sha256(payload).hexdigest().encode("ascii"))

    def get(self, key: str) -> bytes | None:
        """The payload stored under `key`, or None when absent, unreadable, torn or foreign."""
        try:
            raw = self._path(key).read_bytes()
        except (OSError, ValueError):
            return None
        header, newline, payload = raw.partition(b"\n")
        if not newline or header + b"\n" != self._header(key, payload):
            return None
        return payload

    def put(self, key: str, payload: bytes) -> None:
        """Store `payload` under `key` (write, then rename); a store that cannot be written is
        skipped: the cache is only ever a speed-up."""
        path = self._path(key)
        # A name of this process's own (nothing else writes it) spares mkstemp's retries: a cold
        # run writes thousands of entries.
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
        try:
            if path.parent not in self._folders:
                path.parent.mkdir(parents=True, exist_ok=True)
                self._folders.add(path.parent)
            handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except OSError:
            return
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(self._header(key, payload) + payload)
            os.replace(temporary, path)
        except OSError:
            temporary.unlink(missing_ok=True)
