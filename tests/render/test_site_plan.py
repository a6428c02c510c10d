"""A rebuild makes only the pages whose inputs changed, and what it leaves is what a build from
scratch writes, byte for byte (its manifest included)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import catalogctl.render.site.plan as site_plan
from catalogctl.authoring.site_source import as_json
from catalogctl.model.reports.site import Localized, SearchEntry
from catalogctl.release.freeze import FreezeRequest, freeze
from tests.helpers import replace_in, run_cli
from tests.release_repo import NOW
from tests.site_repo import three_cohorts

BENCHMARKS = ("deepseek-r1", "gpt-oss-120b", "gsm8k", "llama3-1-8b", "llm-post-training")
COHORT_PAGES = {f"cohorts/{c}/index.html" for c in ("2026-09-C0", "2026-09-C1", "2026-10-C0")}
BENCHMARK_PAGES = {f"benchmarks/{b}/index.html" for b in BENCHMARKS}


def stamps(folder: Path) -> dict[str, tuple[int, int]]:
    """Each file by its inode and modification time: a file written again has a new inode."""
    return {p.relative_to(folder).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns) for p in folder.rglob("*.*")}


def contents(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def rebuild(repo: Path, out: Path, tmp_path: Path) -> set[str]:
    """Rebuild the site in `out`: the files it wrote again, once checked equal to a fresh build."""
    before = stamps(out)
    run_cli("site", "-o", out, "-C", repo)
    after = stamps(out)
    fresh = tmp_path / "fresh"
    shutil.rmtree(fresh, ignore_errors=True)
    run_cli("site", "-o", fresh, "-C", repo)
    assert contents(out) == contents(fresh)
    return {rel for rel, stamp in after.items() if before.get(rel) != stamp and rel != ".catalogctl-site.json"}


@pytest.fixture
def built(catalog_repo: Path, tmp_path: Path) -> tuple[Path, Path]:
    repo = three_cohorts(catalog_repo, tmp_path)
    out = tmp_path / "site"
    run_cli("site", "-o", out, "-C", repo)
    return repo, out


def test_nothing_changed_nothing_is_written(built: tuple[Path, Path], tmp_path: Path) -> None:
    repo, out = built
    assert rebuild(repo, out, tmp_path) == set()


def test_a_changed_contract_writes_its_benchmarks_page_alone(built: tuple[Path, Path], tmp_path: Path) -> None:
    repo, out = built
    replace_in(repo, "benchmark_suite/benchmarks/gsm8k.yaml", "max_new_tokens: 512", "max_new_tokens: 1024")
    assert rebuild(repo, out, tmp_path) == {"benchmarks/gsm8k/index.html"}


def test_a_changed_dataset_writes_the_pages_of_the_benchmarks_using_it(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    repo, out = built
    replace_in(repo, "benchmark_suite/datasets/gsm8k.yaml", "\ntitle: GSM8K", "\ntitle: GSM8K test split")
    # The search index lists datasets by title; the benchmark's page inlines its dataset.
    assert rebuild(repo, out, tmp_path) == {"benchmarks/gsm8k/index.html", "assets/search-index.js"}


def test_a_benchmarks_title_is_written_again_everywhere_it_is_shown(built: tuple[Path, Path], tmp_path: Path) -> None:
    repo, out = built
    replace_in(repo, "benchmark_suite/benchmarks/gsm8k.yaml", "title: GSM8K · Grade", "title: GSM8K, grade")
    assert rebuild(repo, out, tmp_path) == {
        "benchmarks/gsm8k/index.html",
        "benchmarks/index.html",
        "index.html",  # the current cohort's benchmarks
        *COHORT_PAGES,  # every cohort carries it
        "assets/search-index.js",
    }


def test_the_suites_title_in_every_header_writes_every_page(built: tuple[Path, Path], tmp_path: Path) -> None:
    repo, out = built
    replace_in(repo, "benchmark_suite/suite.yaml", "title: MLPerf Endpoints", "title: MLPerf Endpoints (draft)")
    written = rebuild(repo, out, tmp_path)
    assert written == {rel for rel in stamps(out) if rel.endswith(".html")}
    assert len(written) == 14


def test_a_new_language_writes_every_page_and_the_stylesheet(built: tuple[Path, Path], tmp_path: Path) -> None:
    repo, out = built
    replace_in(repo, "benchmark_suite/benchmarks/gsm8k.yaml", "i18n:\n", "i18n:\n  fr:\n    title: GSM8K (fr)\n")
    written = rebuild(repo, out, tmp_path)
    assert {rel for rel in stamps(out) if rel.endswith(".html")} | {"assets/site.css"} <= written


def test_a_new_cohort_writes_every_page_that_lists_the_cohorts(built: tuple[Path, Path], tmp_path: Path) -> None:
    repo, out = built
    freeze(repo, FreezeRequest("2026-10-C1", now=NOW))
    written = rebuild(repo, out, tmp_path)
    assert written >= BENCHMARK_PAGES  # each benchmark's history has a line per cohort
    assert {"cohorts/2026-10-C1/index.html", "cohorts/index.html", "index.html", "benchmarks/index.html"} <= written
    assert not written & COHORT_PAGES  # an older cohort's page shows nothing of a later one


def test_a_page_edited_by_hand_is_written_again(built: tuple[Path, Path], tmp_path: Path) -> None:
    repo, out = built
    (out / "benchmarks/gsm8k/index.html").write_text("edited by hand\n", encoding="utf-8")
    assert rebuild(repo, out, tmp_path) == {"benchmarks/gsm8k/index.html"}


def test_another_catalogctl_writes_every_file(
    built: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, out = built
    before = stamps(out)
    monkeypatch.setattr(site_plan, "code_digest", lambda: b"a changed template")
    run_cli("site", "-o", out, "-C", repo)
    after = stamps(out)
    assert [rel for rel in after if after[rel] == before.get(rel)] == []


def test_the_search_index_is_the_json_python_writes_for_any_text() -> None:
    hostile = ['"\\', "\x00\x08\t\n\x0c\r\x1f\x7f", "\u2028\u2029\ufeff", "é 中 😀", "</script><!--"]
    entries = [
        SearchEntry(kind="model", id=text, title=Localized(text=text, i18n={"zh": text}), url=text, used_by=[text])
        for text in hostile
    ]
    index = json.dumps([e.model_dump() for e in entries], ensure_ascii=False, separators=(",", ":"))
    assert site_plan._search_index(as_json(entries)) == f"window.CATALOGCTL_SEARCH = {index};\n"
