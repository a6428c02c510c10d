"""The static site of `catalogctl site`: `SiteData` laid out as HTML pages with Jinja2 templates
(autoescaped), one stylesheet, and a little JavaScript for the language switch, the search and
the submission picker. Every link is relative, so the site works from file:// and from any
folder of a web server; pages have stable URLs (`cohorts/<id>/index.html`,
`benchmarks/<id>/index.html`, `how-to-submit/index.html`).

The site is built in a temporary folder inside the output folder and then put in place file by
file, beside whatever else the folder holds (`output.py`): a failed build leaves the folder as it
was, and no build deletes a file it did not write.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from catalogctl.diff.markdown import describe
from catalogctl.errors import EnvironmentProblem
from catalogctl.io.confined import digest_bytes
from catalogctl.model.site import Localized, SiteData
from catalogctl.render.site.output import Destination, SiteWritten, open_destination

_STATIC = ("site.js", "search.js", "submit.js")


def localized(copy: Localized) -> Markup:
    """Display copy in every language: the catalog's text, and a span per translation; the
    stylesheet shows the one the language switch picked. (A filter, not a macro: the cohort pages
    call it once per benchmark, and a Jinja macro call costs ten times as much; built with
    `escape`, as `Markup.format` would, without its formatter, which costs as much again.)"""
    classes = escape("".join(f" has-{lang}" for lang in copy.i18n))
    parts = [f'<span class="l10n base{classes}">{escape(copy.text)}</span>']
    for lang, text in copy.i18n.items():
        code = escape(lang)
        parts.append(f'<span class="l10n tr tr-{code}" lang="{code}">{escape(text)}</span>')
    return Markup("".join(parts))


def short_digest(digest: str) -> Markup:
    """A digest cut to its first 12 hex digits, whole on hover."""
    return Markup(f'<code class="digest" title="{escape(digest)}">{escape(digest[:19])}…</code>')


def inline_code(text: str) -> Markup:
    """Text whose `backticked` words are code (the exit-code table is written in Markdown)."""
    parts = str(escape(text)).split("`")
    return Markup("".join(f"<code>{part}</code>" if i % 2 else part for i, part in enumerate(parts)))


@functools.cache
def environment() -> jinja2.Environment:
    """The templates shipped in this package, HTML autoescaped: one environment per process,
    whose compiled templates are reused (package data does not change under a running build)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("catalogctl.render.site", "templates"),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html",)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        auto_reload=False,
    )
    env.filters["describe"] = describe
    env.filters["t"] = localized
    env.filters["short"] = short_digest
    env.filters["inline_code"] = inline_code
    return env


def pages(site: SiteData) -> Iterator[tuple[str, str]]:
    """Every file of the site: (path relative to its root, text)."""
    env = environment()

    def page(template: str, rel: str, **extra: Any) -> tuple[str, str]:
        root = "../" * rel.count("/")
        return rel, env.get_template(template).render(site=site, root=root, **extra)

    yield page("home.html", "index.html")
    yield page("cohorts.html", "cohorts/index.html")
    for cohort in site.cohorts:
        yield page("cohort.html", f"cohorts/{cohort.info.cohort}/index.html", page=cohort)
    yield page("benchmarks.html", "benchmarks/index.html")
    for bench in site.benchmarks:
        yield page("benchmark.html", f"benchmarks/{bench.id}/index.html", page=bench)
    submit_data = [b.model_dump() for b in site.submit.benchmarks]
    yield page("submit.html", "how-to-submit/index.html", submit_data=submit_data)
    yield page("search.html", "search/index.html")
    yield "assets/site.css", env.get_template("site.css").render(site=site)
    index = json.dumps([e.model_dump() for e in site.search], ensure_ascii=False, separators=(",", ":"))
    yield "assets/search-index.js", f"window.CATALOGCTL_SEARCH = {index};\n"
    static = resources.files("catalogctl.render.site") / "static"
    for name in _STATIC:
        yield f"assets/{name}", (static / name).read_text(encoding="utf-8")


def write_site(site: SiteData, output: Path, *, force: bool = False, catalog: Path | None = None) -> SiteWritten:
    """Build the site into `output` (see `output.py` for which folders are refused, what `force`
    allows and what a rebuild removes); `catalog` is the `-C` folder the site was gathered from
    (default: the current one). On any failure before the pages are put in place, `output` is left
    as it was."""
    return write_into(site, open_destination(output, force=force, catalog=catalog))


def write_into(site: SiteData, destination: Destination) -> SiteWritten:
    """Build the site into a folder `open_destination` found fit."""
    with destination.staging() as staging:
        written = _render_into(site, staging)
        return destination.commit(staging, written, site.source)


def _render_into(site: SiteData, folder: Path) -> dict[str, str]:
    """Every file of the site written under `folder`: path -> the digest of its bytes."""
    written: dict[str, str] = {}
    try:
        for rel, text in pages(site):
            target = folder / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            data = text.encode("utf-8")
            target.write_bytes(data)
            written[rel] = digest_bytes(data)
    except OSError as exc:
        raise EnvironmentProblem(f"cannot write the site: {exc.strerror or exc}") from None
    return written
