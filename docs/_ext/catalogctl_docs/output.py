"""The generated folder: written at each build, only what changed, and nothing left over."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def sync(folder: Path, pages: dict[str, str]) -> None:
    """Make `folder` hold exactly `pages` (relative path -> text): a file whose text is the same is
    not rewritten (Sphinx then reads it again only if it changed), one no longer generated is
    removed (a stale page would be a page of nothing). Files are replaced atomically, through
    temporary files whose names start with a dot, which are never taken for stale: two builds at
    once (the tests' workers) each see whole files."""
    folder.mkdir(parents=True, exist_ok=True)
    for relative, content in pages.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_file() and path.read_text(encoding="utf-8") == content:
            continue
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(content)
        os.replace(temporary, path)
    wanted = {folder / relative for relative in pages}
    for path in sorted(folder.rglob("*"), reverse=True):
        if path.name.startswith("."):
            continue
        if path.is_file() and path not in wanted:
            path.unlink(missing_ok=True)
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
