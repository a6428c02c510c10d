"""The release policy a pull request must keep, checked between a base and a head tree.

1. A frozen ruleset (one the base has) is never modified or deleted (`rulesets`).
2. A new ruleset is exactly what `freeze` writes: canonical text, a cohort later than every
   frozen one, the right date and previous cohort, seed sets that follow the rotation policy
   and the published sets, and contract digests equal to the contracts at the head (`rulesets`).
3. Removing or renaming an entity (benchmark, model, dataset, metric) a frozen cohort uses is
   an error while that cohort still has a valid seed set, a warning once all its sets expired
   (`references`).
4. A contract change to a benchmark of the latest cohort is a warning: it takes effect only when
   the next cohort is frozen (below).
"""

from __future__ import annotations

from catalogctl.catalog.cohorts import Cohort
from catalogctl.model.reports.review import Finding
from catalogctl.review.removals import removed_references
from catalogctl.review.rulesets import frozen_rulesets, new_rulesets
from catalogctl.review.sides import PolicyInput

__all__ = ["PolicyInput", "check_policy", "next_freeze_changes"]


def check_policy(given: PolicyInput) -> list[Finding]:
    """Every policy finding between the base and the head."""
    findings: list[Finding] = []
    findings += frozen_rulesets(given)
    findings += new_rulesets(given)
    findings += removed_references(given)
    findings += next_freeze_changes(given)
    return findings


def next_freeze_changes(given: PolicyInput) -> list[Finding]:
    """Contract changes to benchmarks of the latest frozen cohort (warnings)."""
    base = given.base_rulesets
    if given.diff is None or not base.rulesets:
        return []
    latest = max(base.rulesets, key=Cohort.parse)
    members = {b.id for b in base.rulesets[latest].benchmarks}
    out: list[Finding] = []
    for change in given.diff.changes:
        if change.change_class != "contract" or change.change in ("removed", "renamed"):
            continue
        hit = sorted(members & set(change.impact))
        if not hit:
            continue
        from catalogctl.diff.markdown import describe

        out.append(
            Finding(
                severity="warning",
                code="contract-change-next-freeze",
                message=f"{describe(change)}: changes the contract of {', '.join(hit)} (cohort {latest}); "
                f"it takes effect only at the next freeze, {latest} keeps its frozen contract",
                file=change.file,
                line=change.line,
                column=change.column,
                fingerprint=change.fingerprint,
            )
        )
    return out
