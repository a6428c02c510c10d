"""The gate registry: every post-processing gate a contract may name, with its function.

A gate reads the resolved contract and what the run reported, and returns checks, each with
what was expected and what was observed. A check whose fact the run did not report is
`unknown`: the gate is then "not evaluable" and does not pass. Soft gates (model integrity: a
submitter may quantize) warn instead of failing the run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from catalogctl.catalog.formula import FormulaError, evaluate
from catalogctl.catalog.gatenames import GATE_KINDS
from catalogctl.model.documents.benchmark import Scale
from catalogctl.model.documents.resolved import (
    ContractDataset,
    ContractGeneration,
    ResolvedContract,
    accuracy_datasets,
    contract_terms,
    performance_datasets,
)
from catalogctl.model.documents.results import PerformanceResult, RunResults
from catalogctl.model.documents.submission import describe_load, load_concurrency
from catalogctl.model.reports.check import Check
from catalogctl.model.reports.gates import GateInfo, GateListing
from catalogctl.run.aggregate import NotEvaluable, combine, dataset_score, in_range, to_scale, weights_of
from catalogctl.run.declared import evidence
from catalogctl.run.training_gates import schedule_rows, stop_row
from catalogctl.run.training_gates import training_rules as hyperparameter_rows


@dataclass(frozen=True)
class Run:
    """What a gate sees: the resolved config's contract and seeds, and the run's results."""

    contract: Mapping[str, Any]
    seeds: Mapping[str, int]
    results: RunResults
    load: Mapping[str, Any] = field(default_factory=dict)  # the load pattern the run was driven at
    training: Mapping[str, Any] = field(default_factory=dict)  # a training submission's run (its gbs)

    @property
    def terms(self) -> ResolvedContract:
        """The contract, typed: the gates read it through this, so mypy checks their keys."""
        return contract_terms(self.contract)


GateFunction = Callable[[Run], list[Check]]


def _equal(what: str, expected: Any, observed: Any, unit: str = "", exact: bool = False) -> Check:
    if (isinstance(expected, str) and expected.startswith("<")) or observed is None:  # pending, or not reported
        return Check(what=what, expected=expected, observed=observed, status="unknown", unit=unit)
    if not exact and (isinstance(expected, float) or isinstance(observed, float)):
        same = abs(float(expected) - float(observed)) <= 1e-9 * max(1.0, abs(float(expected)))
    else:
        same = expected == observed
    return Check(what=what, expected=expected, observed=observed, status="pass" if same else "fail", unit=unit)


def _bound(
    what: str, observed: float | None, limit: Any, at_least: bool, unit: str = "", strict: bool = False
) -> Check:
    sign: Literal[">=", "<=", ">"] = (">" if strict else ">=") if at_least else "<="
    if isinstance(limit, str) or observed is None:  # pending in the contract, or not reported
        return Check(what=what, expected=limit, observed=observed, status="unknown", bound=sign, unit=unit)
    ok = (observed > limit if strict else observed >= limit) if at_least else observed <= limit
    return Check(what=what, expected=limit, observed=observed, status="pass" if ok else "fail", bound=sign, unit=unit)


def _datasets(contract: ResolvedContract) -> list[ContractDataset]:
    found: dict[str, ContractDataset] = {}
    if contract["kind"] == "training":
        found[contract["dataset"]["id"]] = contract["dataset"]
    for dataset in performance_datasets(contract):
        found[dataset["id"]] = dataset
    for entry in accuracy_datasets(contract):
        found[entry["dataset"]["id"]] = entry["dataset"]
    return list(found.values())


# -- the gates ----------------------------------------------------------------------------------


def dataset_integrity(run: Run) -> list[Check]:
    """The sha256 of every dataset loaded equals the contract's."""
    checks = []
    for dataset in _datasets(run.terms):
        ident, expected = dataset["id"], dataset["source"]["sha256"]
        reported = {d.sha256 for d in run.results.datasets if d.dataset == ident and d.sha256 is not None}
        if not reported:
            checks.append(_equal(f"{ident} sha256", expected, None))
        for sha in sorted(reported):
            checks.append(_equal(f"{ident} sha256", expected, sha))
    return checks


def model_integrity(run: Run) -> list[Check]:
    """The checkpoint is the contract's reference commit."""
    return [_equal("model sha", run.terms["model"]["sha"], run.results.model_sha)]


def _generation_checks(
    label: str, expected: ContractGeneration, phase: str, dataset: str | None, results: RunResults, exact: bool = False
) -> list[Check]:
    entries = [g for g in results.generation if g.phase == phase and g.dataset == dataset]
    if not entries and dataset is not None:
        entries = [g for g in results.generation if g.phase == phase and g.dataset is None]
    observed = entries[0].model_dump() if entries else {}
    return [_equal(f"{label} {key}", value, observed.get(key), exact=exact) for key, value in expected.items()]


def generation_integrity(run: Run) -> list[Check]:
    """api_type and the sampling parameters used equal the contract's, per phase and dataset."""
    contract, results = run.terms, run.results
    checks: list[Check] = []
    if contract["kind"] == "training":  # exactly, as the official training rules compare (==)
        validation = contract["validation"]["generation"]
        return _generation_checks("validation", validation, "validation", None, results, exact=True)
    checks.append(_equal("api_type", contract["api_type"], results.api_type))
    performance = contract.get("performance")
    if performance:
        checks += _generation_checks("performance", performance["generation"], "performance", None, results)
    for entry in accuracy_datasets(contract):
        ident = entry["dataset"]["id"]
        checks += _generation_checks(f"accuracy {ident}", entry["generation"], "accuracy", ident, results)
    return checks


def seeds(run: Run) -> list[Check]:
    """The run used exactly the resolved seed set."""
    used = run.results.seeds.model_dump()
    unsent = run.results.seeds.not_applied or {}
    checks = [
        _equal(name, run.seeds[name], None if name in unsent else used.get(name)).model_copy(
            update={"note": unsent.get(name, "")}
        )
        for name in ("scheduler_rng_seed", "sample_index_rng_seed", "model_seed")
    ]
    if used["qsl_rng_seed"] is not None:  # LoadGen's third stream also chooses samples (run/loadgen.py)
        # A set imported from a LoadGen release holds mlperf.conf's own QSL seed; any other set
        # gives LoadGen its sample_index_rng_seed there.
        own = run.seeds.get("qsl_rng_seed")
        what, expected = (
            ("qsl_rng_seed", own)
            if own is not None
            else ("qsl_rng_seed (the set's sample_index_rng_seed)", run.seeds["sample_index_rng_seed"])
        )
        checks.insert(2, _equal(what, expected, used["qsl_rng_seed"]))
        if used["model_seed"] is None:  # LoadGen has no model seed: the set maps onto its three streams
            note = "LoadGen has no model seed (it is the SUT's own); its three seeds are checked above"
            checks[-1] = Check(what="model_seed", expected=run.seeds["model_seed"], status="not-applicable", note=note)
    return checks


Requirement = Literal[
    "min_duration_ms", "min_sample_count", "min_context_length", "max_ttft_latency_ms", "max_tpot_latency_ms"
]
# Each requirement, the fact it bounds (named as the run reports it, read as an attribute so
# that mypy checks it), whether it is a lower bound, and its unit.
_PERFORMANCE_BOUNDS: list[tuple[Requirement, str, Callable[[PerformanceResult], float | None], bool, str]] = [
    # §4.4: on the steady-state window's issue-time span where the run states one, else the whole run
    (
        "min_duration_ms",
        "duration_ms",
        lambda p: p.duration_ms if p.window_duration_ms is None else p.window_duration_ms,
        True,
        "ms",
    ),
    ("min_sample_count", "sample_count", lambda p: p.sample_count, True, ""),
    ("min_context_length", "context_length", lambda p: p.context_length, True, ""),
    ("max_ttft_latency_ms", "ttft_p99_ms", lambda p: p.ttft_p99_ms, False, "ms"),
    ("max_tpot_latency_ms", "tpot_p99_ms", lambda p: p.tpot_p99_ms, False, "ms"),
]


def per_load(limit: Any, load: Mapping[str, Any], name: str) -> tuple[Any, str]:
    """Requirement `name`'s bound at `load`, and the tier that gave it in words ('' for a plain bound).

    Tiers ascend; the first whose `up_to` the concurrency does not exceed applies. A Poisson
    load has no concurrency, and so no bound on the requests in flight: it takes the open last
    tier. (The official checker fails a Poisson Pareto point outright, `load-pattern`, §6.1, and
    keys §6.2's minimum to the concurrency point.yaml declares: 600 s up to 32, more above.)"""
    if not isinstance(limit, dict):
        return limit, ""
    tiers = limit["by_concurrency"]
    concurrency = load_concurrency(load)
    tier = next((t for t in tiers if concurrency is not None and concurrency <= t.get("up_to", concurrency)), tiers[-1])
    below = [t["up_to"] for t in tiers if "up_to" in t]
    which = f"up to {tier['up_to']}" if "up_to" in tier else (f"above {below[-1]}" if below else "its only tier")
    if concurrency is None:
        return tier["value"], f" at {describe_load(load)} ({name} {which})"
    return tier["value"], f" at concurrency {concurrency} ({name} {which})"


def requirements(run: Run) -> list[Check]:
    """Minimum duration, sample counts and context length, and the latency bounds, hold."""
    checks: list[Check] = []
    performance = run.terms.get("performance")
    if performance:
        measured = run.results.performance
        for requirement, fact, observed, at_least, unit in _PERFORMANCE_BOUNDS:
            if requirement in performance["requirements"]:
                limit, tier = per_load(performance["requirements"][requirement], run.load, requirement)
                value = observed(measured) if measured is not None else None
                label, note = evidence(fact, measured)
                checks.append(_bound(label + tier, value, limit, at_least, unit).model_copy(update={"note": note}))
    accuracy = run.terms.get("accuracy")
    if accuracy:
        # Only the contract's datasets count, each once: another dataset's samples are no evidence.
        reported = {r.dataset: r.samples_scored for r in run.results.accuracy}
        counts = [reported.get(entry["dataset"]["id"]) for entry in accuracy["datasets"]]
        scored = sum(c for c in counts if c is not None) if None not in counts else None
        limit = accuracy["requirements"]["min_accuracy_sample_count"]
        checks.append(_bound("accuracy samples scored", scored, limit, True))
    return checks


def _threshold_values(run: Run, key: str, scale: Scale) -> dict[str, float]:
    """The value(s) a threshold applies to: the reported metric, or the aggregated accuracy."""
    metric = run.terms["metrics"][key]
    reported = run.results.metrics.get(key)
    if reported is not None:
        if metric["unit"] not in ("percent", "fraction"):
            return {"": reported}
        return {"": to_scale(in_range(reported, metric["unit"], key), metric["unit"], scale)}
    if key in run.results.metrics:
        raise NotEvaluable(f"{key} was reported as null")
    if metric["unit"] not in ("percent", "fraction"):
        raise NotEvaluable(f"the run did not report {key}")
    accuracy = run.terms["accuracy"]
    by_dataset = {r.dataset: r for r in run.results.accuracy}
    scores = []
    for entry in accuracy["datasets"]:
        ident = entry["dataset"]["id"]
        if ident not in by_dataset:
            raise NotEvaluable(f"the run reported no accuracy for {ident}")
        agg = entry["repeat_aggregation"]
        samples = entry["dataset"]["samples"]
        tasks = samples if isinstance(samples, int) else None
        scores.append(dataset_score(by_dataset[ident], agg["method"], agg["k"], entry["num_repeats"], tasks))
    aggregation = accuracy["dataset_aggregation"]
    components = aggregation.get("components")
    if components:
        scores = [s for s in scores if s.dataset in components]
    weighting = aggregation.get("weighting")
    weights = weights_of(run.terms, weighting) if aggregation["method"] == "micro_average" else {}
    return combine(scores, aggregation["method"], weighting, weights, scale)


def _product(reference: float, factor: float) -> Decimal:
    return Decimal(str(reference)) * Decimal(str(factor))


def accuracy_gate(run: Run) -> list[Check]:
    """Every accuracy threshold holds: reference x lower_factor <= value <= reference x upper_factor."""
    checks: list[Check] = []
    for key, threshold in run.terms["accuracy"]["thresholds"].items():
        bounds = []
        if "lower_factor" in threshold:
            bounds.append(
                (True, _product(threshold["reference"], threshold["lower_factor"]), threshold["lower_factor"])
            )
        if "upper_factor" in threshold:
            bounds.append(
                (False, _product(threshold["reference"], threshold["upper_factor"]), threshold["upper_factor"])
            )
        try:
            values = _threshold_values(run, key, threshold["scale"])
        except NotEvaluable as exc:  # not reported, null, or not computable: as every gate's missing fact
            for at_least, limit, factor in bounds:
                sign: Literal[">=", "<="] = ">=" if at_least else "<="
                checks.append(
                    Check(
                        what=key,
                        expected=limit,
                        status="unknown",
                        bound=sign,
                        reference=threshold["reference"],
                        factor=factor,
                        note=str(exc),
                    )
                )
            continue
        for part, value in values.items():
            label = f"{key} ({part})" if part else key
            for at_least, limit, factor in bounds:
                ok = value >= float(limit) if at_least else value <= float(limit)
                checks.append(
                    Check(
                        what=label,
                        expected=limit,
                        observed=value,
                        status="pass" if ok else "fail",
                        bound=">=" if at_least else "<=",
                        reference=threshold["reference"],
                        factor=factor,
                    )
                )
    return checks


def quality_target(run: Run) -> list[Check]:
    """The validation metric reached the quality target.

    Beyond it, where the target's bound is `>` (MLPerf Training: some eval_accuracy > 0.69); and
    the run says so: run_stop's status is `success` (`training_gates.stop_row`)."""
    return [_reached(run), stop_row(run.results.training)]


def _reached(run: Run) -> Check:
    target = run.terms["quality_target"]
    metric = run.terms["metrics"][target["metric"]]
    at_least = metric["direction"] != "lower"
    strict = at_least and target.get("bound") == ">"
    value = run.results.metrics.get(target["metric"])
    evaluations = run.results.training.evaluations if run.results.training is not None else []
    if value is None and evaluations and all(e.accuracy is None for e in evaluations):  # as mllog logs a divergence
        note = "every evaluation logged its accuracy as NaN (a diverged run)"
        return _bound(target["metric"], None, target["target"], at_least, strict=strict).model_copy(
            update={"observed": "NaN", "status": "fail", "note": note}
        )
    if value is not None and metric["unit"] in ("percent", "fraction"):
        try:
            value = to_scale(in_range(value, metric["unit"], target["metric"]), metric["unit"], target["scale"])
        except NotEvaluable as exc:  # a value off its scale says nothing about the target: not evaluable
            check = _bound(target["metric"], None, target["target"], at_least, strict=strict)
            return check.model_copy(update={"note": str(exc)})
    return _bound(target["metric"], value, target["target"], at_least, strict=strict)


def evaluation_schedule(run: Run) -> list[Check]:
    """The first evaluation came exactly where the schedule's formula puts it."""
    formula = run.terms["evaluation_schedule"]["first_evaluation_samples"]
    training = run.results.training
    if training is not None and training.evaluations:  # every evaluation logged: each one's point
        return schedule_rows(formula, training, run.terms["metrics"][run.terms["quality_target"]["metric"]]["unit"])
    if training is None or training.gbs is None:
        return [Check(what="first evaluation", expected=formula, status="unknown", note="gbs not reported")]
    try:
        earliest = evaluate(formula, {"gbs": training.gbs})
    except FormulaError as exc:
        return [Check(what="first evaluation", expected=formula, status="unknown", note=str(exc))]
    limit = int(earliest) if earliest.denominator == 1 else float(earliest)
    return [_equal(f"first evaluation at gbs {training.gbs}", limit, training.first_evaluation_samples, "samples")]


def training_rules(run: Run) -> list[Check]:
    """The hyper-parameters the rules fix are the ones the run logged."""
    owned = run.training.get("global_batch_size")
    return hyperparameter_rows(run.contract, owned, run.results.training)


@dataclass(frozen=True)
class GateSpec:
    """A gate's name, what it checks, how bad its failure is, which kinds it applies to."""

    name: str
    description: str
    severity: Literal["hard", "soft"]
    kinds: frozenset[str]
    function: GateFunction


def _spec(function: GateFunction, severity: Literal["hard", "soft"]) -> GateSpec:
    description = (function.__doc__ or "").strip().splitlines()[0]
    return GateSpec(function.__name__, description, severity, GATE_KINDS[function.__name__], function)


GATES: dict[str, GateSpec] = {
    spec.name: spec
    for spec in (
        _spec(dataset_integrity, "hard"),
        _spec(model_integrity, "soft"),
        _spec(generation_integrity, "hard"),
        _spec(seeds, "hard"),
        _spec(requirements, "hard"),
        _spec(accuracy_gate, "hard"),
        _spec(quality_target, "hard"),
        _spec(evaluation_schedule, "hard"),
        _spec(training_rules, "hard"),
    )
}
if GATES.keys() != GATE_KINDS.keys():  # a gate named for validation must have a function, and back
    raise ImportError(f"gate registry mismatch: {sorted(GATES.keys() ^ GATE_KINDS.keys())}")


def listing() -> GateListing:
    """The registry as `catalogctl gates` lists it."""
    return GateListing(
        gates=[
            GateInfo(name=g.name, severity=g.severity, kinds=sorted(g.kinds), description=g.description)
            for g in GATES.values()
        ]
    )
