"""The comparison of both judges over generated logs: each rule both judge on a log is a judgement;
one where they disagree must be a documented difference, an entry of
`differences/training.yaml` (the rules it is about, the condition under which it happens, by the
name of a predicate of `PREDICATES`, both verdicts, the section of the rules and why) whose
condition holds for the log.

Used by tests/conformance/test_logs.py (a bounded sample) and bench/conformance_logs.py (a
campaign of as many logs as asked)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from catalogctl.io.yamlio import read_foreign_yaml
from tests.conformance import log_verdicts
from tests.conformance.log_sample import READ_MISSABLE, UNREAD, Example
from tests.conformance.log_verdicts import TARGET_RULE, WHOLE_LOG
from tests.conformance.logs import hyperparameters, write

DIFFERENCES = Path(__file__).parent / "differences" / "training.yaml"
JUDGED = {"pass", "fail"}  # the official checker's verdicts on a rule it judged
ANSWERED = {"pass", "fail", "unknown"}  # catalogctl's on a rule it judged
# What each rule computes with (a rule not named here: its own key alone).
INPUTS: dict[str, set[str]] = {
    "opt_base_learning_rate": {"opt_base_learning_rate", "global_batch_size"},
    "opt_gradient_clip_norm": {"opt_gradient_clip_norm", "global_batch_size"},
    "eval_accuracy": {"eval_accuracy", "global_batch_size", "samples_count"},
    "num_generations_per_prompt": {"num_generations_per_prompt", "global_batch_size", "num_prompts_per_step"},
    TARGET_RULE: {"eval_accuracy"},
    WHOLE_LOG: {*READ_MISSABLE, "samples_count"},
}


def _not_logged(e: Example) -> set[str]:
    """The keys the log never logs; `samples_count` when an eval_accuracy does not log it."""
    uncounted = e.logged("eval_accuracy") and any(samples is None for samples, _ in e.log.evals)
    return set(e.log.missing) | ({"samples_count"} if uncounted else set())


def _logged_again_otherwise(e: Example) -> dict[str, object]:
    """The keys logged once more with another value than their first (run_stop: another status)."""
    first = {**hyperparameters(e.log.gbs), **e.log.values, "run_stop": e.log.status}
    first["submission_benchmark"] = "qwen35_397b_grpo"
    return {k: v for k, v in e.log.again if e.logged(k) and v != first.get(k)}


PREDICATES: dict[str, Callable[[Example, str], bool]] = {
    "an_input_not_logged": lambda e, rule: bool(INPUTS.get(rule, {rule}) & _not_logged(e)),
    "batch_near_an_integer": lambda e, _: (
        e.logged("global_batch_size") and isinstance(e.log.gbs, float) and e.log.gbs != round(e.log.gbs)
    ),
    "batch_not_the_submissions": lambda e, _: e.logged("global_batch_size") and round(e.log.gbs) != e.gbs,
    "an_unread_key_not_logged_or_logged_again_otherwise": lambda e, _: bool(
        set(UNREAD) & (set(e.log.missing) | set(_logged_again_otherwise(e)))
    ),
    "stopped_otherwise_than_success": lambda e, _: e.logged("run_stop") and e.log.status not in (None, "success"),
    "run_stop_logged_again_otherwise": lambda e, _: "run_stop" in _logged_again_otherwise(e),
    "an_accuracy_off_its_scale": lambda e, _: (
        e.logged("eval_accuracy") and any(math.isfinite(a) and not 0 <= a <= 1 for _, a in e.log.evals)
    ),
}


@dataclass(frozen=True)
class Difference:
    """A documented difference: on `rules`, when `when` holds, the official checker says
    `official` and catalogctl `catalogctl`; `row` is catalogctl's row, `section` the rules'."""

    id: str
    rules: tuple[str, ...]
    row: str
    when: str
    official: str
    catalogctl: str
    section: str
    why: str

    def explains(self, e: Example, rule: str, official: str, catalogctl: str) -> bool:
        """Whether this difference is the one `e` shows on `rule`."""
        pair = (self.official, self.catalogctl) == (official, catalogctl)
        return rule in self.rules and pair and PREDICATES[self.when](e, rule)


def load(path: Path = DIFFERENCES) -> list[Difference]:
    """The documented differences; an entry naming a rule, predicate or verdict that does not exist
    is an error here, not a difference that never matches."""
    found = []
    for entry in read_foreign_yaml(path.read_bytes()):
        difference = Difference(**{**entry, "rules": tuple(entry["rules"])})
        unknown = [r for r in difference.rules if r not in log_verdicts.ROW_NAMES]
        if unknown or difference.when not in PREDICATES:
            raise ValueError(f"{path}: {difference.id}: no rule {unknown} or no predicate {difference.when!r}")
        if difference.official not in JUDGED or difference.catalogctl not in ANSWERED:
            raise ValueError(f"{path}: {difference.id}: verdicts are {JUDGED} and {ANSWERED}")
        found.append(difference)
    return found


@dataclass
class Tally:
    """What a campaign found: per rule, judgements and agreements; the undocumented disagreements
    (example, rule, official, catalogctl); how often each documented difference occurred."""

    judged: dict[str, int] = field(default_factory=dict)
    agreed: dict[str, int] = field(default_factory=dict)
    undocumented: list[tuple[Example, str, str, str]] = field(default_factory=list)
    occurred: dict[str, int] = field(default_factory=dict)
    examples: int = 0

    def add(self, e: Example, official: dict[str, str], ours: dict[str, str], known: list[Difference]) -> None:
        """Judge one example's verdicts."""
        self.examples += 1
        for rule in log_verdicts.ROW_NAMES:
            theirs, mine = official[rule], ours[rule]
            if theirs not in JUDGED or mine not in ANSWERED:
                continue
            self.judged[rule] = self.judged.get(rule, 0) + 1
            if theirs == mine:
                self.agreed[rule] = self.agreed.get(rule, 0) + 1
                continue
            explained = next((d.id for d in known if d.explains(e, rule, theirs, mine)), None)
            if explained is None:
                self.undocumented.append((e, rule, theirs, mine))
            else:
                self.occurred[explained] = self.occurred.get(explained, 0) + 1


def campaign(examples: Iterable[Example], resolved: dict[int, Path], scratch: Path, known: list[Difference]) -> Tally:
    """Write each example to `scratch`, judge it both ways (catalogctl on the config resolved at
    the example's batch size) and tally the verdicts."""
    tally = Tally()
    for e in examples:
        log = write(scratch / "result_0.txt", e.log)
        ours, _ = log_verdicts.catalogctl(resolved[e.gbs], log)
        tally.add(e, log_verdicts.official(log), ours, known)
    return tally


def agreement_table(tally: Tally) -> str:
    """The agreement per rule, as a Markdown table."""
    lines = ["| rule | judgements | agree | % | undocumented |", "| --- | ---: | ---: | ---: | ---: |"]
    for rule in log_verdicts.ROW_NAMES:
        judged, agreed = tally.judged.get(rule, 0), tally.agreed.get(rule, 0)
        missed = sum(1 for _, r, _, _ in tally.undocumented if r == rule)
        share = f"{100 * agreed / judged:.1f}" if judged else "-"
        lines.append(f"| `{rule}` | {judged:,} | {agreed:,} | {share} | {missed} |")
    judged, agreed = sum(tally.judged.values()), sum(tally.agreed.values())
    share = f"{100 * agreed / judged:.1f}" if judged else "-"
    lines.append(f"| all rules | {judged:,} | {agreed:,} | {share} | {len(tally.undocumented)} |")
    return "\n".join(lines) + "\n"


def differences_table(known: list[Difference]) -> str:
    """The documented differences, as the Markdown table the docs show."""
    lines = [
        "| official rule | catalogctl row | when | official | catalogctl | section | why |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for d in known:
        rules = ", ".join(f"`{r}`" for r in d.rules)
        cells = [rules, d.row, d.when.replace("_", " "), d.official, d.catalogctl, d.section, d.why]
        lines.append("| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |")
    return "\n".join(lines) + "\n"
