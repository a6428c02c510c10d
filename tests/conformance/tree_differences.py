"""The documented differences between the official Endpoints checker and `catalogctl check` on
generated submission trees (tests/conformance/differences/inference.yaml), the named predicates
their conditions use, and the campaign that runs trees through both and tallies every row.

An entry of the table explains a disagreement of its row when the pair of verdicts is one it
lists and its condition holds for the tree's parameters. Each condition names a cause of the
difference, never a side's verdict: a predicate that recomputed a checker's verdict would explain
any disagreement and document none.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from catalogctl.io.yamlio import read_foreign_yaml
from tests.conformance.tree_cohort import COHORT, TreeCohort
from tests.conformance.tree_verdicts import ROW_NAMES, ROWS, disagree, judge
from tests.conformance.trees import ACCURACY_SAMPLES, TreeParams, build, draw

TABLE = Path(__file__).resolve().parent / "differences" / "inference.yaml"
# deepseek-r1's contract: exact_match >= 81.3582 x 0.99; TOKENS_PER_SAMPLE within 3886.2274 x [0.9, 1.1].
EXACT_MATCH_BOUND = 81.3582 * 0.99
TOKENS_BOUNDS = (3886.2274 * 0.9, 3886.2274 * 1.1)
# Each set's adoption window, as the cohort's export writes it (tests.conformance.tree_cohort).
WINDOWS = {
    "A": ("2026-10-C1", "2026-11-C0", "2026-11-C1", "2026-12-C0"),
    "B": ("2026-11-C1", "2026-12-C0", "2026-12-C1", "2027-01-C0"),
}


def _written(params: TreeParams) -> float:
    """The accuracy run's score as accuracy_results.json holds it."""
    return params.score / 100.0 if params.scale == "fraction" else params.score


def _inline_moves_the_mean(params: TreeParams) -> bool:
    """An inline performance entry whose score, averaged in by sample count, lands the accuracy
    mean on the other side of the bound than the accuracy run's own score."""
    if params.inline is None:
        return False
    score, samples = params.inline
    mean = (params.score * params.accuracy_samples + score * samples) / (params.accuracy_samples + samples)
    return (mean >= EXACT_MATCH_BOUND) != (params.score >= EXACT_MATCH_BOUND)


def _accuracy_run_passes(params: TreeParams) -> bool:
    """An accuracy run passes catalogctl's accuracy gate (the score read on the scorer's percent)."""
    low, high = TOKENS_BOUNDS
    return _written(params) >= EXACT_MATCH_BOUND and low <= params.tokens_per_sample <= high


def _runs_off_the_band_count(params: TreeParams) -> bool:
    """The accuracy runs are not exactly one per §5.3 mandatory band plus the Offline point's
    (§4.3: "a fixed count, not a floor"), the bands computed by the checker's own §5.5 functions."""
    from submission_checker.models.aggregate.context import accuracy_bands, match_accuracy_bands
    from submission_checker.models.regions import ULTRA_LOW_CONCURRENCY_MAX, compute_regions

    concurrencies = [p.concurrency for p in params.points]
    regions = compute_regions(params.c_max, min(min(concurrencies), ULTRA_LOW_CONCURRENCY_MAX))
    runs = set(params.accuracy_points) - ({concurrencies[0]} if params.missing == "accuracy_results.json" else set())
    candidates = sorted(
        ((c, accuracy_bands(c, regions), c == params.c_max) for c in sorted(runs)), key=lambda item: item[2]
    )
    owner = match_accuracy_bands(candidates)
    missing = len(owner) < 4
    extra = any(c not in owner.values() and not elected for c, _, elected in candidates)
    return missing or extra or params.c_max not in runs


PREDICATES: dict[str, Callable[[TreeParams], bool]] = {
    "score_written_at_most_1": lambda p: _written(p) <= 1.0 or (p.inline is not None and p.inline[0] <= 1.0),
    "inline_entry_moves_the_mean": _inline_moves_the_mean,
    "inline_samples_complete_the_count": lambda p: (
        p.inline is not None and p.accuracy_samples < ACCURACY_SAMPLES <= p.accuracy_samples + p.inline[1]
    ),
    "output_length_off_the_reference": lambda p: not TOKENS_BOUNDS[0] <= p.tokens_per_sample <= TOKENS_BOUNDS[1],
    "performance_samples_below_the_dataset": lambda p: any(pt.samples < ACCURACY_SAMPLES for pt in p.points),
    "bound_to_another_published_set": lambda p: p.seed_set == "B",
    "set_never_published_or_undeclared": lambda p: p.seed_set not in ("A", "B"),
    "set_never_published": lambda p: p.seed_set == "Z",
    "seed_set_not_declared": lambda p: p.seed_set is None,
    "model_seed_not_declared": lambda p: p.declared == "no-model-seed",
    "target_cohort_not_declared": lambda p: p.target_cohort is None,
    "target_in_the_sets_window_not_the_resolved_cohort": lambda p: (
        p.target_cohort not in (None, COHORT) and p.target_cohort in WINDOWS.get(p.seed_set or "", ())
    ),
    "resolved_cohort_outside_the_bound_sets_window": lambda p: p.seed_set == "B" and p.target_cohort == COHORT,
    "recorded_seeds_not_declared": lambda p: p.recorded == "other",
    "model_name_allowed_but_not_the_benchmarks": lambda p: p.model_name == "llama3_1-8b",
    "accuracy_runs_not_one_per_band": _runs_off_the_band_count,
    "no_accuracy_run_passes": lambda p: not _accuracy_run_passes(p),
    "served_model_not_the_contracts": lambda p: p.served != "contract",
    "load_not_the_points": lambda p: p.load != "point",
}


@dataclass(frozen=True)
class Difference:
    """One documented difference: its row, the official rule, the verdict pairs, when, why."""

    id: str
    row: str
    official_rule: str | None
    condition: str
    official: tuple[str, ...]
    catalogctl: tuple[str, ...]
    section: str
    why: str

    def explains(self, row: str, pair: tuple[str, str], params: TreeParams) -> bool:
        official, ours = pair
        return (
            row == self.row
            and official in self.official
            and ours in self.catalogctl
            and PREDICATES[self.condition](params)
        )


def _verdicts(value: Any) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, list) else (str(value),)


def load_differences(path: Path = TABLE) -> list[Difference]:
    """The table, each entry checked to name a row, a predicate and verdicts that exist."""
    entries = read_foreign_yaml(path.read_bytes())["differences"]
    found = []
    for entry in entries:
        difference = Difference(
            id=entry["id"],
            row=entry["row"],
            official_rule=entry["official_rule"],
            condition=entry["condition"],
            official=_verdicts(entry["official"]),
            catalogctl=_verdicts(entry["catalogctl"]),
            section=entry["section"],
            why=" ".join(str(entry["why"]).split()),
        )
        row = next((r for r in ROWS if r.name == difference.row), None)
        if row is None or difference.condition not in PREDICATES:
            raise ValueError(f"{path}: {difference.id} names no row or predicate of the suite")
        if difference.official_rule is not None and difference.official_rule not in row.rules:
            raise ValueError(f"{path}: {difference.id} maps row {row.name!r} to {difference.official_rule}")
        found.append(difference)
    return found


@dataclass
class RowTally:
    """One row over a campaign: judgements both made (pass, fail or unknown), those that agree,
    and the disagreements, documented (by entry id) or not."""

    judgements: int = 0
    agree: int = 0
    documented: dict[str, int] = field(default_factory=dict)
    undocumented: list[str] = field(default_factory=list)


@dataclass
class Campaign:
    """A campaign's tally by row, and the trees drawn."""

    trees: int = 0
    rows: dict[str, RowTally] = field(default_factory=lambda: {name: RowTally() for name in ROW_NAMES})

    @property
    def undocumented(self) -> list[str]:
        return [line for tally in self.rows.values() for line in tally.undocumented]

    def seen(self) -> set[str]:
        return {ident for tally in self.rows.values() for ident in tally.documented}


def tally_tree(
    campaign: Campaign, params: TreeParams, pairs: dict[str, tuple[str, str]], table: list[Difference]
) -> None:
    """Add one tree's verdict pairs to the campaign."""
    campaign.trees += 1
    for row, pair in pairs.items():
        tally = campaign.rows[row]
        judged = {"none", "refused"}.isdisjoint(pair)
        tally.judgements += judged
        tally.agree += judged and pair[0] == pair[1]
        if not disagree(*pair):
            continue
        reason = next((d for d in table if d.explains(row, pair, params)), None)
        if reason is None:
            tally.undocumented.append(f"{row}: checker {pair[0]}, catalogctl {pair[1]} on {params.describe()}")
        else:
            tally.documented[reason.id] = tally.documented.get(reason.id, 0) + 1


def run_campaign(count: int, seed: int, scratch: Path, cohort: TreeCohort, table: list[Difference]) -> Campaign:
    """`count` trees of generator seeds `seed * 100_000 + i`, each built under `scratch`, judged by
    both checkers in this process, tallied, then removed."""
    campaign = Campaign()
    for index in range(count):
        params = draw(seed * 100_000 + index)
        tree = build(params, scratch / f"t{index}", cohort)
        tally_tree(campaign, params, judge(tree, cohort).pairs(), table)
        shutil.rmtree(scratch / f"t{index}")
    return campaign
