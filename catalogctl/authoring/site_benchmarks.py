"""The benchmarks' pages of the static site: each benchmark's contract written for people, its
history across the frozen cohorts, and the digest of what its page reads (`site_source.py`).

What every benchmark's page reads alike is gathered once (`BenchmarkPages`): the cohorts'
digests and diffs, the titles and the metrics' captions, the timeline's axis, and the models,
datasets and sections many contracts share.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from catalogctl.authoring.site_contract import ContractParts, runner_line
from catalogctl.authoring.site_source import Fingerprints, Lazy, as_json, fingerprint, inputs_digest
from catalogctl.catalog.contract import Shared, metric_keys, resolve_contract
from catalogctl.catalog.index import Catalog
from catalogctl.diff.markdown import describe
from catalogctl.errors import CatalogError
from catalogctl.model.common import I18n
from catalogctl.model.reports.diff import DiffReport
from catalogctl.model.reports.site import BenchmarkPage, Localized, Section, TimelineColumn

# A frozen cohort as a benchmark's history reads it: its id, its benchmarks' digests, its diff.
CohortDigests = tuple[str, dict[str, str], Callable[[], DiffReport | None]]


def localized(value: Any, i18n: I18n | None, field: str) -> Localized:
    """A display field and its translations (languages whose block has that field)."""
    copies = {lang: getattr(copy, field) for lang, copy in (i18n or {}).items()}
    return Localized(text=str(value or ""), i18n={lang: str(t) for lang, t in copies.items() if t})


@dataclass
class BenchmarkPages:
    """Every benchmark's page still to build, from what they read alike: `cohorts`, oldest
    first; `titles` and `captions`, the benchmarks' and the metrics' display copy; `trees`,
    what each cohort's diff reads of the cohorts' trees."""

    catalog: Catalog
    cohorts: list[CohortDigests]
    titles: dict[str, Localized]
    captions: dict[str, Localized]
    trees: bytes
    shared: Shared = field(default_factory=dict)  # one model, dataset and metric inlined by many contracts
    prints: Fingerprints = field(default_factory=Fingerprints)

    def __post_init__(self) -> None:
        self.parts = ContractParts(self.captions, self.shared)
        # Every page's timeline has the same columns: the same models, laid out once.
        self.axis = [TimelineColumn(cohort=cohort, frozen=True) for cohort, _, _ in self.cohorts]
        # What every benchmark's page reads alike: every metric, and the trees of the cohorts.
        self.common = b"".join(self.prints.of(m) for _, m in sorted(self.catalog.metrics.items())) + self.trees

    def lazy(self, ident: str) -> Lazy[BenchmarkPage]:
        """The page of benchmark `ident`, with the digest of its inputs, still to build."""
        return Lazy(ident, self.inputs(ident), functools.partial(self.page, ident))

    def inputs(self, ident: str) -> str:
        """The digest of what a benchmark's page reads (see `site_source.py`)."""
        model, datasets = self.catalog.dependencies(ident)
        return inputs_digest(
            [
                fingerprint(self.catalog.benchmarks[ident]),  # read by this page alone: not kept
                self.prints.of(self.catalog.models.get(model)),
                *(self.prints.of(self.catalog.datasets.get(d)) for d in datasets),
                self.common,
                as_json([(cohort, digests.get(ident)) for cohort, digests, _ in self.cohorts]),
            ]
        )

    def page(self, ident: str) -> BenchmarkPage:
        """The page of benchmark `ident`: its contract as resolved now, and its history."""
        catalog = self.catalog
        bench = catalog.benchmarks[ident]
        model, datasets = catalog.dependencies(ident)
        problem, digest = "", None
        sections: list[Section] = []  # the contract's, when it resolves
        try:
            contract = resolve_contract(catalog, ident, display=False, shared=self.shared)  # what the digest covers
            sections, digest = self.parts.of(contract)
        except CatalogError as exc:
            problem = str(exc)
        history = self.history(ident)
        carried = [h["cohort"] for h in history if h["carried"]]
        page = {
            "id": ident,
            "kind": bench.kind,
            "family": bench.family,
            "title": self.titles[ident],
            "summary": localized(bench.summary, bench.i18n, "summary"),
            "owners": list(bench.owners),
            "model": model,
            "runner": runner_line(bench),
            "datasets": datasets,
            "metrics": metric_keys(bench),
            "digest": digest,
            "problem": problem,
            "sections": sections,
            "history": history,
            "presence": {"columns": self.axis, "rows": [{"id": ident, "on": carried}]},
        }
        return BenchmarkPage.model_validate(page)  # its history too, in one call

    def history(self, ident: str) -> list[dict[str, Any]]:
        """The data of the benchmark's `HistoryEntry`s, validated with its page."""
        entries: list[dict[str, Any]] = []
        last: str | None = None
        for cohort, digests, diff_of in self.cohorts:
            digest = digests.get(ident)
            changed = digest is not None and last is not None and digest != last
            diff = diff_of() if changed else None  # a diff is made only for a page that shows it
            changes = [describe(c) for c in diff.changes if ident in c.impact] if diff is not None else []
            entries.append(
                {"cohort": cohort, "carried": digest is not None, "digest": digest, "digest_changed": changed}
                | ({"changes": changes} if changes else {})
            )
            last = digest or last
        return entries
