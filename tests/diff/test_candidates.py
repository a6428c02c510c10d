"""`Differ.candidates`: a file whose id is the same on a git side is searched in that side's blob,
and the set found is the one reading every file through the new tree gives, case by case."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from catalogctl.catalog.layout import DEFAULT
from catalogctl.diff.entities import Differ
from catalogctl.io.gitrepo import lookup, open_repository
from catalogctl.io.gittree import GitTree
from catalogctl.io.tree import Tree, WorkingTree
from tests.helpers import commit_all, git, init_repo, write

FOLDER = "benchmark_suite/benchmarks"
NEEDLES = {b"m-changed", b"d-changed"}
MENTIONS = "model: m-changed\n"
PLAIN = "model: m-kept\n"


def by_reading_every_file(new: Tree, needles: set[bytes], known: set[str]) -> set[str]:
    """What `candidates` gave before blobs were read from the git side: every file read
    through the new tree, a file it refuses left out."""
    found: set[str] = set()
    for path in new.file_ids(FOLDER):
        ident = path.rsplit("/", 1)[-1][: -len(".yaml")] if path.endswith(".yaml") else ""
        if not ident or ident in known:
            continue
        try:
            data = new.read(path)
        except OSError:
            continue
        if any(n in data for n in needles):
            found.add(ident)
    return found


def git_tree(root: Path, ref: str) -> GitTree:
    repo = open_repository(root)
    commit = lookup(repo, ref)
    assert commit is not None
    return GitTree(repo, commit, ref)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """Tagged v1, then edited in the working tree: every case `candidates` tells apart."""
    root = init_repo(tmp_path / "repo")
    files = {
        "same": MENTIONS,  # unchanged, mentions a needle
        "dataset": "datasets: [d-changed]\n",
        "known": MENTIONS,  # unchanged, but a changed benchmark: never a candidate
        "edited-in": PLAIN,  # the working tree adds the mention
        "edited-out": MENTIONS,  # the working tree drops it
        "link": MENTIONS,  # a regular file in git, a symlink in the working tree
        "unreadable": MENTIONS,
        **{f"quiet-{i}": PLAIN for i in range(20)},
    }
    for name, text in files.items():
        write(root, f"{FOLDER}/{name}.yaml", text)
    write(root, f"{FOLDER}/tool.yaml", MENTIONS).chmod(0o755)  # mode 100755: a regular file too
    write(root, f"{FOLDER}/notes.txt", MENTIONS)  # not a benchmark file
    commit_all(root, "v1")
    git(root, "tag", "v1")
    write(root, f"{FOLDER}/edited-in.yaml", MENTIONS)
    write(root, f"{FOLDER}/edited-out.yaml", PLAIN)
    (root / FOLDER / "link.yaml").unlink()
    (root / FOLDER / "link.yaml").symlink_to("same.yaml")  # the same bytes, through a link
    write(root, f"{FOLDER}/new.yaml", MENTIONS)  # only on the new side
    write(root, f"{FOLDER}/new-quiet.yaml", PLAIN)
    write(root, f"{FOLDER}/folder.yaml/inside.yaml", MENTIONS)  # a folder named like a benchmark
    return root


def refusing(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The working tree cannot open `name` (a mode of 000 does not stop root, who may run this)."""
    real_open = os.open

    def open_(path: str | Path, flags: int, *args: int, **kwargs: int) -> int:
        if Path(path).name == name:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", open_)


def reads(monkeypatch: pytest.MonkeyPatch, tree: WorkingTree) -> list[str]:
    """The paths `tree.read` is asked for."""
    asked: list[str] = []
    real_read = tree.read

    def read(path: str) -> bytes:
        asked.append(path.rsplit("/", 1)[-1])
        return real_read(path)

    monkeypatch.setattr(tree, "read", read)
    return asked


def test_the_same_benchmarks_as_reading_every_file(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    new, before = WorkingTree(repo), WorkingTree(repo)
    for tree in (new, before):
        tree.file_ids(FOLDER)  # hashed while readable, as the diff's changed_files does
    refusing(monkeypatch, "unreadable.yaml")
    expected = by_reading_every_file(before, NEEDLES, {"known"})
    assert expected == {"same", "dataset", "edited-in", "tool", "new"}
    asked = reads(monkeypatch, new)
    assert Differ(git_tree(repo, "v1"), new, layout=DEFAULT).candidates(NEEDLES, {"known"}) == expected
    # The working tree reads what the blob cannot rule out: a match to confirm (`unreadable` is
    # refused there, as before), a file whose id differs, one only on its side, a link, a folder.
    confirmed = ["same.yaml", "dataset.yaml", "tool.yaml", "unreadable.yaml"]
    as_before = ["edited-in.yaml", "edited-out.yaml", "link.yaml", "new.yaml", "new-quiet.yaml", "folder.yaml"]
    assert sorted(asked) == sorted(confirmed + as_before)


@pytest.mark.parametrize("sides", ["git to working tree", "git to git", "working tree to git", "no git side"])
def test_every_pair_of_sides_finds_what_reading_finds(repo: Path, sides: str) -> None:
    commit_all(repo, "v2")  # the working tree's edits, symlink and all, as a commit
    git(repo, "tag", "v2")
    write(repo, f"{FOLDER}/quiet-3.yaml", MENTIONS)  # and one more edit past v2
    pairs: dict[str, tuple[Tree, Tree]] = {
        "git to working tree": (git_tree(repo, "v1"), WorkingTree(repo)),
        "git to git": (git_tree(repo, "v1"), git_tree(repo, "v2")),
        "working tree to git": (WorkingTree(repo), git_tree(repo, "v2")),
        "no git side": (WorkingTree(repo), WorkingTree(repo)),  # every file read, as before
    }
    old, new = pairs[sides]
    for known in (set(), {"known", "same"}):
        assert Differ(old, new, layout=DEFAULT).candidates(NEEDLES, known) == by_reading_every_file(new, NEEDLES, known)
    assert Differ(old, new, layout=DEFAULT).candidates(set(), set()) == set()


def test_a_folder_reached_through_a_symlink_is_refused_even_with_equal_ids(repo: Path) -> None:
    # The same files under a linked catalog folder: their ids equal the git side's, yet the
    # working tree reads none of them, so none is a candidate.
    (repo / "benchmark_suite").rename(repo / "elsewhere")
    (repo / "benchmark_suite").symlink_to("elsewhere")
    new = WorkingTree(repo)
    old = git_tree(repo, "v1")
    assert new.file_ids(FOLDER)[f"{FOLDER}/same.yaml"] == old.file_ids(FOLDER)[f"{FOLDER}/same.yaml"]
    assert (
        Differ(old, new, layout=DEFAULT).candidates(NEEDLES, set())
        == set()
        == by_reading_every_file(new, NEEDLES, set())
    )


def test_a_blob_the_git_side_cannot_read_is_read_as_before(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(self: GitTree, oid: str) -> bytes:
        raise FileNotFoundError(oid)

    monkeypatch.setattr(GitTree, "read_blob", missing)
    new = WorkingTree(repo)
    found = Differ(git_tree(repo, "v1"), new, layout=DEFAULT).candidates(NEEDLES, {"known"})
    assert found == {"same", "dataset", "edited-in", "tool", "unreadable", "new"}
    assert found == by_reading_every_file(new, NEEDLES, {"known"})


def test_only_regular_files_are_read_by_their_blob_id(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    commit_all(repo, "v2")
    git(repo, "tag", "v2")
    old, new = git_tree(repo, "v1"), git_tree(repo, "v2")
    ids = new.file_ids(FOLDER)
    assert ids[f"{FOLDER}/link.yaml"].startswith("120000:")  # the symlink, as git holds it
    asked: list[str] = []
    real_read_blob = GitTree.read_blob

    def read_blob(self: GitTree, oid: str) -> bytes:
        asked.append(oid)
        return real_read_blob(self, oid)

    monkeypatch.setattr(GitTree, "read_blob", read_blob)
    assert Differ(old, new, layout=DEFAULT).candidates(NEEDLES, set()) == by_reading_every_file(new, NEEDLES, set())
    regular = {
        file_id.partition(":")[2]
        for path, file_id in ids.items()
        if path.endswith(".yaml") and file_id.startswith(("100644:", "100755:"))
    }
    assert set(asked) == regular  # not the link's blob, nor the folder's tree
