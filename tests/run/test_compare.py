"""`compare`: three runs of two packs in one matrix, a regression marked as such in every format."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from catalogctl.render.compare import render_text
from catalogctl.run.compare import trend
from tests.helpers import REPO_ROOT, copy_catalog, init_repo, replace_in, run_cli, write

STRICT, FLEXIBLE = "exact_match,strict-match", "exact_match,flexible-extract"
# Three runs: a base model, a tuned one that gains on gsm8k-cot and loses strict gsm8k, and a
# merge; gsm8k's flexible match rises while its strict one falls (the formatting regression the
# pack's two metrics exist to show).
SCORES = {
    "base": {"gsm8k": (0.812, 0.85), "gsm8k-cot": (0.70, 0.74)},
    "tuned": {"gsm8k": (0.777, 0.86), "gsm8k-cot": (0.75, 0.78)},
    "merged": {"gsm8k": (0.812, 0.84), "gsm8k-cot": (0.72, 0.74)},
}


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    """The shipped catalog plus a second lm-eval pack (`gsm8k-cot`, task gsm8k_cot)."""
    root = copy_catalog(init_repo(tmp_path / "catalog"))
    text = (root / "benchmark_suite/benchmarks/gsm8k.yaml").read_text(encoding="utf-8")
    write(root, "benchmark_suite/benchmarks/gsm8k-cot.yaml", text.replace("id: gsm8k\n", "id: gsm8k-cot\n"))
    replace_in(root, "benchmark_suite/benchmarks/gsm8k-cot.yaml", "tasks: [gsm8k]", "tasks: [gsm8k_cot]")
    replace_in(root, "benchmark_suite/benchmarks/gsm8k-cot.yaml", '    gsm8k: "3.0"', '    gsm8k_cot: "3.0"')
    return root


@pytest.fixture
def runs(tmp_path: Path) -> list[str]:
    """`LABEL=PATH` arguments: one results file per run and pack."""
    args = []
    for label, benches in SCORES.items():
        for bench, (strict, flexible) in benches.items():
            path = tmp_path / "runs" / label / f"{bench}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            results = {
                "schema": "catalogctl/results/v1",
                "benchmark": bench,
                "metrics": {STRICT: strict, FLEXIBLE: flexible},
            }
            path.write_text(json.dumps(results), encoding="utf-8")
            args.append(f"{label}={path}")
    return args


def matrix(catalog: Path, runs: list[str], *args: str, code: int = 0) -> str:
    return run_cli("compare", *runs, "-C", catalog, *args, code=code).stdout


def test_the_text_matrix_marks_the_regression(catalog: Path, runs: list[str]) -> None:
    lines = matrix(catalog, runs).splitlines()
    assert lines[0].split() == ["BENCHMARK", "METRIC", "BASE", "(BASELINE)", "TUNED", "MERGED"]
    assert lines[1].startswith("gsm8k ")
    assert "81.2% (external)" in lines[1]
    assert "77.7% (-3.5 pp, worse; external)" in lines[1]
    assert "81.2% (same; external)" in lines[1]
    assert "75.0% (+5.0 pp, better; external)" in lines[2]
    assert lines[-2:] == [
        "external: reported back by the submitter, not read from a harness's output",
        "1 regression against base",
    ]


def test_every_metric_on_request_the_primary_first(catalog: Path, runs: list[str]) -> None:
    rows = [line.split("  ")[0:2] for line in matrix(catalog, runs, "--all-metrics").splitlines()[1:5]]
    assert [line[0].strip() for line in rows] == ["gsm8k", "gsm8k", "gsm8k-cot", "gsm8k-cot"]
    out = matrix(catalog, runs, "--all-metrics", "--baseline", "tuned")
    # Against tuned, both others fall on gsm8k's flexible match and on both of gsm8k-cot's.
    assert out.splitlines()[-1] == "6 regressions against tuned"


def test_markdown_puts_the_regression_in_bold(catalog: Path, runs: list[str]) -> None:
    lines = matrix(catalog, runs, "--format", "markdown").splitlines()
    assert lines[2:6] == [
        "| Benchmark | Metric | base (baseline) | tuned | merged |",
        "| --- | --- | --- | --- | --- |",
        "| `gsm8k` | Exact match (strict) | 81.2% (external) | **77.7% (-3.5 pp, worse; external)** "
        "| 81.2% (same; external) |",
        "| `gsm8k-cot` | Exact match (strict) | 70.0% (external) | 75.0% (+5.0 pp, better; external) "
        "| 72.0% (+2.0 pp, better; external) |",
    ]
    assert lines[-1] == "1 regression against base"


def test_json_is_the_documented_model(catalog: Path, runs: list[str]) -> None:
    report = json.loads(matrix(catalog, runs, "--format", "json"))
    schema = json.loads((REPO_ROOT / "schemas/compare.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(report, schema)
    assert report["baseline"] == "base"
    assert report["regressions"] == 1
    assert [run["label"] for run in report["runs"]] == ["base", "tuned", "merged"]
    strict = report["rows"][0]
    assert (strict["benchmark"], strict["metric"], strict["primary"], strict["labels"]) == (
        "gsm8k",
        STRICT,
        True,
        {"zh": "精确匹配（严格）"},
    )
    assert [cell["trend"] for cell in strict["cells"]] == [None, "worse", "same"]
    assert strict["cells"][1]["change"] == pytest.approx(-0.035)


class _Cells(HTMLParser):
    """The classes and text of each table cell, and the translated spans."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[tuple[str, str]] = []
        self.translations: list[str] = []
        self._in: str | None = None
        self._lang: bool = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "td" and "value" in (found.get("class") or ""):
            self._in = found.get("class") or ""
            self.cells.append((self._in, ""))
        self._lang = tag == "span" and found.get("lang") == "zh"

    def handle_data(self, data: str) -> None:
        if self._in is not None:
            classes, text = self.cells[-1]
            self.cells[-1] = (classes, text + data)
        if self._lang:
            self.translations.append(data)
            self._lang = False

    def handle_endtag(self, tag: str) -> None:
        if tag == "td":
            self._in = None


def test_the_html_page_marks_the_regression_and_carries_the_translations(
    catalog: Path, runs: list[str], tmp_path: Path
) -> None:
    page = tmp_path / "compare.html"
    run_cli("compare", *runs, "-C", catalog, "--format", "html", "-o", page)
    parsed = _Cells()
    parsed.feed(page.read_text(encoding="utf-8"))
    worse = [text for classes, text in parsed.cells if classes.split()[-1] == "worse"]
    assert worse == ["77.7% external-3.5 pp, worse"]
    assert "精确匹配（严格）" in parsed.translations


def test_fail_on_regression_exits_1(catalog: Path, runs: list[str]) -> None:
    matrix(catalog, runs, "--fail-on-regression", code=1)
    matrix(catalog, [r for r in runs if not r.startswith("tuned=")], "--fail-on-regression")


def test_a_terminal_gets_colours() -> None:
    from catalogctl.model.reports.compare import CompareCell, CompareReport, CompareRow, CompareRun

    def cell(value: float, change: float | None, verdict: Any) -> CompareCell:
        return CompareCell(
            value=value, shown=f"{value * 100:.1f}%", external=False, source=None, change=change, trend=verdict
        )

    row = CompareRow(
        benchmark="gsm8k",
        metric=STRICT,
        label="Exact match (strict)",
        labels={},
        primary=True,
        ratio=True,
        direction="higher",
        unit="fraction",
        cells=[cell(0.8, None, None), cell(0.7, -0.1, "worse"), cell(0.9, 0.1, "better")],
    )
    runs = [CompareRun(label=label, sources=[]) for label in ("a", "b", "c")]
    report = CompareReport(runs=runs, baseline="a", rows=[row], regressions=1)
    coloured = render_text(report, colour=True)
    assert "\x1b[31m70.0% (-10.0 pp, worse)\x1b[0m" in coloured
    assert "\x1b[32m90.0% (+10.0 pp, better)\x1b[0m" in coloured
    assert "\x1b[" not in render_text(report)


@pytest.mark.parametrize(
    ("change", "direction", "expected"),
    [
        (0.1, "higher", "better"),
        (-0.1, "higher", "worse"),
        (0.1, "lower", "worse"),
        (-0.1, "lower", "better"),
        (0.1, "neutral", "changed"),
        (0.0, "lower", "same"),
    ],
)
def test_the_direction_decides_better_or_worse(change: float, direction: str, expected: str) -> None:
    assert trend(change, direction) == expected


def test_refusals_name_what_is_wrong(catalog: Path, runs: list[str], tmp_path: Path) -> None:
    err = run_cli("compare", *runs, "-C", catalog, "--baseline", "nope", code=2).stderr
    assert err == "error: no run is labelled `nope`\nhint: the runs are base, tuned, merged\n"
    twice = [runs[0], runs[0]]
    err = run_cli("compare", *twice, "-C", catalog, code=2).stderr
    assert "run `base` scores benchmark `gsm8k` twice" in err
    stranger = write(tmp_path, "x.json", json.dumps({"schema": "catalogctl/results/v1", "benchmark": "mmlu"}))
    err = run_cli("compare", str(stranger), "-C", catalog, code=2).stderr
    assert err.startswith(f"error: {stranger}: benchmark `mmlu` is not in the ")
    broken = write(tmp_path, "y.json", "{")
    assert f"error: {broken}: not a results file" in run_cli("compare", str(broken), "-C", catalog, code=2).stderr
