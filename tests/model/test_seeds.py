"""The one model of the three seeds, and what builds on it: seed sets, seed files, resolved seeds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from catalogctl.errors import InputsUnusable
from catalogctl.model.documents.resolved import ResolvedSeeds
from catalogctl.model.documents.ruleset import SeedSet
from catalogctl.model.documents.seeds import SeedFile, SeedValues
from catalogctl.run.check import load_resolved
from tests.run_results import SET_A, pin_all, resolved_config

SEED_FIELDS = ["scheduler_rng_seed", "sample_index_rng_seed", "model_seed"]


def test_documents_list_the_id_first_then_the_seeds() -> None:
    # The order rulesets are written in and the resolved config's keys: unchanged by the shared base.
    # LoadGen's QSL seed, in a set imported from a LoadGen release, follows the three.
    provenance = ["derived_from", "imported_from", "imported_from_loadgen"]
    assert list(SeedSet.model_fields) == [
        "id",
        *SEED_FIELDS,
        "qsl_rng_seed",
        "introduced_in",
        "valid_through",
        *provenance,
    ]
    assert list(ResolvedSeeds.model_fields) == ["id", *SEED_FIELDS, "qsl_rng_seed"]


LOADGEN = {"package": "mlcommons-loadgen", "version": "6.0.17", "file": "mlperf_loadgen.so", "sha256": "f6" * 32}
WINDOW = {"introduced_in": "2026-09-C0", "valid_through": "2026-10-C1"}


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"qsl_rng_seed": 5}, "qsl_rng_seed and imported_from_loadgen come together"),
        ({"imported_from_loadgen": LOADGEN}, "qsl_rng_seed and imported_from_loadgen come together"),
        (
            {
                "qsl_rng_seed": 5,
                "imported_from_loadgen": LOADGEN,
                "imported_from": {"file": "s.yaml", "sha256": "a" * 64},
            },
            "a seed set has one origin, not imported_from and imported_from_loadgen",
        ),
        ({"qsl_rng_seed": 0, "imported_from_loadgen": LOADGEN}, "0 is no seed here"),
        ({"qsl_rng_seed": 5, "imported_from_loadgen": {**LOADGEN, "package": "mlperf-loadgen"}}, "mlcommons-loadgen"),
    ],
)
def test_a_set_holds_a_qsl_seed_only_as_imported_from_loadgen(extra: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        SeedSet.model_validate({"id": "A", **SET_A, **WINDOW, **extra})
    imported = SeedSet.model_validate(
        {"id": "A", **SET_A, **WINDOW, "qsl_rng_seed": 5, "imported_from_loadgen": LOADGEN}
    )
    assert imported.qsl_rng_seed == 5


def test_sets_compare_by_their_seed_values() -> None:
    seed_set = SeedSet.model_validate(
        {"id": "A", **SET_A, "introduced_in": "2026-09-C0", "valid_through": "2026-10-C1"}
    )
    seed_file = SeedFile.model_validate(SET_A)
    assert seed_set.seed_values() == seed_file.seed_values() == SeedValues(**SET_A)
    assert seed_set.seed_values() != SeedValues(**{**SET_A, "model_seed": 43})


@pytest.mark.parametrize("model", [SeedValues, SeedFile])
@pytest.mark.parametrize("bad", [-1, 0, 2**64, True])
def test_every_seed_is_an_unsigned_64_bit_int_other_than_0(model: type[SeedValues], bad: object) -> None:
    with pytest.raises(ValidationError):
        model.model_validate({**SET_A, "model_seed": bad})


def test_a_resolved_config_with_a_seed_out_of_range_is_refused(catalog_dir: Path, tmp_path: Path) -> None:
    pin_all(catalog_dir)
    data = resolved_config(catalog_dir, "gpt-oss-120b").to_data()
    data["seeds"]["model_seed"] = -1
    path = tmp_path / "resolved.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InputsUnusable) as info:
        load_resolved(path)
    assert [d.message for d in info.value.diagnostics] == [
        "seeds.model_seed: Input should be greater than or equal to 0"
    ]
