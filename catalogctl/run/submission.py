"""The official MLPerf Endpoints submission layout (§8.1/§8.3), as `check` reads it: which layout
a path is, the points of a submission tree, and what a point folder declares.

A point folder `r<N>/` holds the endpoints client's own files (`config.yaml`, `result_summary.json`,
`accuracy_results.json`, read by run/endpoints.py), `system_desc.json`, and `point.yaml`: what the
submitter declares, seeds included. The official checker compares the declared seeds with the
published set only; this module also compares them with the seeds the client recorded.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalogctl.errors import InputsUnusable, file_line_col
from catalogctl.io.yamlio import YamlProblem, read_foreign_yaml
from catalogctl.model.documents.resolved import ResolvedConfig
from catalogctl.model.documents.results import RunResults
from catalogctl.model.documents.submission import ConcurrencyLoad, describe_load
from catalogctl.model.reports.check import Check, GateResult, Layout
from catalogctl.run.declared import with_declarations
from catalogctl.run.endpoints import (
    POINT_FOLDER_FILES,
    ClientFiles,
    client_results,
    read_client_files,
    unsent_seeds,
)
from catalogctl.run.harnesses import HARNESSES, harness_of
from catalogctl.run.loadgen import is_loadgen_folder
from catalogctl.run.mllog import is_mllog, mllog_files
from catalogctl.run.shape import rule, shape_problems

LAYOUTS_HINT = (
    "check reads a catalogctl/results/v1 JSON file; an endpoints run folder (config.yaml, "
    "performance/result_summary.json, accuracy/accuracy_results.json); a submission point folder r<N>/ "
    "(point.yaml, config.yaml, result_summary.json, accuracy_results.json, system_desc.json); a "
    "submission tree (<org>/<submission_id>/ or its results/, results/<system>/ or results/<system>/<model>/ folder); "
    "a LoadGen output folder (mlperf_log_detail.txt, mlperf_log_summary.txt); "
    "or an MLPerf Training MLLOG result file (`:::MLLOG {json}` lines), or a folder of them (one run each); "
    "and of the evaluation harnesses: " + "; ".join(harness.reads for harness in HARNESSES)
)
POINT_DIR = re.compile(r"r(\d+)")
# What the checker requires in every point folder (its layout.REQUIRED_RUN_FILES): without them
# a point is not one; accuracy_results.json may be absent (its gates then say so).
_REQUIRED = ("point.yaml", "config.yaml", "result_summary.json", "system_desc.json")
_LOAD_KEYS = ("type", "target_concurrency", "target_qps")
SEEDS = ("scheduler_rng_seed", "sample_index_rng_seed", "model_seed")
# Where the client records each seed: config.yaml (below), and result_summary.json's run_config
# (settings.runtime.scheduler_random_seed and dataloader_random_seed; model_params.seed).
_CONFIG_KEYS = {
    "scheduler_rng_seed": ("settings", "runtime", "scheduler_random_seed"),
    "sample_index_rng_seed": ("settings", "runtime", "dataloader_random_seed"),
    "model_seed": ("model_params", "seed"),
}
# The seeds the client always records (config.yaml settings.runtime): a run recording neither is
# not evaluable, never a pass. model_params.seed is optional in the client (v6.1 has none): its
# absence is the `seeds` gate's not-evaluable row already.
_ALWAYS_RECORDED = ("scheduler_rng_seed", "sample_index_rng_seed")
_SUMMARY_KEYS = {"scheduler_rng_seed": "scheduler_random_seed", "sample_index_rng_seed": "dataloader_random_seed"}
# The v0.7 spellings point.yaml may still use (the checker reads them as a fallback, so do we).
_LEGACY = {"scheduler_rng_seed": "scheduler_random_seed", "sample_index_rng_seed": "dataloader_random_seed"}
# What only the submitter knows: `runner-config` writes each as null with a `# <TBD: ...>` comment
# (the checker's point-disclosure-complete and warmup-present fail on null), and a point still
# holding one is refused here.
SUBMITTER_FIELDS = (
    "division",
    "max_supported_concurrency",
    "model_precision",
    "link_to_model",
    "shared_src",
    "shared_docs",
    "warmup",
)
_POINT_SHAPE = (
    rule("", "mapping"),
    rule("concurrency"),
    rule("runtime_settings", "mapping"),
    rule("runtime_settings.runtime", "mapping"),
    rule("seed_set?", "string"),
    rule("target_cohort?", "string"),
    rule("steady_state?", "mapping"),
    rule("steady_state?.window?", "mapping"),
)


@dataclass(frozen=True)
class PointRead:
    """A point folder as read: its concurrency, the seeds and binding it declares, the client's
    files, and the results those report."""

    folder: Path
    concurrency: int
    declared: dict[str, int | None]
    seed_set: str | None
    target_cohort: str | None
    files: ClientFiles
    results: RunResults
    load_pattern: str = "concurrency"  # runtime_settings.load_pattern (the checker's default)
    model_name: str | None = None  # §8.3: the model folder's name, the checker's name of the model


def detect_layout(path: Path) -> Layout:
    """Which layout `path` is; a folder of none is refused, naming the layouts `check` reads."""
    if not path.is_dir():
        if path.is_file() and is_mllog(path):
            return "mllog"
        harness = harness_of(path)
        return "results" if harness is None else harness.layout  # a missing path: its reader says so
    _refuse_ambiguous(path)
    if (path / "point.yaml").is_file():
        return "point"
    if (path / "config.yaml").is_file() or (path / "performance").is_dir() or (path / "accuracy").is_dir():
        return "run-folder"  # without config.yaml, the run folder reader says so
    if is_loadgen_folder(path):
        return "loadgen"
    harness = harness_of(path)  # before the submission tree: lm-eval's --output_path is often `results/`
    if harness is not None:
        return harness.layout
    if _results_dir(path) is not None or _point_dirs(path) or any(_point_dirs(d) for d in _subdirs(path)):
        return "submission"
    found = mllog_files(path)
    if found:
        return "mllog" if len(found) == 1 else "mllog-runs"
    raise InputsUnusable(f"{path} is of no layout `check` reads", LAYOUTS_HINT)


def _refuse_ambiguous(path: Path) -> None:
    """A submission tree holding another layout's files at its root is refused: grading it as the
    one point or run those files make would leave every point of the tree unchecked."""
    if not ((path / "results").is_dir() or _point_dirs(path)):
        return
    tree = "results/" if (path / "results").is_dir() else "r<N>/"
    for name, layout in (
        ("point.yaml", "a submission point folder"),
        ("config.yaml", "an endpoints run folder"),
        ("performance", "an endpoints run folder"),
        ("accuracy", "an endpoints run folder"),
    ):
        if (path / name).exists():
            raise InputsUnusable(
                f"{path} is both a submission tree ({tree}) and {layout} ({name}): which one to check is unknown",
                "move the stray files out of the submission, or check the folder you mean",
            )


def _subdirs(path: Path) -> list[Path]:
    return sorted(p for p in path.iterdir() if p.is_dir())


def _point_dirs(folder: Path) -> list[Path]:
    """`r<N>/` folders, by concurrency (r256 after r32): each is a point, and one without its
    point.yaml is refused when read (§8.1), never left out of the curve."""
    found = [(int(m.group(1)), d) for d in _subdirs(folder) if (m := POINT_DIR.fullmatch(d.name))]
    return [d for _, d in sorted(found)]


def _results_dir(path: Path) -> Path | None:
    """The `results/` folder of a submission (`<submission_id>/`), of an organisation's only
    submission (`<org>/`), or `path` itself when it is one."""
    if path.name == "results":
        return path
    if (path / "results").is_dir():
        return path / "results"
    below = [d / "results" for d in _subdirs(path) if (d / "results").is_dir()]
    return below[0] if len(below) == 1 else None


def submission_points(path: Path, contract: Mapping[str, Any]) -> list[tuple[str, Path]]:
    """Every point of the contract's benchmark in the tree at `path`, as (label, folder): the
    `r<N>/` under `results/<system>/<model>/` for each model folder named as the checker names the
    contract's model (its `mlperf_name`, else its id), or under `path` itself."""
    if _point_dirs(path):  # a results/<system>/<model>/ folder
        return [(d.name, d) for d in _point_dirs(path)]
    results = _results_dir(path)
    curves = [(d.name, d) for d in _subdirs(path)] if results is None else _curves(results)
    model = contract["model"].get("mlperf_name") or contract["model"]["id"]
    meant = [(label, d) for label, d in curves if d.name == model]
    if not meant:
        found = ", ".join(label for label, _ in curves) or "none"
        raise InputsUnusable(
            f"{path} holds no points of {contract['id']}: its model folders are {found}",
            f"a submission keeps a benchmark's points in results/<system>/{model}/r<N>/ (its model's MLPerf name)",
        )
    points = [(f"{label}/{d.name}", d) for label, curve in meant for d in _point_dirs(curve)]
    if not points:
        shown = ", ".join(label for label, _ in meant)
        raise InputsUnusable(f"{path}: {shown} holds no point folder r<N>/ with a point.yaml", LAYOUTS_HINT)
    return points


def _curves(results: Path) -> list[tuple[str, Path]]:
    """(`results/<system>/<model>`, folder) for every model folder of every system."""
    return [(f"results/{s.name}/{m.name}", m) for s in _subdirs(results) for m in _subdirs(s)]


def read_point(folder: Path, contract: Mapping[str, Any]) -> PointRead:
    """A point folder: its point.yaml and the client's files beside it, mapped onto `contract`."""
    missing = [name for name in _REQUIRED if not (folder / name).is_file()]
    if missing:
        raise InputsUnusable(
            f"{folder} is not a complete submission point folder: no {', '.join(missing)}", LAYOUTS_HINT
        )
    point = _point_yaml(folder / "point.yaml")
    left = [name for name in SUBMITTER_FIELDS if name in point and point[name] is None]
    if left:
        raise InputsUnusable(
            f"{folder / 'point.yaml'} still holds placeholders: {', '.join(left)}",
            "fill each `null  # <TBD: ...>` that runner-config wrote",
        )
    runtime = point["runtime_settings"]["runtime"]
    declared = {name: _seed(runtime, name, folder) for name in SEEDS}
    files = read_client_files(folder, POINT_FOLDER_FILES)
    return PointRead(
        folder=folder,
        concurrency=point["concurrency"],
        declared=declared,
        seed_set=point.get("seed_set") or None,
        target_cohort=point.get("target_cohort") or None,
        files=files,
        results=with_declarations(
            client_results(files, contract, f"submission point {folder}"), point, folder / "point.yaml"
        ),
        load_pattern=str(point["runtime_settings"].get("load_pattern", "concurrency")),
        model_name=None if point.get("model_name") is None else str(point["model_name"]),
    )


def at_point_load(config: ResolvedConfig, point: PointRead) -> ResolvedConfig:
    """The resolved config as it governs one point of a curve: a fixed-concurrency point runs at
    the concurrency its point.yaml declares (§5: each point of a Pareto curve at its own, §6.1),
    not at the one load of the submission, and what the client recorded must be that load."""
    if point.load_pattern != "concurrency" or config.settings is None:
        # the checker refuses another pattern (load-pattern): the submission's load then holds; a
        # training config has no load to set
        return config
    load = ConcurrencyLoad(type="concurrency", target_concurrency=point.concurrency)
    _refuse_two_loads(point)
    ran = point.results.load_pattern
    if ran is not None and ran.model_dump(exclude_none=True) != load.model_dump():
        raise InputsUnusable(
            f"this run is of load `{describe_load(ran.model_dump())}`; the point is of load "
            f"`{describe_load(load.model_dump())}`",
            "run each point at the concurrency its point.yaml declares",
        )
    return config.model_copy(update={"settings": config.settings.model_copy(update={"load_pattern": load})})


def _refuse_two_loads(point: PointRead) -> None:
    """config.yaml's load and result_summary.json's (run_config, its absent target null) must be
    one: the point is graded on config.yaml's, and a run recorded at another load is not that one."""
    loads = []
    for block in ((point.files.config.get("settings") or {}), ((point.files.summary or {}).get("run_config") or {})):
        found = block.get("load_pattern") if isinstance(block, dict) else None
        if isinstance(found, dict):
            # the load's own fields: the client's options beside them (use_legacy_loadgen_qps_metrics) are no load
            loads.append({k: found[k] for k in _LOAD_KEYS if found.get(k) is not None})
    if len(loads) == 2 and loads[0] != loads[1]:
        raise InputsUnusable(
            f"{point.folder}: config.yaml records load `{describe_load(loads[0])}`, result_summary.json load "
            f"`{describe_load(loads[1])}`: which one ran is unknown",
            "the two files of one run record one load: grade the run's own files",
        )


def _point_yaml(path: Path) -> dict[str, Any]:
    try:
        data = read_foreign_yaml(path.read_bytes())
    except YamlProblem as problem:
        raise InputsUnusable(f"{file_line_col(str(path), problem.line, problem.column)}: {problem.message}") from None
    problems = shape_problems(data, _POINT_SHAPE)
    concurrency = data.get("concurrency") if isinstance(data, dict) else None
    if not problems and (not isinstance(concurrency, int) or isinstance(concurrency, bool) or concurrency < 1):
        problems = ["concurrency is not a positive integer"]
    if problems:
        raise InputsUnusable(f"{path} is not a point.yaml (§8.3): {'; '.join(problems)}")
    return data  # type: ignore[no-any-return]  # a mapping: the shape says so


def _seed(runtime: Mapping[str, Any], name: str, folder: Path) -> int | None:
    value = runtime.get(name, runtime.get(_LEGACY.get(name, name)))
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise InputsUnusable(f"{folder / 'point.yaml'}: runtime_settings.runtime.{name} is not an integer")
    return value


def _compare(what: str, expected: Any, observed: Any, note: str = "") -> Check:
    if expected is None or observed is None:
        return Check(what=what, expected=expected, observed=observed, status="unknown", note=note)
    if not isinstance(observed, bool | int | float | str):  # a list or a mapping recorded: never the value
        return Check(what=what, expected=expected, observed=str(observed), status="fail", note=note)
    return Check(what=what, expected=expected, observed=observed, status="pass" if expected == observed else "fail")


def _recorded(point: PointRead, name: str) -> list[tuple[str, Any]]:
    """(where, value) for each place the client recorded seed `name`, less a seed its adapter
    never sent (no evidence of what ran: the `seeds` gate says why)."""
    if name in unsent_seeds(point.files.config):
        return []
    node: Any = point.files.config
    for key in _CONFIG_KEYS[name]:
        node = node.get(key) if isinstance(node, dict) else None
    found = [("config.yaml", node)] if node is not None else []
    run_config = (point.files.summary or {}).get("run_config") or {}
    if name in _SUMMARY_KEYS and run_config.get(_SUMMARY_KEYS[name]) is not None:
        found.append(("result_summary.json", run_config[_SUMMARY_KEYS[name]]))
    return found


def declaration_gate(point: PointRead, config: ResolvedConfig) -> GateResult:
    """What point.yaml declares, against what the client recorded, the ruleset's seed set, the
    contract's model (its MLPerf name: the model folder's, §8.1) and the submission reference: a
    hard gate of its own. Each check's `expected` is the declaration when
    it is compared with what ran (config.yaml, result_summary.json's run_config), else the resolved
    config's value."""
    checks: list[Check] = []
    published = config.seeds.model_dump()
    for name in SEEDS:
        declared = point.declared[name]
        note = "point.yaml declares none" if declared is None else ""
        checks.append(_compare(f"{name} declared vs seed set {config.seeds.id}", published[name], declared, note))
        recorded = _recorded(point, name) if declared is not None else []
        for where, value in recorded:
            checks.append(_compare(f"{name} recorded in {where} vs declared", declared, value))
        if declared is not None and not recorded and name in _ALWAYS_RECORDED:
            what = f"{name} recorded in config.yaml vs declared"
            checks.append(_compare(what, declared, None, "the client's files record none"))
    model = config.contract["model"]
    note = "point.yaml declares no model_name" if point.model_name is None else ""
    named = model.get("mlperf_name") or model["id"]
    checks.append(_compare("model_name declared vs the contract's model", named, point.model_name, note))
    ref = config.submission_ref
    for field, value, key in (
        ("seed_set", point.seed_set, "seed_set_id"),
        ("target_cohort", point.target_cohort, "cohort"),
    ):
        note = f"point.yaml declares no {field}" if value is None else ""
        checks.append(_compare(f"{field} declared vs submission_ref.{key}", ref.get(key), value, note))
    return GateResult(
        name="point_declaration",
        severity="hard",
        description="point.yaml's seeds, model, seed set and target cohort: what ran, the ruleset, the submission",
        checks=checks,
    )
