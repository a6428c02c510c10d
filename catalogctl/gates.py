"""The gate registry: every post-processing gate a contract may name.

A benchmark naming a gate that is not here is a validation error. Severity `soft` gates report
a warning instead of failing the run (model integrity: a submitter may legitimately quantize).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class GateSpec:
    """A gate's name, what it checks, how bad its failure is, and which kinds it applies to."""

    name: str
    description: str
    severity: Literal["hard", "soft"]
    kinds: frozenset[str]


_BOTH = frozenset({"inference", "training"})
_INFERENCE = frozenset({"inference"})
_TRAINING = frozenset({"training"})

GATES: dict[str, GateSpec] = {
    g.name: g
    for g in (
        GateSpec("dataset_integrity", "the sha256 of every dataset loaded equals the contract's", "hard", _BOTH),
        GateSpec("model_integrity", "the checkpoint is the contract's reference commit", "soft", _BOTH),
        GateSpec(
            "generation_integrity",
            "api_type and sampling parameters used equal the contract's, per dataset",
            "hard",
            _BOTH,
        ),
        GateSpec("seeds", "the run used exactly the resolved seed set", "hard", _BOTH),
        GateSpec(
            "requirements",
            "minimum duration, sample counts, context length and latency bounds hold",
            "hard",
            _INFERENCE,
        ),
        GateSpec("accuracy_gate", "every accuracy threshold holds (reference x factor)", "hard", _INFERENCE),
        GateSpec("quality_target", "the validation metric reached the quality target", "hard", _TRAINING),
        GateSpec(
            "evaluation_schedule",
            "the first evaluation came no earlier than the schedule's formula allows",
            "hard",
            _TRAINING,
        ),
    )
}
