"""The facts the catalog-wide checks read of an entity, and how a snapshot keeps them."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

from catalogctl.catalog.facts import ENTITY_KINDS, EntityFacts, PendingFact, facts_of
from catalogctl.catalog.index import Location
from catalogctl.catalog.loader import load_tree
from catalogctl.io.tree import WorkingTree
from catalogctl.io.yamlio import PathKey


def _position(where: Location, path: PathKey) -> tuple[int, int]:
    return where.child(*path).position()


def _every_fact(root: Path) -> list[EntityFacts]:
    catalog = load_tree(WorkingTree(root), use_cache=False).catalog
    out = []
    for kind in ENTITY_KINDS:
        for ident, entity in catalog.table(kind).items():
            out.append(facts_of(kind, ident, entity, functools.partial(_position, catalog.locations[(kind, ident)])))
    return out


def test_the_shipped_facts_read_back_as_they_were(catalog_dir: Path) -> None:
    facts = _every_fact(catalog_dir)
    assert {f.kind for f in facts} == set(ENTITY_KINDS)
    assert any(f.pending for f in facts)
    assert any(f.mlperf_name for f in facts)
    for item in facts:
        assert EntityFacts.from_plain(item.kind, item.ident, item.plain()) == item


def test_a_benchmarks_sources_are_its_contracts_and_nothing_else_has_any() -> None:
    bench = EntityFacts("benchmark", "b", model="m", datasets=("d1", "d2"))
    assert bench.sources() == [("benchmark", "b"), ("model", "m"), ("dataset", "d1"), ("dataset", "d2")]
    assert EntityFacts("dataset", "d1").sources() == []


GOOD: list[Any] = [None, ["a"], None, "m", ["d"], [[["source", "url"], "<TBD>", 3, 5]]]


@pytest.mark.parametrize(
    "change",
    [
        {0: 1},  # an mlperf_name that is no name
        {1: [1]},  # an alias that is no name
        {3: ["m"]},  # a model that is no name
        {4: [None]},
        {5: [[["source"], 1, 3, 5]]},  # a pending value that is no text
        {5: [[["source"], "<TBD>", "3", 5]]},  # a line that is no number
        {5: [[["source", True], "<TBD>", 3, 5]]},  # a path step that is neither key nor index
        {5: [[["source"], "<TBD>", 3]]},  # a pending value without its column
    ],
)
def test_facts_that_are_not_facts_are_refused(change: dict[int, Any]) -> None:
    assert EntityFacts.from_plain("dataset", "d", GOOD).pending == (PendingFact(("source", "url"), "<TBD>", 3, 5),)
    bad = [change.get(index, value) for index, value in enumerate(GOOD)]
    with pytest.raises((ValueError, TypeError)):
        EntityFacts.from_plain("dataset", "d", bad)
