"""The diff in Markdown (PR comments and changelog sections): every kind of benchmark status and
change in words, and the cohort table."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from catalogctl.api import diff_refs
from catalogctl.diff.markdown import diff_markdown
from catalogctl.release.freeze import FreezeRequest, freeze
from tests.helpers import git, replace_in, write
from tests.release_repo import SEEDS_A, make_freezable

BENCHMARKS = "benchmark_suite/benchmarks"
DEEPSEEK = "benchmark_suite/benchmarks/deepseek-r1.yaml"


def test_removed_renamed_added_and_identical_benchmarks_in_words(catalog_repo: Path) -> None:
    gsm8k = (catalog_repo / BENCHMARKS / "gsm8k.yaml").read_text()
    (catalog_repo / BENCHMARKS / "gsm8k.yaml").unlink()
    write(
        catalog_repo,
        f"{BENCHMARKS}/gsm8k-cot.yaml",
        gsm8k.replace("id: gsm8k\n", "id: gsm8k-cot\nrenamed_from: gsm8k\n"),
    )
    write(catalog_repo, f"{BENCHMARKS}/gsm8k-fast.yaml", gsm8k.replace("id: gsm8k\n", "id: gsm8k-fast\n"))
    (catalog_repo / BENCHMARKS / "deepseek-r1.yaml").unlink()
    replace_in(catalog_repo, f"{BENCHMARKS}/gpt-oss-120b.yaml", "    max_ttft_latency_ms: 3000\n", "")
    replace_in(catalog_repo, f"{BENCHMARKS}/llm-post-training.yaml", "kind: ", "# reviewed\nkind: ")
    v1 = git(catalog_repo, "rev-parse", "v1^{commit}")[:12]
    assert diff_markdown(diff_refs(catalog_repo, "v1")).splitlines() == [
        f"### Catalog diff: `v1 ({v1})` → `working tree`",
        "",
        "**4 changes: 4 contract, 0 display, 0 policy.**",
        "",
        "#### Benchmarks",
        "",
        "| benchmark | contract |",
        "| --- | --- |",
        "| `deepseek-r1` | removed (was sha256:ab89b2a9d519…) |",
        "| `gpt-oss-120b` | contract changed (sha256:cc6327135f08… -> sha256:d80de888ab43…) |",
        "| `gsm8k-cot` | renamed from gsm8k, contract changed (sha256:bd53d2154a83… -> sha256:52614a689eca…) |",
        "| `gsm8k-fast` | added (sha256:783a314fae96…) |",
        "| `llm-post-training` | contract identical |",
        "",
        "#### Changes",
        "",
        "| class | change | affects | where |",
        "| --- | --- | --- | --- |",
        "| contract | benchmark deepseek-r1: removed | `deepseek-r1` | "
        "`benchmark_suite/benchmarks/deepseek-r1.yaml:2:1` |",
        "| contract | benchmark gpt-oss-120b: performance.requirements.max_ttft_latency_ms removed (was 3000.0) | "
        "`gpt-oss-120b` | `benchmark_suite/benchmarks/gpt-oss-120b.yaml:24:3` |",
        "| contract | benchmark gsm8k-cot: renamed from gsm8k | `gsm8k-cot` | "
        "`benchmark_suite/benchmarks/gsm8k-cot.yaml:4:1` |",
        "| contract | benchmark gsm8k-fast: added | `gsm8k-fast` | `benchmark_suite/benchmarks/gsm8k-fast.yaml:2:1` |",
    ]


def test_two_cohorts_get_a_cohort_table_and_a_note_for_a_missing_tag(catalog_repo: Path, tmp_path: Path) -> None:
    repo = make_freezable(catalog_repo)
    now = dt.datetime(2026, 8, 28, 12, 0, tzinfo=dt.UTC)
    freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k"], seeds_file=write(tmp_path, "a.yaml", SEEDS_A), now=now))
    freeze(repo, FreezeRequest("2026-09-C1", add=["deepseek-r1"], now=now))
    c0, c1 = git(repo, "rev-parse", "2026-09-C0^{commit}")[:12], git(repo, "rev-parse", "2026-09-C1^{commit}")[:12]
    git(repo, "tag", "-d", "2026-09-C0")
    assert diff_markdown(diff_refs(repo, "2026-09-C0", "2026-09-C1"), heading="##").splitlines() == [
        f"## Catalog diff: `2026-09-C0 ({c0})` → `2026-09-C1 ({c1})`",
        "",
        f"> tag \\`2026-09-C0\\` not found: using {c0}, the commit that added rulesets/2026-09-C0.yaml",
        "",
        "**1 change: 0 contract, 0 display, 1 policy.**",
        "",
        "### Cohort `2026-09-C0` → `2026-09-C1`",
        "",
        "| | |",
        "| --- | --- |",
        "| Benchmarks added | deepseek-r1 |",
        "| Benchmarks removed | - |",
        "| Contracts identical | gsm8k |",
        "| Contracts changed | - |",
        "| Seed sets introduced | - |",
        "| Seed sets still valid | A |",
        "| Seed sets retired | - |",
        "",
        "### Changes",
        "",
        "| class | change | affects | where |",
        "| --- | --- | --- | --- |",
        "| policy | ruleset 2026-09-C1: added | – | `rulesets/2026-09-C1.yaml:3:1` |",
    ]


def test_a_pending_value_in_a_diffed_value_stays_text(catalog_repo: Path) -> None:
    # `<TBD>` unescaped is an HTML tag to GitHub: the changelog section showed `"" -> 4388`.
    replace_in(catalog_repo, DEEPSEEK, "min_sample_count: 4388", "min_sample_count: <TBD>")
    markdown = diff_markdown(diff_refs(catalog_repo, "v1"))
    assert (
        '| contract | benchmark deepseek-r1: performance.requirements.min_sample_count 4388 -> "&lt;TBD>" '
        "| `deepseek-r1` | `benchmark_suite/benchmarks/deepseek-r1.yaml:25:5` |"
    ) in markdown.splitlines()
    assert "<TBD>" not in markdown
