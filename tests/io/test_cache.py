"""Cache storage: where entries live, and that only whole, matching entries are read back."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalogctl.io.cache import EntryStore, cache_disabled, common_git_dir, find_git_dir, store_folder, user_cache_dir

KEY = "0123456789abcdef" * 4


def test_an_entry_reads_back_only_whole_and_under_its_key(tmp_path: Path) -> None:
    store = EntryStore(tmp_path / "cache")
    assert store.get(KEY) is None
    store.put(KEY, b"payload\nwith lines")
    assert store.get(KEY) == b"payload\nwith lines"
    entry = tmp_path / "cache" / KEY[:2] / KEY[2:]
    raw = entry.read_bytes()
    assert raw.startswith(b"catalogctl-cache/1 " + KEY.encode() + b" ")
    other = "f" * 64
    (tmp_path / "cache" / other[:2]).mkdir()
    (tmp_path / "cache" / other[:2] / other[2:]).write_bytes(raw)  # a copy under another key
    assert store.get(other) is None
    entry.write_bytes(raw[:-1])
    assert store.get(KEY) is None
    entry.write_bytes(raw.split(b"\n")[0])
    assert store.get(KEY) is None


def test_a_write_that_fails_leaves_nothing_behind(tmp_path: Path) -> None:
    store = EntryStore(tmp_path / "cache")
    entry = tmp_path / "cache" / KEY[:2] / KEY[2:]
    (entry / "in-the-way").mkdir(parents=True)  # a non-empty folder where the entry goes
    store.put(KEY, b"x")
    assert sorted(p.name for p in entry.parent.iterdir()) == [KEY[2:]]
    assert store.get(KEY) is None


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
