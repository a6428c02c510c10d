"""Cache storage: where entries live, and that only whole, matching entries are read back."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from catalogctl.io import cachestore as cache_module
from catalogctl.io.cachekey import CacheKeyWarning
from catalogctl.io.cachestore import (
    EntryStore,
    cache_disabled,
    common_git_dir,
    find_git_dir,
    store_folder,
    user_cache_dir,
)
from tests.helpers import copy_catalog, run_cli

KEY = "0123456789abcdef" * 4


def _rows(folder: Path) -> list[tuple[str, str, bytes]]:
    with closing(sqlite3.connect(folder / "entries.sqlite")) as db:
        return db.execute("SELECT key, checksum, payload FROM entries ORDER BY key").fetchall()


def _set(folder: Path, key: str, checksum: str, payload: bytes) -> None:
    with closing(sqlite3.connect(folder / "entries.sqlite")) as db, db:
        db.execute("INSERT OR REPLACE INTO entries VALUES (?, ?, ?)", (key, checksum, payload))


def test_an_entry_reads_back_only_whole_and_under_its_key(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    store = EntryStore(folder)
    assert store.get(KEY) is None
    store.put(KEY, b"payload\nwith lines")
    assert store.get(KEY) is None  # kept for the flush
    store.flush()
    assert store.get(KEY) == b"payload\nwith lines"
    store.flush()  # nothing pending: closes only
    [(key, checksum, payload)] = _rows(folder)
    assert (key, payload) == (KEY, b"payload\nwith lines")
    other = "f" * 64
    _set(folder, other, checksum, payload)  # a copy under another key
    assert EntryStore(folder).get(other) is None
    _set(folder, KEY, checksum, payload[:-1])
    assert EntryStore(folder).get(KEY) is None
    _set(folder, KEY, checksum, "text, not bytes")  # type: ignore[arg-type]
    assert EntryStore(folder).get(KEY) is None


@pytest.mark.parametrize("damage", [b"not a database at all" * 100, b"SQLite format 3\x00" + b"\x01" * 200, "torn"])
def test_a_damaged_database_is_set_aside_and_started_again(tmp_path: Path, damage: bytes | str) -> None:
    folder = tmp_path / "cache"
    store = EntryStore(folder)
    for index in range(200):
        store.put(f"{index:064x}", b"x" * 500)
    store.flush()
    database = folder / "entries.sqlite"
    raw = database.read_bytes()
    database.write_bytes(raw[:4096] + b"\xff" * (len(raw) - 4096) if isinstance(damage, str) else damage)
    store = EntryStore(folder)
    found = [store.get(f"{index:064x}") for index in range(200)]
    assert b"x" * 500 not in found[1:]  # never trusted; a damaged page is found on reading
    store.put(KEY, b"again")
    store.flush()
    assert _rows(folder) == [(KEY, _rows(folder)[0][1], b"again")]
    assert [p.name.split(".corrupt.")[0] for p in folder.iterdir() if ".corrupt." in p.name] in (
        ["entries.sqlite"],
        ["entries.sqlite", "entries.sqlite"],  # set aside on opening, and again on reading
    )


def test_a_store_that_cannot_be_opened_is_skipped(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    (folder / "entries.sqlite" / "in-the-way").mkdir(parents=True)  # a folder where the database goes
    store = EntryStore(folder)
    store.put(KEY, b"x")
    store.flush()
    assert store.get(KEY) is None
    assert sorted(p.name for p in folder.iterdir()) == ["entries.sqlite"]


def test_a_locked_database_is_waited_for_then_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "cache"
    EntryStore(folder).flush()
    store = EntryStore(folder)
    store.put(KEY, b"first")
    store.flush()
    monkeypatch.setattr(cache_module, "_BUSY_TIMEOUT_S", 0.05)
    with closing(sqlite3.connect(folder / "entries.sqlite", isolation_level=None)) as holder:
        holder.execute("BEGIN EXCLUSIVE")
        waiting = EntryStore(folder)
        waiting.put("e" * 64, b"later")
        waiting.flush()  # the lock outlasts the timeout: skipped, no error
        holder.execute("ROLLBACK")
    assert [row[0] for row in _rows(folder)] == [KEY]


def test_the_git_folder_of_a_repository_and_of_a_worktree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CATALOGCTL_CACHE_DIR")
    main = tmp_path / "main"
    (main / ".git" / "worktrees" / "second").mkdir(parents=True)
    (main / ".git" / "worktrees" / "second" / "commondir").write_text("../..\n")
    (main / "sub").mkdir()
    assert find_git_dir(main / "sub") == main / ".git"
    second = tmp_path / "second"
    second.mkdir()
    (second / ".git").write_text(f"gitdir: {main / '.git' / 'worktrees' / 'second'}\n")
    git_dir = find_git_dir(second)
    assert git_dir == main / ".git" / "worktrees" / "second"
    assert common_git_dir(git_dir) == main / ".git"
    assert common_git_dir(main / ".git") == main / ".git"
    assert store_folder(git_dir) == main / ".git" / "catalogctl" / "cache"
    (second / ".git").write_text("not a pointer\n")
    assert find_git_dir(second) is None


def test_outside_git_the_user_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CATALOGCTL_CACHE_DIR")
    assert find_git_dir(Path("/")) is None
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert store_folder(None) == tmp_path / "xdg" / "catalogctl" / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")  # the spec: only absolute paths count
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert user_cache_dir() == tmp_path / "home" / ".cache" / "catalogctl"


@pytest.mark.parametrize(("value", "disabled"), [(None, False), ("", False), ("0", False), ("1", True), ("yes", True)])
def test_the_variable_turns_the_cache_off(monkeypatch: pytest.MonkeyPatch, value: str | None, disabled: bool) -> None:
    if value is None:
        monkeypatch.delenv("CATALOGCTL_NO_CACHE", raising=False)
    else:
        monkeypatch.setenv("CATALOGCTL_NO_CACHE", value)
    assert cache_disabled() is disabled


def test_an_entry_reads_back_only_under_the_secret_it_was_written_with(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    mine, theirs = b"m" * 32, b"t" * 32
    writer = EntryStore(folder, theirs)
    writer.put(KEY, b"their payload")
    writer.flush()
    assert EntryStore(folder, theirs).get(KEY) == b"their payload"
    assert EntryStore(folder, mine).get(KEY) is None  # a store shared without the secret: a miss
    [(_, mac, _)] = _rows(folder)
    # Not the unkeyed SHA-256 anyone can compute, under the old magic or the new one.
    for magic in (b"catalogctl-cache/2", b"catalogctl-cache/3"):
        public = hashlib.sha256(magic + b"\0" + KEY.encode() + b"\0" + b"their payload").hexdigest()
        assert mac != public
        _set(folder, KEY, public, b"their payload")
        assert EntryStore(folder, theirs).get(KEY) is None
    _set(folder, KEY, mac.upper(), b"their payload")  # the same digits, spelled otherwise
    assert EntryStore(folder, theirs).get(KEY) is None
    _set(folder, KEY, "é" * 64, b"their payload")  # not even ASCII
    assert EntryStore(folder, theirs).get(KEY) is None
    mine_too = EntryStore(folder, mine)
    mine_too.put(KEY, b"my payload")
    mine_too.flush()
    assert (EntryStore(folder, mine).get(KEY), EntryStore(folder, theirs).get(KEY)) == (b"my payload", None)


def test_without_a_key_to_trust_the_store_is_not_touched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CATALOGCTL_CACHE_KEY", "short")
    folder = tmp_path / "cache"
    store = EntryStore(folder)
    store.put(KEY, b"x")
    with pytest.warns(CacheKeyWarning, match="shorter than 32 characters"):
        store.flush()
    assert store.get(KEY) is None  # one warning: the store is not used for the rest of the run
    assert not folder.exists()


@pytest.mark.parametrize(("link", "suffix"), [("symbolic", ""), ("symbolic", "-wal"), ("hard", ""), ("hard", "-shm")])
def test_a_database_planted_as_a_link_is_set_aside_not_written_through(tmp_path: Path, link: str, suffix: str) -> None:
    """Whoever can write the store could point it at another SQLite database of the user's; a
    hard link is no symlink, yet writing through it changes the user's file all the same (a
    restored CI cache, a tar, or an earlier job of the same user can plant one)."""
    other = tmp_path / "someone-elses.sqlite"
    with closing(sqlite3.connect(other)) as db, db:
        db.execute("CREATE TABLE notes (text TEXT)")
    before = other.read_bytes()
    folder = tmp_path / "cache"
    folder.mkdir()
    planted = folder / f"entries.sqlite{suffix}"
    if link == "symbolic":
        planted.symlink_to(other)
    else:
        planted.hardlink_to(other)
    store = EntryStore(folder)
    store.put(KEY, b"x")
    store.flush()
    assert other.read_bytes() == before
    assert EntryStore(folder).get(KEY) == b"x"
    database = folder / "entries.sqlite"
    assert not database.is_symlink()
    assert database.stat().st_nlink == 1
    [aside] = [p for p in folder.iterdir() if ".corrupt." in p.name]
    assert aside.is_symlink() if link == "symbolic" else aside.samefile(other)


def test_a_git_folder_of_someone_else_does_not_take_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A `.git` another user put in a shared folder (`/tmp`) above a catalog outside git would
    put the store where they choose: they could read the catalog's data in it, or link it
    anywhere. As git does (`safe.directory`), one that is not the user's is not followed."""
    if os.getuid() != 0:
        pytest.skip("only root can give a file away")
    monkeypatch.delenv("CATALOGCTL_CACHE_DIR")
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o777)
    (tmp_path / ".git").write_text(f"gitdir: {theirs}\n")
    for planted in (theirs, tmp_path / ".git"):
        os.chown(planted, 65534, -1)
    work = copy_catalog(tmp_path / "work")
    assert find_git_dir(work) is None
    run_cli("validate", str(work))
    assert list(theirs.iterdir()) == []
    assert (user_cache_dir() / "cache" / "entries.sqlite").is_file()
