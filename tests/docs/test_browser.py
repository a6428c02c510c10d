"""The documentation in a real browser (Debian's headless chromium, from file://): every page
loads without a console error and asks for nothing outside the site, the search finds a command,
and on a phone no page is wider than the screen. The pages are opened once, on a phone, for all
the checks of every page."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.browser import Watched, fresh_context

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, ViewportSize

pytestmark = pytest.mark.browser

PHONE: ViewportSize = {"width": 375, "height": 812}


def _pages(site: Path) -> list[Path]:
    return sorted(path for path in site.rglob("*.html") if "_static" not in path.parts)


# What sticks out past the screen's right edge, unless a scroller inside the article holds it (a
# code block, a table's wrapper): furo's `.content` scrolls the whole article sideways, and a
# page whose article scrolls sideways, or clips, is wider than the phone all the same.
STICKING_OUT = """() => {
  const out = [];
  for (const el of document.querySelectorAll("article *")) {
    const right = el.getBoundingClientRect().right;
    if (!el.getBoundingClientRect().width || right <= innerWidth + 1) continue;
    let held = false;
    for (let up = el.parentElement; up && up.tagName !== "ARTICLE"; up = up.parentElement) {
      const scrolls = ["auto", "scroll"].includes(getComputedStyle(up).overflowX);
      if (scrolls && up.getBoundingClientRect().right <= innerWidth + 1) { held = true; break; }
    }
    if (!held) out.push(`${el.tagName.toLowerCase()}.${el.className} to ${Math.round(right)} px`);
  }
  return out.slice(0, 3);
}"""


@dataclass
class Visit:
    """Every page opened once on a phone: the console errors and requests of all of them, and
    the pages wider than the screen (with what sticks out)."""

    pages: int = 0
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    too_wide: dict[str, tuple[int, list[str]]] = field(default_factory=dict)


@pytest.fixture
def visit(docs_site: Path, browser_process: Browser) -> Visit:
    """One pass over the ~100 pages serves every check of them: a page takes ~0.1 s of the
    browser's CPU to load."""
    seen = Visit()
    with fresh_context(browser_process) as context:
        watched = Watched(context)
        watched.page.set_viewport_size(PHONE)
        for path in _pages(docs_site):
            page = watched.open(path.as_uri())
            seen.pages += 1
            width = page.evaluate("document.documentElement.scrollWidth")
            sticking_out = page.evaluate(STICKING_OUT)
            if width > PHONE["width"] or sticking_out:
                seen.too_wide[path.relative_to(docs_site).as_posix()] = (width, sticking_out)
        seen.errors, seen.requests = watched.errors, watched.requests
    return seen


def test_every_page_loads_on_a_phone_without_an_error_a_request_outside_or_a_scroll(visit: Visit) -> None:
    # One test for the one pass: xdist's work stealing gave two tests of it to both workers, and
    # each made the pass (13 s of CPU).
    assert visit.pages > 40
    assert visit.errors == []
    assert [url for url in visit.requests if not url.startswith("file://")] == []
    assert visit.too_wide == {}, "pages wider than a phone"


def test_the_search_finds_the_freeze_command(docs_site: Path, browser: BrowserContext) -> None:
    page = Watched(browser).open((docs_site / "search.html").as_uri() + "?q=freeze")
    results = page.locator("#search-results ul.search li a")
    results.first.wait_for()
    hrefs = [href.split("#")[0] for href in results.evaluate_all("els => els.map(a => a.href)")]
    assert (docs_site / "reference/generated/commands/freeze.html").as_uri() in hrefs
