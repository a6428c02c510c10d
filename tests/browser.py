"""Debian's headless chromium driven by Playwright, for the browser lane: how it is launched, and a
page whose console errors and requests are recorded. The site's tests and the documentation's
use it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Playwright is imported when a browser is launched, in the browser lane only
    from playwright.sync_api import BrowserContext, Page, ViewportSize

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
def chromium(profile: Path) -> Iterator[BrowserContext]:
    """A browser with its profile in `profile`, at the laptop's viewport, closed on exit."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=ARGS, viewport=LAPTOP
        )
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
