"""A commit's tree read from the object database: blobs by their ids, file ids as copies."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalogctl.io import gitrepo, gittree
from catalogctl.io.tree import BlobReader, UnsafePath, WorkingTree, regular_blob


def test_a_blob_is_read_by_its_id_and_file_ids_are_a_copy(catalog_repo: Path) -> None:
    repo = gitrepo.open_repository(catalog_repo)
    commit = gitrepo.lookup(repo, "v1")
    assert commit is not None
    tree = gittree.GitTree(repo, commit, "v1")
    assert isinstance(tree, BlobReader)
    assert not isinstance(WorkingTree(catalog_repo), BlobReader)
    folder = "benchmark_suite/benchmarks"
    ids = tree.file_ids(folder)
    path, file_id = sorted(ids.items())[0]
    oid = regular_blob(file_id)
    assert oid is not None
    assert tree.read_blob(oid) == tree.read(path) == (catalog_repo / path).read_bytes()
    ids.clear()  # the caller's copy: the tree keeps its own
    assert tree.file_ids(folder)[path] == file_id
    with pytest.raises(FileNotFoundError, match=r"^no blob 0{40} at v1"):
        tree.read_blob("0" * 40)
    with pytest.raises(FileNotFoundError):
        tree.read_blob("not an id")
    with pytest.raises(UnsafePath, match="is not a blob"):
        tree.read_blob(str(commit.tree.id))
