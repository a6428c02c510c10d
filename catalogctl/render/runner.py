"""Rendering of `runner-config`: the harness's command line (text), or the report (JSON)."""

from __future__ import annotations

import shlex
from collections.abc import Callable

from catalogctl.model.reports.runner import RunnerConfigReport
from catalogctl.render.common import as_json


def runner_text(report: RunnerConfigReport) -> str:
    """The command the run script executes, as one shell line ('' for the endpoints client, whose
    files are the whole configuration)."""
    return shlex.join(report.command) + "\n" if report.command else ""


def runner_notes(report: RunnerConfigReport) -> list[str]:
    """What the text output tells on stderr: each file written, each placeholder left, and where
    the harness writes its results."""
    notes = [f"wrote {f.path}" for f in report.files]
    notes += [f"to fill: {p}" for p in report.placeholders]
    if report.results is not None:
        notes.append(f"results: {report.results}/ beside the script (give it to `catalogctl check`)")
    return notes


REPORTERS: dict[str, Callable[[RunnerConfigReport], str]] = {"text": runner_text, "json": as_json}
