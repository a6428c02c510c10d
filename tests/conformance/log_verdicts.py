"""Each official rule of an MLLOG log of `llm-post-training`, and the verdict both judges give it:
mlperf-logging 4.1.68's compliance checker (training 6.1.0, as a library, in this process) and
`catalogctl check` (`check_files`, on a resolved config of the benchmark).

`RULES` maps every rule the official checker judges and catalogctl has rows for to those rows (a
row is `gate:what`, or `gate:prefix*`); `OFFICIAL_ONLY` names the benchmark's rules catalogctl has
no row for, and why. A verdict is `pass`, `fail`, `unknown` (catalogctl: not evaluable), `none`
(the judge did not judge the rule) or `refused` (catalogctl refused the log for another key)."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalogctl.errors import InputsUnusable
from catalogctl.run.check import check_files

COMMON = "training_6.1.0/common.yaml"
CLOSED = "training_6.1.0/closed_qwen35_397b_grpo.yaml"
TARGET_RULE = "eval_accuracy > target_accuracy"  # closed_qwen35_397b_grpo.yaml's ATLEAST_ONE_CHECK
WHOLE_LOG = "the whole log"  # the checker's verdict on the file; catalogctl's four gates of the rules
GATES = ("quality_target", "generation_integrity", "evaluation_schedule", "training_rules")
_AGAIN = re.compile(r"`(\w+)` is logged again with another value")


@dataclass(frozen=True)
class Rule:
    """An official rule (a KEY's CHECK and REQ, in the config it is declared in) and the rows of
    catalogctl that judge what it judges."""

    name: str
    config: str
    rows: tuple[str, ...]

    def judges(self, gate: str, what: str) -> bool:
        """Whether catalogctl's row `what` of `gate` is one of this rule's."""
        for row in self.rows:
            at, _, name = row.partition(":")
            if at == gate and (what.startswith(name[:-1]) if name.endswith("*") else what == name):
                return True
        return False


def _same_key(name: str) -> Rule:
    return Rule(name, CLOSED, (f"training_rules:{name}",))


RULES: tuple[Rule, ...] = (
    Rule("submission_benchmark", COMMON, ("training_rules:submission_benchmark",)),
    _same_key("global_batch_size"),
    _same_key("max_sequence_length"),
    _same_key("eval_samples"),
    _same_key("init_checkpoint_step"),
    _same_key("opt_name"),
    _same_key("opt_base_learning_rate"),
    _same_key("opt_adamw_beta_1"),
    _same_key("opt_adamw_beta_2"),
    _same_key("opt_adamw_epsilon"),
    _same_key("opt_adamw_weight_decay"),
    _same_key("opt_gradient_clip_norm"),
    _same_key("opt_learning_rate_warmup_steps"),
    _same_key("opt_learning_rate_decay_schedule"),
    _same_key("generation_training_rollout_temperature"),
    _same_key("generation_training_rollout_top_p"),
    Rule("generation_validation_rollout_temperature", CLOSED, ("generation_integrity:validation temperature",)),
    Rule("generation_validation_rollout_top_p", CLOSED, ("generation_integrity:validation top_p",)),
    Rule(
        "num_generations_per_prompt",
        CLOSED,
        (
            "training_rules:num_generations_per_prompt",
            "training_rules:global_batch_size = num_prompts_per_step x generations",
        ),
    ),
    Rule("eval_accuracy", CLOSED, ("evaluation_schedule:evaluation *", "evaluation_schedule:first evaluation*")),
    Rule(TARGET_RULE, CLOSED, ("quality_target:pass_at_4",)),
    Rule("run_stop", COMMON, ("quality_target:run_stop status",)),
)
OFFICIAL_ONLY = {
    "num_prompts_per_step": "its own CHECK (an integer > 0) has no row: catalogctl judges the value in "
    "num_generations_per_prompt's product row, as the official num_generations_per_prompt does",
    "max_steps": "no CHECK, only EXACTLY_ONE: catalogctl does not read it",
}
ROW_NAMES = [rule.name for rule in RULES] + [WHOLE_LOG]


def official(path: Path) -> dict[str, str]:
    """The compliance checker's verdict on each rule of `ROW_NAMES`: `fail` when it left a
    message for the rule, `none` when the rule's config never ran (no submission_benchmark names
    the benchmark) or, for the target, when no eval_accuracy was logged; a warning is a pass."""
    from mlperf_logging.compliance_checker import mlp_compliance

    class Recording(mlp_compliance.ComplianceChecker):  # type: ignore[misc]
        """The checker, noting each config it runs and the keys logged."""

        ran: list[str]
        logged: set[str]

        def configured_checks(self, loglines: list[Any], config_file: str) -> None:
            self.ran.append(Path(config_file).name)
            self.logged = {line.key for line in loglines}
            super().configured_checks(loglines, config_file)

    checker = Recording("training", "6.1.0", False, False)
    checker.ran, checker.logged = [], set()
    mlp_compliance.enqueued_configs.clear()  # a module-global queue: nothing of another file
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # its messages are read from the checker, not the log
    try:
        valid = checker.check_file(str(path), COMMON)
    finally:
        root.setLevel(level)
    found = {}
    for rule in RULES:
        if Path(rule.config).name not in checker.ran:
            found[rule.name] = "none"
        elif rule.name == TARGET_RULE:
            missed = any(m.startswith("Failed checks for eval_accuracy") for m in checker.not_overwritable)
            found[rule.name] = "fail" if missed else "pass" if "eval_accuracy" in checker.logged else "none"
        else:
            found[rule.name] = "fail" if rule.name in checker.overwritable else "pass"
    found[WHOLE_LOG] = "pass" if valid else "fail"
    return found


def catalogctl(resolved: Path, path: Path) -> tuple[dict[str, str], str]:
    """catalogctl's verdict on each rule of `ROW_NAMES`, from its rows (any `fail` fails the rule,
    else any `unknown` makes it unknown), and the message when it refused the log: a log refused for
    a key logged again fails that key's rule and judges no other."""
    try:
        report = check_files(resolved, path)
    except InputsUnusable as exc:
        again = _AGAIN.search(str(exc))
        refused = {r.name: "fail" if again and again.group(1) == r.name else "refused" for r in RULES}
        return {**refused, WHOLE_LOG: "fail"}, str(exc)
    rows = [(g.name, c.what, c.status) for g in report.gates for c in g.checks]
    found = {}
    for rule in RULES:
        statuses = {status for gate, what, status in rows if rule.judges(gate, what)}
        found[rule.name] = next((s for s in ("fail", "unknown", "pass") if s in statuses), "none")
    verdicts = {g.name: g.verdict for g in report.gates if g.name in GATES}
    whole = "fail" if "fail" in verdicts.values() else "pass" if set(verdicts.values()) == {"pass"} else "unknown"
    return {**found, WHOLE_LOG: whole}, ""
