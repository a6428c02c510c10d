"""The typed view of a resolved contract says what `resolve_contract` writes: every key it
declares required is there, and every Literal holds, for each shipped benchmark."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, NotRequired, get_args, get_origin, get_type_hints

import pytest
from typing_extensions import is_typeddict

from catalogctl.catalog.contract import resolve_contract
from catalogctl.model.documents.resolved import ResolvedContract, contract_terms
from tests.catalog_edit import load
from tests.helpers import SHIPPED_CATALOG


def mismatches(value: Any, hint: Any, where: str) -> list[str]:
    """Where `value` does not have the shape `hint` declares (keys and Literals; other scalars
    are left to mypy's view of the code that reads them)."""
    if is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{where}: not a mapping"]
        found: list[str] = []
        for key, declared in get_type_hints(hint, include_extras=True).items():
            optional = get_origin(declared) is NotRequired or not hint.__total__
            inner = get_args(declared)[0] if get_origin(declared) is NotRequired else declared
            if key in value:
                found += mismatches(value[key], inner, f"{where}.{key}")
            elif not optional:
                found.append(f"{where}.{key}: missing")
        return found
    if get_origin(hint) is list:
        return [m for i, item in enumerate(value) for m in mismatches(item, get_args(hint)[0], f"{where}[{i}]")]
    if get_origin(hint) is dict:
        return [m for k, item in value.items() for m in mismatches(item, get_args(hint)[1], f"{where}.{k}")]
    if get_origin(hint) is Literal and value not in get_args(hint):
        return [f"{where}: {value!r} is not one of {get_args(hint)}"]
    return []


@pytest.mark.parametrize("bench", sorted(p.stem for p in (SHIPPED_CATALOG / "benchmarks").glob("*.yaml")))
def test_every_shipped_contract_has_the_typed_shape(catalog_dir: Path, bench: str) -> None:
    contract = resolve_contract(load(catalog_dir).catalog, bench)
    assert mismatches(contract, ResolvedContract, bench) == []
    assert contract_terms(contract) is contract  # a view: nothing copied


def test_a_mistyped_or_missing_key_is_found() -> None:
    # The check above can fail: a contract without its model, with an unknown aggregation.
    contract = {"kind": "inference", "id": "b", "postprocessing": {"gates": []}, "metrics": {}}
    contract["accuracy"] = {"dataset_aggregation": {"method": "micro_averge"}}
    assert mismatches(contract, ResolvedContract, "b") == [
        "b.model: missing",
        "b.accuracy.datasets: missing",
        "b.accuracy.generation: missing",
        "b.accuracy.dataset_aggregation.method: 'micro_averge' is not one of "
        "('single_dataset', 'micro_average', 'unweighted_mean', 'per_dataset')",
        "b.accuracy.requirements: missing",
    ]
