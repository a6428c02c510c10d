"""Repositories built once per test run (once per xdist worker) and copied into each test's folder.

Building a release (a freeze and a push) costs several git commands and a catalog load; copying
the folder it was built in costs a few milliseconds. Each test still gets its own copy, laid out
in its `tmp_path` exactly as the builder laid it out (`repo/`, and `origin.git/` and the seeds file
where the builder makes them), so nothing a test does reaches the template or another test. A
build runs in a sealed environment of its own (its own home and cache folder): it writes nothing
a test could see, and reads nothing of the test that first asks for it.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pygit2
import pytest

from tests.helpers import commit_all, copy_catalog, git, init_repo, replace_in, run_cli
from tests.release_repo import bare_origin, frozen_and_pushed
from tests.review_repo import make_frozen
from tests.sealed import sealed
from tests.site_repo import three_cohorts


def _catalog(folder: Path) -> None:
    """A git repository holding the shipped catalog in one commit, tagged `v1`."""
    root = copy_catalog(init_repo(folder / "repo"))
    commit_all(root, "Add the catalog")
    git(root, "tag", "-a", "v1", "-m", "first")


def _release(folder: Path) -> None:
    """`tests.release_repo.frozen_and_pushed`: 2026-09-C0 frozen on main, pushed to `origin.git`."""
    frozen_and_pushed(folder / "repo", bare_origin(folder), folder)


def _release_then_a_change(folder: Path) -> None:
    """2026-09-C0 released and pushed; a contract change on main, pushed: 2026-09-C1 is next."""
    root = folder / "repo"
    replace_in(root, "benchmark_suite/benchmarks/gsm8k.yaml", "max_new_tokens: 256", "max_new_tokens: 512")
    commit_all(root, "gsm8k: longer answers")
    git(root, "push", "-q", "origin", "main")


def _frozen_with_a_pr_branch(folder: Path) -> None:
    """`tests.review_repo.make_frozen`: 2026-09-C0 frozen on main, a `pr` branch checked out."""
    make_frozen(folder / "repo", folder)


def _site_of_three_cohorts(folder: Path) -> None:
    """`tests.site_repo.three_cohorts`, and the site built from it into `site/`."""
    run_cli("site", "-o", folder / "site", "-C", three_cohorts(folder / "repo", folder))


# Each template: the template it starts from (copied into its folder first) and what it adds.
BUILDS: dict[str, tuple[str | None, Callable[[Path], None]]] = {
    "catalog": (None, _catalog),
    "release": ("catalog", _release),
    "release-then-a-change": ("release", _release_then_a_change),
    "frozen-with-a-pr-branch": ("catalog", _frozen_with_a_pr_branch),
    "site-of-three-cohorts": ("catalog", _site_of_three_cohorts),
}


class Prebuilt:
    """The templates of one test run, each built on first use."""

    def __init__(self, factory: pytest.TempPathFactory) -> None:
        self._factory = factory
        self._built: dict[str, Path] = {}

    def install(self, name: str, tmp_path: Path) -> Path:
        """A copy of template `name` laid into `tmp_path`; returns its repository, `tmp_path/repo`.
        What a fixture it builds on already laid there (its `repo/`, its `origin.git/`) is replaced:
        the template was built from the same start."""
        _lay(self._template(name), tmp_path)
        return tmp_path / "repo"

    def _template(self, name: str) -> Path:
        if name not in self._built:
            start, build = BUILDS[name]
            template = None if start is None else self._template(start)
            folder = self._factory.mktemp(f"prebuilt-{name}")
            with pytest.MonkeyPatch.context() as patch, sealed(patch, self._factory.mktemp("prebuilt-home")):
                if template is not None:
                    _lay(template, folder)
                build(folder)
                _compact(folder)
            self._built[name] = folder
        return self._built[name]


def _compact(folder: Path) -> None:
    """Fewer files for each test to copy: every repository of a template keeps its objects in one
    pack, not one file (and one folder) per object, and loses the `*.sample` hooks `git init`
    writes, which never run. Commits, trees, refs, reflogs and configuration are unchanged; a
    template is copied in about half the time (a `release` has 176 files and folders, 85 after)."""
    for entry in folder.iterdir():
        gitdir = entry / ".git" if (entry / ".git").is_dir() else entry
        if not (gitdir / "objects").is_dir() or not (gitdir / "HEAD").is_file():
            continue
        for sample in (gitdir / "hooks").glob("*.sample"):
            sample.unlink()
        git(gitdir, "repack", "-a", "-d", "-q")  # and prunes the loose copies of what it packed


def _lay(template: Path, target: Path) -> None:
    """Copy every entry of `template` into `target`, then point each remote that named a
    repository of the template at the copy's."""
    target.mkdir(parents=True, exist_ok=True)
    for entry in template.iterdir():
        into = target / entry.name
        if into.is_dir() and not into.is_symlink():
            shutil.rmtree(into)
        elif into.exists() or into.is_symlink():
            into.unlink()
        if entry.is_dir() and not entry.is_symlink():
            shutil.copytree(entry, into, symlinks=True)
        else:
            shutil.copy2(entry, into, follow_symlinks=False)
    repo = target / "repo"
    if (repo / ".git").is_dir():
        remotes = pygit2.Repository(repo).remotes
        for remote in list(remotes):
            if remote.name is not None and remote.url is not None and remote.url.startswith(f"{template}/"):
                remotes.set_url(remote.name, str(target / remote.url.removeprefix(f"{template}/")))
