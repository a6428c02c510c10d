"""The Python API: every name `catalogctl` exports (`catalogctl.__all__`), documented by autodoc
from its docstring where it is defined, and `catalogctl.api`'s calls."""

from __future__ import annotations

import inspect

FRAGMENT = "fragments/python-api.md"
# Types that the exported names take or return, documented so that every type in a signature
# links somewhere: a new one fails the build (nitpicky) until it is named here.
SUPPORTING = (
    "catalogctl.catalog.index.Location",
    "catalogctl.catalog.validation.PendingValue",
    "catalogctl.catalog.layout.Layout",
    "catalogctl.catalog.documentcache.DocumentCache",
    "catalogctl.io.tree.Entry",
    "catalogctl.release.trust.SignatureFlags",
    "catalogctl.release.beacon_plan.BeaconRequest",
    "catalogctl.model.reports.diff.Side",
    "catalogctl.model.reports.diff.Change",
    "catalogctl.model.reports.diff.BenchmarkStatus",
    "catalogctl.model.reports.diff.CohortDelta",
    "catalogctl.model.reports.diff.SeedSetDelta",
    "catalogctl.model.reports.diff.SignerDelta",
    "catalogctl.io.yamlio.Document",
)


def fragment() -> str:
    import catalogctl

    out: list[str] = []
    for name in catalogctl.__all__:
        if name == "__version__":
            continue
        obj = getattr(catalogctl, name)
        where = f"{obj.__module__}.{obj.__qualname__}"
        if where.startswith(("catalogctl.api.", "catalogctl.errors.")):
            continue  # documented with their module, on the same page
        directive = "autoclass" if inspect.isclass(obj) else "autofunction"
        options = ["   :members:"] if inspect.isclass(obj) and not _is_model(obj) else []
        out += ["```{eval-rst}", f".. {directive}:: {where}", *options, "```", ""]
    out += ["### Types in these signatures", ""]
    for where in SUPPORTING:
        out += ["```{eval-rst}", f".. autoclass:: {where}", "```", ""]
    return "\n".join(out)


def _is_model(cls: type) -> bool:
    """A pydantic model: its fields are its JSON Schema's (see the output and document pages)."""
    return any(base.__name__ == "BaseModel" for base in inspect.getmro(cls))


def pages() -> dict[str, str]:
    return {FRAGMENT: fragment()}
