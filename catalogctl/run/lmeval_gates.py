"""`check` on an lm-eval run: the contract's gates on what the results file states, and
`lmeval_run`, the settings the contract fixes against what lm-eval recorded.

The contract's gates read the run in the contract's terms (`run/lmeval_facts.py`), two of them in
lm-eval's own: `dataset_integrity` (lm-eval records no sha256 of the data it loads; the task hashes
the contract pins stand for it) and `generation_integrity` (each task's `generation_kwargs`).
`lmeval_run` holds, per task of the pack: the few-shot count (`n-shot`), the documents evaluated
(`n-samples`: a `--limit` run is never valid, nor is `config.limit` set), the task version and the
task hash against the contract's pins, the task hash and each mean metric recomputed from the
samples files, and every metric the contract reports, by its verbatim key. A fact the file does
not state is `unknown`: the gate is then not evaluable, never passed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from catalogctl.errors import InputsUnusable
from catalogctl.io.pep440 import allows, version_pin
from catalogctl.model.documents.resolved import ResolvedConfig, accuracy_datasets, contract_terms
from catalogctl.model.documents.results import RunResults
from catalogctl.model.reports.check import Check, CheckReport, GateResult
from catalogctl.run.gates import GATES, Run
from catalogctl.run.identity import verify_identity
from catalogctl.run.lmeval import HINT, LmEvalRun, read_lmeval
from catalogctl.run.lmeval_facts import (
    check_gen_kwargs,
    check_tasks,
    contract_metric_keys,
    generation_names,
    generation_ran,
    greedy,
    metric_values,
    pack_tasks,
    run_results,
)

_SAME = 1e-9  # a value recomputed in floating point: equal within this relative tolerance


def grade_lmeval(config: ResolvedConfig, path: Path, proven_against: str | None) -> CheckReport:
    """An lm-eval results file (or the folder holding it), proven to be a run of the contract's
    pack, graded by the contract's gates in order, then by `lmeval_run`."""
    run = read_lmeval(path)
    contract = config.contract
    tasks = pack_tasks(contract)
    check_tasks(run, tasks)
    check_gen_kwargs(run, tasks)
    results = run_results(run, contract, tasks)
    verify_identity(config, results.model_copy(update={"metrics": {}}))  # the metrics are lm-eval's own
    seen = Run(contract, config.seeds.model_dump(exclude={"id"}), results)
    gates: list[GateResult] = []
    for name in contract["postprocessing"]["gates"]:
        spec = GATES.get(name)
        if spec is None:  # as `grade`: an old tool's contract may name a gate this one lacks
            unknown = Check(what=name, expected="a registered gate", status="unknown", note="unknown")
            gates.append(GateResult(name=name, severity="hard", description="unknown gate", checks=[unknown]))
            continue
        own = _OWN.get(name)
        checks = own(run, contract, tasks, results) if own is not None else spec.function(seen)
        gates.append(GateResult(name=name, severity=spec.severity, description=spec.description, checks=checks))
    gates.append(lmeval_gate(run, contract, tasks))
    return CheckReport(
        benchmark=contract["id"], source=results.source, layout="lm-eval", gates=gates, proven_against=proven_against
    )


def _dataset_integrity(run: LmEvalRun, contract: dict[str, Any], tasks: list[str], _: RunResults) -> list[Check]:
    """lm-eval records no sha256 of the data: each dataset's row says what stands for it."""
    pinned = (contract.get("runner") or {}).get("task_hashes") or {}
    stands = all(t in pinned for t in tasks)
    checks = []
    for entry in accuracy_datasets(contract_terms(contract)):
        dataset = entry["dataset"]
        if stands:
            note = "lm-eval records no sha256 of the data; the task hashes the contract pins stand for it (lmeval_run)"
            checks.append(
                Check(
                    what=f"{dataset['id']} sha256",
                    expected=dataset["source"]["sha256"],
                    status="not-applicable",
                    note=note,
                )
            )
        else:
            note = "lm-eval records no sha256 of the data, and the contract pins no task hash (runner.task_hashes)"
            checks.append(
                Check(what=f"{dataset['id']} sha256", expected=dataset["source"]["sha256"], status="unknown", note=note)
            )
    return checks


def _generation_integrity(
    run: LmEvalRun, contract: dict[str, Any], tasks: list[str], results: RunResults
) -> list[Check]:
    """The API and each task's generation settings, against the contract's."""
    model = run.data.config.model if run.data.config is not None else None
    note = "" if results.api_type or model is None else f"lm-eval model `{model}` calls no OpenAI API"
    checks = [_equal("api_type", contract["api_type"], results.api_type, note)]
    entries = accuracy_datasets(contract_terms(contract))
    expected: dict[str, Any] = (
        dict(entries[0]["generation"]) if len(entries) == 1 else dict(contract["accuracy"]["generation"])
    )
    for task in tasks:
        ran = generation_ran(run, task)
        for key, value in expected.items():
            names = generation_names(run, key)
            name = next((n for n in names if n in ran), None)
            if name is not None:
                _number(run, task, name, ran[name])
                shown = f"{task} {key}" if name == key else f"{task} {key} ({name})"
                checks.append(_equal(shown, value, ran[name]))
            elif key == "temperature" and greedy(ran):
                checks.append(_equal(f"{task} temperature (do_sample false)", value, 0.0))
            elif names:
                why = f"configs.{task}.generation_kwargs sets no {names[0]}: the model's default applies, unrecorded"
                checks.append(_equal(f"{task} {key}", value, None, why))
            else:
                checks.append(_equal(f"{task} {key}", value, None, f"lm-eval has no setting for {key}"))
    return checks


def _number(run: LmEvalRun, task: str, name: str, value: Any) -> None:
    """A generation setting the contract fixes is a number (a JSON `null` reads as unrecorded)."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
        raise InputsUnusable(f"{run.file}: configs.{task}.generation_kwargs.{name} is not a number: {value!r}", HINT)


_OWN = {"dataset_integrity": _dataset_integrity, "generation_integrity": _generation_integrity}


def lmeval_gate(run: LmEvalRun, contract: dict[str, Any], tasks: list[str]) -> GateResult:
    """The settings the contract fixes, as lm-eval recorded them, and the results file held
    against its samples files: a hard gate of its own."""
    checks = [_limit(run), *_harness_version(run, contract)]
    for task in tasks:
        checks += _task_checks(run, contract, task)
    checks += _reported(run, contract, tasks)
    return GateResult(
        name="lmeval_run",
        severity="hard",
        description="lm-eval's record of the run: few-shot count, whole test split, task versions and hashes, "
        "and the results file against its samples",
        checks=checks,
    )


def _task_checks(run: LmEvalRun, contract: dict[str, Any], task: str) -> list[Check]:
    """A task's few-shot count, documents evaluated, version and hash pins, and recomputations."""
    runner = contract.get("runner") or {}
    versions, hashes = runner.get("task_versions") or {}, runner.get("task_hashes") or {}
    data, config = run.data, run.data.configs.get(task)
    checks = []
    shots = (contract.get("preprocessing") or {}).get("num_fewshot")
    if shots is not None:
        recorded = data.n_shot.get(task, config.num_fewshot if config is not None else None)
        note = "" if recorded is not None else "the results file records no n-shot"
        checks.append(_equal(f"{task} n-shot", shots, recorded, note))
        stated = config.num_fewshot if config is not None else None
        if stated is not None and stated != recorded:  # lm-eval writes n-shot from it: the file was edited
            checks.append(_equal(f"{task} num_fewshot (configs, which n-shot contradicts)", shots, stated))
    checks.append(_evaluated(run, task))
    if task in versions:
        recorded_version = data.versions.get(task)
        checks.append(_version(f"{task} version vs runner.task_versions", versions[task], recorded_version))
        stated = (config.metadata or {}).get("version") if config is not None else None
        if stated is not None and not _same_version(stated, recorded_version):  # lm-eval writes one from the other
            what = f"{task} version (configs metadata, which versions contradicts)"
            checks.append(_version(what, versions[task], stated))
    if task in hashes:
        recorded_hash = data.task_hashes.get(task)
        note = "" if recorded_hash else "the run recorded no task hash (lm-eval writes it with --log_samples)"
        checks.append(_equal(f"{task} task hash vs runner.task_hashes", hashes[task], recorded_hash, note))
    return checks + _recomputed(run, contract, task)


def _reported(run: LmEvalRun, contract: dict[str, Any], tasks: list[str]) -> list[Check]:
    """Every metric the contract reads, by its verbatim key, with the task that reports it."""
    values = metric_values(run, tasks, contract_metric_keys(contract))
    checks = []
    for key in contract_metric_keys(contract):
        if key not in values:
            checks.append(Check(what=key, expected="reported", status="unknown", note="no task of the pack reports it"))
            continue
        task, value = values[key]
        if value is None:
            checks.append(Check(what=f"{key} ({task})", expected="reported", status="unknown", note="written as NaN"))
        else:
            checks.append(Check(what=f"{key} ({task})", expected="reported", observed=value, status="pass"))
    return checks


def _harness_version(run: LmEvalRun, contract: dict[str, Any]) -> list[Check]:
    """The lm-eval that ran, held to the versions the pack is written for (`runner.version`):
    scores of one task move across harness versions (lm-evaluation-harness #2211, #2322)."""
    wanted = (contract.get("runner") or {}).get("version")
    if wanted is None:
        return []
    version_pin(wanted)
    what = "lm-eval version (lm_eval_version) vs runner.version"
    recorded = run.data.lm_eval_version
    if recorded is None:
        return [Check(what=what, expected=wanted, status="unknown", note="the results file records no lm_eval_version")]
    allowed = allows(wanted, recorded)
    note = "" if allowed is not None else "not a PEP 440 version"
    return [Check(what=what, expected=wanted, observed=recorded, status="pass" if allowed else "fail", note=note)]


def _limit(run: LmEvalRun) -> Check:
    what = "limit (config.limit)"
    if "limit" not in run.config_keys:
        return Check(what=what, expected="none", status="unknown", note="the results file records no config.limit")
    limit = run.data.config.limit if run.data.config is not None else None
    if limit is None:
        return Check(what=what, expected="none", observed="none", status="pass")
    return Check(
        what=what,
        expected="none",
        observed=limit,
        status="fail",
        note="a run over part of the test split is never a valid run",
    )


def _evaluated(run: LmEvalRun, task: str) -> Check:
    counts = run.data.n_samples.get(task)
    what = f"{task} documents evaluated (n-samples)"
    if counts is None:
        return Check(
            what=what, expected="the whole test split", status="unknown", note="the results file records no n-samples"
        )
    return _equal(what, counts.original, counts.effective)


def _version(what: str, pinned: str, recorded: Any) -> Check:
    if recorded is None:
        return Check(what=what, expected=pinned, status="unknown", note="the results file records no version")
    same = _same_version(recorded, pinned)
    return Check(what=what, expected=pinned, observed=str(recorded), status="pass" if same else "fail")


def _same_version(recorded: Any, pinned: Any) -> bool:
    """The same version, written as text or as a number (YAML's `version: 1` is "1.0")."""
    if str(recorded) == str(pinned):
        return True
    try:
        return float(recorded) == float(pinned)
    except (TypeError, ValueError):
        return False


def _recomputed(run: LmEvalRun, contract: dict[str, Any], task: str) -> list[Check]:
    """The task hash and each mean metric the contract reads, recomputed from the samples file."""
    samples = run.samples.get(task)
    recorded = run.data.task_hashes.get(task)
    what = f"{task} task hash recomputed from {run.samples_name(task) or 'its samples file'}"
    if samples is None:
        if recorded is None:
            return []
        return [Check(what=what, expected=recorded, status="unknown", note="no samples file beside the results file")]
    checks = [_equal(what, recorded, samples.task_hash(), "" if recorded else "the results file records no task hash")]
    config = run.data.configs.get(task)
    means = {m.metric for m in (config.metric_list or []) if m.aggregation == "mean"} if config is not None else set()
    for key, (owner, value) in metric_values(run, [task], contract_metric_keys(contract)).items():
        metric, _, filter_name = key.partition(",")
        if owner != task or value is None:
            continue
        if metric not in means:  # an edited metric_list must not spare a score its samples
            note = f"configs.{task}.metric_list gives {metric} no mean aggregation: not recomputed"
            checks.append(Check(what=f"{key} recomputed from the samples", expected=value, status="unknown", note=note))
            continue
        mean = samples.mean(metric, filter_name)
        note = "" if mean is not None else f"the samples hold no numeric {metric} for filter {filter_name}"
        checks.append(_equal(f"{key} recomputed from the samples", value, mean, note))
    return checks


def _equal(what: str, expected: Any, observed: Any, note: str = "") -> Check:
    if expected is None or observed is None:
        return Check(what=what, expected=expected, observed=observed, status="unknown", note=note)
    if isinstance(expected, float) or isinstance(observed, float):
        same = abs(float(expected) - float(observed)) <= _SAME * max(1.0, abs(float(expected)))
    else:
        same = expected == observed
    return Check(what=what, expected=expected, observed=observed, status="pass" if same else "fail")
