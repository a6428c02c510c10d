"""Comparing two entities field by field: the differences (DeepDiff on canonical forms), where
each stands in the document, and the stable fingerprint of a change."""

from __future__ import annotations

import functools
import hashlib
import sys
from collections.abc import Iterable
from types import ModuleType
from typing import Any

from catalogctl.catalog.contract import IDENTITY_KEYS, canonical_form, canonical_json
from catalogctl.io.yamlio import PathKey

# DeepDiff imports these, when installed, only to diff their arrays and frames, which canonical
# forms (plain dicts, lists and scalars) never hold; importing them cost the PR gate 0.28 s.
_FRAME_LIBRARIES = ("numpy", "pandas", "polars", "torch")


@functools.cache
def _deepdiff() -> ModuleType:
    """The `deepdiff` package, imported without the array and frame libraries it would load
    when they are installed (they stay importable by anything else afterwards)."""
    absent = [name for name in _FRAME_LIBRARIES if name not in sys.modules]
    for name in absent:
        sys.modules[name] = None  # type: ignore[assignment]  # `import name` raises ImportError
    try:
        import deepdiff
        import deepdiff.helper
    finally:
        for name in absent:
            if sys.modules.get(name, ...) is None:
                del sys.modules[name]
    return deepdiff


def field_diffs(old: Any, new: Any) -> list[tuple[PathKey, Any, Any]]:
    """(path, old, new) of every difference; a changed scalar list is one change of the list."""
    deepdiff = _deepdiff()
    DeepDiff, NotPresent = deepdiff.DeepDiff, deepdiff.helper.NotPresent

    a, b = canonical_form(old), canonical_form(new)
    out: dict[PathKey, tuple[Any, Any]] = {}
    for levels in DeepDiff(a, b, view="tree", verbose_level=2).values():
        for level in levels:
            path: list[Any] = level.path(output_format="list")
            cut = next((i for i, p in enumerate(path) if isinstance(p, int)), None)
            if cut is not None:  # inside a scalar list: report the whole list
                path = path[:cut]
                out[tuple(path)] = (_get(a, path), _get(b, path))
                continue
            t1 = None if isinstance(level.t1, NotPresent) else level.t1
            t2 = None if isinstance(level.t2, NotPresent) else level.t2
            out[tuple(path)] = (t1, t2)
    return [(p, o, n) for p, (o, n) in sorted(out.items(), key=lambda item: [str(x) for x in item[0]])]


def _get(data: Any, path: Iterable[Any]) -> Any:
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    return data


def _index_of(items: list[Any], ident: str | int) -> int | None:
    """The index of the list item whose identity key is `ident`."""
    return next(
        (
            i
            for i, item in enumerate(items)
            if isinstance(item, dict) and any(str(item.get(k)) == ident for k in IDENTITY_KEYS)
        ),
        None,
    )


def document_path(data: Any, path: PathKey) -> PathKey:
    """Map a normalized path (identity keys) back to the document's path (list indexes)."""
    out: list[str | int] = []
    for part in path:
        if isinstance(data, list):
            index = _index_of(data, part)
            if index is None:
                break
            out.append(index)
            data = data[index]
        elif isinstance(data, dict) and part in data:
            out.append(part)
            data = data[part]
        else:
            break
    return tuple(out)


def dotted(path: Iterable[Any]) -> str:
    """`a.b.c`: a path as the report writes it."""
    return ".".join(str(p) for p in path)


def fingerprint(kind: str, ident: str, change: str, path: str, old: Any, new: Any) -> str:
    """A stable id of a change: the same change gives the same fingerprint on every machine."""
    body = canonical_json([kind, ident, change, path, old, new])
    return hashlib.sha256(body).hexdigest()[:16]
