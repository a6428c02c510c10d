"""`catalogctl gates`: the gate registry as a table and as JSON."""

from __future__ import annotations

import json

from catalogctl.run.gates import GATES
from tests.helpers import run_cli


def test_gates_table_lists_every_gate_of_the_registry() -> None:
    done = run_cli("gates")
    lines = done.stdout.splitlines()
    assert lines[:3] == [
        "GATE                  SEVERITY  KINDS                DESCRIPTION",
        "dataset_integrity     hard      inference, training  "
        "The sha256 of every dataset loaded equals the contract's.",
        "model_integrity       soft      inference, training  The checkpoint is the contract's reference commit.",
    ]
    assert [line.split()[0] for line in lines[1:]] == list(GATES)


def test_gates_json_has_sorted_kinds() -> None:
    data = json.loads(run_cli("gates", "--format", "json").stdout)
    quality = next(g for g in data["gates"] if g["name"] == "quality_target")
    assert quality == {
        "name": "quality_target",
        "severity": "hard",
        "kinds": ["training"],
        "description": "The validation metric reached the quality target.",
    }
