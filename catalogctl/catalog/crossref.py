"""Checks across documents: references resolve, overrides fit their base, stated figures agree."""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Mapping
from fractions import Fraction
from typing import Protocol

from catalogctl.catalog.catalogwide import check_catalogwide
from catalogctl.catalog.diagnostics import did_you_mean
from catalogctl.catalog.facts import ENTITY_KINDS, facts_of
from catalogctl.catalog.formula import FormulaError, evaluate, variables
from catalogctl.catalog.gatenames import GATE_KINDS
from catalogctl.catalog.index import Catalog, Location
from catalogctl.errors import Diagnostic, error, warning
from catalogctl.io.yamlio import PathKey
from catalogctl.model import AnyBenchmark, Dataset, InferenceBenchmark, Metric, Model, Pending, TrainingBenchmark
from catalogctl.model.benchmark import REQUIREMENT_METRICS, Accuracy
from catalogctl.model.metrics import RATIO_UNITS

_FORMULA_HINT = "use numbers, gbs, + - * / // % **, parentheses, ceil, floor, min, max"
_PASS_AT = re.compile(r"pass_at_(\d+)")


class CatalogView(Protocol):
    """What an entity's own cross-document checks read: every valid entity by id (a table may
    build its values on demand), the entities whose file did not validate, and where a value
    of an entity stands."""

    @property
    def metrics(self) -> Mapping[str, Metric]: ...
    @property
    def models(self) -> Mapping[str, Model]: ...
    @property
    def datasets(self) -> Mapping[str, Dataset]: ...
    @property
    def benchmarks(self) -> Mapping[str, AnyBenchmark]: ...
    @property
    def invalid(self) -> Collection[tuple[str, str]]: ...

    def locate(self, kind: str, ident: str, *path: str | int) -> Location: ...


class _Checker:
    def __init__(self, catalog: CatalogView) -> None:
        self.catalog = catalog
        self.out: list[Diagnostic] = []

    def report(
        self, code: str, message: str, where: Location, hint: str = "", *, key: bool = False, warn: bool = False
    ) -> None:
        line, column = where.position(key=key)
        make = warning if warn else error
        self.out.append(make(code, message, where.document.path, line, column, hint))

    def reference(
        self, kind: str, code: str, name: str, pool: Collection[str], where: Location, *, key: bool = False
    ) -> bool:
        if name in pool:
            return True
        if (kind, name) in self.catalog.invalid:  # its own file's errors are reported already
            return False
        self.report(code, f"unknown {kind} `{name}`", where, did_you_mean(name, pool) or _known(pool), key=key)
        return False

    def metric(self, name: str, where: Location, *, key: bool = False) -> bool:
        return self.reference("metric", "ref-unknown-metric", name, self.catalog.metrics, where, key=key)

    def scale_fits(self, metric_key: str, scale: str, where: Location) -> None:
        metric = self.catalog.metrics.get(metric_key)
        if metric is None:
            return
        ratio_scale = scale in ("percent", "fraction")
        if ratio_scale != (metric.unit in RATIO_UNITS):
            expected = "percent or fraction" if metric.unit in RATIO_UNITS else "absolute"
            self.report(
                "contract-inconsistent",
                f"scale {scale} does not fit metric `{metric_key}` (unit {metric.unit})",
                where,
                f"use scale: {expected}",
            )

    # -- benchmarks -----------------------------------------------------------------------

    def benchmark(self, ident: str) -> None:
        bench = self.catalog.benchmarks[ident]
        here = self.catalog.locate("benchmark", ident)
        self.reference("model", "ref-unknown-model", bench.model, self.catalog.models, here.child("model"))
        self.gates(bench.kind, bench.postprocessing.gates, here.child("postprocessing", "gates"))
        if bench.renamed_from is not None and bench.renamed_from in self.catalog.benchmarks:
            self.report(
                "contract-inconsistent",
                f"renamed_from `{bench.renamed_from}`, but that benchmark still exists",
                here.child("renamed_from"),
                "remove the old file, or drop renamed_from",
            )
        if isinstance(bench, InferenceBenchmark):
            self.inference(bench, here)
        else:
            self.training(bench, here)

    def gates(self, kind: str, names: list[str], where: Location) -> None:
        seen: set[str] = set()
        for index, name in enumerate(names):
            at = where.child(index)
            if name in seen:
                self.report("contract-inconsistent", f"gate `{name}` is listed twice", at)
            seen.add(name)
            if self.reference("gate", "ref-unknown-gate", name, GATE_KINDS, at) and kind not in GATE_KINDS[name]:
                self.report("contract-inconsistent", f"gate `{name}` does not apply to {kind} benchmarks", at)

    def drafters(self, bench: InferenceBenchmark, here: Location) -> None:
        """An approved drafter is listed once: two entries for one drafter could disagree on when it
        was approved."""
        first: dict[tuple[str, ...], int] = {}
        for index, drafter in enumerate(bench.approved_drafters):
            seen = first.setdefault(drafter.identity, index)
            if seen != index:
                self.report(
                    "contract-inconsistent",
                    f"approved_drafters[{index}] is the drafter of approved_drafters[{seen}] again",
                    here.child("approved_drafters", index),
                    "list each approved drafter once",
                )

    def inference(self, bench: InferenceBenchmark, here: Location) -> None:
        gates = set(bench.postprocessing.gates)
        self.drafters(bench, here)
        if bench.performance is not None:
            perf = here.child("performance")
            for index, name in enumerate(bench.performance.datasets):
                self.reference(
                    "dataset", "ref-unknown-dataset", name, self.catalog.datasets, perf.child("datasets", index)
                )
            for field in bench.performance.requirements.model_fields_set:
                self.metric(REQUIREMENT_METRICS[field], perf.child("requirements", field), key=True)
        if bench.accuracy is not None:
            self.accuracy(bench.accuracy, here.child("accuracy"))
            self.metric(
                REQUIREMENT_METRICS["min_accuracy_sample_count"],
                here.child("accuracy", "requirements", "min_accuracy_sample_count"),
            )
        if "accuracy_gate" in gates and (bench.accuracy is None or not bench.accuracy.thresholds):
            self.report(
                "contract-inconsistent",
                "gate `accuracy_gate` needs accuracy thresholds",
                here.child("postprocessing", "gates"),
            )

    def accuracy(self, acc: Accuracy, here: Location) -> None:
        names = [d.dataset for d in acc.datasets]
        total: int | None = 0  # num_repeats x samples summed; None when a figure is unknown
        for index in range(len(acc.datasets)):
            samples = self.accuracy_dataset(acc, index, names, here.child("datasets", index))
            total = None if total is None or samples is None else total + samples
        self.aggregation(acc, here, names)
        self.accuracy_metrics(acc, here)
        self.sample_count(acc, here, total)

    def accuracy_dataset(self, acc: Accuracy, index: int, names: list[str], at: Location) -> int | None:
        """Check one accuracy dataset; returns the samples it counts (None when unknown)."""
        entry = acc.datasets[index]
        if names.count(entry.dataset) > 1 and names.index(entry.dataset) != index:
            self.report("contract-inconsistent", f"dataset `{entry.dataset}` is listed twice", at.child("dataset"))
        if not self.reference(
            "dataset", "ref-unknown-dataset", entry.dataset, self.catalog.datasets, at.child("dataset")
        ):
            return None
        dataset = self.catalog.datasets[entry.dataset]
        if dataset.answers.kind == "none":
            self.report(
                "contract-inconsistent",
                f"dataset `{entry.dataset}` has no answers to score against",
                at.child("dataset"),
                "use a dataset with a reference column or test cases",
            )
        self.reference(
            "evaluation recipe",
            "ref-unknown-recipe",
            entry.evaluation_recipe,
            dataset.evaluation_recipes,
            at.child("evaluation_recipe"),
        )
        for key in sorted(entry.generation.model_fields_set if entry.generation is not None else ()):
            if key not in acc.generation.model_fields_set:
                self.report(
                    "override-key-not-in-base",
                    f"override sets `{key}`, which accuracy.generation does not state",
                    at.child("generation", key),
                    f"state {key} in accuracy.generation first",
                    key=True,
                )
        if isinstance(dataset.samples, int) and not isinstance(dataset.samples, Pending):
            return entry.num_repeats * dataset.samples
        return None

    def accuracy_metrics(self, acc: Accuracy, here: Location) -> None:
        """Thresholds, reported and primary metrics name registered metrics, on fitting scales."""
        for key, threshold in acc.thresholds.items():
            at = here.child("thresholds", key)
            if self.metric(key, at, key=True):
                self.scale_fits(key, threshold.scale, at.child("scale"))
        for index, key in enumerate(acc.reported_metrics):
            self.metric(key, here.child("reported_metrics", index))
        primary = acc.primary_metric
        if (
            primary is not None
            and self.metric(primary, here.child("primary_metric"))
            and primary not in acc.reported_metrics
            and primary not in acc.thresholds
        ):
            self.report(
                "contract-inconsistent",
                f"primary_metric `{primary}` is neither reported nor thresholded",
                here.child("primary_metric"),
            )

    def sample_count(self, acc: Accuracy, here: Location, total: int | None) -> None:
        """`min_accuracy_sample_count` is the sum of num_repeats x samples, when both are known."""
        stated = acc.requirements.min_accuracy_sample_count
        if total is not None and not isinstance(stated, Pending) and stated != total:
            parts = " + ".join(f"{d.num_repeats}x{self.catalog.datasets[d.dataset].samples}" for d in acc.datasets)
            self.report(
                "figure-mismatch",
                f"min_accuracy_sample_count is {stated}, but num_repeats x samples gives {total} = {parts}",
                here.child("requirements", "min_accuracy_sample_count"),
                f"write {total}, or fix the repeats",
            )

    def aggregation(self, acc: Accuracy, here: Location, names: list[str]) -> None:
        agg = acc.dataset_aggregation
        at = here.child("dataset_aggregation")
        if agg.method == "single_dataset" and len(names) != 1:
            self.report(
                "contract-inconsistent",
                f"single_dataset aggregation, but {len(names)} datasets are listed",
                at.child("method"),
                "use micro_average, unweighted_mean or per_dataset",
            )
        for index, name in enumerate(agg.components or []):
            if name not in names:
                self.report(
                    "ref-unknown-dataset",
                    f"component `{name}` is not one of the accuracy datasets",
                    at.child("components", index),
                    did_you_mean(name, names),
                )

    def training(self, bench: TrainingBenchmark, here: Location) -> None:
        dataset = self.catalog.datasets.get(bench.dataset)
        if self.reference(
            "dataset", "ref-unknown-dataset", bench.dataset, self.catalog.datasets, here.child("dataset")
        ):
            assert dataset is not None
            splits = dataset.splits or {}
            for phase in ("training", "validation"):
                split = getattr(bench, phase).split
                self.reference("split", "ref-unknown-split", split, splits, here.child(phase, "split"))
            validation = splits.get(bench.validation.split)
            stated = bench.validation.samples
            if validation is not None and stated is not None and stated != validation.samples:
                self.report(
                    "figure-mismatch",
                    f"samples is {stated}, but split `{bench.validation.split}` has {validation.samples}",
                    here.child("validation", "samples"),
                )
            rollouts = bench.validation.rollouts
            attempts = bench.validation.attempts_per_task
            if validation is not None and rollouts is not None:
                expected = validation.samples * attempts
                if rollouts != expected:
                    self.report(
                        "figure-mismatch",
                        f"rollouts is {rollouts}, but {validation.samples} tasks x {attempts} attempts is {expected}",
                        here.child("validation", "rollouts"),
                    )
        target = bench.quality_target
        if self.metric(target.metric, here.child("quality_target", "metric")):
            self.scale_fits(target.metric, target.scale, here.child("quality_target", "scale"))
        match = _PASS_AT.fullmatch(target.metric)
        if match and int(match.group(1)) > bench.validation.attempts_per_task:
            self.report(
                "contract-inconsistent",
                f"{target.metric} needs {match.group(1)} attempts per task, "
                f"but attempts_per_task is {bench.validation.attempts_per_task}",
                here.child("validation", "attempts_per_task"),
            )
        self.schedule(bench, here.child("evaluation_schedule"))
        if bench.optimizer is not None:
            for name in ("learning_rate", "gradient_clip_norm"):
                self.formula(name, getattr(bench.optimizer, name), here.child("optimizer", name))

    def schedule(self, bench: TrainingBenchmark, here: Location) -> None:
        formula = bench.evaluation_schedule.first_evaluation_samples
        try:
            unknown = variables(formula) - {"gbs"}
            if unknown:
                raise FormulaError(f"unknown variable `{sorted(unknown)[0]}` (known: gbs)")
            for index, point in enumerate(bench.evaluation_schedule.reference_points):
                value = evaluate(formula, {"gbs": point.gbs})
                if value != Fraction(point.samples):
                    self.report(
                        "figure-mismatch",
                        f"for gbs {point.gbs} the formula gives {_show(value)}, but the table says {point.samples}",
                        here.child("reference_points", index, "samples"),
                        f"formula: {formula}",
                    )
        except FormulaError as exc:
            self.report(
                "formula-invalid",
                f"first_evaluation_samples: {exc}",
                here.child("first_evaluation_samples"),
                _FORMULA_HINT,
            )

    def formula(self, name: str, formula: str, at: Location) -> None:
        """A formula of gbs that can be computed (at gbs 256: any valid gbs would do)."""
        try:
            unknown = variables(formula) - {"gbs"}
            if unknown:
                raise FormulaError(f"unknown variable `{sorted(unknown)[0]}` (known: gbs)")
            evaluate(formula, {"gbs": 256})
        except FormulaError as exc:
            self.report("formula-invalid", f"{name}: {exc}", at, _FORMULA_HINT)

    # -- datasets -------------------------------------------------------------------------

    def dataset(self, ident: str) -> None:
        dataset: Dataset = self.catalog.datasets[ident]
        here = self.catalog.locate("dataset", ident)
        answers = dataset.answers
        for name, recipe in dataset.evaluation_recipes.items():
            at = here.child("evaluation_recipes", name, "ground_truth")
            if answers.kind == "none":
                self.report(
                    "contract-inconsistent",
                    f"recipe `{name}` scores against `{recipe.ground_truth}`, but the dataset has no answers",
                    at,
                )
            elif isinstance(recipe.ground_truth, Pending) or isinstance(answers.column, Pending):
                continue
            elif recipe.ground_truth != answers.column:
                self.report(
                    "contract-inconsistent",
                    f"recipe `{name}` scores against `{recipe.ground_truth}`, "
                    f"but the answers are in `{answers.column}`",
                    at,
                    did_you_mean(recipe.ground_truth, [answers.column]) or f"use {answers.column}",
                )
        if dataset.splits and not isinstance(dataset.samples, Pending):
            total = sum(s.samples for s in dataset.splits.values())
            if total != dataset.samples:
                parts = " + ".join(f"{s.samples} {n}" for n, s in dataset.splits.items())
                self.report(
                    "figure-mismatch",
                    f"samples is {dataset.samples}, but the splits add up to {total} ({parts})",
                    here.child("samples"),
                )
        if dataset.renamed_from is not None and dataset.renamed_from in self.catalog.datasets:
            self.report(
                "contract-inconsistent",
                f"renamed_from `{dataset.renamed_from}`, but that dataset still exists",
                here.child("renamed_from"),
            )


def _known(pool: Collection[str]) -> str:
    if not pool:
        return "none is defined"
    names = sorted(pool)
    shown = ", ".join(names[:10])
    return f"known: {shown}" + (f" and {len(names) - 10} more" if len(names) > 10 else "")


def _show(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def _position(catalog: Catalog, kind: str, ident: str, path: PathKey) -> tuple[int, int]:
    return catalog.locate(kind, ident, *path).position()


def check_entity(view: CatalogView, kind: str, ident: str) -> list[Diagnostic]:
    """The cross-document problems of one dataset or benchmark: its references, and the
    figures it states against those of what it references."""
    checker = _Checker(view)
    if kind == "dataset":
        checker.dataset(ident)
    else:
        checker.benchmark(ident)
    return checker.out


def check_catalog(catalog: Catalog) -> list[Diagnostic]:
    """Every cross-document problem of a loaded catalog."""
    checker = _Checker(catalog)
    for ident in catalog.datasets:
        checker.dataset(ident)
    for ident in catalog.benchmarks:
        checker.benchmark(ident)
    facts = [
        facts_of(kind, ident, entity, functools.partial(_position, catalog, kind, ident))
        for kind in ENTITY_KINDS
        for ident, entity in catalog.table(kind).items()
    ]
    return [*checker.out, *check_catalogwide(facts, catalog.locate)]
