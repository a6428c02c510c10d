"""The derivation of a seed set from a beacon round: the documented function, by hand with
hashlib alone, and its rule for a zero or repeated value."""

from __future__ import annotations

import hashlib

import pytest

from catalogctl.catalog import beacon_seeds

# The randomness of drand quicknet round 12040883 (tests/fixtures/drand/quicknet-12040883.json).
RANDOMNESS = "173df1f57805453a8d2015268205d68147de12cafc2f451f7bc6adadca3571b3"


def by_hand(name: str, counter: int = 0) -> int:
    """What the README tells a submitter to compute, with nothing but hashlib."""
    text = f"catalogctl-seed-v1\n{RANDOMNESS}\n2026-09-C1\nB\n{name}\n{counter}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def test_each_seed_is_the_documented_function_of_the_round_cohort_set_and_name() -> None:
    seeds = beacon_seeds.derive_seeds(RANDOMNESS, "2026-09-C1", "B")
    assert seeds.model_dump() == {name: by_hand(name) for name in beacon_seeds.SEED_NAMES}
    # Bound to the cohort and the set: another of either gives other seeds.
    assert beacon_seeds.derive_seeds(RANDOMNESS, "2026-10-C0", "B") != seeds
    assert beacon_seeds.derive_seeds(RANDOMNESS, "2026-09-C1", "C") != seeds


def test_a_zero_or_a_repeated_value_moves_to_the_next_counter(monkeypatch: pytest.MonkeyPatch) -> None:
    # Force sha256 to give 0 for the first candidate and, for the model seed, the scheduler's value.
    real = hashlib.sha256
    forced = {
        beacon_seeds.seed_input(RANDOMNESS, "2026-09-C1", "B", "scheduler_rng_seed", 0): bytes(32),
        beacon_seeds.seed_input(RANDOMNESS, "2026-09-C1", "B", "model_seed", 0): real(
            beacon_seeds.seed_input(RANDOMNESS, "2026-09-C1", "B", "scheduler_rng_seed", 1)
        ).digest(),
    }

    class Fake:
        def __init__(self, data: bytes) -> None:
            self.data = data

        def digest(self) -> bytes:
            return forced.get(self.data) or real(self.data).digest()

    monkeypatch.setattr(hashlib, "sha256", Fake)
    seeds = beacon_seeds.derive_seeds(RANDOMNESS, "2026-09-C1", "B")
    monkeypatch.undo()
    assert seeds.scheduler_rng_seed == by_hand("scheduler_rng_seed", 1)
    assert seeds.sample_index_rng_seed == by_hand("sample_index_rng_seed", 0)
    assert seeds.model_seed == by_hand("model_seed", 1)


def test_the_documented_standard_library_derivation_gives_the_same_seeds() -> None:
    # What docs/explanation/beacon-seeds.md tells a submitter to run, with nothing but hashlib,
    # must give the seeds catalogctl derives: the page's snippet is run as it is shown.
    from catalogctl.catalog.beacon_seeds import SEED_NAMES, derive_seeds
    from tests.helpers import REPO_ROOT

    page = (REPO_ROOT / "docs" / "explanation" / "beacon-seeds.md").read_text(encoding="utf-8")
    snippet = page.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, object] = {}
    exec(snippet, namespace)
    seed = namespace["seed"]
    assert callable(seed)
    randomness = hashlib.sha256(b"any round").hexdigest()
    for cohort, set_id in [("2026-09-C1", "B"), ("2027-01-C0", "F")]:
        taken: list[int] = []
        for name in SEED_NAMES:
            taken.append(seed(randomness, cohort, set_id, name, tuple(taken)))
        expected = derive_seeds(randomness, cohort, set_id)
        assert taken == [getattr(expected, name) for name in SEED_NAMES]
