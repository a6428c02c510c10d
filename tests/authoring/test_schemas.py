"""JSON Schemas for editors: generated from the models, committed, named on each file's first line."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from catalogctl.authoring.schemas import schema_documents
from catalogctl.catalog.layout import DEFAULT, MODELINE
from catalogctl.model import Ruleset
from catalogctl.release.ruleset import render_ruleset
from tests.helpers import REPO_ROOT, run_cli

KINDS = {"models": "model", "datasets": "dataset", "benchmarks": "benchmark"}


def test_the_committed_schemas_are_current() -> None:
    committed = {p.name: p.read_text(encoding="utf-8") for p in (REPO_ROOT / "schemas").glob("*.json")}
    assert committed == schema_documents(), "run `catalogctl schema -o schemas` and commit the result"


def test_every_document_kind_and_every_json_output_has_a_schema() -> None:
    documents = ["accepted", "benchmark", "dataset", "metrics", "model", "resolved", "results", "ruleset"]
    documents += ["site-manifest", "submission", "suite"]
    outputs = [
        "check",
        "ci",
        "cohorts",
        "compare",
        "datasets-verify",
        "diagnostics",
        "diff",
        "export",
        "gates",
        "ls",
        "runner-config",
        "show",
        "verify",
    ]
    assert sorted(schema_documents()) == sorted(f"{k}.schema.json" for k in documents + outputs)
    for kind in outputs:  # an output's file is named after the version its `schema` field carries
        schema = json.loads(schema_documents()[f"{kind}.schema.json"])
        variants = schema.get("anyOf") or [schema]
        for variant in variants:
            found = schema["$defs"][variant["$ref"].rsplit("/", 1)[1]] if "$ref" in variant else variant
            assert found["properties"]["schema"]["const"] == f"catalogctl/{kind}/v1"
            assert "schema" in found["required"]
    results = json.loads(schema_documents()["results.schema.json"])
    assert results["properties"]["schema"]["const"] == "catalogctl/results/v1"
    assert "task_attempts" in results["$defs"]["AccuracyResult"]["properties"]
    benchmark = json.loads(schema_documents()["benchmark.schema.json"])
    assert sorted(benchmark["discriminator"]["mapping"]) == ["inference", "training"]


def test_every_catalog_file_names_its_schema_on_its_first_line() -> None:
    for path in sorted((REPO_ROOT / "benchmark_suite").rglob("*.yaml")):
        relative = path.relative_to(REPO_ROOT).as_posix()
        kind = {"suite.yaml": "suite", "metrics.yaml": "metrics"}.get(path.name) or KINDS[path.parent.name]
        target = path.parent / path.read_text(encoding="utf-8").splitlines()[0].removeprefix(MODELINE)
        assert target.resolve() == (REPO_ROOT / "schemas" / f"{kind}.schema.json"), relative


def test_freeze_writes_the_schema_line_first(tmp_path: Path) -> None:
    ruleset = Ruleset.model_validate(
        {
            "cohort": "2026-09-C0",
            "submission_date": dt.date(2026, 9, 2),
            "previous": None,
            "frozen_at": dt.datetime(2026, 8, 28, tzinfo=dt.UTC),
            "catalog_tree": "ab" * 20,
            "benchmarks": [],
            "seed_sets": [
                {
                    "id": "A",
                    "scheduler_rng_seed": 1,
                    "sample_index_rng_seed": 2,
                    "model_seed": 3,
                    "introduced_in": "2026-09-C0",
                    "valid_through": "2026-10-C1",
                }
            ],
        }
    )
    assert (
        render_ruleset(ruleset, DEFAULT.ruleset_path(ruleset.cohort)).splitlines()[0]
        == MODELINE + "../schemas/ruleset.schema.json"
    )


def test_schema_command_writes_every_schema(tmp_path: Path) -> None:
    run_cli("schema", "-o", str(tmp_path / "out"))
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(schema_documents())


def test_the_kinds_are_named_for_the_documentation() -> None:
    from catalogctl.authoring.schemas import document_kinds, output_kinds

    documents, outputs = document_kinds(), output_kinds()
    assert documents[:3] == ["suite", "metrics", "model"]  # the catalog's own, in the layout's order
    assert "check" in outputs
    assert "check" not in documents
    assert sorted(schema_documents()) == sorted(f"{kind}.schema.json" for kind in documents + outputs)
