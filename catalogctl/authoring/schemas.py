"""JSON Schemas of every document kind and of every verb's JSON output, generated from the
pydantic models: for editors, and for whoever reads `--format json`.

Catalog files name theirs on their first line (`# yaml-language-server: $schema=...`), which
the YAML language server (VS Code, Neovim, JetBrains) reads; for the loader it is a comment.
An output's schema is named after its `schema` field (`catalogctl/check/v1` is
`check.schema.json`) and describes what the tool writes (pydantic's serialization mode).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, TypeAdapter

from catalogctl.catalog.layout import schema_name

Mode = Literal["validation", "serialization"]


def _documents() -> dict[str, Any]:
    """What the tool reads: the catalog's files, and what a runner hands back."""
    from catalogctl.model import Dataset, MetricsRegistry, Model, Ruleset, Submission, Suite
    from catalogctl.model.documents.accepted import AcceptedFindings
    from catalogctl.model.documents.benchmark import Benchmark
    from catalogctl.model.documents.resolved import ResolvedConfig
    from catalogctl.model.documents.results import RunResults
    from catalogctl.model.documents.site_manifest import SiteManifest

    return {
        "suite": Suite,
        "metrics": MetricsRegistry,
        "model": Model,
        "dataset": Dataset,
        "benchmark": TypeAdapter(Benchmark),
        "ruleset": Ruleset,
        "submission": Submission,
        "accepted": AcceptedFindings,
        # A run's results (`check` reads them) and the resolved config (`resolve` and
        # `preflight` write it, `check` reads it back).
        "results": RunResults,
        "resolved": ResolvedConfig,
        # What `site` writes into its output folder and reads back to know a build of its own.
        "site-manifest": SiteManifest,
    }


def _outputs() -> dict[str, Any]:
    """What the verbs write with `--format json`, by the name in their `schema` field."""
    from catalogctl.model.reports.check import CheckReport
    from catalogctl.model.reports.compare import CompareReport
    from catalogctl.model.reports.dataset_verification import DatasetsReport
    from catalogctl.model.reports.diff import DiffReport
    from catalogctl.model.reports.export import MlperfExport
    from catalogctl.model.reports.gates import GateListing
    from catalogctl.model.reports.listing import Listing, ShowResult
    from catalogctl.model.reports.release import Releases, Verification
    from catalogctl.model.reports.review import ReviewResult
    from catalogctl.model.reports.runner import RunnerConfigReport
    from catalogctl.model.reports.validation import ValidationReport

    return {
        "diagnostics": ValidationReport,  # validate
        "ls": TypeAdapter(Listing),  # ls, metrics
        "show": ShowResult,
        "diff": DiffReport,
        "cohorts": Releases,
        "verify": Verification,
        "check": CheckReport,
        "compare": CompareReport,
        "runner-config": RunnerConfigReport,
        "gates": GateListing,
        "datasets-verify": DatasetsReport,
        "ci": ReviewResult,
        "export": MlperfExport,
    }


def document_kinds() -> list[str]:
    """The kinds of document the tool reads (`suite`, ..., `site-manifest`), each with its schema."""
    return list(_documents())


def output_kinds() -> list[str]:
    """The kinds of `--format json` output (`diagnostics`, ..., `export`), each with its schema."""
    return list(_outputs())


def _schema(model: Any, mode: Mode) -> dict[str, Any]:
    if isinstance(model, type) and issubclass(model, BaseModel):
        return model.model_json_schema(mode=mode)
    assert isinstance(model, TypeAdapter)
    return model.json_schema(mode=mode)


def schema_documents() -> dict[str, str]:
    """File name -> JSON text of every schema (stable: sorted keys, a final newline)."""
    kinds: list[tuple[str, Any, Mode]] = [(k, m, "validation") for k, m in _documents().items()]
    kinds += [(k, m, "serialization") for k, m in _outputs().items()]
    out: dict[str, str] = {}
    for kind, model, mode in kinds:
        data = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"catalogctl/{schema_name(kind)}",
            **_schema(model, mode),
        }
        out[schema_name(kind)] = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    return out


def write_schemas(folder: Path) -> list[Path]:
    """Write every schema into `folder` (atomically, file by file)."""
    from catalogctl.io.files import write_atomic

    written = []
    for name, text in schema_documents().items():
        write_atomic(folder / name, text.encode("utf-8"))
        written.append(folder / name)
    return written
