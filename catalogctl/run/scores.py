"""The scores a run reports, read for `compare`: which benchmark each belongs to, and its metrics.

`compare` reads the layouts that say which benchmark they score: a `catalogctl/results/v1` file
names it (`benchmark`; its values were reported back, so they are labelled external), and a
harness's own output names its tasks, which the catalog's `runner.tasks` map to a benchmark. A
harness reader is one entry of `HARNESS_READERS`. The MLPerf layouts (an endpoints run folder, a
submission, LoadGen, MLLOG) do not name a benchmark of the catalog: `check` grades them against a
resolved config instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from catalogctl.catalog.index import Catalog
from catalogctl.errors import InputsUnusable
from catalogctl.io.files import read_input
from catalogctl.io.jsonio import JsonProblem, parse_json
from catalogctl.model.documents.benchmark import InferenceBenchmark
from catalogctl.model.documents.results import RunResults
from catalogctl.run import lmeval
from catalogctl.run.evalscope import report_metrics
from catalogctl.run.harness import claims_evalscope, claims_inspect
from catalogctl.run.inspectlog import read_inspect_log

COMPARED_LAYOUTS = "a catalogctl/results/v1 file, or a harness's output (lm-eval, evalscope, inspect)"


@dataclass(frozen=True)
class TaskScores:
    """What a harness's output reports for one of its tasks: metric key (verbatim) -> value."""

    runner: str
    task: str
    metrics: Mapping[str, float | None]


@dataclass(frozen=True)
class BenchmarkScores:
    """One benchmark's metrics as one file reports them."""

    benchmark: str
    metrics: Mapping[str, float | None]
    external: bool
    source: str


# A harness reader: the tasks a file holds, or None when the file is not that harness's output.
HarnessReader = Callable[[Path], list[TaskScores] | None]


def _lmeval(path: Path) -> list[TaskScores] | None:
    """lm-eval output (run/lmeval.py): each task's metric values, by their verbatim keys."""
    if not lmeval.claims(path):
        return None
    found = lmeval.task_metrics(lmeval.read_lmeval(path))
    return [TaskScores("lm-eval", task, metrics) for task, metrics in found.items()]


def _evalscope(path: Path) -> list[TaskScores] | None:
    """evalscope output (run/evalscope.py): each report's metrics, by evalscope's keys."""
    if not claims_evalscope(path):
        return None
    return [TaskScores("evalscope", task, metrics) for task, metrics in report_metrics(path).items()]


def _inspect(path: Path) -> list[TaskScores] | None:
    """An inspect_ai JSON log (run/inspectlog.py): its task's metrics, by inspect's names."""
    if not claims_inspect(path):
        return None
    run = read_inspect_log(path)
    return [TaskScores("inspect", run.task, dict(run.metrics))]


HARNESS_READERS: list[HarnessReader] = [_lmeval, _evalscope, _inspect]


def read_scores(path: Path, catalog: Catalog) -> list[BenchmarkScores]:
    """The benchmarks `path` scores, each with its metrics."""
    if not path.exists():
        raise InputsUnusable(f"{path}: no such file or folder", f"name {COMPARED_LAYOUTS}")
    for reader in HARNESS_READERS:
        tasks = reader(path)
        if tasks is not None:
            return [_of_task(task, catalog, str(path)) for task in tasks]
    if path.is_dir():
        raise InputsUnusable(f"{path} is a folder that holds no harness output", f"name {COMPARED_LAYOUTS}")
    return [_results_file(path, catalog)]


def _results_file(path: Path, catalog: Catalog) -> BenchmarkScores:
    try:
        results = RunResults.model_validate(parse_json(read_input(path)))
    except (JsonProblem, ValidationError) as exc:
        first = str(exc).splitlines()[0]
        raise InputsUnusable(f"{path}: not a results file ({first})", f"name {COMPARED_LAYOUTS}") from None
    if results.benchmark not in catalog.benchmarks:
        raise InputsUnusable(
            f"{path}: benchmark `{results.benchmark}` is not in the {catalog.label}",
            "compare with the catalog the runs were made for (--ref)",
        )
    return BenchmarkScores(results.benchmark, dict(results.metrics), external=True, source=str(path))


def _of_task(task: TaskScores, catalog: Catalog, source: str) -> BenchmarkScores:
    """The benchmark whose runner runs `task`: exactly one must."""
    owners = sorted(
        ident
        for ident, bench in catalog.benchmarks.items()
        if isinstance(bench, InferenceBenchmark)
        and bench.runner is not None
        and bench.runner.name == task.runner
        and task.task in bench.runner.tasks
    )
    if len(owners) != 1:
        found = "no benchmark" if not owners else f"{len(owners)} benchmarks ({', '.join(owners)})"
        raise InputsUnusable(
            f"{source}: {found} of the {catalog.label} runs {task.runner} task `{task.task}`",
            "each task a run reports must be named by one benchmark's runner.tasks",
        )
    return BenchmarkScores(owners[0], task.metrics, external=False, source=source)
