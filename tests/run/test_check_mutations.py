"""Every mutation of a valid resolved config: each key deleted, its value given another type, or
another value of its type. `check` refuses the mutated config as not usable, or (only where the
mutation touches neither the contract, the seeds nor the provenance) gives the same verdict. No
mutation turns an INVALID run VALID. On the code before this, 6,149 mutated configs a fuzzer made
were accepted."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from catalogctl.errors import InputsUnusable
from catalogctl.run.check import check_files
from tests.helpers import run_cli
from tests.run_results import gpt_oss_results, pin_all, resealed, resolved_config

Path_ = tuple[str | int, ...]
GUARDED = ("contract", "seeds", "provenance")


def paths(data: Any, prefix: Path_ = ()) -> Iterator[Path_]:
    """Every key and list item, containers included."""
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        yield (*prefix, key)
        yield from paths(value, (*prefix, key))


def other_type(value: Any) -> Any:
    if isinstance(value, bool) or value is None:
        return "x"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return {"0": value}
    return [value]


def other_value(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value * 2 + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, list):
        return [*value, value[0]] if value else ["x"]
    if isinstance(value, dict):
        return {**value, "extra": 1}
    return 0


def mutations(data: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for path in paths(data):
        for kind in ("delete", "type", "value"):
            mutated = copy.deepcopy(data)
            parent: Any = mutated
            for key in path[:-1]:
                parent = parent[key]
            last = path[-1]
            if kind == "delete":
                if isinstance(parent, list):
                    del parent[last]  # type: ignore[arg-type]
                else:
                    del parent[last]
            else:
                value = parent[last]
                parent[last] = other_type(value) if kind == "type" else other_value(value)
            if mutated != data:
                yield f"{kind} {'.'.join(map(str, path))}", mutated


def verdict(path: Path, data: dict[str, Any], results: Path) -> bool | None:
    """VALID (True), INVALID (False), or refused as not usable (None), as `catalogctl check`."""
    path.write_text(json.dumps(data))
    try:
        return check_files(path, results).passed
    except InputsUnusable:
        return None


@pytest.mark.fuzz
@pytest.mark.parametrize("valid", [True, False], ids=["valid-run", "invalid-run"])
def test_no_mutation_of_a_resolved_config_changes_a_verdict(catalog_dir: Path, tmp_path: Path, valid: bool) -> None:
    pin_all(catalog_dir)
    data = resolved_config(catalog_dir, "gpt-oss-120b").to_data()
    accuracy = None if valid else [{"dataset": "aime25", "scale": "fraction", "repeat_scores": [0.1] * 8}]
    results = tmp_path / "results.json"
    run = gpt_oss_results() if valid else gpt_oss_results(accuracy=accuracy)
    results.write_text(run.model_dump_json(by_alias=True))
    target = tmp_path / "resolved.json"
    assert verdict(target, data, results) is valid
    tried, accepted = 0, []
    for name, mutated in mutations(data):
        tried += 1
        outcome = verdict(target, mutated, results)
        if outcome is None:
            continue
        guarded = name.split(" ", 1)[1].startswith(GUARDED)
        if guarded or outcome is not valid:
            accepted.append(f"{name}: {'VALID' if outcome else 'INVALID'}")
    assert tried > 600  # every key of the contract, the seeds, the provenance and the rest
    assert accepted == []


def _edited(data: dict[str, Any], edit: str) -> dict[str, Any]:
    """A resolved config's data after `edit`, re-sealed (what a forger or a newer tool writes)."""
    data = copy.deepcopy(data)
    contract = data["contract"]
    if edit == "k-0":
        contract["accuracy"]["datasets"][0]["repeat_aggregation"]["k"] = 0
    elif edit == "no-tiers":
        contract["performance"]["requirements"]["min_duration_ms"] = {"by_concurrency": []}
    elif edit == "tiers-descend":
        contract["performance"]["requirements"]["min_duration_ms"] = {
            "by_concurrency": [{"up_to": 64, "value": 1}, {"up_to": 32, "value": 2}, {"value": 3}]
        }
    elif edit == "num-repeats-0":
        contract["accuracy"]["datasets"][0]["num_repeats"] = 0
    elif edit == "generation-unknown-key":  # found by bench/fuzz_check.py --seed 7: a crash (exit 70)
        contract["accuracy"]["datasets"][0]["generation"]["b"] = {"c": None}
    return resealed(data)


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        ("k-0", "contract.accuracy.datasets.0.repeat_aggregation.k: Input should be greater than or equal to 1"),
        ("num-repeats-0", "contract.accuracy.datasets.0.num_repeats: Input should be greater than or equal to 1"),
        ("generation-unknown-key", "contract.accuracy.datasets.0.generation.b: Extra inputs are not permitted"),
        (
            "no-tiers",
            "contract.performance.requirements.min_duration_ms.ContractByConcurrency.by_concurrency: "
            "List should have at least 1 item after validation, not 0",
        ),
        (
            "tiers-descend",
            "contract.performance.requirements.min_duration_ms.ContractByConcurrency.by_concurrency: "
            "Value error, up_to must ascend, tier by tier (got 64, 32)",
        ),
    ],
)
def test_a_sealed_contract_no_catalog_could_hold_is_refused(
    catalog_dir: Path, tmp_path: Path, edit: str, said: str
) -> None:
    pin_all(catalog_dir)
    data = _edited(resolved_config(catalog_dir, "gpt-oss-120b").to_data(), edit)
    resolved = tmp_path / "resolved.json"
    resolved.write_text(json.dumps(data))
    results = tmp_path / "results.json"
    results.write_text(gpt_oss_results().model_dump_json(by_alias=True))
    stderr = run_cli("check", resolved, results, code=2).stderr
    assert stderr.startswith(f"error: {resolved}: its contract is not a resolved contract\n"), stderr
    assert f"  {resolved}: error schema-invalid-value: {said}\n" in stderr
