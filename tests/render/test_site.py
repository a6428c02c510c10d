"""The site as files: its pages, the SVG timelines, escaping, and a build that fails."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from markupsafe import Markup

import catalogctl.render.site as site_render
from catalogctl.authoring.site import gather_site
from catalogctl.errors import EnvironmentProblem, UsageError
from catalogctl.io.yamlio import parse_document
from catalogctl.model import Submission
from catalogctl.model.reports.site import Fact
from catalogctl.render.site.plan import Page
from tests.beacon_repo import ROUND, beacon_releases
from tests.helpers import commit_all, replace_in, run_cli
from tests.site_repo import three_cohorts


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_cli_builds_every_page(catalog_repo: Path, tmp_path: Path) -> None:
    repo = three_cohorts(catalog_repo, tmp_path)
    out = tmp_path / "site"
    result = run_cli("site", "-o", out, "-C", repo)
    assert result.stdout == f"wrote 14 pages (3 cohorts, 6 benchmarks) to {out}\n"
    files = set(snapshot(out))
    assert {"index.html", "cohorts/index.html", "benchmarks/index.html", "how-to-submit/index.html"} <= files
    assert {f"cohorts/{c}/index.html" for c in ("2026-09-C0", "2026-09-C1", "2026-10-C0")} <= files
    assert {"assets/site.css", "assets/site.js", "assets/search.js", "assets/search-index.js"} <= files
    for name, data in snapshot(out).items():
        if name.endswith(".html"):
            assert not re.search(rb"(src|href)=\"(https?:)?//", data), name  # nothing outside the site
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site")] == []


def test_the_seed_timeline_svg_marks_the_cohorts_each_set_is_adoptable_in(catalog_repo: Path, tmp_path: Path) -> None:
    repo = three_cohorts(catalog_repo, tmp_path)
    run_cli("site", "-o", tmp_path / "site", "-C", repo)
    home = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    cells = re.findall(r'<rect class="cell (on|off)" data-row="([A-Z]+)" data-cohort="([^"]+)"', home)
    on = {(row, cohort) for state, row, cohort in cells if state == "on"}
    assert {c for r, c in on if r == "A"} == {"2026-09-C0", "2026-09-C1", "2026-10-C0", "2026-10-C1"}
    assert {c for r, c in on if r == "B"} == {"2026-10-C0", "2026-10-C1", "2026-11-C0", "2026-11-C1"}
    assert ("off", "A", "2026-11-C0") in cells
    assert "<title>seed set A: not adoptable in 2026-11-C0</title>" in home
    bench = (tmp_path / "site/benchmarks/gsm8k/index.html").read_text(encoding="utf-8")
    assert re.findall(r'class="cell (on|off)" data-row="gsm8k"', bench) == ["on", "on", "on"]


def test_the_submission_file_shown_is_one_resolve_accepts(catalog_repo: Path, tmp_path: Path) -> None:
    repo = three_cohorts(catalog_repo, tmp_path)
    run_cli("site", "-o", tmp_path / "site", "-C", repo)
    page = (tmp_path / "site/how-to-submit/index.html").read_text(encoding="utf-8")
    shown = re.search(r'<pre id="submission"[^>]*>(.*?)</pre>', page, re.S)
    assert shown is not None
    text = re.sub(r'<span class="part part-training" hidden>.*?</span>', "", shown.group(1), flags=re.S)
    text = re.sub(r"<[^>]+>", "", text)
    Submission.model_validate(parse_document("submission.yaml", text.encode()).data)
    path = tmp_path / "submission.yaml"
    path.write_text(text, encoding="utf-8")
    run_cli("resolve", path, "-C", repo, "-o", tmp_path / "resolved.json")
    assert 'id="exit-8"' in page
    assert "contract-mismatch" in page


def test_hostile_catalog_strings_are_text(catalog_repo: Path, tmp_path: Path) -> None:
    hostile = '<script>alert(1)</script> & "quoted"'
    replace_in(
        catalog_repo,
        "benchmark_suite/benchmarks/gsm8k.yaml",
        "title: GSM8K · Grade-school math word problems",
        f"title: '{hostile}'",
    )
    replace_in(
        catalog_repo,
        "benchmark_suite/benchmarks/gsm8k.yaml",
        "    title: GSM8K · 小学数学应用题",
        "    title: '</span><img src=x>'",
    )
    commit_all(catalog_repo, "hostile titles")
    run_cli("site", "-o", tmp_path / "site", "-C", catalog_repo)
    for name, data in snapshot(tmp_path / "site").items():
        if name.endswith(".html"):
            assert b"<script>alert" not in data, name
            assert b"<img src=x>" not in data, name
    page = (tmp_path / "site/benchmarks/gsm8k/index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#34;quoted&#34;" in page
    assert "&lt;/span&gt;&lt;img src=x&gt;" in page
    index = (tmp_path / "site/assets/search-index.js").read_text(encoding="utf-8")
    assert '"text":"<script>alert(1)</script> & \\"quoted\\""' in index  # JSON in a script file: data, never markup


def test_an_empty_repository_says_no_cohort_is_frozen(catalog_repo: Path, tmp_path: Path) -> None:
    run_cli("site", "-o", tmp_path / "site", "-C", catalog_repo)
    home = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    assert "No cohort has been frozen yet: there is nothing to submit to." in home
    assert "No seed set has been published yet." in home
    submit = (tmp_path / "site/how-to-submit/index.html").read_text(encoding="utf-8")
    assert "No cohort has been frozen yet: there is nothing to submit to." in submit


def test_an_invalid_catalog_leaves_the_output_folder_as_it_was(catalog_repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    run_cli("site", "-o", out, "-C", catalog_repo)
    before = snapshot(out)
    replace_in(catalog_repo, "benchmark_suite/benchmarks/gsm8k.yaml", "model: llama3-1-8b", "model: no-such-model")
    result = run_cli("site", "-o", out, "-C", catalog_repo, code=1)
    assert result.stderr.splitlines()[0] == "error: the catalog at working tree is invalid: no site was built"
    assert snapshot(out) == before


def test_a_build_that_fails_midway_leaves_the_output_folder_as_it_was(
    catalog_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "site"
    data = gather_site(catalog_repo)
    site_render.write_site(data, out)
    (out / "extra.txt").write_text("kept")
    before = snapshot(out)
    real = site_render.pages

    def failing(site: object) -> Iterator[Page]:
        for number, item in enumerate(real(data)):
            if number == 4:
                raise OSError(28, "No space left on device")
            yield item

    monkeypatch.setattr(site_render, "pages", failing)
    with pytest.raises(EnvironmentProblem, match=r"^cannot write the site: No space left on device$"):
        site_render.write_site(data, out)
    assert snapshot(out) == before
    assert sorted(p.name for p in out.iterdir() if p.name.endswith(".tmp")) == []  # the build's folder is gone
    fresh = tmp_path / "new" / "site"
    with pytest.raises(EnvironmentProblem):
        site_render.write_site(data, fresh)
    assert not (tmp_path / "new").exists()  # the folders made for the build too


def test_a_page_the_writer_thread_cannot_write_fails_the_build_and_changes_nothing(
    catalog_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Pages are written by a second thread: its failure is the build's, raised once it is known.
    data = gather_site(catalog_repo)
    real = site_render._write_new
    calls: list[str] = []

    def full_disk(path: str, content: bytes) -> None:
        calls.append(path)
        if len(calls) == 5:
            raise OSError(28, "No space left on device")
        real(path, content)

    monkeypatch.setattr(site_render, "_write_new", full_disk)
    with pytest.raises(EnvironmentProblem, match=r"^cannot write the site: No space left on device$"):
        site_render.write_site(data, tmp_path / "new" / "site")
    assert len(calls) >= 5
    assert not (tmp_path / "new").exists()  # nor the build's folder, nor the folders made for it


def test_a_rebuild_keeps_the_files_no_build_wrote(catalog_repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    run_cli("site", "-o", out, "-C", catalog_repo)
    (out / "mine.html").write_text("mine")
    run_cli("site", "-o", out, "-C", catalog_repo)
    assert (out / "mine.html").read_text() == "mine"
    assert oct(out.stat().st_mode & 0o777) == "0o755"
    assert oct((out / "benchmarks").stat().st_mode & 0o777) == "0o755"  # readable by a web server's user
    assert [p.name for p in out.iterdir() if p.name.endswith(".tmp")] == []


def test_the_output_must_be_a_folder(catalog_repo: Path, tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    with pytest.raises(UsageError, match=r"is not a folder$"):
        site_render.write_site(gather_site(catalog_repo), target)
    result = run_cli("site", "-o", target, "-C", catalog_repo, code=2)
    assert result.stderr == f"error: {target} exists and is not a folder\nhint: name a folder for the site\n"


def test_a_catalog_outside_git_has_no_releases_to_publish(catalog_dir: Path, tmp_path: Path) -> None:
    result = run_cli("site", "-o", tmp_path / "site", "-C", catalog_dir, code=2)
    assert result.stderr == (
        f"error: no git repository at {catalog_dir}\n"
        "hint: run inside a clone of the catalog repository, or pass its path\n"
    )
    assert not (tmp_path / "site").exists()


def test_inline_code_is_escaped_first() -> None:
    assert site_render.inline_code("`preflight`: <b> & `x`") == "<code>preflight</code>: &lt;b&gt; &amp; <code>x</code>"


def test_a_part_laid_out_once_is_shown_for_equal_text_and_the_same_objects(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(site_render, "_ONCE", {})
    made = iter(range(100))
    page = site_render.environment().from_string(
        "{% macro show(x) %}[{{ x if x is string or x is number else 'models' }} {{ made() }}]{% endmacro %}"
        "{% for x in xs %}{{ show|once(x) }}{% endfor %}",
        globals={"made": lambda: next(made)},
    )
    text, fact = "<b>", Fact(label="a", value="b")
    xs = [text, "".join(["<", "b>"]), Markup(text), 1, True, [fact], [fact], [Fact(label="a", value="b")], fact]
    shown = page.render(xs=xs)
    # Equal text is laid out once, markup apart from the text it spells, True apart from 1; a list
    # of the same models once, a list of equal models again.
    assert shown == ("[&lt;b&gt; 0][&lt;b&gt; 0][<b> 1][1 2][True 3][models 4][models 4][models 5][models 6]")


def test_a_cohort_page_shows_where_each_sets_seeds_come_from(catalog_repo: Path, tmp_path: Path) -> None:
    run_cli("site", "-o", tmp_path / "site", "-C", beacon_releases(catalog_repo, tmp_path))
    page = (tmp_path / "site/cohorts/2026-09-C1/index.html").read_text(encoding="utf-8")
    assert (
        f"derived from round {ROUND} of drand quicknet (chain 52db9ba70e0c…), published 2024-10-14 17:13:33 UTC, "
        "named by the release of 2026-09-C0 before it was published"
    ) in page
    assert "To re-derive: for scheduler_rng_seed, sample_index_rng_seed and model_seed in turn" in page
    assert "drawn by <code>catalogctl freeze</code> with Python&#39;s secrets module" in page
    home = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    assert (
        "A new set is due: it is derived from round 12067013 of drand quicknet (due 2024-10-15 15:00:03 UTC), "
        "which the release of 2026-09-C1 named."
    ) in home
