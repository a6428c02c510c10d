"""`catalogctl compare`: the scores of several runs, benchmarks x runs, in one matrix."""

from __future__ import annotations

import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from catalogctl.cli.common import RefOpt, RepoOpt, out
from catalogctl.cli.helptext import OUTPUT
from catalogctl.errors import EXIT_OK, EXIT_PROBLEMS


class CompareFormat(StrEnum):
    """Output of a comparison."""

    text = "text"
    markdown = "markdown"
    json = "json"
    html = "html"


def compare(
    runs: Annotated[
        list[str],
        typer.Argument(
            metavar="RUN...",
            help="A run's scores, as LABEL=PATH or PATH (labelled by its name): a catalogctl/results/v1 file, or a "
            "harness's output (lm-eval, evalscope, inspect). PATHs of one LABEL are one run.",
        ),
    ],
    baseline: Annotated[
        str | None,
        typer.Option("--baseline", "-b", help="The run the others are compared with (default: the first)."),
    ] = None,
    all_metrics: Annotated[
        bool,
        typer.Option("--all-metrics", help="Every metric of each benchmark, not only its primary one."),
    ] = False,
    fail_on_regression: Annotated[
        bool,
        typer.Option("--fail-on-regression", help="Exit 1 when a run is worse than the baseline on a metric shown."),
    ] = False,
    path: RepoOpt = None,
    ref: RefOpt = None,
    fmt: Annotated[
        CompareFormat,
        typer.Option("--format", "-f", rich_help_panel=OUTPUT, help="text, markdown, json or html."),
    ] = CompareFormat.text,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", rich_help_panel=OUTPUT, help="Write the matrix to this file, atomically."),
    ] = None,
) -> None:
    """Compare the scores of several runs, benchmarks x runs.

    Each benchmark's primary metric (every metric with --all-metrics), shown by the metric
    registry's label, as a percent where the metric is a ratio; each change against the baseline
    run marked better or worse by the metric's direction; values reported back in a results file
    labelled external. Exit 0 when shown (with --fail-on-regression: 1 when a value is worse than
    the baseline's); 2 when a run cannot be read or names no benchmark of the catalog.
    """
    from catalogctl.api import load_catalog
    from catalogctl.io.files import write_atomic
    from catalogctl.render.compare import render_json, render_markdown, render_text
    from catalogctl.run.compare import compare as compare_runs
    from catalogctl.run.compare import parse_runs

    catalog = load_catalog(path, ref).catalog
    report = compare_runs(catalog, parse_runs(runs), baseline=baseline, metrics="all" if all_metrics else "primary")
    if fmt is CompareFormat.html:
        from catalogctl.render.site.compare_page import render_html

        text = render_html(report)
    elif fmt is CompareFormat.json:
        text = render_json(report)
    elif fmt is CompareFormat.markdown:
        text = render_markdown(report)
    else:
        colour = output is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
        text = render_text(report, colour=colour)
    if output is not None:
        write_atomic(output, text.encode("utf-8"))
        typer.echo(f"wrote {output}", err=True)
    else:
        out(text)
    raise typer.Exit(EXIT_PROBLEMS if fail_on_regression and report.regressions else EXIT_OK)
