"""A seeded sample of MLLOG logs of `llm-post-training`, each one a `Log` (tests/conformance/logs.py)
that changes one thing, sometimes two, of a compliant run: how the batch size is logged, the
evaluation schedule, accuracies around the target, a hyper-parameter, a key logged again or never,
run_stop's status. The same seed gives the same sample. Example `n` takes variant `n` of `VARIANTS`
in turn, and within it the next of its choices (which key, which kind of change) each time its turn
comes back, so that a sample of a hundred holds every variant and nearly every choice; the values
are drawn at random."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from tests.conformance.logs import GENERATIONS, Log, hyperparameters

GBS = (256, 384, 512, 768, 1024, 2048)  # the batch sizes submissions are resolved at
TARGET = 0.69  # closed_qwen35_397b_grpo.yaml: target_accuracy
# The keys catalogctl reads that a log may leave out, and two it does not read (the common rules').
READ_MISSABLE = (
    "global_batch_size",
    "num_prompts_per_step",
    "submission_benchmark",
    "opt_base_learning_rate",
    "opt_name",
    "eval_samples",
    "max_sequence_length",
    "generation_validation_rollout_temperature",
    "eval_accuracy",
    "run_stop",
)
UNREAD = ("max_steps", "train_samples")
MISSABLE = UNREAD + READ_MISSABLE  # in the order their turns come
# A key logged once more with another value: the value (run_stop's: its status).
OTHER_VALUE: dict[str, Any] = {  # in the order their turns come
    "run_stop": "aborted",
    "max_steps": 200,
    "global_batch_size": 1536,
    "num_prompts_per_step": 33,
    "opt_base_learning_rate": 2e-6,
    "opt_name": "sgd",
    "opt_adamw_beta_1": 0.95,
    "eval_samples": 250,
    "submission_benchmark": "llama31_8b",
    "generation_validation_rollout_top_p": 1.0,
    "train_samples": 701,
}
# A fixed value logged otherwise: another value, the same number as a text, or of the other type.
OTHERWISE: dict[str, tuple[Any, ...]] = {
    "max_sequence_length": (32768, "65536", 65536.0),
    "eval_samples": (250, "251"),
    "init_checkpoint_step": (100, 0.0),
    "opt_name": ("adam", "AdamW"),
    "opt_adamw_beta_1": (0.95, "0.9"),
    "opt_adamw_beta_2": (0.99,),
    "opt_adamw_epsilon": (1e-6, 1.0000001e-8),
    "opt_adamw_weight_decay": (0.1, 0),
    "opt_learning_rate_warmup_steps": (10, 0.0),
    "opt_learning_rate_decay_schedule": ("cosine",),
    "generation_training_rollout_temperature": (0.7, 1),
    "generation_training_rollout_top_p": (0.9,),
    "generation_validation_rollout_temperature": (0.2, 0.1000000001),
    "generation_validation_rollout_top_p": (1.0,),
    "num_generations_per_prompt": (8,),
}


@dataclass(frozen=True)
class Example:
    """One generated log: its number, what was changed, the submission's batch size, the log."""

    number: int
    variants: tuple[str, ...]
    gbs: int
    log: Log

    def logged(self, key: str) -> bool:
        """Whether the log logs `key` at all."""
        return key not in self.log.missing


def _turn(e: Example, choices: tuple[Any, ...]) -> Any:
    """The choice of `e`'s turn: its variant's first example takes the first, the next the next."""
    return choices[e.number // len(VARIANTS) % len(choices)]


def _schedule(gbs: int, count: int) -> list[int]:
    """Where the rules put `count` evaluations at `gbs`: gbs * ceil(2.5 + 3840 / gbs), then every gbs."""
    first = gbs * math.ceil(2.5 + 3840 / gbs)
    return [first + n * gbs for n in range(count)]


def _accuracies(rng: random.Random, count: int) -> list[float]:
    """Accuracies around the target, rising a little from one evaluation to the next."""
    start = rng.uniform(0.60, 0.72)
    return [round(min(0.80, start + n * rng.uniform(0.0, 0.03)), 6) for n in range(count)]


def _compliant(rng: random.Random, number: int) -> Example:
    gbs = rng.choice(GBS)
    count = rng.randint(1, 4)
    evals = tuple(zip(_schedule(gbs, count), _accuracies(rng, count), strict=True))
    log = Log(gbs=gbs, evals=evals, train_ms=rng.randrange(1_800_000, 7_200_000, 1000))
    return Example(number, (), gbs, log)


def _batch_as_float(rng: random.Random, e: Example) -> Log:
    prompts = {"num_prompts_per_step": float(e.gbs // GENERATIONS)} if rng.random() < 0.5 else {}
    return replace(e.log, gbs=float(e.gbs), values={**e.log.values, **prompts})


def _batch_near_an_integer(rng: random.Random, e: Example) -> Log:
    return replace(e.log, gbs=e.gbs + _turn(e, (1e-6, -1e-6, 4e-6)))


def _batch_not_the_submissions(rng: random.Random, e: Example) -> Log:
    other = rng.choice([g for g in GBS if g != e.gbs])
    evals = tuple(zip(_schedule(other, len(e.log.evals)), (a for _, a in e.log.evals), strict=True))
    return replace(e.log, gbs=other, evals=evals)


def _prompts_otherwise(rng: random.Random, e: Example) -> Log:
    prompts = e.gbs // GENERATIONS
    value = _turn(e, (prompts + 1, str(prompts), prompts - 1, 0, 2 * prompts))
    return replace(e.log, values={**e.log.values, "num_prompts_per_step": value})


def _schedule_otherwise(rng: random.Random, e: Example) -> Log:
    samples = [s or 0 for s, _ in e.log.evals]
    accuracies = [a for _, a in e.log.evals]
    step, kind = e.gbs, _turn(e, ("late", "uncounted", "early", "repeated", "off", "skipped"))
    at = rng.randrange(len(samples))
    if kind in ("late", "early", "off"):
        samples[at] += {"late": step, "early": -step, "off": GENERATIONS}[kind]
    elif kind == "skipped":
        samples[at:] = [s + step for s in samples[at:]]
    elif kind == "repeated":
        samples.insert(at, samples[at])
        accuracies.insert(at, accuracies[at])
    counts: list[int | None] = list(samples)
    if kind == "uncounted":
        counts[at] = None
    return replace(e.log, evals=tuple(zip(counts, accuracies, strict=True)))


def _accuracy_otherwise(rng: random.Random, e: Example) -> Log:
    accuracies = [a for _, a in e.log.evals]
    at = rng.randrange(len(accuracies))
    kind = _turn(e, ("percent", "nan", "at-target", "just-beyond", "all-nan"))
    if kind == "all-nan":
        accuracies = [math.nan] * len(accuracies)
    elif kind == "at-target":
        accuracies = [min(a, TARGET) for a in accuracies[:-1]] + [TARGET]
    else:
        accuracies[at] = {"nan": math.nan, "just-beyond": TARGET + 1e-12, "percent": accuracies[at] * 100}[kind]
    return replace(e.log, evals=tuple(zip((s for s, _ in e.log.evals), accuracies, strict=True)))


def _hyperparameter_otherwise(rng: random.Random, e: Example) -> Log:
    if rng.random() < 0.3:  # a value of a formula of gbs: within the checker's 1e-9, beyond it, at another gbs
        key = rng.choice(("opt_base_learning_rate", "opt_gradient_clip_norm"))
        right = hyperparameters(e.gbs)[key]
        other = hyperparameters(rng.choice([g for g in GBS if g != e.gbs]))[key]
        value = rng.choice((right + 3e-10, right - 3e-10, right + 3e-9, other, str(right)))
    else:
        key = rng.choice(sorted(OTHERWISE))
        value = rng.choice(OTHERWISE[key])
    return replace(e.log, values={**e.log.values, key: value})


def _again_same(rng: random.Random, e: Example) -> Log:
    key = _turn(e, tuple(OTHER_VALUE))
    value = e.log.status if key == "run_stop" else {**hyperparameters(e.log.gbs), **e.log.values}.get(key)
    if key == "submission_benchmark":
        value = "qwen35_397b_grpo"
    return replace(e.log, again=((key, value),))


def _again_otherwise(rng: random.Random, e: Example) -> Log:
    key = _turn(e, tuple(OTHER_VALUE))
    return replace(e.log, again=((key, OTHER_VALUE[key]),))


def _status_otherwise(rng: random.Random, e: Example) -> Log:
    return replace(e.log, status=_turn(e, ("aborted", None, "fail")))


def _missing(rng: random.Random, e: Example) -> Log:
    key = _turn(e, MISSABLE)
    return replace(e.log, missing=e.log.missing | {key})


VARIANTS: dict[str, Callable[[random.Random, Example], Log] | None] = {
    "compliant": None,
    "batch logged as a float": _batch_as_float,
    "batch near an integer": _batch_near_an_integer,
    "batch not the submission's": _batch_not_the_submissions,
    "prompts per step otherwise": _prompts_otherwise,
    "schedule otherwise": _schedule_otherwise,
    "accuracy otherwise": _accuracy_otherwise,
    "hyper-parameter otherwise": _hyperparameter_otherwise,
    "key again, same value": _again_same,
    "key again, another value": _again_otherwise,
    "run_stop status otherwise": _status_otherwise,
    "key not logged": _missing,
}
_SECOND = 0.25  # how often an example changes a second thing


def example(seed: int, number: int) -> Example:
    """Example `number` of the sample of `seed`: variant `number` of VARIANTS in turn (within it,
    the choice of its turn, the values at random), and now and then a second variant on top."""
    rng = random.Random(f"{seed}:{number}")
    names = list(VARIANTS)
    chosen = [names[number % len(names)]]
    if rng.random() < _SECOND:
        chosen.append(rng.choice(names[1:]))
    done = _compliant(rng, number)
    for name in dict.fromkeys(chosen):
        change = VARIANTS[name]
        if change is not None:
            done = replace(done, log=change(rng, done))
    return replace(done, variants=tuple(n for n in dict.fromkeys(chosen) if n != "compliant"))


def sample(seed: int, count: int) -> list[Example]:
    """The first `count` examples of the sample of `seed`."""
    return [example(seed, n) for n in range(count)]
