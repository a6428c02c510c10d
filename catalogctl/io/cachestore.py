"""Where cached results are stored, and how an entry is written and read back.

Entries are rows of one SQLite database per cache folder (`entries.sqlite`, in WAL mode): the
entry's key, an HMAC-SHA256 over the key and the payload, and the payload. The HMAC's key is a
secret kept outside the store (`cachekey`: a CI secret, or a file only this user can read), so
`EntryStore.get` returns a payload only when it was stored under the key asked for by a run that
held the secret: a torn, corrupt, foreign or planted entry reads as absent and is rebuilt. Every
entry is read through `get` (documents, verdicts, snapshots, stamps): whoever can write the
store but not read the secret can make a run miss or wait, never change what it finds. A run's
new entries are written by `flush` in one transaction (`INSERT OR REPLACE`): a reader sees the
old entries or the new ones, never half of one; a concurrent writer waits for the lock (a busy
timeout) rather than fail. A file that is not a sound database is moved aside
(`entries.sqlite.corrupt.*`) and a new one is started: it is never trusted.

The store lives in the repository's common git folder (`.git/catalogctl/cache/`, shared by its
worktrees), or, for a tree outside git, in the user's cache folder (`$XDG_CACHE_HOME/catalogctl`,
default `~/.cache/catalogctl`), or in `$CATALOGCTL_CACHE_DIR` when set (e.g. a folder a CI
runner keeps between runs). `CATALOGCTL_NO_CACHE=1` turns the cache off.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import sqlite3
import stat
from pathlib import Path

from catalogctl.io.cachekey import cache_key

NO_CACHE_ENV = "CATALOGCTL_NO_CACHE"
CACHE_DIR_ENV = "CATALOGCTL_CACHE_DIR"
_MAGIC = b"catalogctl-cache/3"  # /2 was an unkeyed SHA-256: anyone could compute it
SQLITE_NAME = "entries.sqlite"
# The column `checksum` holds the HMAC: the name stays, so a store of an earlier version opens
# (its rows do not verify and are replaced).
_SCHEMA = "CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, checksum TEXT NOT NULL, payload BLOB NOT NULL)"
_BUSY_TIMEOUT_S = 60.0  # a concurrent run holding the write lock makes this one wait, not fail


def _mac(secret: bytes, key: str, payload: bytes) -> str:
    # Over the key too: a row copied under another key (another file's, another tree's
    # snapshot) does not verify.
    return hmac.digest(secret, _MAGIC + b"\0" + key.encode("ascii") + b"\0" + payload, "sha256").hex()


Stamps = dict[str, tuple[tuple[int, ...], str]]  # path -> (stat stamp, git blob id)


def _stamps_key(root: str) -> str:
    """The entry of a working tree's stamps (by its folder): one entry, read in one go."""
    return hashlib.sha256(b"catalogctl-stamps\0" + root.encode("utf-8", "surrogateescape")).hexdigest()


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
    points), or None outside git. A `.git` that is not the user's (one planted in a shared folder
    such as /tmp) is not followed, as git refuses it: its owner would choose where the store is."""
    for folder in (start, *start.parents):
        dot = folder / ".git"
        try:
            if os.lstat(dot).st_uid != os.getuid():
                return None
        except OSError:
            continue
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


def _linked(path: Path) -> bool:
    """Whether `path` is a symlink or one of several hard links to a file: written through, it
    would change a file elsewhere (another database of the user's, any file as `-shm`)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return False
    return stat.S_ISLNK(info.st_mode) or (stat.S_ISREG(info.st_mode) and info.st_nlink > 1)


class EntryStore:
    """Content-addressed entries (by a hex key) in one SQLite database in one folder,
    authenticated with `secret` (default: the user's, `cachekey.cache_key`; none to be had:
    the store is not used)."""

    def __init__(self, folder: Path, secret: bytes | None = None) -> None:
        self.folder = folder
        self._secret = secret
        self.path = folder / SQLITE_NAME
        self._db: sqlite3.Connection | None = None
        self._broken = False  # the database could not be opened, even afresh: no cache this run
        self._pending: dict[str, bytes] = {}

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT_S, isolation_level=None)
        try:
            db.execute("PRAGMA trusted_schema=OFF")  # a planted trigger or view calls no risky function
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # WAL: a crash loses at most the last run's entries
            db.execute(_SCHEMA)
            db.execute("SELECT key, checksum, payload FROM entries LIMIT 1").fetchall()
        except BaseException:
            db.close()
            raise
        return db

    def _open(self) -> sqlite3.Connection | None:
        if self._db is not None or self._broken:
            return self._db
        if self._secret is None:
            self._secret = cache_key()
            if self._secret is None:  # nothing to authenticate with: no entry can be trusted
                self._broken = True
                return None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            if any(_linked(name) for name in self._files()):
                self._set_aside()  # a link planted there would have entries written into its target
            try:
                self._db = self._connect()
            except sqlite3.OperationalError:
                raise  # locked too long, not writable, not a file: not the database's fault
            except sqlite3.DatabaseError:  # not a database, or a damaged one
                self._set_aside()
                self._db = self._connect()
        except (OSError, sqlite3.Error):
            self._broken = True
        return self._db

    def _files(self) -> list[Path]:
        """The database and its journals."""
        return [self.path.with_name(self.path.name + suffix) for suffix in ("", "-wal", "-shm", "-journal")]

    def _set_aside(self) -> None:
        """Move a database that is not one (or is damaged, or a link) out of the way, with its
        journals."""
        aside = f".corrupt.{os.getpid()}.{os.urandom(4).hex()}"
        for source in self._files():
            if os.path.lexists(source):
                os.replace(source, source.with_name(source.name + aside))

    def _damaged(self) -> None:
        self.close()
        try:
            self._set_aside()
        except OSError:
            self._broken = True

    def get(self, key: str) -> bytes | None:
        """The payload stored under `key`, or None when absent, unreadable, torn, foreign or not
        authenticated by this user's secret."""
        db = self._open()
        if db is None:
            return None
        try:
            row = db.execute("SELECT checksum, payload FROM entries WHERE key = ?", (key,)).fetchone()
        except sqlite3.OperationalError:
            return None
        except sqlite3.DatabaseError:  # a damaged page: the whole database is no longer trusted
            self._damaged()
            return None
        if row is None:
            return None
        mac, payload = row
        if not (isinstance(payload, bytes) and isinstance(mac, str) and mac.isascii()):
            return None
        assert self._secret is not None  # set by `_open`
        return payload if hmac.compare_digest(mac, _mac(self._secret, key, payload)) else None

    def stamps(self, root: str) -> Stamps:
        """The blob ids a run recorded for the files of the working tree at `root`, by path and
        stat; none when the entry does not verify (every file is hashed again): a planted one
        could otherwise give a file's blob id as another content's."""
        payload = self.get(_stamps_key(root))
        if payload is None:
            return {}
        try:
            stored = json.loads(payload)
            known: Stamps = {}
            for path, (stamp, blob) in stored.items():
                if not isinstance(blob, str):
                    return {}
                known[path] = (tuple(stamp), blob)  # a stamp that is not a stat's never matches one
        except (ValueError, TypeError, AttributeError):
            return {}
        return known

    def keep_stamps(self, root: str, stamps: Stamps) -> None:
        """Keep every blob id a later run may trust of the working tree at `root` (the whole
        set: it replaces the stored one) to be stored by the next `flush`."""
        payload = {path: [list(stamp), blob] for path, (stamp, blob) in stamps.items()}
        self.put(_stamps_key(root), json.dumps(payload, separators=(",", ":")).encode("utf-8"))

    def put(self, key: str, payload: bytes) -> None:
        """Keep `payload` to be stored under `key` by the next `flush`."""
        self._pending[key] = payload

    def close(self) -> None:
        """Close the database (pending entries stay pending: `flush` opens it again)."""
        if self._db is not None:
            self._db.close()
            self._db = None

    def flush(self) -> None:
        """Store every pending entry in one transaction (`INSERT OR REPLACE`), and close; a store
        that cannot be written is skipped: the cache is only ever a speed-up."""
        pending, self._pending = self._pending, {}
        db = self._open() if pending else self._db
        if db is None:
            return
        assert self._secret is not None  # set by `_open`
        rows = [(key, _mac(self._secret, key, payload), payload) for key, payload in pending.items()]
        try:
            if rows:
                with db:
                    db.execute("BEGIN IMMEDIATE")
                    db.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?)", rows)
        except sqlite3.OperationalError:
            pass
        except sqlite3.DatabaseError:
            self._damaged()
        finally:
            self.close()
