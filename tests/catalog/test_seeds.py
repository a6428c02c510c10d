"""Seed sets: the validity window, ids in order of publication, rotation and generation."""

from __future__ import annotations

import pytest

from catalogctl.catalog.cohorts import Cohort
from catalogctl.catalog.seeds import generate, is_valid_in, set_id, set_index, valid_sets
from catalogctl.model import SeedSet
from tests.run_results import SET_A


def seed_set(ident: str, introduced_in: str, valid_through: str) -> SeedSet:
    return SeedSet.model_validate(
        {"id": ident, **SET_A, "introduced_in": introduced_in, "valid_through": valid_through}
    )


@pytest.mark.parametrize(
    ("cohort", "valid"),
    [
        ("2026-09-C0", False),  # before the cohort that introduced it
        ("2026-09-C1", True),  # the first cohort
        ("2026-10-C1", True),
        ("2026-11-C0", True),  # the last one, `valid_through`
        ("2026-11-C1", False),
    ],
)
def test_a_set_is_valid_from_its_first_cohort_through_its_last(cohort: str, valid: bool) -> None:
    assert is_valid_in(seed_set("B", "2026-09-C1", "2026-11-C0"), Cohort.parse(cohort)) is valid


def test_valid_sets_keeps_their_order() -> None:
    sets = [seed_set("A", "2026-09-C0", "2026-10-C1"), seed_set("B", "2026-10-C0", "2026-11-C1")]
    assert [s.id for s in valid_sets(sets, Cohort.parse("2026-10-C0"))] == ["A", "B"]
    assert [s.id for s in valid_sets(sets, Cohort.parse("2026-11-C0"))] == ["B"]
    assert valid_sets(sets, Cohort.parse("2026-12-C0")) == []


@pytest.mark.parametrize(("index", "ident"), [(0, "A"), (25, "Z"), (26, "AA"), (27, "AB"), (701, "ZZ"), (702, "AAA")])
def test_set_ids_in_order_of_publication(index: int, ident: str) -> None:
    assert set_id(index) == ident
    assert set_index(ident) == index


def test_generated_seeds_are_distinct() -> None:
    draws = iter([7, 7, 9, 1, 2, 3])  # the first draw repeats a seed: drawn again
    values = generate(lambda bits: next(draws))
    assert (values.scheduler_rng_seed, values.sample_index_rng_seed, values.model_seed) == (1, 2, 3)


def test_a_generated_seed_of_0_is_drawn_again() -> None:
    draws = iter([0, 5, 6, 1, 2, 3])  # LoadGen's default for a seed never set: never a seed of a set
    values = generate(lambda bits: next(draws))
    assert (values.scheduler_rng_seed, values.sample_index_rng_seed, values.model_seed) == (1, 2, 3)
