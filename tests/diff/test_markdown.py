"""The diff in Markdown (a PR comment, a CHANGELOG.md section): values never become markup."""

from __future__ import annotations

from pathlib import Path

from catalogctl.api import diff_refs
from catalogctl.diff.markdown import diff_markdown
from tests.helpers import replace_in

DEEPSEEK = "benchmark_suite/benchmarks/deepseek-r1.yaml"


def test_a_pending_value_in_a_diffed_value_stays_text(catalog_repo: Path) -> None:
    # `<TBD>` unescaped is an HTML tag to GitHub: the changelog section showed `"" -> 4388`.
    replace_in(catalog_repo, DEEPSEEK, "min_sample_count: <TBD>", "min_sample_count: 4388")
    markdown = diff_markdown(diff_refs(catalog_repo, "v1"))
    assert (
        '| contract | benchmark deepseek-r1: performance.requirements.min_sample_count "&lt;TBD>" -> 4388 '
        "| `deepseek-r1` | `benchmark_suite/benchmarks/deepseek-r1.yaml:25:5` |"
    ) in markdown.splitlines()
    assert "<TBD>" not in markdown
