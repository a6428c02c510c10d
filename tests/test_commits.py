"""The commit convention (CONTRIBUTING.md) holds for every commit made since it was adopted: a
subject of at most 72 characters, in the imperative, without a final period, and the detail in a
body after a blank line. A clone without that history (shallow, or cut elsewhere) skips."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.helpers import REPO_ROOT, commit_all, git, init_repo

# main's HEAD when the convention was adopted (issue 28); the commits before it are left as they are.
BOUNDARY = "87271d3dab930a87a7fcc796f9082acaa12db634"
MAX_SUBJECT = 72

# A heuristic for "not the imperative": a first word in the past tense ("Added", "Fixed"; not
# "Seed" or "Embed"), or a common third-person or -ing form ("Adds", "Fixing").
_NOT_IMPERATIVE = re.compile(
    r"(?!(?:embed|shed|shred)$)[a-z]+(?<!e)ed|"
    r"(?:add|fix|update|remove|change|move|rename|make|use)(?:s|es|ing)|adding|making|using|removing|changing",
    re.IGNORECASE,
)
_SCOPE = re.compile(r"[\w./-]+: ")  # an optional "tests: " or "io/gitrepo: " before the verb
_GITHUB_MERGE = re.compile(r"Merge [0-9a-f]{40} into [0-9a-f]{40}")  # a pull request's test merge


def problems(subject: str, second_line: str | None, merge: bool) -> list[str]:
    """What is wrong with one commit message (its subject, the line after it, if any)."""
    found = []
    if len(subject) > MAX_SUBJECT and not _GITHUB_MERGE.fullmatch(subject):
        found.append(f"subject of {len(subject)} characters (at most {MAX_SUBJECT})")
    if subject.endswith("."):
        found.append("subject ends with a period")
    if merge and not subject.startswith("Merge "):
        found.append("a merge whose subject does not start with 'Merge '")
    words = _SCOPE.sub("", subject, count=1).split()
    if words and _NOT_IMPERATIVE.fullmatch(words[0]):
        found.append(f"subject starts with {words[0]!r}: say what the commit does, in the imperative")
    if second_line:
        found.append("no blank line between the subject and the body")
    return found


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # A checkout owned by another user (CI's container runs as root on the runner's files) is
    # read only if trusted, and the tests' git has no global configuration that trusts it.
    return subprocess.run(["git", "-c", "safe.directory=*", *args], cwd=repo, capture_output=True, text=True)


def history_since(repo: Path, boundary: str) -> list[str] | str:
    """The problems of every commit after `boundary` up to HEAD, as `<short id> <subject>: <problem>`;
    or why they cannot be known here (a string)."""
    if _git(repo, "rev-parse", "--git-dir").returncode != 0:
        return "not a git checkout (an unpacked archive): no commits to check"
    if _git(repo, "rev-parse", "--is-shallow-repository").stdout.strip() == "true":
        return "a shallow clone: the commits since the boundary are not all here (git fetch --unshallow)"
    if _git(repo, "cat-file", "-e", f"{boundary}^{{commit}}").returncode != 0:
        return f"the boundary commit {boundary[:12]} is not in this clone"
    log = _git(repo, "log", "--format=%h%x00%P%x00%B%x1e", f"{boundary}..HEAD")
    log.check_returncode()
    found = []
    for record in filter(None, (r.strip("\n") for r in log.stdout.split("\x1e"))):
        short, parents, message = record.split("\x00")
        lines = message.splitlines()
        second = lines[1] if len(lines) > 1 else None
        for problem in problems(lines[0], second, merge=len(parents.split()) > 1):
            found.append(f"{short} {lines[0][:60]!r}: {problem}")
    return found


def test_every_commit_since_the_convention_follows_it() -> None:
    found = history_since(REPO_ROOT, BOUNDARY)
    if isinstance(found, str):
        pytest.skip(found)
    assert found == []


def test_each_rule_is_checked(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    boundary = commit_all(repo, "Before the convention, anything went.")
    for message in (
        "Add the parser",
        "tests: share one fixture",
        "Seed the repository\n\nThe detail, after a blank line.",
        "Added the parser",
        "Fixes the parser",
        "Fix the parser.",
        "Move " + "x" * 68,
        "Fix the parser\nthe detail, without a blank line",
        "io: renamed the module",
    ):
        commit_all(repo, message)
    git(repo, "checkout", "-q", "-b", "side", boundary)
    commit_all(repo, "Add a side")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "-m", "Merged the side", "side")
    git(repo, "checkout", "-q", "side")
    commit_all(repo, "Add more on the side")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "-m", "Merge branch 'side'", "side")
    found = history_since(repo, boundary)
    assert isinstance(found, list)
    # Without the short ids, sorted: commits made within one second have no order in the log.
    assert sorted(f.split(" ", 1)[1] for f in found) == [
        "'Added the parser': subject starts with 'Added': say what the commit does, in the imperative",
        "'Fix the parser': no blank line between the subject and the body",
        "'Fix the parser.': subject ends with a period",
        "'Fixes the parser': subject starts with 'Fixes': say what the commit does, in the imperative",
        "'Merged the side': a merge whose subject does not start with 'Merge '",
        "'Merged the side': subject starts with 'Merged': say what the commit does, in the imperative",
        f"'Move {'x' * 55}': subject of 73 characters (at most 72)",
        "'io: renamed the module': subject starts with 'renamed': say what the commit does, in the imperative",
    ]


def test_a_shallow_clone_says_why_it_cannot_check(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    boundary = commit_all(repo, "The boundary")
    commit_all(repo, "Added a commit the shallow clone does not have")
    commit_all(repo, "Add the tip")
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow))
    assert history_since(shallow, boundary) == (
        "a shallow clone: the commits since the boundary are not all here (git fetch --unshallow)"
    )
    assert history_since(repo, "0" * 40) == "the boundary commit 000000000000 is not in this clone"
