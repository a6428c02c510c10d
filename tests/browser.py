"""Debian's headless chromium driven by Playwright, for the browser lane: how it is launched, and a
page whose console errors and requests are recorded. The site's tests and the documentation's
use it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Playwright is imported when a browser is launched, in the browser lane only
    from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize

CHROMIUM = "/usr/bin/chromium"  # Debian's package; .ci/run installs it (Playwright's own builds are never fetched)
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LAPTOP: ViewportSize = {"width": 1366, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}


@contextmanager
def chromium() -> Iterator[Browser]:
    """The browser, closed on exit. One serves a worker's whole run (`browser_process` in
    tests/conftest.py): launching it costs ~0.7 s, a fresh context per test ~0.05 s."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def fresh_context(browser: Browser) -> Iterator[BrowserContext]:
    """A context of its own (no cookies, no storage, no cache of another test's), at the laptop's
    viewport, closed on exit."""
    context = browser.new_context(viewport=LAPTOP)
    try:
        yield context
    finally:
        context.close()


class Watched:
    """A page whose console errors and requests are recorded."""

    def __init__(self, context: BrowserContext) -> None:
        self.page: Page = context.new_page()
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r.url))

    def open(self, url: str) -> Page:
        self.page.goto(url)
        self.page.wait_for_load_state("load")
        return self.page
