"""In the cache lane (CATALOGCTL_TEST_CACHE_CHECK=1) and in tests marked `cache_check`, every
catalog a test loads is loaded four ways: without the cache, through a cold cache, through the
same cache warm, and as the test asked. All four must give the same diagnostics (cross-document
ones included) and the same catalog; the test goes on with the last. So every catalog fixture
of the lane and every property example is a case of "the cache never changes a verdict"."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from catalogctl.catalog import loader
from catalogctl.catalog.config import layout_of
from catalogctl.catalog.crossref import check_catalog
from catalogctl.catalog.documentcache import DocumentCache
from catalogctl.catalog.index import LoadResult
from catalogctl.io.cachestore import EntryStore

Load = Callable[[Any], LoadResult]


def state(result: LoadResult) -> tuple[Any, ...]:
    """What a load decided: every diagnostic (single-file and cross-document), every entity."""
    catalog = result.catalog
    diagnostics = sorted([*result.diagnostics, *check_catalog(catalog)])
    tables = tuple(catalog.table(kind) for kind in ("model", "dataset", "benchmark", "ruleset", "metric"))
    return diagnostics, catalog.suite, tables, sorted(catalog.invalid), sorted(catalog.locations)


def checking_load(real: Load, folders: Callable[[], Path]) -> Load:
    """`Loader.load` that loads uncached, cold and warm first and compares them with its own."""
    counter = itertools.count()

    @functools.wraps(real)
    def load(self: Any) -> LoadResult:
        folder = folders() / str(next(counter))
        outcomes = []
        for cache in (DocumentCache(None), DocumentCache(EntryStore(folder)), DocumentCache(EntryStore(folder))):
            outcomes.append(state(real(loader.Loader(self.tree, cache, layout=self.layout))))
        result = real(self)
        if not self.unread:  # a load from a snapshot holds only what it read: `checking_verdict` checks it
            outcomes.append(state(result))
        uncached = outcomes[0]
        names = ("cold", "warm", "as asked")[: len(outcomes) - 1]
        for name, outcome in zip(names, outcomes[1:], strict=True):
            assert outcome == uncached, f"the cache changed a verdict ({name} differs from uncached)"
        return result

    return load


def checking_verdict(real: Callable[..., Any]) -> Callable[..., Any]:
    """`verdict.check_tree` that checks every remembered verdict, and every verdict checked from a
    snapshot, against a load from scratch: so every test that validates twice is a case of "a
    remembered verdict is the verdict", and every one that validates an edited catalog again a
    case of "a check from the last one is the check"."""

    def check(tree: Any, *args: Any, **kwargs: Any) -> Any:
        found = real(tree, *args, **kwargs)
        if found.remembered or found.loaded is None:  # loaded as `load_tree` does, without calling it
            layout = kwargs.get("layout") or layout_of(tree)  # the layout the check read it in
            fresh = loader.Loader(tree, DocumentCache(None), layout=layout).load()
            diagnostics = sorted([*fresh.diagnostics, *check_catalog(fresh.catalog)])
            assert found.diagnostics == diagnostics, "a remembered verdict differs from the catalog's"
        return found

    return check
