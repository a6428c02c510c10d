"""The generated folder: written at each build, only what changed, and nothing left over."""

from __future__ import annotations

from pathlib import Path


def sync(folder: Path, pages: dict[str, str]) -> None:
    """Make `folder` hold exactly `pages` (relative path -> text): a file whose text is the same is
    not rewritten (Sphinx then reads it again only if it changed), one no longer generated is
    removed (a stale page would be a page of nothing)."""
    folder.mkdir(parents=True, exist_ok=True)
    for relative, content in pages.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != content:
            temporary = path.with_name(path.name + ".tmp")
            temporary.write_text(content, encoding="utf-8")
            temporary.replace(path)
    wanted = {folder / relative for relative in pages}
    for path in sorted(folder.rglob("*"), reverse=True):
        if path.is_file() and path not in wanted:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
