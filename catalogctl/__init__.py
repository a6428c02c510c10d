"""catalogctl: validate, diff, freeze and resolve a git-versioned benchmark catalog.

The public API a runner imports. Every function returns typed objects and raises the
exceptions of `catalogctl.errors`; nothing here prints or exits. Names are imported on first
use, so `catalogctl --help` does not pay for pydantic, ruamel.yaml and pygit2.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from catalogctl.version import __version__

_EXPORTS: dict[str, str] = {
    "Catalog": "catalog.index",
    "LoadResult": "catalog.index",
    "load_tree": "catalog.loader",
    "load_catalog": "api",
    "resolve_submission": "api",
    "preflight_submission": "api",
    "diff_refs": "api",
    "ResolvedConfig": "model.documents.resolved",
    "DiffReport": "model.reports.diff",
    "FreezeRequest": "release.freeze",
    "FreezeResult": "model.reports.release",
    "contract_digest": "catalog.contract",
    "resolve_contract": "catalog.contract",
    "Tree": "io.tree",
    "WorkingTree": "io.tree",
    "open_tree": "catalog.source",
    **dict.fromkeys(
        (
            "CatalogError",
            "CatalogInvalid",
            "CheckFailed",
            "Diagnostic",
            "EntityNotFound",
            "EnvironmentProblem",
            "RefNotFound",
            "Severity",
            "UsageError",
        ),
        "errors",
    ),
}

if TYPE_CHECKING:
    from catalogctl.api import diff_refs, load_catalog, preflight_submission, resolve_submission
    from catalogctl.catalog.contract import contract_digest, resolve_contract
    from catalogctl.catalog.index import Catalog, LoadResult
    from catalogctl.catalog.loader import load_tree
    from catalogctl.catalog.source import open_tree
    from catalogctl.errors import (
        CatalogError,
        CatalogInvalid,
        CheckFailed,
        Diagnostic,
        EntityNotFound,
        EnvironmentProblem,
        RefNotFound,
        Severity,
        UsageError,
    )
    from catalogctl.io.tree import Tree, WorkingTree
    from catalogctl.model.documents.resolved import ResolvedConfig
    from catalogctl.model.reports.diff import DiffReport
    from catalogctl.model.reports.release import FreezeResult
    from catalogctl.release.freeze import FreezeRequest


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'catalogctl' has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)


__all__ = [
    "Catalog",
    "CatalogError",
    "CatalogInvalid",
    "CheckFailed",
    "Diagnostic",
    "DiffReport",
    "EntityNotFound",
    "EnvironmentProblem",
    "FreezeRequest",
    "FreezeResult",
    "LoadResult",
    "RefNotFound",
    "ResolvedConfig",
    "Severity",
    "Tree",
    "UsageError",
    "WorkingTree",
    "__version__",
    "contract_digest",
    "diff_refs",
    "load_catalog",
    "load_tree",
    "open_tree",
    "preflight_submission",
    "resolve_contract",
    "resolve_submission",
]
