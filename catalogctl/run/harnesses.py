"""The evaluation harnesses whose output `check` reads, beside the MLCommons layouts.

One entry per harness: the layout's name, what it reads (for the message naming every layout),
how to recognise its output, and how to grade it. `detect_layout` asks each entry in turn;
`check_files` grades a path with the entry that claimed it. A reader of another harness is one
more entry here (and its name in `Layout`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from catalogctl.model.documents.resolved import ResolvedConfig
from catalogctl.model.reports.check import CheckReport, Layout
from catalogctl.run import lmeval
from catalogctl.run.harness import (
    EVALSCOPE_READS,
    INSPECT_READS,
    claims_evalscope,
    claims_inspect,
    grade_evalscope,
    grade_inspect,
)
from catalogctl.run.lmeval_gates import grade_lmeval


@dataclass(frozen=True)
class Harness:
    """A harness's output layout: its name, what it reads, how it is recognised and graded."""

    layout: Layout
    reads: str
    claims: Callable[[Path], bool]
    grade: Callable[[ResolvedConfig, Path, str | None], CheckReport]


HARNESSES: tuple[Harness, ...] = (
    Harness(
        "lm-eval",
        "lm-eval's results_<timestamp>.json, or the --output_path folder of one run",
        lmeval.claims,
        grade_lmeval,
    ),
    Harness("evalscope", EVALSCOPE_READS, claims_evalscope, grade_evalscope),
    Harness("inspect", INSPECT_READS, claims_inspect, grade_inspect),
)


def harness_of(path: Path) -> Harness | None:
    """The harness whose output `path` is, if any."""
    return next((h for h in HARNESSES if h.claims(path)), None)


def harness_named(layout: str) -> Harness | None:
    """The harness of a layout `detect_layout` returned (None: an MLCommons layout)."""
    return next((h for h in HARNESSES if h.layout == layout), None)
