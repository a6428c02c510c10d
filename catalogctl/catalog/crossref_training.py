"""The cross-document checks of a training benchmark: its dataset's splits and the figures it
states of them, its quality target, and the formulas of gbs (the evaluation schedule against its
reference points, the optimizer's)."""

from __future__ import annotations

import re
from fractions import Fraction

from catalogctl.catalog.formula import FormulaError, evaluate, variables
from catalogctl.catalog.index import Location
from catalogctl.catalog.refchecker import RefChecker
from catalogctl.model import TrainingBenchmark

_FORMULA_HINT = "use numbers, gbs, + - * / // % **, parentheses, ceil, floor, min, max"
_PASS_AT = re.compile(r"pass_at_(\d+)")


class TrainingChecks(RefChecker):
    """The checks of a training benchmark (see the module docstring)."""

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


def _show(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
