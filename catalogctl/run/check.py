"""`check`: apply every gate a resolved contract names to what the run reported."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from catalogctl.errors import Diagnostic, InputsUnusable, error
from catalogctl.io.files import read_input
from catalogctl.io.jsonio import JsonProblem, parse_json
from catalogctl.io.yamlio import YamlProblem, parse_document
from catalogctl.model.documents.resolved import ResolvedConfig, ResolvedContract
from catalogctl.model.documents.results import RunResults
from catalogctl.model.reports.check import CheckReport, PointCheck, RunCheck
from catalogctl.release.trust import SignatureFlags
from catalogctl.run.curve import accuracy_runs_gate, without_accuracy_run
from catalogctl.run.endpoints import read_run_folder
from catalogctl.run.gates import GATES
from catalogctl.run.grading import grade
from catalogctl.run.harnesses import harness_named
from catalogctl.run.integrity import verify_config, verify_release
from catalogctl.run.loadgen import loadgen_gate, loadgen_results, read_loadgen, run_load
from catalogctl.run.mllog import is_mllog, read_mllog, read_runs
from catalogctl.run.shape import Rule, rule, shape_problems
from catalogctl.run.submission import (
    LAYOUTS_HINT,
    PointRead,
    at_point_load,
    declaration_gate,
    detect_layout,
    read_point,
    submission_points,
)
from catalogctl.run.training_runs import olympic_score, seeds_gate

# What `check` and the endpoints reader index in every contract, then what each gate reads, by the
# benchmark's kind. A resolved config written by this tool always has it; a hand-edited one may
# not, and is then told which key it lacks before any gate runs (a gate that trips anyway is a bug).
_CONTRACT: tuple[Rule, ...] = (
    rule("id", "string"),
    rule("kind", "string"),
    rule("postprocessing.gates", "list"),
    rule("postprocessing.gates.*", "string"),
    rule("performance?.datasets?.*.id"),
    rule("accuracy?.datasets?.*.dataset.id"),
)
_RESULTS_HINT = "a results file follows schemas/results.schema.json (catalogctl/results/v1)"
_CONTRACT_TYPES: TypeAdapter[ResolvedContract] = TypeAdapter(ResolvedContract)
_INFERENCE_READS: dict[str, tuple[Rule, ...]] = {
    "dataset_integrity": (
        rule("performance?.datasets?.*.source.sha256"),
        rule("accuracy?.datasets?.*.dataset.source.sha256"),
    ),
    "model_integrity": (rule("model.sha"),),
    "generation_integrity": (
        rule("api_type"),
        rule("performance?.generation", "mapping"),
        rule("accuracy?.datasets?.*.generation", "mapping"),
    ),
    "requirements": (
        rule("performance?.requirements", "mapping"),
        rule("accuracy?.datasets", "list"),
        rule("accuracy?.requirements.min_accuracy_sample_count"),
    ),
    "accuracy_gate": (
        rule("accuracy.thresholds", "mapping"),
        rule("accuracy.thresholds.*.reference"),
        rule("accuracy.thresholds.*.scale"),
        rule("accuracy.datasets.*.num_repeats"),
        rule("accuracy.datasets.*.dataset.samples"),
        rule("accuracy.datasets.*.repeat_aggregation.method"),
        rule("accuracy.datasets.*.repeat_aggregation.k"),
        rule("accuracy.dataset_aggregation.method"),
        rule("metrics", "mapping"),
    ),
}
_TRAINING_READS: dict[str, tuple[Rule, ...]] = {
    "dataset_integrity": (rule("dataset.id"), rule("dataset.source.sha256")),
    "model_integrity": (rule("model.sha"),),
    "generation_integrity": (rule("validation.generation", "mapping"),),
    "quality_target": (
        rule("quality_target.metric", "string"),
        rule("quality_target.target"),
        rule("quality_target.scale"),
        rule("metrics", "mapping"),
    ),
    "evaluation_schedule": (rule("evaluation_schedule.first_evaluation_samples"),),
    "training_rules": (
        rule("limits.max_context_tokens"),
        rule("limits.generations_per_prompt"),
        rule("validation", "mapping"),
        rule("training", "mapping"),
        rule("optimizer?", "mapping"),
    ),
}


def _unusable(path: Path | str, problem: str, exc: ValidationError, prefix: str = "", hint: str = "") -> InputsUnusable:
    """A file that does not fit its model: one diagnostic per key, named by its dotted path."""
    found: list[Diagnostic] = []
    for err in exc.errors(include_url=False):
        loc = ((prefix,) if prefix else ()) + tuple(err["loc"])
        where = ".".join(str(part) for part in loc) or "document"
        found.append(error("schema-invalid-value", f"{where}: {err['msg']}", str(path)))
    return InputsUnusable(f"{path}: {problem}", hint or "write it with `catalogctl resolve` or `preflight`", found)


def _contract_problems(contract: dict[str, Any]) -> list[str]:
    """The keys the named gates read that a resolved contract lacks (or holds in the wrong
    kind of container), as `contract.<path> is missing`."""
    found = shape_problems(contract, _CONTRACT)
    if found:
        return [f"contract.{problem}" for problem in found]
    kind = contract["kind"]
    reads = _TRAINING_READS if kind == "training" else _INFERENCE_READS
    names = [name for name in contract["postprocessing"]["gates"] if name in GATES]
    misplaced = [
        f"postprocessing.gates names `{n}`, a gate of {_kinds(n)} benchmarks"
        for n in names
        if kind not in GATES[n].kinds
    ]
    if misplaced:
        return [f"contract.{problem}" for problem in misplaced]
    found = shape_problems(contract, [r for name in names for r in reads.get(name, ())])
    if not found:  # the metrics the thresholds and the quality target name, keys that may hold dots
        found = shape_problems(contract, _metric_rules(contract, names))
    return [f"contract.{problem}" for problem in found]


def _kinds(gate: str) -> str:
    return " and ".join(sorted(GATES[gate].kinds))


def _metric_rules(contract: dict[str, Any], gates: list[str]) -> list[Rule]:
    keys: list[tuple[str, tuple[str, ...]]] = []
    if "accuracy_gate" in gates:
        keys += [(key, ("unit",)) for key in contract["accuracy"]["thresholds"]]
    if "quality_target" in gates:
        keys.append((contract["quality_target"]["metric"], ("unit", "direction")))
    return [(("metrics", key, field), "present") for key, fields in keys for field in fields]


def _require_gate_inputs(config: ResolvedConfig, where: str) -> None:
    try:
        _CONTRACT_TYPES.validate_python(config.contract, strict=True)
    except ValidationError as exc:
        raise _unusable(where, "its contract is not a resolved contract", exc, "contract") from None
    problems = _contract_problems(config.contract)
    if problems:
        raise InputsUnusable(
            f"{where} cannot be checked: {'; '.join(problems)}",
            "write resolved configs with `catalogctl resolve` or `preflight`",
        )


def load_resolved(path: Path) -> ResolvedConfig:
    """A resolved config written by `resolve` or `preflight` (YAML or JSON), as its model reads
    it (`prove` then shows it is what `resolve` wrote)."""
    return read_resolved(path)[0]


def read_resolved(path: Path) -> tuple[ResolvedConfig, dict[str, Any]]:
    """The resolved config of a file, and the data the file holds (what its seal is of)."""
    data = read_input(path)
    try:
        parsed = parse_json(data) if path.suffix.lower() == ".json" else parse_document(str(path), data).data
    except (JsonProblem, YamlProblem) as exc:
        raise InputsUnusable(f"{path} is not a resolved config: {exc}") from None
    try:
        return ResolvedConfig.model_validate(parsed), parsed  # a mapping: the model validated it
    except ValidationError as exc:
        raise _unusable(path, "not a valid resolved config", exc) from None


def load_results(path: Path, config: ResolvedConfig) -> RunResults:
    """A results file (`catalogctl/results/v1`, JSON) or an endpoints client run folder."""
    if is_mllog(path):
        return read_mllog(path, config.contract)
    if path.is_dir():
        if detect_layout(path) != "run-folder":
            raise InputsUnusable(f"{path} is not an endpoints run folder: no config.yaml", LAYOUTS_HINT)
        return read_run_folder(path, config.contract)
    try:
        return RunResults.model_validate(parse_json(read_input(path)))
    except JsonProblem as exc:
        raise InputsUnusable(f"{path}: not a valid results file: {exc}", _RESULTS_HINT) from None
    except ValidationError as exc:
        raise _unusable(path, "not a valid results file", exc, hint=_RESULTS_HINT) from None


def check_files(
    resolved: Path, results: Path, catalog: Path | None = None, signature: SignatureFlags | None = None
) -> CheckReport:
    """`catalogctl check`: read and prove the resolved config, then read the run's results (of any
    layout `detect_layout` knows) against its proven contract, then grade."""
    config, written = read_resolved(resolved)
    layout = detect_layout(results)  # before proving: a folder of no layout is the first thing to say
    proven = prove(config, str(resolved), catalog, written, signature)
    if layout == "point":
        return grade_point(config, results, proven)[0]
    if layout == "submission":
        return grade_submission(config, results, proven)
    if layout == "loadgen":
        return grade_loadgen(config, results, proven)
    if layout == "mllog-runs":
        return grade_runs(config, results, proven)
    harness = harness_named(layout)
    if harness is not None:
        return harness.grade(config, results, proven)
    run = load_results(results, config)
    trained = run.training.time_to_train_ms if run.training is not None else None
    return grade(config, run, proven).model_copy(update={"layout": layout, "time_to_train_ms": trained})


def grade_point(config: ResolvedConfig, folder: Path, proven_against: str | None) -> tuple[CheckReport, PointRead]:
    """A submission point folder: the contract's gates on what the client recorded, then what
    point.yaml declares against it (`point_declaration`); and the point as read. The point is
    graded at the load it declares (`at_point_load`), every point of a curve at its own."""
    point = read_point(folder, config.contract)
    report = grade(at_point_load(config, point), point.results, proven_against)
    gates = [*report.gates, declaration_gate(point, config)]
    return report.model_copy(update={"gates": gates, "layout": "point"}), point


def grade_loadgen(config: ResolvedConfig, folder: Path, proven_against: str | None) -> CheckReport:
    """A LoadGen output folder: the contract's gates on what LoadGen logged, at the load of its
    scenario, then LoadGen's own verdict (`loadgen_run`). LoadGen names no model, so none is checked."""
    run = read_loadgen(folder)
    results = loadgen_results(run, config.contract)
    report = grade(config, results, proven_against, load=run_load(run), names_model=False)
    return report.model_copy(update={"gates": [*report.gates, loadgen_gate(run)], "layout": "loadgen"})


def grade_runs(config: ResolvedConfig, folder: Path, proven_against: str | None) -> CheckReport:
    """A folder of MLLOG result files, one run (one seed) each: every run graded as a result file,
    then the runs' seeds together (`run_seeds`), and the benchmark's result over the runs; the
    folder is valid when every run is."""
    mllogs = read_runs(folder, config.contract)
    runs = []
    for mllog in mllogs:
        report = grade(config, mllog.results, proven_against)
        training = mllog.results.training
        trained = training.time_to_train_ms if training is not None else None
        runs.append(RunCheck(run=mllog.file.name, source=report.source, time_to_train_ms=trained, gates=report.gates))
    return CheckReport(
        benchmark=config.contract["id"],
        source=f"MLLOG result files in {folder}",
        layout="mllog-runs",
        gates=[seeds_gate(mllogs)],
        runs=runs,
        score=olympic_score(runs),
        proven_against=proven_against,
    )


def grade_submission(config: ResolvedConfig, tree: Path, proven_against: str | None) -> CheckReport:
    """Every point of the benchmark in a submission tree, each graded as a point folder; the
    submission is valid when every point is."""
    points, with_accuracy = [], []
    for label, folder in submission_points(tree, config.contract):
        report, point = grade_point(config, folder, proven_against)
        gates = report.gates
        if point.files.accuracy is None:  # accuracy runs at some points only (run/curve.py)
            gates = without_accuracy_run(gates)
        else:
            with_accuracy.append(label)
        points.append(PointCheck(point=label, concurrency=point.concurrency, source=report.source, gates=gates))
    return CheckReport(
        benchmark=config.contract["id"],
        source=f"submission tree {tree}",
        layout="submission",
        gates=[accuracy_runs_gate(points, with_accuracy)] if config.contract.get("accuracy") else [],
        points=points,
        proven_against=proven_against,
    )


def check_run(
    config: ResolvedConfig, results: RunResults, *, source: str = "the resolved config", catalog: Path | None = None
) -> CheckReport:
    """Prove the inputs, then run every gate the contract names (for callers holding models)."""
    return grade(config, results, prove(config, source, catalog))


def prove(
    config: ResolvedConfig,
    source: str,
    catalog: Path | None,
    written: dict[str, Any] | None = None,
    signature: SignatureFlags | None = None,
) -> str | None:
    """The config is what `resolve` wrote (its digests and seal, over the file's data when
    `written`), and with `catalog` the release's; returns what it was proven against (None:
    only itself)."""
    verify_config(config, source, written)
    _require_gate_inputs(config, source)  # a contract as written: now every key a gate reads is there
    if catalog is None:
        return None
    verify_release(config, catalog, source, signature)
    return f"the release {config.provenance.cohort} in {catalog}"
