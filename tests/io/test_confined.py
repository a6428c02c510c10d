"""Files under one folder, reached only through real folders: no link leads outside."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from catalogctl.io.confined import Confined, NotAFolder, digest_bytes


@pytest.fixture
def box(tmp_path: Path) -> Confined:
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside/secret.txt").write_text("secret")
    root = tmp_path / "root"
    (root / "real").mkdir(parents=True)
    (root / "real/page.html").write_text("page")
    (root / "linked").symlink_to(tmp_path / "outside")
    (root / "secret.txt").symlink_to(tmp_path / "outside/secret.txt")
    (root / "file").write_text("x")
    os.mkfifo(root / "fifo")
    return Confined(root)


def test_kinds_are_read_without_following_links(box: Confined) -> None:
    assert [box.kind(p) for p in ("real", "real/page.html", "linked", "secret.txt", "fifo", "nope/x")] == [
        "folder",
        "file",
        "link",
        "link",
        "other",
        "missing",
    ]
    with pytest.raises(NotAFolder, match=r"^linked is a symbolic link, not a folder$"):
        box.kind("linked/secret.txt")
    with pytest.raises(NotAFolder, match=r"^file is a file, not a folder$"):
        box.kind("file/x")


def test_only_regular_files_are_read(box: Confined) -> None:
    assert box.read("real/page.html", 100) == b"page"
    assert box.read("real/page.html", 3) is None  # larger than allowed
    assert box.read("secret.txt", 100) is None
    assert box.read("linked/secret.txt", 100) is None
    assert box.read("fifo", 100) is None  # and no wait for a writer
    assert box.digest("real/page.html") == digest_bytes(b"page")


def test_remove_takes_only_a_file_with_the_digest_and_the_folders_it_empties(box: Confined, tmp_path: Path) -> None:
    secret = digest_bytes(b"secret")
    assert not box.remove_if("secret.txt", secret)
    assert not box.remove_if("linked/secret.txt", secret)
    assert (tmp_path / "outside/secret.txt").read_text() == "secret"
    assert (box.root / "secret.txt").is_symlink()
    assert not box.remove_if("real/page.html", digest_bytes(b"other bytes"))
    assert box.remove_if("real/page.html", digest_bytes(b"page"))
    assert not (box.root / "real").exists()


def test_replace_never_writes_through_a_link(box: Confined, tmp_path: Path) -> None:
    new = tmp_path / "new.txt"
    new.write_text("new")
    box.replace(new, "secret.txt")  # the link itself is replaced
    assert (tmp_path / "outside/secret.txt").read_text() == "secret"
    assert (box.root / "secret.txt").read_text() == "new"
    new.write_text("again")
    with pytest.raises(NotAFolder):
        box.replace(new, "linked/secret.txt")
    assert (tmp_path / "outside/secret.txt").read_text() == "secret"
    box.replace(new, "made/deep/x.txt")
    assert (box.root / "made/deep/x.txt").read_text() == "again"


def test_a_socket_is_neither_read_nor_removed(box: Confined) -> None:
    # Opening a Unix socket fails (ENXIO): a socket where a stale page was must not stop a rebuild.
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(box.root / "real/page.html.sock"))
        assert box.kind("real/page.html.sock") == "other"
        assert box.read("real/page.html.sock", 100) is None
        assert box.digest("real/page.html.sock") is None
        assert not box.remove_if("real/page.html.sock", digest_bytes(b""))
        assert (box.root / "real/page.html.sock").is_socket()
