"""The cohorts' pages of the static site: each frozen cohort's release, benchmarks and seed sets
(`cohort_heads`), and the semantic diff from the previous cohort (`CohortTrees`), made only for
a page that shows it: a rebuild whose cohort pages did not change makes none."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from catalogctl.catalog.index import Catalog
from catalogctl.catalog.layout import Layout
from catalogctl.catalog.seed_origin import seed_provenance
from catalogctl.catalog.source import open_tree
from catalogctl.diff.trees import diff_trees
from catalogctl.errors import CatalogError
from catalogctl.io.tree import Tree
from catalogctl.model import Ruleset, SeedSet
from catalogctl.model.documents.beacon import BeaconChain
from catalogctl.model.reports.diff import DiffReport
from catalogctl.model.reports.release import CohortInfo
from catalogctl.model.reports.site import CohortBenchmark, CohortPage, Localized, SeedWindow

if TYPE_CHECKING:
    from catalogctl.io.gitrepo import Repository


def _window(seed_set: SeedSet, chain: BeaconChain | None) -> SeedWindow:
    return SeedWindow(
        id=seed_set.id,
        scheduler_rng_seed=str(seed_set.scheduler_rng_seed),
        sample_index_rng_seed=str(seed_set.sample_index_rng_seed),
        model_seed=str(seed_set.model_seed),
        qsl_rng_seed=None if seed_set.qsl_rng_seed is None else str(seed_set.qsl_rng_seed),
        introduced_in=seed_set.introduced_in,
        valid_through=seed_set.valid_through,
        provenance=seed_provenance(seed_set, chain),
    )


class CohortTrees:
    """The tree of each frozen cohort, opened once (and listed once: the diff that reads it as
    its new side keeps it for the next), and the diffs between them, made once and only when a
    page shows one."""

    def __init__(self, root: Path, layout: Layout, repo: Repository | None = None) -> None:
        self.root = root
        self.layout = layout
        self.repo = repo  # every cohort's tree read from one repository (its object cache shared)
        self.trees: dict[str, Tree | CatalogError] = {}
        self.diffs: dict[str, tuple[DiffReport | None, str]] = {}

    def tree(self, cohort: str) -> Tree | CatalogError:
        if cohort not in self.trees:
            try:
                self.trees[cohort] = open_tree(self.root, cohort, self.layout, self.repo)
            except CatalogError as exc:
                self.trees[cohort] = exc
        return self.trees[cohort]

    def identity(self, cohort: str) -> bytes:
        """What a diff reads of a cohort's tree: its commit (the label names it), or why it cannot be read."""
        found = self.tree(cohort)
        folders = repr(self.layout)  # where the diff looks in the tree
        if isinstance(found, CatalogError):
            return f"unreadable\0{folders}\0{found}".encode()
        commit = getattr(found, "commit", None)  # a GitTree: a ref names one
        return f"{commit.id if commit is not None else ''}\0{folders}\0{found.label}\0{found.note}".encode()

    def diff(self, old: str, new: str) -> tuple[DiffReport | None, str]:
        """The semantic diff between two frozen cohorts, or why there is none."""
        if new not in self.diffs:
            before, after = self.tree(old), self.tree(new)
            try:
                if isinstance(before, CatalogError):
                    raise before
                if isinstance(after, CatalogError):
                    raise after
                self.diffs[new] = diff_trees(before, after, old, new, layout=self.layout), ""
            except CatalogError as exc:  # an old release that no longer reads must not stop the site
                self.diffs[new] = None, f"no diff from {old}: {exc}"
            # Cohorts are diffed oldest first: the old side is read by no other diff (its listing
            # of thousands of files, kept by the tree, goes with it); opened again if it is.
            self.trees.pop(old, None)
        return self.diffs[new]

    def diff_of(self, head: CohortPage) -> Callable[[], DiffReport | None]:
        previous = head.previous
        return lambda: self.diff(previous, head.info.cohort)[0] if previous else None


def cohort_heads(catalog: Catalog, infos: list[CohortInfo], titles: dict[str, Localized]) -> list[CohortPage]:
    """Each frozen cohort's page without its diff (`cohort_page` adds it)."""
    pages: list[CohortPage] = []
    previous: Ruleset | None = None
    chain = catalog.suite.policies.seed_beacon if catalog.suite is not None else None
    # A benchmark carried unchanged is the same line in every such cohort: one (frozen) model,
    # which the cohort pages lay out once (`render.site.once`).
    lines: dict[tuple[str, str, str], CohortBenchmark] = {}
    for info in infos:
        ruleset = catalog.rulesets[info.cohort]
        old = {b.id: b.digest for b in previous.benchmarks} if previous else {}
        benchmarks = []
        for entry in ruleset.benchmarks:
            status: Literal["added", "changed", "identical"] = (
                "added" if entry.id not in old else "identical" if old[entry.id] == entry.digest else "changed"
            )
            line = lines.get((entry.id, entry.digest, status))
            if line is None:
                title = titles.get(entry.id) or Localized(text=entry.id)  # a benchmark since deleted shows its id
                line = lines[entry.id, entry.digest, status] = CohortBenchmark(
                    id=entry.id, title=title, digest=entry.digest, status=status
                )
            benchmarks.append(line)
        pages.append(
            CohortPage(
                info=info,
                previous=previous.cohort if previous else None,
                frozen_at=ruleset.frozen_at,
                benchmarks=benchmarks,
                seed_sets=[_window(s, chain) for s in ruleset.seed_sets],
            )
        )
        previous = ruleset
    return pages


def cohort_page(head: CohortPage, trees: CohortTrees) -> CohortPage:
    diff, note = trees.diff(head.previous, head.info.cohort) if head.previous else (None, "the first cohort")
    return head.model_copy(update={"diff": diff, "diff_note": note})
