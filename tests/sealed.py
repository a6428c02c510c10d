"""The sealed environment a test runs in, and a prebuilt repository is built in (`tests.prebuilt`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pygit2
import pytest


@contextmanager
def sealed(patch: pytest.MonkeyPatch, home: Path) -> Iterator[None]:
    """No global git config, no writes to the real home, a fixed identity for commits; the
    environment through `patch` (undone with it), libgit2's search path until the block ends."""
    patch.setenv("HOME", str(home))
    patch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    patch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    patch.delenv("CATALOGCTL_NO_CACHE", raising=False)
    # Each test's cache key is a key file made in its own home, as a user's is.
    patch.delenv("CATALOGCTL_CACHE_KEY", raising=False)
    # Tests that read the shipped catalog in place must not write into this checkout's .git/.
    patch.setenv("CATALOGCTL_CACHE_DIR", str(home / "catalogctl-cache"))
    patch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")
    patch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for var in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"):
        patch.setenv(var, "Catalog Tester")
    for var in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"):
        patch.setenv(var, "tester@example.invalid")
    patch.setenv("NO_COLOR", "1")
    empty = home / "empty-git-config"
    empty.mkdir()
    levels = (pygit2.enums.ConfigLevel.GLOBAL, pygit2.enums.ConfigLevel.XDG, pygit2.enums.ConfigLevel.SYSTEM)
    saved = {level: pygit2.settings.search_path[level] for level in levels}
    for level in levels:
        pygit2.settings.search_path[level] = str(empty)
    try:
        yield
    finally:
        for level, value in saved.items():
            pygit2.settings.search_path[level] = value
