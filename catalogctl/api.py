"""Entry points of the public API that combine several modules."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .catalog import LoadResult, load_tree
from .tree import open_tree

if TYPE_CHECKING:
    from .diff import DiffReport


def load_catalog(path: Path | str | None = None, ref: str | None = None) -> LoadResult:
    """Load and validate the catalog of the working tree at `path` (default: the current
    folder), or of `ref` in its repository (read from the object database, never checked out).
    Returns the catalog with every diagnostic; raises EnvironmentProblem or RefNotFound."""
    return load_tree(open_tree(None if path is None else Path(path), ref))


def diff_refs(path: Path | str | None, old: str, new: str | None = None) -> DiffReport:
    """The semantic diff between two refs (cohort ids, tags, branches, commits) of the repository
    at `path`; `new=None` compares with the working tree."""
    from .diff import diff_trees

    root = None if path is None else Path(path)
    old_tree = open_tree(root, old)
    new_tree = open_tree(root, new)
    return diff_trees(old_tree, new_tree, old, new or "working tree")
