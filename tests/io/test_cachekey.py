"""The cache's secret: from the environment, or a key file only its user can read; never trusted
otherwise."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from catalogctl.io.cachekey import CACHE_KEY_ENV, CacheKeyWarning, cache_key, key_path
from tests.helpers import run_cli

SECRET = "s3cret-of-the-ci-runner-0123456789abcdef"


def _home() -> Path:
    return Path(os.environ["HOME"])


def test_a_key_is_made_on_first_use_for_this_user_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "catalogctl" / "cache.key"
    assert key_path() == path
    assert not path.exists()
    made = cache_key()
    assert made is not None
    assert len(bytes.fromhex(made.decode())) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert sorted(p.name for p in path.parent.iterdir()) == ["cache.key"]  # no scratch file left
    assert cache_key() == made
    monkeypatch.setenv(CACHE_KEY_ENV, "")  # empty: as if unset
    assert cache_key() == made


@pytest.mark.parametrize("config_home", [None, "relative/ignored"])
def test_the_key_file_is_under_the_home_config_folder_by_default(
    monkeypatch: pytest.MonkeyPatch, config_home: str | None
) -> None:
    if config_home is None:
        monkeypatch.delenv("XDG_CONFIG_HOME")
    else:
        monkeypatch.setenv("XDG_CONFIG_HOME", config_home)
    assert key_path() == _home() / ".config" / "catalogctl" / "cache.key"
    assert cache_key() == (_home() / ".config" / "catalogctl" / "cache.key").read_bytes().strip()


def test_the_variable_wins_and_no_file_is_made(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_KEY_ENV, f"  {SECRET}\n")
    assert cache_key() == SECRET.encode()
    assert not key_path().parent.exists()


def test_a_short_secret_in_the_variable_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_KEY_ENV, "hunter2")
    with pytest.warns(CacheKeyWarning, match=r"CATALOGCTL_CACHE_KEY holds a key shorter than 32 characters"):
        assert cache_key() is None


def _loose(path: Path) -> str:
    path.chmod(0o640)
    return r"may be read or written by others \(mode 0640\)"


def _writable(path: Path) -> str:
    path.chmod(0o602)
    return r"may be read or written by others \(mode 0602\)"


def _symlink(path: Path) -> str:
    target = path.with_name("elsewhere")
    path.rename(target)
    path.symlink_to(target)
    return "is a symlink"


def _fifo(path: Path) -> str:
    path.unlink()
    os.mkfifo(path, 0o600)
    return "is not a regular file"  # and the run does not wait for a writer


def _short(path: Path) -> str:
    path.write_text("abc\n")
    return "holds a key shorter than 32 characters"


def _shared_folder(path: Path) -> str:
    path.parent.chmod(0o777)
    return r"is not yours alone \(owner uid \d+, mode 0777\)"


def _someone_elses(path: Path) -> str:
    if os.getuid() != 0:
        pytest.skip("only root can give a file away")
    os.chown(path, 65534, -1)
    return "is owned by uid 65534, not by you"


DAMAGES: dict[str, Callable[[Path], str]] = {
    "group-readable": _loose,
    "world-writable": _writable,
    "symlink": _symlink,
    "fifo": _fifo,
    "short": _short,
    "folder writable by others": _shared_folder,
    "not the user's": _someone_elses,
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_key_file_that_cannot_be_trusted_is_not_used_nor_replaced(damage: str) -> None:
    assert cache_key() is not None
    path = key_path()
    expected = DAMAGES[damage](path)
    before = sorted(p.name for p in path.parent.iterdir())
    with pytest.warns(CacheKeyWarning, match=f"the cache is off for this run: .*{expected}") as caught:
        assert cache_key() is None
    assert len(caught) == 1
    hint = caught[0].message.hint  # type: ignore[union-attr]
    assert hint
    assert sorted(p.name for p in path.parent.iterdir()) == before


def test_a_key_made_by_another_run_at_the_same_time_is_the_one_used(monkeypatch: pytest.MonkeyPatch) -> None:
    theirs = "f" * 64
    real_link = os.link

    def racing(source: str, target: str) -> None:
        # Another run links its key first.
        handle = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(handle, theirs.encode() + b"\n")
        os.close(handle)
        real_link(source, target)

    monkeypatch.setattr(os, "link", racing)
    assert cache_key() == theirs.encode()
    assert sorted(p.name for p in key_path().parent.iterdir()) == ["cache.key"]


def test_a_key_that_cannot_be_made_turns_the_cache_off(monkeypatch: pytest.MonkeyPatch) -> None:
    def read_only(self: Path, *args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self))

    monkeypatch.setattr(Path, "mkdir", read_only)  # a home on a read-only file system
    with pytest.warns(CacheKeyWarning, match=r"key file .*/catalogctl/cache.key cannot be made \(Read-only file"):
        assert cache_key() is None


def test_the_cli_warns_once_and_runs_uncached(catalog_repo: Path) -> None:
    assert cache_key() is not None
    key_path().chmod(0o644)
    store = Path(os.environ["CATALOGCTL_CACHE_DIR"])
    reference = run_cli("validate", "--format", "json", "--no-cache", catalog_repo)
    for argv in (["validate", str(catalog_repo)], ["ci", "--base", "v1", "-C", str(catalog_repo)]):
        done = run_cli(*argv, "--format", "json")
        assert done.stderr.splitlines() == [
            f"warning: the cache is off for this run: its key file {key_path()} may be read or written by others "
            "(mode 0644)",
            f"hint: `chmod 600 {key_path()}` if no one else read it, else remove it (a new key is made)",
        ]
    assert run_cli("validate", "--format", "json", catalog_repo).stdout == reference.stdout
    assert not store.exists()  # nothing read or written
    key_path().chmod(0o600)
    run_cli("validate", catalog_repo)
    assert store.exists()
