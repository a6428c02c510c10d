"""The static site of `catalogctl site`: `SiteData` laid out as HTML pages with Jinja2 templates
(autoescaped), one stylesheet, and a little JavaScript for the language switch, the search and
the submission picker. Every link is relative, so the site works from file:// and from any
folder of a web server; pages have stable URLs (`cohorts/<id>/index.html`,
`benchmarks/<id>/index.html`, `how-to-submit/index.html`).

The site is built in a temporary folder inside the output folder and then put in place file by
file, beside whatever else the folder holds (`output.py`): a failed build leaves the folder as it
was, and no build deletes a file it did not write. A rebuild makes only the pages whose inputs
changed (`plan.py`): the others stay as the last build wrote them.
"""

from __future__ import annotations

import functools
import os
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import jinja2
from jinja2.nodes import EvalContext
from jinja2.runtime import Macro
from markupsafe import Markup, escape

from catalogctl.authoring.site_source import SiteSource
from catalogctl.diff.markdown import describe
from catalogctl.errors import EnvironmentProblem
from catalogctl.io.confined import digest_bytes
from catalogctl.model.reports.site import Localized, SiteData
from catalogctl.render.site.output import Destination, SiteWritten, open_destination
from catalogctl.render.site.plan import Page, site_pages

_ONCE: dict[tuple[Any, ...], tuple[tuple[Any, ...], Markup]] = {}  # see `once`
_KEPT = 100_000  # entries before it starts again: a long-lived process never grows it further


def localized(copy: Localized) -> Markup:
    """Display copy in every language: the catalog's text, and a span per translation; the
    stylesheet shows the one the language switch picked. (A filter, not a macro: the lists of
    benchmarks call it once per benchmark, and a Jinja macro call costs ten times as much; built
    with `escape`, as `Markup.format` would, without its formatter, which costs as much again.)"""
    classes = escape("".join(f" has-{lang}" for lang in copy.i18n))
    parts = [f'<span class="l10n base{classes}">{escape(copy.text)}</span>']
    for lang, text in copy.i18n.items():
        code = escape(lang)
        parts.append(f'<span class="l10n tr tr-{code}" lang="{code}">{escape(text)}</span>')
    return Markup("".join(parts))


@jinja2.pass_eval_context
def once(context: EvalContext, macro: Macro, *args: Any) -> Markup:
    """`macro` laid out for `args` once, and the same markup whenever it is called with them
    again: a part many pages show alike (a benchmark's line in every cohort that carries it
    unchanged). Text and numbers count by value; anything else (a model, a list of models) by
    identity, and is kept with its markup, so its id is not reused while it counts."""
    key = (macro.name, *[arg if type(arg) is str else _key(arg) for arg in args])  # most are text
    hit = _ONCE.get(key)
    if hit is not None:
        return hit[1]
    if len(_ONCE) > _KEPT:
        _ONCE.clear()
    made = Markup(macro(context, *args))  # markup already: an autoescaped macro returns it
    _ONCE[key] = (args, made)
    return made


def _key(value: Any) -> Any:
    """What a value other than text counts as (Markup is not its text: it is not escaped)."""
    if type(value) in (int, float, bool):
        return type(value), value
    if isinstance(value, (list, tuple)):
        return type(value), tuple(map(id, value))
    return id(value)


@functools.lru_cache(maxsize=65536)  # a benchmark's digest is the same in most cohorts
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
    env.filters["once"] = once
    return env


def render(template: str, **context: Any) -> str:
    """One template laid out with its context."""
    return environment().get_template(template).render(**context)


def pages(site: SiteData | SiteSource) -> Iterator[Page]:
    """Every file of the site, each with the digest of its inputs (`plan.py`); its text is made
    only when asked for."""
    return site_pages(site if isinstance(site, SiteSource) else SiteSource.of(site), render)


def write_site(site: SiteData, output: Path, *, force: bool = False, catalog: Path | None = None) -> SiteWritten:
    """Build the site into `output` (see `output.py` for which folders are refused, what `force`
    allows and what a rebuild removes); `catalog` is the `-C` folder the site was gathered from
    (default: the current one). On any failure before the pages are put in place, `output` is left
    as it was."""
    return write_into(site, open_destination(output, force=force, catalog=catalog))


def write_into(site: SiteData | SiteSource, destination: Destination) -> SiteWritten:
    """Build the site into a folder `open_destination` found fit. A page the last build wrote
    from the same inputs, and that still has the bytes it wrote, is neither made nor written."""
    with destination.staging() as staging:
        written, unchanged, inputs = _render_into(site, staging, destination)
        source = site.data.source if isinstance(site, SiteSource) else site.source
        return destination.commit(staging, written, source, unchanged, inputs)


def _render_into(
    site: SiteData | SiteSource, folder: Path, destination: Destination
) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """The files of the site that changed written under `folder`: path -> the digest of their
    bytes; those left as the last build wrote them, likewise; and every file's inputs.

    Pages are made here and written by a second thread: making a page is Python, writing it is
    the kernel's work (a folder and a file created for each of 5,000 pages, about a third of a
    first build), which the thread does meanwhile, with the GIL released."""
    written: dict[str, Future[str]] = {}
    unchanged: dict[str, str] = {}
    inputs: dict[str, str] = {}
    folders: set[str] = set()  # made already (every benchmark's page has a folder of its own)
    pending: deque[Future[str]] = deque()
    try:
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="site-writer") as writer:
            for page in pages(site):
                inputs[page.path] = page.inputs
                last = _kept(destination, page)
                if last:
                    unchanged[page.path] = last
                    continue
                target = os.path.join(folder, page.path)  # plain strings and calls: 5,000 pages and more
                parent = os.path.dirname(target)
                new_parent = parent not in folders
                folders.add(parent)
                data = page.make().encode("utf-8")
                written[page.path] = done = writer.submit(_write_page, target, parent if new_parent else None, data)
                pending.append(done)
                while len(pending) > _IN_FLIGHT:  # at most this many pages' bytes held at once
                    pending.popleft().result()  # a write that failed raises its OSError here
        return {path: done.result() for path, done in written.items()}, unchanged, inputs
    except OSError as exc:
        raise EnvironmentProblem(f"cannot write the site: {exc.strerror or exc}") from None


_IN_FLIGHT = 64  # pages made and not yet written


def _kept(destination: Destination, page: Page) -> str | None:
    """The digest of the page the last build wrote from the same inputs, when the folder still
    holds its bytes: that page is neither made nor written again."""
    before = destination.previous
    last = before.files.get(page.path) if before else None
    if last and before and before.inputs.get(page.path) == page.inputs and destination.holds(page.path, last):
        return last
    return None


def _write_page(target: str, parent: str | None, data: bytes) -> str:
    """`data` written to the new file `target` (its folder `parent` made first, when given); the
    digest of its bytes."""
    if parent is not None:
        os.makedirs(parent, exist_ok=True)
    _write_new(target, data)
    return digest_bytes(data)


def _write_new(path: str, data: bytes) -> None:
    """A new file of the staging folder holding `data`: opened, written and closed, without the
    buffered file object `open` makes, which asks the kernel four more things about each page."""
    handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(handle, view) :]
    finally:
        os.close(handle)
