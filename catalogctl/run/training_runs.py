"""A benchmark's runs in a folder of MLLOG result files (result_0.txt ... result_N.txt, one seed
each), judged together as mlperf-logging's package checker and result summarizer judge them: the
seeds the runs logged (its seed checker), and the benchmark's result over the runs (its olympic
mean of the times to train)."""

from __future__ import annotations

from catalogctl import words
from catalogctl.model.reports.check import Check, GateResult, RunCheck, TrainingScore
from catalogctl.run.mllog import MllogRun

SEEDS_GATE = "run_seeds"
_SEEDS_DESCRIPTION = "every run logs a seed, and no two runs log the same seed at the same source line"
_EXPECTED = "a seed no other run logs at its line"


def seeds_gate(runs: list[MllogRun]) -> GateResult:
    """The seed checker's rules, a row per run: a run that logs no seed fails, and so does one
    that logs a seed another run logged at the same file and line (more than one seed: a note)."""
    seen: dict[tuple[str, str], str] = {}
    rows = []
    for run in runs:
        name = run.file.name
        if not run.seeds:
            rows.append(Check(what=f"{name} seed", expected=_EXPECTED, status="fail", note="no seed logged"))
            continue
        clashes = []
        for seed in run.seeds:
            key = (repr(seed.value), seed.at)
            if key in seen:
                clashes.append(f"{seen[key]} logs it too, at {seed.at or 'an unnamed line'}")
            else:
                seen[key] = name
        notes = clashes or ([f"{len(run.seeds)} seeds logged"] if len(run.seeds) > 1 else [])
        rows.append(
            Check(
                what=f"{name} seed",
                expected=_EXPECTED,
                observed=_seed_value(run.seeds[0].value),
                status="fail" if clashes else "pass",
                note="; ".join(notes),
            )
        )
    return GateResult(name=SEEDS_GATE, severity="hard", description=_SEEDS_DESCRIPTION, checks=rows)


def _seed_value(value: object) -> bool | int | float | str | None:
    """The seed as logged; a list or a mapping (never a seed) as its text."""
    return value if value is None or isinstance(value, bool | int | float | str) else str(value)


def olympic_score(runs: list[RunCheck]) -> TrainingScore:
    """The result over the runs, as the summarizer derives it: the valid runs' times sorted, the
    fastest left out and the slowest too unless a run was already dropped; the mean of the rest."""
    timed = sorted((r.time_to_train_ms, r.run) for r in runs if r.passed and r.time_to_train_ms is not None)
    dropped = [r.run for r in runs if not (r.passed and r.time_to_train_ms is not None)]
    if len(dropped) > 1:
        note = "more than one run is not valid or logged no time to train: no result"
        return TrainingScore(dropped=dropped, note=note)
    kept = timed[1 : len(timed) - (1 - len(dropped))]
    if not kept:
        note = f"{words.count(len(runs), 'run')}: none left once the fastest and the slowest are left out"
        return TrainingScore(dropped=dropped, note=note)
    minutes = sum(ms for ms, _ in kept) / len(kept) / 60_000
    left_out = "the fastest run left out" + (", the dropped run as the slowest" if dropped else " and the slowest")
    return TrainingScore(minutes=minutes, mean_of=[name for _, name in kept], dropped=dropped, note=left_out)
