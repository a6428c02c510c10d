"""Checks across documents: references resolve, overrides fit their base, stated figures agree."""

from __future__ import annotations

import functools

from catalogctl.catalog.beacon_rules import check_beacon_rulesets
from catalogctl.catalog.catalogwide import check_catalogwide
from catalogctl.catalog.crossref_runner import RunnerChecks
from catalogctl.catalog.crossref_training import TrainingChecks
from catalogctl.catalog.diagnostics import did_you_mean
from catalogctl.catalog.facts import ENTITY_KINDS, facts_of
from catalogctl.catalog.gatenames import GATE_KINDS
from catalogctl.catalog.index import Catalog, Location
from catalogctl.catalog.refchecker import CatalogView
from catalogctl.errors import Diagnostic
from catalogctl.io.yamlio import PathKey
from catalogctl.model import Dataset, InferenceBenchmark, Pending
from catalogctl.model.documents.benchmark import REQUIREMENT_METRICS, Accuracy


class _Checker(TrainingChecks, RunnerChecks):
    """The checks of a dataset and of a benchmark (a training one's: `crossref_training`; a
    runner's: `crossref_runner`)."""

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
        self.runner(bench, here)
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
    chain = catalog.suite.policies.seed_beacon if catalog.suite is not None else None
    beacon = check_beacon_rulesets(chain, catalog.rulesets, catalog.locate)
    return [*checker.out, *check_catalogwide(facts, catalog.locate), *beacon]
