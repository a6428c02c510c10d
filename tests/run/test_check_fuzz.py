"""The fuzzer of `check` (`tests/check_fuzz.py`), kept as a property: a real input of every layout
`check` reads, mutated at random, is a report or a refusal with a message, never a crash; and a
run that cannot pass never passes. The campaign behind it is `bench/fuzz_check.py` (20,000
cases); here a bounded, derandomized number, drawn per layout."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.check_fuzz import Seed, Tally, fuzz_one, make_seeds

SETTINGS = settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


pytestmark = pytest.mark.fuzz


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Seed]:
    """A valid input of every layout, built once for the module (LoadGen run once)."""
    return {seed.name: seed for seed in make_seeds(tmp_path_factory.mktemp("fuzz-seeds"))}


def test_every_layout_has_a_seed_that_checks(seeds: dict[str, Seed]) -> None:
    expected = {"results", "results-failing", "run-folder", "point", "submission", "mllog", "mllog-runs", "lm-eval"}
    expected |= {"evalscope", "inspect"}
    assert expected <= seeds.keys()


LAYOUTS = [
    "results",
    "results-failing",
    "run-folder",
    "point",
    "submission",
    "mllog",
    "mllog-runs",
    "loadgen",
    "lm-eval",
    "evalscope",
    "inspect",
]


@pytest.mark.parametrize("layout", LAYOUTS)
@SETTINGS
@given(generator=st.integers(0, 2**32 - 1))
def test_a_mutated_input_is_a_report_or_a_refusal(
    seeds: dict[str, Seed], tmp_path_factory: pytest.TempPathFactory, layout: str, generator: int
) -> None:
    if layout not in seeds:
        pytest.skip("the mlcommons-loadgen wheel exists for Linux x86_64 only")
    tally = Tally()
    fuzz_one(random.Random(generator), seeds[layout], tmp_path_factory.mktemp("case", numbered=True), tally)
    assert tally.findings == []
