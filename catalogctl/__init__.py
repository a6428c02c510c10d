"""catalogctl: validate, diff, freeze and resolve a git-versioned benchmark catalog.

The public API a runner imports. Every function returns typed objects and raises the
exceptions of `catalogctl.errors`; nothing here prints or exits. Names are imported on first
use, so `catalogctl --help` does not pay for pydantic, ruamel.yaml and pygit2.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    "Catalog": "catalog",
    "LoadResult": "catalog",
    "load_tree": "catalog",
    "load_catalog": "api",
    "resolve_submission": "api",
    "preflight_submission": "api",
    "ResolvedConfig": "resolve",
    "CheckFailed": "errors",
    "diff_refs": "api",
    "DiffReport": "diff_report",
    "contract_digest": "contract",
    "resolve_contract": "contract",
    "Diagnostic": "diagnostics",
    "Severity": "diagnostics",
    "CatalogError": "errors",
    "CatalogInvalid": "errors",
    "EntityNotFound": "errors",
    "EnvironmentProblem": "errors",
    "RefNotFound": "errors",
    "Tree": "tree",
    "WorkingTree": "tree",
    "open_tree": "tree",
}

if TYPE_CHECKING:
    from .api import diff_refs, load_catalog, preflight_submission, resolve_submission
    from .catalog import Catalog, LoadResult, load_tree
    from .contract import contract_digest, resolve_contract
    from .diagnostics import Diagnostic, Severity
    from .diff_report import DiffReport
    from .errors import CatalogError, CatalogInvalid, CheckFailed, EntityNotFound, EnvironmentProblem, RefNotFound
    from .resolve import ResolvedConfig
    from .tree import Tree, WorkingTree, open_tree


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
    "LoadResult",
    "RefNotFound",
    "ResolvedConfig",
    "Severity",
    "Tree",
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
