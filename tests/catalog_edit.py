"""Edit a copy of the shipped catalog and read back what the loader says."""

from __future__ import annotations

from pathlib import Path

from catalogctl.catalog.index import LoadResult
from catalogctl.catalog.loader import load_tree
from catalogctl.io.tree import WorkingTree
from catalogctl.render.common import diagnostic_line
from tests.helpers import replace_in


def load(root: Path) -> LoadResult:
    """Load the working tree at `root`."""
    return load_tree(WorkingTree(root))


def problems(root: Path) -> list[str]:
    """Every diagnostic except the pending values the shipped catalog has, one line each."""
    return [diagnostic_line(d) for d in load(root).diagnostics if d.code != "pending-value"]


def problems_after(root: Path, relative: str, old: str, new: str) -> list[str]:
    """The problems after one replacement in one catalog file."""
    replace_in(root, f"benchmark_suite/{relative}", old, new)
    return problems(root)
