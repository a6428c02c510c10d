"""Test environment: sealed from the user's git config and home, no network beyond loopback."""

from __future__ import annotations

import ipaddress
import secrets
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygit2
import pytest
from hypothesis import settings

from catalogctl.catalog import verdict
from catalogctl.catalog.loader import Loader
from tests.cache_corpus import checking_load, checking_verdict
from tests.gpgkeys import GpgHome, gpg_home
from tests.helpers import commit_all, copy_catalog, git, init_repo

# Property tests draw the same examples on every run (and in CI): a failure always reproduces.
settings.register_profile("derandomized", derandomize=True, database=None)
settings.load_profile("derandomized")


@pytest.fixture(scope="session", autouse=True)
def cache_outside_the_checkout(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Module-scoped fixtures are set up before each test's environment: they too never write
    cache entries into this checkout's .git/."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CATALOGCTL_CACHE_DIR", str(tmp_path_factory.mktemp("session-cache")))
        # Nor do they read or make the developer's cache key (~/.config/catalogctl/cache.key).
        patch.setenv("CATALOGCTL_CACHE_KEY", secrets.token_hex(32))
        patch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("session-config")))
        yield


@pytest.fixture(autouse=True)
def sealed_environment(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No global git config, no writes to the real home, a fixed identity for commits."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.delenv("CATALOGCTL_NO_CACHE", raising=False)
    # Each test's cache key is a key file made in its own home, as a user's is.
    monkeypatch.delenv("CATALOGCTL_CACHE_KEY", raising=False)
    # Tests that read the shipped catalog in place must not write into this checkout's .git/.
    monkeypatch.setenv("CATALOGCTL_CACHE_DIR", str(home / "catalogctl-cache"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for var in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"):
        monkeypatch.setenv(var, "Catalog Tester")
    for var in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"):
        monkeypatch.setenv(var, "tester@example.invalid")
    monkeypatch.setenv("NO_COLOR", "1")
    empty = home / "empty-git-config"
    empty.mkdir()
    levels = (pygit2.enums.ConfigLevel.GLOBAL, pygit2.enums.ConfigLevel.XDG, pygit2.enums.ConfigLevel.SYSTEM)
    saved = {level: pygit2.settings.search_path[level] for level in levels}
    for level in levels:
        pygit2.settings.search_path[level] = str(empty)
    yield
    for level, value in saved.items():
        pygit2.settings.search_path[level] = value


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any connection beyond this machine's loopback fails the test."""
    real_connect = socket.socket.connect

    def guarded(self: socket.socket, address: Any) -> Any:
        if self.family in (socket.AF_INET, socket.AF_INET6):
            host = address[0]
            try:
                loopback = ipaddress.ip_address(host).is_loopback
            except ValueError:
                loopback = host == "localhost"
            if not loopback:
                raise OSError(f"test tried to reach {host}: only loopback is allowed")
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)


@pytest.fixture(autouse=True)
def cache_never_changes_a_verdict(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every catalog a test loads is also loaded uncached, cold and warm, and compared
    (`tests.cache_corpus`)."""
    monkeypatch.setattr(Loader, "load", checking_load(Loader.load, lambda: tmp_path_factory.mktemp("cache")))
    monkeypatch.setattr(verdict, "check_tree", checking_verdict(verdict.check_tree))


@pytest.fixture
def gnupg(monkeypatch: pytest.MonkeyPatch) -> Iterator[GpgHome]:
    """A GnuPG home of its own, the environment's GNUPGHOME (`tests.gpgkeys.gpg_home`)."""
    with gpg_home(monkeypatch) as made:
        yield made


@pytest.fixture
def catalog_dir(tmp_path: Path) -> Path:
    """A copy of the shipped catalog in a plain folder (no git)."""
    return copy_catalog(tmp_path / "catalog")


@pytest.fixture
def catalog_repo(tmp_path: Path) -> Path:
    """A git repository holding the shipped catalog in one commit, tagged `v1`."""
    root = copy_catalog(init_repo(tmp_path / "repo"))
    commit_all(root, "Add the catalog")
    git(root, "tag", "-a", "v1", "-m", "first")
    return root
