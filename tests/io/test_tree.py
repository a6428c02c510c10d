"""The working tree: each file hashed once a run, and never read through a symlink."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from catalogctl.io.tree import UnsafePath, WorkingTree, regular_blob


def _opens(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    opened: list[str] = []
    real_open = os.open

    def counting(path: str | Path, flags: int, *args: int) -> int:
        opened.append(Path(path).name)
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", counting)
    return opened


def test_a_file_is_hashed_once_until_it_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.yaml").write_bytes(b"a: 1\n")
    (tmp_path / "d" / "b.yaml").write_bytes(b"b: 2\n")
    tree = WorkingTree(tmp_path)
    opened = _opens(monkeypatch)
    assert tree.read("d/a.yaml") == b"a: 1\n"
    first = tree.file_ids("d")
    assert first == tree.file_ids("d")
    assert opened == ["a.yaml", "b.yaml"]  # a.yaml's read gave its id; nothing read twice
    assert first["d/a.yaml"] == "100644:a8926a52d8dcba5c4386945476ab6a2ad008afd4"  # git hash-object's
    (tmp_path / "d" / "b.yaml").write_bytes(b"b: 22\n")
    assert tree.file_ids("d")["d/b.yaml"] != first["d/b.yaml"]
    assert opened == ["a.yaml", "b.yaml", "b.yaml"]


def test_a_symlinked_file_or_folder_is_never_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.yaml").write_bytes(b"x: 1\n")
    root = tmp_path / "root"
    (root / "d").mkdir(parents=True)
    (root / "d" / "link.yaml").symlink_to(outside / "x.yaml")
    (root / "linked").symlink_to(outside)
    tree = WorkingTree(root)
    for path in ("d/link.yaml", "linked/x.yaml"):
        with pytest.raises(UnsafePath, match=f"^{path} resolves through a symlink; not read$"):
            tree.read(path)
    with pytest.raises(FileNotFoundError):
        tree.read("d/missing.yaml")


def test_a_path_under_a_regular_file_is_absent(tmp_path: Path) -> None:
    (tmp_path / "models").write_text("not a folder\n", encoding="utf-8")
    tree = WorkingTree(tmp_path)
    assert tree.kind("models/x.yaml") is None
    assert tree.entries("models") == []
    assert tree.file_ids("models") == {}


def test_only_a_regular_files_id_names_a_blob_to_read() -> None:
    blob = "a8926a52d8dcba5c4386945476ab6a2ad008afd4"
    assert regular_blob(f"100644:{blob}") == blob
    assert regular_blob(f"100755:{blob}") == blob
    for other in (f"120000:{blob}", f"160000:{blob}", f"40000:{blob}", "symlink:", "other:", "dir:"):
        assert regular_blob(other) is None
    assert regular_blob(f"100644:{blob.upper()}") is None
    assert regular_blob(f"100644:{blob}00") is None  # not a SHA-1 id
    assert regular_blob(f"100644:{blob}\n") is None


def test_the_stamps_of_files_gone_from_a_listed_folder_are_not_kept(tmp_path: Path) -> None:
    (tmp_path / "f").mkdir()
    (tmp_path / "f" / "kept.yaml").write_text("a: 1\n", encoding="utf-8")
    (tmp_path / "g").mkdir()
    known: dict[str, tuple[tuple[int, ...], str]] = {
        "f/kept.yaml": ((1,), "a" * 40),
        "f/gone.yaml": ((2,), "b" * 40),
        "g/unlisted.yaml": ((3,), "c" * 40),
    }
    tree = WorkingTree(tmp_path)
    tree.known_ids(known)
    assert tree.settled_ids() is None  # nothing listed, nothing hashed: what the store holds
    tree.entries("f")
    assert tree.settled_ids() == {"f/kept.yaml": ((1,), "a" * 40), "g/unlisted.yaml": ((3,), "c" * 40)}
    assert tree.settled_ids() is None  # given once
