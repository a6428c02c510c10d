"""The names of the post-run gates a contract may list, and the benchmark kinds each applies to.

Validation needs only this; the gates' functions live in `run.gates`, which registers exactly
these names (it refuses to import otherwise), so the catalog never imports the scoring code.
"""

from __future__ import annotations

_BOTH = frozenset({"inference", "training"})

GATE_KINDS: dict[str, frozenset[str]] = {
    "dataset_integrity": _BOTH,
    "model_integrity": _BOTH,
    "generation_integrity": _BOTH,
    "seeds": _BOTH,
    "requirements": frozenset({"inference"}),
    "accuracy_gate": frozenset({"inference"}),
    "quality_target": frozenset({"training"}),
    "evaluation_schedule": frozenset({"training"}),
    "training_rules": frozenset({"training"}),
}
