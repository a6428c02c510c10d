"""`compare --format html` in Debian's chromium: it loads cleanly, fetches nothing, and its language
switch shows the registry's translated labels."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from catalogctl.model.reports.compare import CompareCell, CompareReport, CompareRow, CompareRun
from catalogctl.render.site.compare_page import render_html
from tests.browser import Watched

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext

pytestmark = pytest.mark.browser


def _report() -> CompareReport:
    def cell(value: float, change: float | None, trend: str | None) -> CompareCell:
        return CompareCell.model_validate(
            {
                "value": value,
                "shown": f"{value * 100:.1f}%",
                "external": False,
                "source": None,
                "change": change,
                "trend": trend,
            }
        )

    row = CompareRow(
        benchmark="gsm8k",
        metric="exact_match,strict-match",
        label="Exact match (strict)",
        labels={"zh": "精确匹配（严格）"},
        primary=True,
        ratio=True,
        direction="higher",
        unit="fraction",
        cells=[cell(0.812, None, None), cell(0.777, -0.035, "worse")],
    )
    runs = [CompareRun(label="base", sources=[]), CompareRun(label="tuned", sources=[])]
    return CompareReport(runs=runs, baseline="base", rows=[row], regressions=1)


def test_the_page_switches_the_labels_language(browser: BrowserContext, tmp_path: Path) -> None:
    page_file = tmp_path / "compare.html"
    page_file.write_text(render_html(_report()), encoding="utf-8")
    watched = Watched(browser)
    page = watched.open(page_file.as_uri())
    label = page.locator("tbody td").first
    assert label.inner_text() == "Exact match (strict) (primary)"
    assert page.locator("td.worse .change").inner_text() == "-3.5 pp, worse"
    page.select_option("#lang-switch", "zh")
    assert label.inner_text() == "精确匹配（严格） (primary)"
    assert watched.errors == []
    assert watched.requests == [page_file.as_uri()]
