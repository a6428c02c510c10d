"""Every file of the site as a page to make: its path, the digest of what it is made from, and how
to make its text. A template sees only its page's context: the site-wide parts every page shows
(`chrome`), and the data of that page; the digest covers exactly that context, the page's path
and this catalogctl's code and templates (`code_digest`). So a page whose digest did not change
would be written with the same bytes, and a rebuild leaves it alone.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from catalogctl.authoring.site import benchmark_url, cohort_url
from catalogctl.authoring.site_source import SiteSource, as_json, inputs_digest
from catalogctl.version import __version__

STATIC = ("site.js", "search.js", "submit.js")


@dataclass(frozen=True)
class Page:
    """One file of the site: its path below the site's root, the digest of its inputs, its text."""

    path: str
    inputs: str
    make: Callable[[], str]


@functools.cache
def code_digest() -> bytes:
    """The digest of the catalogctl that lays the site out: its version and every file of its
    package (code, templates, scripts), so a changed template or filter renders every page again."""
    package = Path(__file__).resolve().parents[2]  # catalogctl/
    files = sorted(p for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    parts = [__version__.encode()]
    parts += [p.relative_to(package).as_posix().encode() + b"\0" + p.read_bytes() for p in files]
    return inputs_digest(parts).encode()


def site_pages(source: SiteSource, render: Callable[..., str]) -> Iterator[Page]:
    """Every page of the site; `render(template, **context)` lays one out."""
    site = source.data
    code = code_digest()
    # What every page's header and footer show.
    chrome = {"title": site.title, "languages": site.languages, "source": site.source}
    chrome["tool_version"] = site.tool_version
    frame = as_json(chrome)

    def page(path: str, template: str, view: dict[str, Any], **extra: Any) -> Page:
        context = {"site": {**chrome, **view}, **extra}
        return bare(path, template, context)

    def bare(path: str, template: str, context: dict[str, Any]) -> Page:
        key = inputs_digest([code, path.encode(), template.encode(), as_json(context)])
        return Page(path, key, lambda: render(template, root="../" * path.count("/"), **context))

    def lazy(path: str, template: str, inputs: str, build: Callable[[], Any]) -> Page:
        key = inputs_digest([code, path.encode(), template.encode(), frame, inputs.encode()])
        return Page(path, key, lambda: render(template, root="../" * path.count("/"), site=chrome, page=build()))

    yield page("index.html", "home.html", _pick(site, "description", "current", "next", "seed_timeline"))
    # The list of cohorts shows how many benchmarks each carries, not which.
    listed = [{"info": c.info, "benchmarks": len(c.benchmarks)} for c in site.cohorts]
    yield page("cohorts/index.html", "cohorts.html", {"cohorts": listed, **_pick(site, "next", "seed_timeline")})
    for cohort in source.cohorts:
        yield lazy(cohort_url(cohort.id), "cohort.html", cohort.inputs, cohort.build)
    yield page("benchmarks/index.html", "benchmarks.html", {"current": site.current, "benchmarks": source.rows})
    for bench in source.benchmarks:
        yield lazy(benchmark_url(bench.id), "benchmark.html", bench.inputs, bench.build)
    submit_data = [b.model_dump() for b in site.submit.benchmarks]
    yield page("how-to-submit/index.html", "submit.html", {"submit": site.submit}, submit_data=submit_data)
    yield page("search/index.html", "search.html", {"entries": len(site.search)})
    yield bare("assets/site.css", "site.css", {"site": {"languages": site.languages}})
    index = as_json(site.search)  # the JSON `json.dumps(..., ensure_ascii=False, separators=(",", ":"))` writes
    yield Page("assets/search-index.js", inputs_digest([code, index]), lambda: _search_index(index))
    static = resources.files("catalogctl.render.site") / "static"
    for name in STATIC:
        read = functools.partial((static / name).read_text, encoding="utf-8")
        yield Page(f"assets/{name}", inputs_digest([code, name.encode()]), read)


def _pick(site: Any, *names: str) -> dict[str, Any]:
    return {name: getattr(site, name) for name in names}


def _search_index(index: bytes) -> str:
    return f"window.CATALOGCTL_SEARCH = {index.decode('utf-8')};\n"
