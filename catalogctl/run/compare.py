"""`compare`: the scores of several runs in one matrix, benchmarks x runs.

Evaluation packs exist so that "post-training most often improves one thing while quietly breaking
another" shows on one screen (seed 004): each benchmark's primary metric (its others on request)
in every run, shown as the metric registry says (label, percent where a ratio), each change against
a baseline run called better or worse by the metric's direction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from catalogctl.catalog.index import Catalog
from catalogctl.errors import InputsUnusable, UsageError
from catalogctl.model.documents.benchmark import InferenceBenchmark
from catalogctl.model.reports.compare import CompareCell, CompareReport, CompareRow, CompareRun, Trend
from catalogctl.run.scores import BenchmarkScores, read_scores


@dataclass(frozen=True)
class RunSpec:
    """A run as named on the command line: its label and the files that hold its scores."""

    label: str
    paths: tuple[Path, ...]


def parse_runs(args: Sequence[str]) -> list[RunSpec]:
    """`LABEL=PATH` or `PATH` (labelled by the file or folder's name); arguments of one label are one
    run, in the order their labels first appear."""
    order: list[str] = []
    paths: dict[str, list[Path]] = {}
    for arg in args:
        label, sep, rest = arg.partition("=")
        if not sep or not label or "/" in label:
            path = Path(arg)
            label = path.stem if path.is_file() else path.name
        else:
            path = Path(rest)
        if label not in paths:
            order.append(label)
            paths[label] = []
        paths[label].append(path)
    return [RunSpec(label, tuple(paths[label])) for label in order]


def compare(
    catalog: Catalog, runs: Sequence[RunSpec], *, baseline: str | None = None, metrics: str = "primary"
) -> CompareReport:
    """The matrix of `runs`' scores; `baseline` (default: the first run) is what the others are
    compared with; `metrics` is `primary` or `all`."""
    if not runs:
        raise UsageError("name at least one run to compare")
    labels = [run.label for run in runs]
    if baseline is None and len(runs) > 1:
        baseline = labels[0]
    if baseline is not None and baseline not in labels:
        raise UsageError(f"no run is labelled `{baseline}`", f"the runs are {', '.join(labels)}")
    scores = [_run_scores(run, catalog) for run in runs]
    rows: list[CompareRow] = []
    for bench in sorted({b for run in scores for b in run}):
        found = [run.get(bench) for run in scores]
        keys = _metric_keys(catalog, bench, [f for f in found if f is not None])
        for key in keys if metrics == "all" else keys[:1]:
            rows.append(_row(catalog, bench, key, key == keys[0], found, labels, baseline))
    return CompareReport(
        runs=[CompareRun(label=run.label, sources=[str(p) for p in run.paths]) for run in runs],
        baseline=baseline,
        rows=rows,
        regressions=sum(cell.trend == "worse" for row in rows for cell in row.cells),
    )


def _run_scores(run: RunSpec, catalog: Catalog) -> dict[str, BenchmarkScores]:
    out: dict[str, BenchmarkScores] = {}
    for path in run.paths:
        for found in read_scores(path, catalog):
            if found.benchmark in out:
                raise InputsUnusable(
                    f"run `{run.label}` scores benchmark `{found.benchmark}` twice: in {out[found.benchmark].source} "
                    f"and in {found.source}",
                    "give each run its own label (LABEL=PATH)",
                )
            out[found.benchmark] = found
    return out


def _metric_keys(catalog: Catalog, bench: str, found: list[BenchmarkScores]) -> list[str]:
    """The primary metric first (the contract's, else its first reported one, else the first a run
    reports), then the contract's other metrics, then whatever else the runs report."""
    contract = catalog.benchmarks[bench]
    declared: list[str] = []
    primary: str | None = None
    if isinstance(contract, InferenceBenchmark) and contract.accuracy is not None:
        declared = list(contract.accuracy.reported_metrics)
        primary = contract.accuracy.primary_metric
    reported = sorted({key for scores in found for key in scores.metrics})
    return list(dict.fromkeys([*([primary] if primary else []), *declared, *reported]))


def _row(
    catalog: Catalog,
    bench: str,
    key: str,
    primary: bool,
    found: list[BenchmarkScores | None],
    labels: list[str],
    baseline: str | None,
) -> CompareRow:
    metric = catalog.metrics.get(key)
    ratio = metric.ratio if metric else False
    direction = metric.direction if metric else "neutral"
    unit = metric.unit if metric else ""
    values = [None if scores is None else scores.metrics.get(key) for scores in found]
    base = values[labels.index(baseline)] if baseline is not None else None
    cells = [
        _cell(value, scores, None if label == baseline else base, ratio, direction, unit)
        for value, scores, label in zip(values, found, labels, strict=True)
    ]
    return CompareRow(
        benchmark=bench,
        metric=key,
        label=metric.label if metric else key,
        labels={lang: copy.label for lang, copy in ((metric.i18n or {}) if metric else {}).items() if copy.label},
        primary=primary,
        ratio=ratio,
        direction=direction,
        unit=unit,
        cells=cells,
    )


def _cell(
    value: float | None, scores: BenchmarkScores | None, base: float | None, ratio: bool, direction: str, unit: str
) -> CompareCell:
    change = value - base if value is not None and base is not None else None
    return CompareCell(
        value=value,
        shown=shown(value, ratio, unit),
        external=scores.external if scores is not None else False,
        source=scores.source if scores is not None else None,
        change=change,
        trend=None if change is None else trend(change, direction),
    )


def trend(change: float, direction: str) -> Trend:
    """Whether a change is for the better, by which way the metric is better."""
    if change == 0:
        return "same"
    if direction == "neutral":
        return "changed"
    return "better" if (change > 0) == (direction == "higher") else "worse"


def shown(value: float | None, ratio: bool, unit: str) -> str:
    """`81.2%` for a ratio, `81.2%` for a value in percent, `512 tokens` otherwise; `-` when absent."""
    if value is None:
        return "-"
    if ratio:
        return f"{value * 100:.1f}%"
    if unit == "percent":
        return f"{value:.1f}%"
    number = f"{value:.4g}" if not float(value).is_integer() else str(int(value))
    return f"{number} {unit}".rstrip()
