"""The data of the static site (`catalogctl site`): every page's content, gathered once from the
same models the other verbs return, and laid out by `render.site`.

- the cohorts and their releases: `release.releases.list_cohorts` (as `catalogctl cohorts`);
- what changed between consecutive cohorts: `diff.trees.diff_trees` (as `catalogctl diff`);
- each benchmark's contract: `catalog.contract.resolve_contract` (as `show --resolved`);
- seed windows: `catalog.seeds`; the exit codes: the table of `catalogctl.errors`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from catalogctl import errors
from catalogctl.authoring.site_benchmarks import BenchmarkPages, localized
from catalogctl.authoring.site_cohorts import CohortTrees, cohort_heads, cohort_page
from catalogctl.authoring.site_source import Lazy, SiteSource, as_json, inputs_digest
from catalogctl.catalog.cohorts import Cohort
from catalogctl.catalog.config import layout_for
from catalogctl.catalog.contract import metric_keys
from catalogctl.catalog.diagnostics import errors_only
from catalogctl.catalog.index import Catalog
from catalogctl.catalog.layout import Layout
from catalogctl.catalog.loader import load_tree
from catalogctl.catalog.seeds import rotation_due, valid_sets
from catalogctl.catalog.source import find_root, open_tree
from catalogctl.errors import CatalogInvalid
from catalogctl.io import gitrepo
from catalogctl.io.yamlio import reusing_parses
from catalogctl.model import InferenceBenchmark, Ruleset, SeedSet
from catalogctl.model.reports.site import (
    BenchmarkRow,
    CohortPage,
    ExitCode,
    Localized,
    NextCohortSummary,
    SearchEntry,
    SiteData,
    SubmitBenchmark,
    SubmitGuide,
    Timeline,
    TimelineColumn,
    TimelineRow,
)
from catalogctl.release.releases import list_cohorts, releases
from catalogctl.release.trust import trust_for
from catalogctl.version import __version__

BASE_LANGUAGE = "en"  # the language the catalog's own display copy is written in


def benchmark_url(ident: str) -> str:
    """A benchmark's page, relative to the site's root (a stable URL)."""
    return f"benchmarks/{ident}/index.html"


def cohort_url(ident: str) -> str:
    """A cohort's page, relative to the site's root (a stable URL)."""
    return f"cohorts/{ident}/index.html"


def gather_site(path: Path | None = None, ref: str | None = None, today: dt.date | None = None) -> SiteData:
    """The site of the catalog at `ref` (default: the working tree) of the repository at `path`;
    an invalid catalog is refused (exit 1), as a freeze refuses it. Read in the layout the
    repository configures."""
    with site_source(path, ref, today) as source:
        return source.full()


@contextlib.contextmanager
def site_source(path: Path | None = None, ref: str | None = None, today: dt.date | None = None) -> Iterator[SiteSource]:
    """`gather_site`'s data with the cohort and benchmark pages still to build, each with the
    digest of its inputs (`site_source.py`); they are built while the context is open."""
    # Every cohort's ruleset (5,000 entries in a large catalog) is read by the catalog, then by
    # the two diffs around it, from trees that hold the same blob: parse each blob once.
    start = Path.cwd() if path is None else Path(path)
    layout = layout_for(start)
    thresholds = gc.get_threshold()
    # The load makes millions of objects and the pages as many short-lived ones: at the default
    # threshold (700) the collector's passes cost about a sixth of a large build. While loading,
    # no middle-generation pass either: each would walk the catalog built so far, which is kept
    # (frozen) anyway; the parsers' cycles that outlive their young pass stay (a few MB).
    gc.set_threshold(20_000, 1_000_000, thresholds[2])
    try:
        with reusing_parses(keep=lambda file: file.startswith(f"{layout.rulesets_dir}/")):
            yield _collect(start, ref, today, layout, (20_000, *thresholds[1:]))
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()  # see _collect


def _collect(
    start: Path, ref: str | None, today: dt.date | None, layout: Layout, thresholds: tuple[int, int, int]
) -> SiteSource:
    tree = open_tree(start, ref, layout)
    root = find_root(start, layout) if ref is None else start
    repo = gitrepo.open_repository(root)
    loaded = load_tree(tree, layout=layout)
    # The catalog lives until the site is written: exempt its millions of objects from the
    # collector's full passes, which would walk them again and again (seconds at 5,000 benchmarks).
    gc.freeze()
    gc.set_threshold(*thresholds)  # the pages' objects: collected as usual
    problems = errors_only(loaded.diagnostics)
    if problems:
        raise CatalogInvalid(f"the catalog at {tree.label} is invalid: no site was built", problems)
    catalog = loaded.catalog
    infos = list_cohorts(repo, catalog, layout, trust_for(repo))
    upcoming = releases(infos, today or dt.datetime.now(dt.UTC).date()).next
    titles = {i: localized(b.title, b.i18n, "title") for i, b in catalog.benchmarks.items()}
    heads = cohort_heads(catalog, infos, titles)
    trees = CohortTrees(root, layout, repo)
    trail = [(h.info.cohort, trees.identity(h.info.cohort)) for h in heads]  # what every history reads
    cohorts = [  # a cohort's diff reads its tree and the previous cohort's
        Lazy(h.info.cohort, inputs_digest([as_json(h), *(t for _, t in trail[max(i - 1, 0) : i + 1])]), page)
        for i, (h, page) in enumerate((h, functools.partial(cohort_page, h, trees)) for h in heads)
    ]
    history = [(h.info.cohort, {b.id: b.digest for b in h.benchmarks}, trees.diff_of(h)) for h in heads]
    captions = {key: localized(m.label, m.i18n, "label") for key, m in catalog.metrics.items()}
    read = as_json([(cohort, identity.decode()) for cohort, identity in trail])
    pages = BenchmarkPages(catalog, history, titles, captions, read)
    benchmarks = [pages.lazy(ident) for ident in sorted(catalog.benchmarks)]
    current = heads[-1] if heads else None
    suite = catalog.suite
    assert suite is not None  # a catalog without its suite is invalid
    data = SiteData(
        suite=suite.name,
        title=localized(suite.title, suite.i18n, "title"),
        description=localized(suite.description, suite.i18n, "description"),
        source=tree.label,
        tool_version=__version__,
        languages=_languages(catalog),
        current=current,
        next=_next_summary(catalog, current, upcoming.cohort, upcoming.submission_date),
        cohorts=heads,
        benchmarks=[],
        seed_timeline=seed_timeline(list(catalog.rulesets.values()), upcoming.cohort),
        search=_search(catalog, titles),
        submit=_submit_guide(catalog, current),
    )
    last = history[-1][1] if history else {}
    rows = [
        BenchmarkRow(id=i, title=titles[i], kind=b.kind, model=b.model, carried=i in last)
        for i, b in sorted(catalog.benchmarks.items())
    ]
    return SiteSource(data=data, cohorts=cohorts, benchmarks=benchmarks, rows=rows)


def _languages(catalog: Catalog) -> list[str]:
    found: set[str] = set()
    entities: list[Any] = [catalog.suite, *catalog.benchmarks.values(), *catalog.datasets.values()]
    entities += [*catalog.metrics.values(), *catalog.models.values()]
    for entity in entities:
        found.update(getattr(entity, "i18n", None) or {})
    return [BASE_LANGUAGE, *sorted(found - {BASE_LANGUAGE})]


# -- cohorts ---------------------------------------------------------------------------------------


def _next_summary(catalog: Catalog, current: CohortPage | None, cohort: str, date: dt.date) -> NextCohortSummary:
    upcoming = Cohort.parse(cohort)
    sets = catalog.rulesets[current.info.cohort].seed_sets if current else []
    published = [s for r in catalog.rulesets.values() for s in r.seed_sets]
    rotation = catalog.suite.policies.seed_rotation if catalog.suite else None
    due = rotation is not None and rotation_due(rotation, upcoming, published)
    return NextCohortSummary(
        cohort=cohort,
        submission_date=date,
        benchmarks=[b.id for b in current.benchmarks] if current else [],
        seed_sets=[s.id for s in valid_sets(sets, upcoming)],
        new_seed_set_due=due,
        new_seed_set=_new_set_origin(catalog, current) if due else "",
    )


def _new_set_origin(catalog: Catalog, current: CohortPage | None) -> str:
    """Where the next freeze takes its new set from (README, "Seeds from a public beacon")."""
    chain = catalog.suite.policies.seed_beacon if catalog.suite else None
    named = catalog.rulesets[current.info.cohort].next_seed_round if current else None
    if chain is None or named is None or current is None:
        return "the freeze draws it (or imports it with --seeds)"
    return (
        f"it is derived from round {named.round} of {chain.name} (due {named.due:%Y-%m-%d %H:%M:%S} UTC), which the "
        f"release of {current.info.cohort} named"
    )


def seed_timeline(rulesets: list[Ruleset], upcoming: str) -> Timeline:
    """Which seed set is adoptable in which cohort: the axis runs from the first frozen cohort
    through the next one, and on to the last cohort any set is valid for."""
    frozen = sorted((Cohort.parse(r.cohort) for r in rulesets), key=lambda c: c.ordinal)
    sets: dict[str, SeedSet] = {}
    for ruleset in rulesets:
        for seed_set in ruleset.seed_sets:
            sets.setdefault(seed_set.id, seed_set)
    ends = [Cohort.parse(upcoming), *(Cohort.parse(s.valid_through) for s in sets.values())]
    first = frozen[0] if frozen else Cohort.parse(upcoming)
    last = max(ends, key=lambda c: c.ordinal)
    axis = [Cohort.from_ordinal(o) for o in range(first.ordinal, last.ordinal + 1)]
    columns = [TimelineColumn(cohort=c.id, frozen=c in frozen) for c in axis]
    rows = [
        TimelineRow(id=s.id, on=[c.id for c in axis if valid_sets([s], c)])
        for s in sorted(sets.values(), key=lambda s: (Cohort.parse(s.introduced_in).ordinal, s.id))
    ]
    return Timeline(columns=columns, rows=rows)


# -- search and the submission guide ---------------------------------------------------------------


def _search(catalog: Catalog, titles: dict[str, Localized]) -> list[SearchEntry]:
    entries = [
        SearchEntry(kind="benchmark", id=i, title=titles[i], url=benchmark_url(i)) for i in sorted(catalog.benchmarks)
    ]
    users: dict[tuple[str, str], list[str]] = {}
    for ident in sorted(catalog.benchmarks):
        model, datasets = catalog.dependencies(ident)
        for key in [("model", model), *(("dataset", d) for d in datasets)]:
            users.setdefault(key, []).append(ident)
        for metric in metric_keys(catalog.benchmarks[ident]):
            users.setdefault(("metric", metric), []).append(ident)
    tables: list[tuple[str, dict[str, Any], str]] = [
        ("model", catalog.models, "title"),
        ("dataset", catalog.datasets, "title"),
        ("metric", catalog.metrics, "label"),
    ]
    for kind, table, field in tables:
        for ident, entity in sorted(table.items()):
            used = users.get((kind, ident), [])
            title = localized(getattr(entity, field, None) or ident, entity.i18n, field)
            url = benchmark_url(used[0]) if used else "search/index.html"
            entries.append(SearchEntry(kind=kind, id=ident, title=title, url=url, used_by=used))  # type: ignore[arg-type]
    return entries


def exit_codes() -> list[ExitCode]:
    """The exit-code table, read from `catalogctl.errors`, where it is stated once."""
    rows: list[ExitCode] = []
    for line in (errors.__doc__ or "").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0].isdigit():
            rows.append(ExitCode(code=int(cells[0]), meaning=cells[1]))
    return rows


def _submit_guide(catalog: Catalog, current: CohortPage | None) -> SubmitGuide:
    benchmarks = []
    for entry in current.benchmarks if current else []:
        bench = catalog.benchmarks.get(entry.id)
        api_type = bench.api_type if isinstance(bench, InferenceBenchmark) else None
        kind = bench.kind if bench else "inference"
        benchmarks.append(SubmitBenchmark(id=entry.id, kind=kind, api_type=api_type))
    seed_sets = list(current.info.seed_sets) if current else []
    return SubmitGuide(
        cohort=current.info.cohort if current else None,
        benchmarks=benchmarks,
        seed_sets=seed_sets,
        exit_codes=exit_codes(),
    )
