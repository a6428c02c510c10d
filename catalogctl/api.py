"""Entry points of the public API that combine several modules."""

from __future__ import annotations

from pathlib import Path

from .catalog import LoadResult, load_tree
from .tree import open_tree


def load_catalog(path: Path | str | None = None, ref: str | None = None) -> LoadResult:
    """Load and validate the catalog of the working tree at `path` (default: the current
    folder), or of `ref` in its repository (read from the object database, never checked out).
    Returns the catalog with every diagnostic; raises EnvironmentProblem or RefNotFound."""
    return load_tree(open_tree(None if path is None else Path(path), ref))
