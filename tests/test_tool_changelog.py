"""The tool's changelog (docs/development/changelog.md), kept with towncrier: pyproject.toml's
configuration, run on a copy of this repository's changelog files in a real git repository. Its
fragments are checked on a branch and collected into a release's section, which the release
workflow reads back (tests/test_workflows.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import REPO_ROOT, commit_all, git, init_repo, write

CHANGELOG = "docs/development/changelog.md"
START = "<!-- towncrier release notes start -->\n"


def towncrier(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """towncrier as a maintainer runs it, in `repo`."""
    return subprocess.run(
        [sys.executable, "-m", "towncrier", *args], cwd=repo, capture_output=True, text=True, check=False
    )


def changelog_repo(root: Path, *, fragments: bool) -> Path:
    """A repository holding this one's towncrier configuration and changelog on `main` (with the
    pending fragments, or none), and a branch `change` checked out, as a pull request's."""
    init_repo(root)
    shutil.copy(REPO_ROOT / "pyproject.toml", root / "pyproject.toml")
    shutil.copy(REPO_ROOT / "changelog.d" / "README.md", write(root, "changelog.d/README.md", ""))
    if fragments:
        for fragment in pending_fragments():
            shutil.copy(fragment, root / "changelog.d" / fragment.name)
    write(root, CHANGELOG, (REPO_ROOT / CHANGELOG).read_text(encoding="utf-8"))
    commit_all(root, "The changelog as it is")
    git(root, "switch", "-q", "-c", "change")
    return root


def pending_fragments() -> list[Path]:
    return sorted(p for p in (REPO_ROOT / "changelog.d").iterdir() if p.name != "README.md")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return changelog_repo(tmp_path / "repo", fragments=False)


def test_the_changelog_points_to_the_catalogs_release_notes_and_starts_the_releases() -> None:
    text = (REPO_ROOT / CHANGELOG).read_text(encoding="utf-8")
    head = text.split(START, 1)[0]
    assert head.startswith("# Changelog\n")
    assert "https://github.com/mlcommons-catalog/catalogctl/blob/main/CHANGELOG.md" in head
    assert text.count(START) == 1


def test_a_change_without_a_fragment_fails_the_check(repo: Path) -> None:
    write(repo, "catalogctl/feature.py", "FEATURE = 1\n")
    commit_all(repo, "A change with no fragment")
    done = towncrier(repo, "check", "--compare-with", "main")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "No new newsfragments found on this branch." in done.stdout + done.stderr


def test_a_fragment_passes_the_check_and_is_drafted_under_its_type(repo: Path) -> None:
    write(repo, "catalogctl/feature.py", "FEATURE = 1\n")
    write(repo, "changelog.d/123.fixed.md", "`validate` names the file of a duplicate key.\n")
    write(repo, "changelog.d/+notes.added.md", "A fragment without an issue.\n")
    commit_all(repo, "A change with its fragments")
    done = towncrier(repo, "check", "--compare-with", "main")
    assert done.returncode == 0, done.stdout + done.stderr
    draft = towncrier(repo, "build", "--draft", "--version", "9.9.9", "--date", "2030-01-02")
    assert draft.returncode == 0, draft.stdout + draft.stderr
    assert "## 9.9.9 (2030-01-02)\n\n### Added\n\n- A fragment without an issue.\n" in draft.stdout
    assert "### Fixed\n\n- `validate` names the file of a duplicate key. (#123)\n" in draft.stdout
    assert git(repo, "status", "--porcelain") == ""  # a draft writes nothing


def test_a_build_puts_the_new_section_first_and_removes_its_fragments(repo: Path) -> None:
    before = (repo / CHANGELOG).read_text(encoding="utf-8")
    write(repo, "changelog.d/124.security.md", "The gate runs only trusted code.\n")
    commit_all(repo, "A fragment")
    done = towncrier(repo, "build", "--version", "9.9.9", "--date", "2030-01-02", "--yes")
    assert done.returncode == 0, done.stdout + done.stderr
    text = (repo / CHANGELOG).read_text(encoding="utf-8")
    head, released = before.split(START, 1)
    section = "## 9.9.9 (2030-01-02)\n\n### Security\n\n- The gate runs only trusted code. (#124)\n"
    assert text.startswith(f"{head}{START}\n{section}")
    assert text.endswith(released.lstrip("\n"))  # the releases before it, below and unchanged
    assert not (repo / "changelog.d" / "124.security.md").exists()
    assert (repo / "changelog.d" / "README.md").exists()  # not a fragment: kept


def test_every_pending_fragment_is_one_towncrier_collects(tmp_path: Path) -> None:
    # A misnamed file (a type towncrier does not know, no type at all) would be left out of the notes.
    repo = changelog_repo(tmp_path / "repo", fragments=True)
    draft = towncrier(repo, "build", "--draft", "--version", "9.9.9")
    assert draft.returncode == 0, draft.stdout + draft.stderr
    for fragment in pending_fragments():
        assert fragment.read_text(encoding="utf-8").strip() in draft.stdout, fragment.name
