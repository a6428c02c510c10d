"""The site's data with its cohort and benchmark pages still to build (`SiteSource`): each such
page comes with the digest of everything it is made from, so a rebuild builds only the pages whose
inputs changed, one at a time, and none is kept once laid out.

A page's inputs are the entities it reads, whole: a benchmark's page reads the benchmark, its
model, its datasets (their recipes inside), every metric (captions) and, per frozen cohort, the
benchmark's digest there and the trees the cohort diff compares; a cohort's page reads its
release, its ruleset, the titles of its benchmarks and those two trees. An entity counts as its
JSON with the fields its file set (`exclude_unset`: which fields were set changes a contract
too). The site-wide parts every page shows (title, languages, where it was built from) and the
code that lays it out are added by `render.site`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import pydantic_core
from pydantic import BaseModel

from catalogctl.model.reports.site import BenchmarkPage, BenchmarkRow, CohortPage, SiteData

T = TypeVar("T")


def inputs_digest(parts: Iterable[bytes]) -> str:
    """The sha256 of a sequence of parts, each length-prefixed (no two sequences share a digest)."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return "sha256:" + digest.hexdigest()


def as_json(value: Any) -> bytes:
    """Data as JSON bytes: models with every field, entities with only those their file set."""
    return pydantic_core.to_json(value)


def fingerprint(entity: BaseModel | None) -> bytes:
    """An entity as a page's inputs count it: its JSON with the fields its file set."""
    return b"null" if entity is None else entity.model_dump_json(exclude_unset=True).encode("utf-8")


@dataclass
class Fingerprints:
    """Each entity's `fingerprint`, made once per entity: many benchmarks share a model, a
    dataset and every metric."""

    memo: dict[int, tuple[Any, bytes]] = field(default_factory=dict)

    def of(self, entity: BaseModel | None) -> bytes:
        if entity is None:
            return b"null"
        hit = self.memo.get(id(entity))
        if hit is None or hit[0] is not entity:  # the entity is kept, so its id is never reused
            hit = self.memo[id(entity)] = (entity, fingerprint(entity))
        return hit[1]


@dataclass(frozen=True)
class Lazy(Generic[T]):
    """A page still to build: its id, the digest of its inputs, and how to build it."""

    id: str
    inputs: str
    build: Callable[[], T]


@dataclass(frozen=True)
class SiteSource:
    """The site's data without the pages that cost most to build: `data` holds the cohorts
    without their diffs and no benchmark page; `cohorts` and `benchmarks` build them."""

    data: SiteData
    cohorts: list[Lazy[CohortPage]]
    benchmarks: list[Lazy[BenchmarkPage]]
    rows: list[BenchmarkRow]

    def full(self) -> SiteData:
        """Every page built: the site's data as `gather_site` returns it."""
        cohorts = [c.build() for c in self.cohorts]
        current = cohorts[-1] if cohorts else None
        return self.data.model_copy(
            update={"cohorts": cohorts, "current": current, "benchmarks": [b.build() for b in self.benchmarks]}
        )

    @classmethod
    def of(cls, data: SiteData) -> SiteSource:
        """A site whose pages are all built already (a page's inputs are then the page itself)."""
        return cls(
            data=data,
            cohorts=[Lazy(c.info.cohort, inputs_digest([as_json(c)]), _const(c)) for c in data.cohorts],
            benchmarks=[Lazy(b.id, inputs_digest([as_json(b)]), _const(b)) for b in data.benchmarks],
            rows=[row_of(b) for b in data.benchmarks],
        )


def row_of(page: BenchmarkPage) -> BenchmarkRow:
    """A benchmark's line in the list of every benchmark."""
    carried = bool(page.history) and page.history[-1].carried
    return BenchmarkRow(id=page.id, title=page.title, kind=page.kind, model=page.model, carried=carried)


def _const(value: T) -> Callable[[], T]:
    return lambda: value
