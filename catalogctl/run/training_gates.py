"""The gates of a training run's rules, as the official MLPerf Training checker judges them: the
evaluation points, and the hyper-parameters the contract fixes (each row named by its MLLOG key,
so that a verdict can be set beside the official checker's, rule by rule)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from catalogctl.catalog.formula import FormulaError, evaluate
from catalogctl.model.documents.results import TrainingResult
from catalogctl.model.reports.check import Check, Status
from catalogctl.run.aggregate import NotEvaluable, in_range

_DIVERGED = "accuracy logged as NaN (a diverged evaluation)"


def _same(what: str, expected: Any, observed: Any) -> Check:
    """Equal, exactly (the official rules compare with ==); unknown when not logged."""
    if observed is None:
        return Check(what=what, expected=expected, status="unknown", note="not logged")
    return Check(what=what, expected=expected, observed=observed, status="pass" if observed == expected else "fail")


def _formula_row(what: str, formula: str, gbs: int | None, observed: Any, tolerance: float) -> Check:
    """A value of a formula of gbs, within an absolute tolerance (the official `abs(v - x) < tol`)."""
    if observed is not None and (not isinstance(observed, int | float) or isinstance(observed, bool)):
        note = f"logged as {observed!r}, not a number"  # the official `abs(v - x) < tol` fails on it
        return Check(what=what, expected=formula, observed=observed, status="fail", note=note)
    if gbs is None or observed is None:
        note = "gbs not logged" if gbs is None else "not logged"
        return Check(what=what, expected=formula, status="unknown", note=note)
    try:
        expected = float(evaluate(formula, {"gbs": gbs}))
    except FormulaError as exc:
        return Check(what=what, expected=formula, status="unknown", note=str(exc))
    ok = abs(observed - expected) < tolerance
    note = f"{formula} at gbs {gbs}, within {tolerance:g}"
    return Check(what=what, expected=expected, observed=observed, status="pass" if ok else "fail", note=note)


def schedule_rows(formula: str, training: TrainingResult, unit: str) -> list[Check]:
    """Each evaluation exactly where the schedule puts it: the first at the formula, each later one
    a global batch after the last one that was on time (the official `next_validation_samples`),
    and its accuracy a number on the metric's scale (`unit`; the official `0.0 <= v['value'] <= 1.0`)."""
    gbs = training.gbs
    if gbs is None:
        return [Check(what="first evaluation", expected=formula, status="unknown", note="gbs not reported")]
    try:
        start = evaluate(formula, {"gbs": gbs})
    except FormulaError as exc:
        return [Check(what="first evaluation", expected=formula, status="unknown", note=str(exc))]
    due = int(start) if start.denominator == 1 else float(start)
    rows = []
    for number, evaluation in enumerate(training.evaluations, 1):
        observed = evaluation.samples_count
        on_time = observed == due
        status: Status = "pass" if on_time else ("unknown" if observed is None else "fail")
        note = "" if observed is not None else "no samples_count"
        off_scale = _off_scale(evaluation.accuracy, unit)
        if evaluation.accuracy is None or off_scale:  # the official `0.0 <= v['value'] <= 1.0` fails both
            status, note = "fail", "; ".join(filter(None, [note, off_scale or _DIVERGED]))
        rows.append(
            Check(
                what=f"evaluation {number} at gbs {gbs}",
                expected=due,
                observed=observed,
                status=status,
                unit="samples",
                note=note,
            )
        )
        if on_time:  # the official POST: the schedule moves on whatever the accuracy
            due += gbs
    return rows


def _off_scale(accuracy: float | None, unit: str) -> str:
    """Why an accuracy is not a score on `unit` ("" when it is, or is not logged)."""
    if accuracy is None:
        return ""
    try:
        in_range(accuracy, unit, "accuracy")
    except NotEvaluable as exc:
        return str(exc)
    return ""


def training_rules(contract: Mapping[str, Any], gbs_owned: int | None, training: TrainingResult | None) -> list[Check]:
    """The hyper-parameters the rules fix, as the run logged them."""
    logged = training.hyperparameters if training is not None else {}
    gbs = training.gbs if training is not None else None
    rows = []
    if contract.get("mlperf_name"):
        observed = training.submission_benchmark if training is not None else None
        rows.append(_same("submission_benchmark", contract["mlperf_name"], observed))
    rows.append(_same("global_batch_size", gbs_owned, gbs) if gbs_owned is not None else _same("gbs", "logged", gbs))
    limits, validation, phase = contract["limits"], contract["validation"], contract["training"]
    fixed: list[tuple[str, Any]] = [("max_sequence_length", limits["max_context_tokens"])]
    if "samples" in validation:
        fixed.append(("eval_samples", validation["samples"]))
    if "init_checkpoint_step" in phase:
        fixed.append(("init_checkpoint_step", phase["init_checkpoint_step"]))
    generation = phase.get("generation") or {}
    fixed += [(f"generation_training_rollout_{k}", generation[k]) for k in ("temperature", "top_p") if k in generation]
    optimizer = contract.get("optimizer")
    if optimizer:
        fixed += [
            ("opt_name", optimizer["name"]),
            ("opt_adamw_beta_1", optimizer["beta_1"]),
            ("opt_adamw_beta_2", optimizer["beta_2"]),
            ("opt_adamw_epsilon", optimizer["epsilon"]),
            ("opt_adamw_weight_decay", optimizer["weight_decay"]),
            ("opt_learning_rate_warmup_steps", optimizer["warmup_steps"]),
            ("opt_learning_rate_decay_schedule", optimizer["schedule"]),
        ]
    rows += [_same(key, expected, logged.get(key)) for key, expected in fixed]
    if optimizer:
        for key, name in (
            ("opt_base_learning_rate", "learning_rate"),
            ("opt_gradient_clip_norm", "gradient_clip_norm"),
        ):
            rows.append(_formula_row(key, optimizer[name], gbs, logged.get(key), optimizer["tolerance"]))
    per_prompt = limits["generations_per_prompt"]
    rows.append(_same("num_generations_per_prompt", per_prompt, logged.get("num_generations_per_prompt")))
    rows.append(_product_row(logged.get("num_prompts_per_step"), per_prompt, gbs))
    return rows


def _product_row(prompts: Any, per_prompt: int, gbs: int | None) -> Check:
    """The batch is num_prompts_per_step x generations (the official `s['global_batch_size'] ==
    s['num_prompts_per_step'] * v['value']`); prompts logged as anything but an integer fail it."""
    what = "global_batch_size = num_prompts_per_step x generations"
    if prompts is None or (isinstance(prompts, int) and not isinstance(prompts, bool)):
        product = prompts * per_prompt if prompts is not None else None
        return _same(what, product, gbs if product is not None else None)  # no prompts logged: not evaluable
    note = f"num_prompts_per_step logged as {prompts!r}, not an integer"
    return Check(what=what, expected="an integer x " + str(per_prompt), observed=gbs, status="fail", note=note)


def stop_row(training: TrainingResult | None) -> Check:
    """run_stop's status: `success`. The official common rules fail a run_stop without a status;
    a status other than `success` (the reference logs `aborted` when the target is not reached) is
    a run that says it did not converge, which the RCP checker counts as not converged, whatever
    its evaluations (mlperf-logging 4.1.68, rcp_checker/rcp_checker.py, `read_submission_file`)."""
    what, expected = "run_stop status", "success"
    status = training.status if training is not None else None
    if status is None:
        if training is not None and training.stopped:
            note = "run_stop logged no status (the official common rules require one)"
            return Check(what=what, expected=expected, status="fail", note=note)
        note = "run_stop not logged" if training is not None and training.stopped is False else "not reported"
        return Check(what=what, expected=expected, status="unknown", note=note)
    if status == expected:
        return Check(what=what, expected=expected, observed=status, status="pass")
    note = f"the run says it ended `{status}`: not a converged run, whatever its evaluations"
    return Check(what=what, expected=expected, observed=status, status="fail", note=note)
