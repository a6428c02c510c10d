"""The documentation in a real browser (Debian's headless chromium, from file://): every page
loads without a console error and asks for nothing outside the site, the search finds a command,
and on a phone no page is wider than the screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.browser import Watched, chromium

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, ViewportSize

pytestmark = pytest.mark.browser

PHONE: ViewportSize = {"width": 375, "height": 812}


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[BrowserContext]:
    with chromium(tmp_path / "profile") as context:
        yield context


def _pages(site: Path) -> list[Path]:
    return sorted(path for path in site.rglob("*.html") if "_static" not in path.parts)


def test_every_page_loads_without_an_error_or_a_request_outside(docs_site: Path, browser: BrowserContext) -> None:
    watched = Watched(browser)
    pages = _pages(docs_site)
    assert len(pages) > 40
    for path in pages:
        watched.open(path.as_uri())
    assert watched.errors == []
    assert [url for url in watched.requests if not url.startswith("file://")] == []


def test_the_search_finds_the_freeze_command(docs_site: Path, browser: BrowserContext) -> None:
    page = Watched(browser).open((docs_site / "search.html").as_uri() + "?q=freeze")
    results = page.locator("#search-results ul.search li a")
    results.first.wait_for()
    hrefs = [href.split("#")[0] for href in results.evaluate_all("els => els.map(a => a.href)")]
    assert (docs_site / "reference/generated/commands/freeze.html").as_uri() in hrefs


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


def test_no_page_is_wider_than_a_phone(docs_site: Path, browser: BrowserContext) -> None:
    watched = Watched(browser)
    watched.page.set_viewport_size(PHONE)
    too_wide = {}
    for path in _pages(docs_site):
        page = watched.open(path.as_uri())
        width = page.evaluate("document.documentElement.scrollWidth")
        sticking_out = page.evaluate(STICKING_OUT)
        if width > PHONE["width"] or sticking_out:
            too_wide[path.relative_to(docs_site).as_posix()] = (width, sticking_out)
    assert too_wide == {}
