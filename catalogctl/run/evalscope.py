"""evalscope's output as `check` reads it: the output folder of a run (`configs/task_config.yaml`
and `reports/<model>/<benchmark>.json`), or one report alone (model/documents/evalscope.py).

The report holds the benchmark, the model, each metric (by evalscope's key `name:aggregation`,
with its score and the samples it counts), the primary metric and how many samples were requested,
succeeded and errored. The task config holds what ran: the limit, the repeats, the generation
config, each benchmark's few-shot count and evaluation version. A report read alone (not in its
output folder) leaves those UNKNOWN. Neither file records the dataset's bytes (a `local_path` or
a hub id and revision, no sha256), the model's revision, or a hash per sample: the predictions and
reviews hold every prompt and answer, but no digest a contract could pin.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from catalogctl.errors import InputsUnusable
from catalogctl.model.documents.evalscope import EvalscopeReport, EvalscopeTaskConfig
from catalogctl.run.harnessfiles import read_json, read_yaml, validated
from catalogctl.run.harnessrun import HarnessRun, Recorded, generation_of, seed_of

CONFIG = Path("configs") / "task_config.yaml"
REPORTS = "reports"
_HINT = "check reads evalscope's output folder, or a report in it, as evalscope wrote them"
# evalscope's model APIs by eval_type, as the contract's api_type names them: `openai_api` (and its
# deprecated alias `server`) is models/openai_compatible.py, which calls chat.completions.create
# (evalscope 1.14.1 config.py, constants.EvalType). Any other (mock_llm, a checkpoint, the
# Responses API) is no API type of a contract: UNKNOWN, never taken for one.
_API_TYPES = {"openai_api": "openai", "server": "openai"}


def is_evalscope_folder(path: Path) -> bool:
    """Whether `path` is an evalscope output folder (it holds configs/task_config.yaml)."""
    return (path / CONFIG).is_file()


def is_evalscope_report(data: Any) -> bool:
    """Whether JSON `data` is an evalscope report (its top-level keys say so)."""
    keys = ("schema_version", "dataset_name", "model_name", "metrics")
    return isinstance(data, dict) and all(key in data for key in keys)


def _report(path: Path) -> EvalscopeReport:
    data = read_json(path, "an evalscope report", _HINT)
    return validated(EvalscopeReport, data, path, "an evalscope report (schema_version 2)", _HINT)


def _config(folder: Path) -> EvalscopeTaskConfig:
    path = folder / CONFIG
    return validated(EvalscopeTaskConfig, read_yaml(path, "YAML", _HINT), path, "an evalscope task config", _HINT)


def _report_of(folder: Path, tasks: list[str]) -> Path:
    """The report of the contract's task in an output folder."""
    found = sorted((folder / REPORTS).glob("*/*.json"))
    meant = [p for p in found if p.stem in tasks]
    if len(meant) == 1:
        return meant[0]
    shown = ", ".join(str(p.relative_to(folder)) for p in (meant or found)) or "none"
    raise InputsUnusable(
        f"{folder}: {'several reports' if meant else 'no report'} of the contract's evalscope tasks "
        f"({', '.join(tasks)}): reports {shown}",
        "check one report at a time: FOLDER/reports/<model>/<benchmark>.json",
    )


def read_evalscope(path: Path, tasks: list[str]) -> HarnessRun:
    """An evalscope run: an output folder (its report of one of `tasks`), or a report, read with
    its output folder's task config when it sits in one."""
    if path.is_dir():
        folder: Path | None = path
        report_path = _report_of(path, tasks)
    else:
        report_path = path
        above = path.parent.parent
        folder = above.parent if above.name == REPORTS and is_evalscope_folder(above.parent) else None
    report = _report(report_path)
    config = _config(folder) if folder is not None else None
    task = report.dataset_name
    if config is not None:
        where = folder / CONFIG  # type: ignore[operator]  # folder is set with config
        if task not in config.datasets:
            raise InputsUnusable(
                f"{report_path}: the report is of benchmark `{task}`; its task config ran {', '.join(config.datasets)}",
                f"the report and {where} are of different runs",
            )
        if report.model_name != config.model_id:
            raise InputsUnusable(
                f"{report_path}: the report is of model `{report.model_name}`; its task config ran `{config.model_id}`",
                f"the report and {where} are of different runs",
            )
    source = f"evalscope output {folder}" if folder is not None else f"evalscope report {report_path}"
    return _run(report, config, f"{source} ({task})", folder)


def _recorded(what: str, value: Any, config: EvalscopeTaskConfig | None) -> Recorded:
    if config is None:
        return Recorded(what, None, "the report alone records none: its output folder's configs/task_config.yaml does")
    return Recorded(what, value)


def _run(report: EvalscopeReport, config: EvalscopeTaskConfig | None, source: str, folder: Path | None) -> HarnessRun:
    task = report.dataset_name
    primary = report.primary_metric_identity
    counted = next((m for m in report.metrics if primary is not None and m.identity == primary), None)
    summary = report.execution_summary
    identity = config.evaluation_identity.benchmarks.get(task) if config and config.evaluation_identity else None
    resolved = config.resolved_benchmarks.get(task) if config else None
    generation = config.generation_config if config else {}
    seed = generation.get("seed")
    return HarnessRun(
        harness="evalscope",
        source=source,
        task=task,
        model=report.model_name,
        api_type=_API_TYPES.get(config.eval_type or "") if config else None,
        metrics={m.identity.key: m.score for m in report.metrics},
        primary=primary.key if primary is not None else None,
        primary_note=report.primary_metric_unavailable_reason or "evalscope named no primary metric",
        samples_scored=counted.num if counted is not None else None,
        harness_version=_recorded(
            "evalscope version (evalscope_version) vs runner.version",
            config.evalscope_version if config else None,
            config,
        ),
        task_version=_recorded(f"{task} evaluation_version", identity.evaluation_version if identity else None, config),
        fewshot=_recorded(f"{task} few_shot_num", resolved.few_shot_num if resolved else None, config),
        limit=_recorded("limit", "none" if config is None or config.limit is None else config.limit, config),
        repeats=_recorded("repeats", config.repeats if config else None, config),
        samples=Recorded(
            "samples requested", summary.requested if summary else None, "the report has no execution_summary"
        ),
        outcome=[
            ("samples errored", 0, summary.errored if summary else None),
            ("incomplete", False, summary.incomplete if summary else None),
        ],
        generation=generation_of(generation, f"{folder / CONFIG if folder else source}: generation_config"),
        model_seed=seed_of(seed),
    )


def report_metrics(path: Path) -> dict[str, dict[str, float]]:
    """Each benchmark's metrics by evalscope's keys (for `compare`): of a report, or of every
    report of an output folder; two reports of one benchmark are refused (which is the run's?)."""
    found: dict[str, dict[str, float]] = {}
    for report_path in sorted((path / REPORTS).glob("*/*.json")) if path.is_dir() else [path]:
        report = _report(report_path)
        if report.dataset_name in found:
            raise InputsUnusable(f"{path}: two reports of benchmark `{report.dataset_name}`", _HINT)
        found[report.dataset_name] = {m.identity.key: m.score for m in report.metrics}
    return found
