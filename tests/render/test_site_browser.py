"""The site in a real browser: Debian's headless chromium driven by Playwright, from file://.

The site is built from a repository with three frozen cohorts (tests/site_repo.py). Screenshots
go to $CATALOGCTL_ARTIFACTS/site, else test-artifacts/site at the repository's root (git-ignored).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urldefrag, urlsplit
from urllib.request import url2pathname

import pytest

from tests.browser import LAPTOP, PHONE, Watched
from tests.helpers import REPO_ROOT
from tests.prebuilt import Prebuilt

if TYPE_CHECKING:  # Playwright is imported by the browser lane's fixture only
    from playwright.sync_api import BrowserContext, Page, ViewportSize

pytestmark = pytest.mark.browser


def artifacts() -> Path:
    folder = Path(os.environ.get("CATALOGCTL_ARTIFACTS") or REPO_ROOT / "test-artifacts") / "site"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def site(catalog_repo: Path, prebuilt: Prebuilt, tmp_path: Path) -> Path:
    """The site of `tests.site_repo.three_cohorts` (built once per run; each test opens its own copy)."""
    prebuilt.install("site-of-three-cohorts", tmp_path)
    return tmp_path / "site"


def _links(page: Page) -> list[str]:
    hrefs: list[str] = page.eval_on_selector_all(
        "a", "els => els.map(a => new URL(a.getAttribute('href'), document.baseURI).href)"
    )
    return hrefs


def test_every_page_loads_cleanly_and_every_link_resolves(site: Path, browser: BrowserContext) -> None:
    watched = Watched(browser)
    start = (site / "index.html").as_uri()
    seen: set[str] = set()
    queue = [start]
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        page = watched.open(url)
        for link in _links(page):
            target = urldefrag(link).url.split("?")[0]
            assert target.startswith("file://"), f"{url} links outside the site: {link}"
            assert Path(url2pathname(urlsplit(target).path)).is_file(), f"{url} links to a missing page: {link}"
            if target.endswith(".html") and target not in seen:
                queue.append(target)
    pages = {Path(url2pathname(urlsplit(u).path)).relative_to(site).as_posix() for u in seen}
    assert {"index.html", "cohorts/2026-09-C0/index.html", "benchmarks/gsm8k/index.html"} <= pages
    assert {"how-to-submit/index.html", "search/index.html"} <= pages
    assert len(pages) == len(list(site.rglob("*.html")))  # every page is reachable from the home page
    assert watched.errors == []
    assert [r for r in watched.requests if not r.startswith("file://")] == []


def test_the_language_switch_shows_gsm8ks_zh_title(site: Path, browser: BrowserContext) -> None:
    page = Watched(browser).open((site / "benchmarks/gsm8k/index.html").as_uri())
    title = page.locator("h1 .title")
    assert title.inner_text() == "GSM8K · Grade-school math word problems"
    page.select_option("#lang-switch", "zh")
    assert title.inner_text() == "GSM8K · 小学数学应用题"
    assert page.locator("h1 code").inner_text() == "gsm8k"  # ids are never translated
    page = Watched(browser).open((site / "index.html").as_uri())  # the choice is remembered
    assert "GSM8K · 小学数学应用题" in page.locator("main").inner_text()


def test_search_finds_gpt_oss_120b(site: Path, browser: BrowserContext) -> None:
    watched = Watched(browser)
    page = watched.open((site / "search/index.html").as_uri())
    page.fill("#q", "gpt-oss-120b")
    results = page.locator("#results li")
    texts = results.all_inner_texts()
    # Those matching by id or title first, then those only used by it (its datasets and metrics).
    assert texts[0] == "benchmark gpt-oss-120b gpt-oss-120b reasoning", texts
    assert texts[1] == "model gpt-oss-120b gpt-oss-120b\nused by gpt-oss-120b", texts
    assert any(t.startswith("dataset aime25") for t in texts[2:]), texts
    page.locator("#results li a", has_text="gpt-oss-120b").first.click()
    page.wait_for_load_state("load")
    assert page.url.endswith("/benchmarks/gpt-oss-120b/index.html")
    page = watched.open((site / "index.html").as_uri())  # the header's search box leads there
    page.fill("header input[name=q]", "exact_match")
    page.press("header input[name=q]", "Enter")
    page.wait_for_load_state("load")
    assert page.locator("#results li").count() >= 2
    assert watched.errors == []


def test_the_timeline_shows_set_a_adoptable_through_its_last_valid_cohort(site: Path, browser: BrowserContext) -> None:
    page = Watched(browser).open((site / "index.html").as_uri())
    cells = page.eval_on_selector_all(
        "svg.timeline rect.cell[data-row=A]", "els => els.map(e => [e.dataset.cohort, e.classList.contains('on')])"
    )
    assert cells == [
        ["2026-09-C0", True],
        ["2026-09-C1", True],
        ["2026-10-C0", True],
        ["2026-10-C1", True],  # its valid_through: 4 cohorts from 2026-09-C0
        ["2026-11-C0", False],
        ["2026-11-C1", False],
    ]
    assert page.locator("svg.timeline rect.cell.on[data-row=A]").first.is_visible()


def test_the_submission_picker_writes_the_file_for_the_benchmark_and_set(site: Path, browser: BrowserContext) -> None:
    page = Watched(browser).open((site / "how-to-submit/index.html").as_uri() + "?benchmark=gsm8k")
    page.select_option("#pick-set", "B")
    text = page.locator("#submission").inner_text()
    assert "submission_ref: {cohort: 2026-10-C0, seed_set_id: B, benchmark: gsm8k}" in text
    assert "api_type: openai_completions" in text


@pytest.mark.parametrize(("name", "viewport"), [("laptop", LAPTOP), ("phone", PHONE)])
def test_screenshots(site: Path, browser: BrowserContext, name: str, viewport: ViewportSize) -> None:
    watched = Watched(browser)
    watched.page.set_viewport_size(viewport)
    shots = {
        "home": "index.html",
        "cohort": "cohorts/2026-09-C1/index.html",
        "benchmark": "benchmarks/gsm8k/index.html",
    }
    for what, rel in shots.items():
        page = watched.open((site / rel).as_uri())
        # Nothing is wider than the screen but the tables and charts, which scroll inside their box.
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{rel} is {overflow}px wider than a {name} screen"
        target = artifacts() / f"{what}-{name}.png"
        page.screenshot(path=str(target), full_page=True)
        assert target.stat().st_size > 0
    assert watched.errors == []
