"""`ls` as a table: columns aligned by the width a terminal gives each character."""

from __future__ import annotations

from rich.cells import cell_len

from catalogctl.model.reports.listing import BenchmarkListing, BenchmarkRow
from catalogctl.render.listing import listing_text


def _row(ident: str, title: str) -> BenchmarkRow:
    return BenchmarkRow(id=ident, kind="inference", title=title, model="m", runner="lm-eval", datasets=["d"], pending=0)


def test_columns_align_by_display_width_for_cjk_and_emoji() -> None:
    # They were aligned by code points: a CJK character or an emoji takes two columns, so every
    # column after such a title stood one column further right per character.
    listing = BenchmarkListing(
        tree="working tree",
        benchmarks=[_row("a", "GSM8K"), _row("b", "数学の文章題"), _row("c", "🚀 fast math")],
    )
    assert listing_text(listing).splitlines() == [
        "ID  KIND       TITLE         MODEL  RUNNER   DATASETS  PENDING",
        "a   inference  GSM8K         m      lm-eval  d         0",
        "b   inference  数学の文章題  m      lm-eval  d         0",
        "c   inference  🚀 fast math  m      lm-eval  d         0",
    ]


def test_a_long_wide_title_is_cut_to_the_column_width() -> None:
    title = "長" * 40  # 80 columns
    text = listing_text(BenchmarkListing(tree="t", benchmarks=[_row("a", title)]))
    cell = text.splitlines()[1].split("  ")[2]
    assert cell.endswith("…")
    assert cell_len(cell) <= 48
