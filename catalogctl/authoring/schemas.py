"""JSON Schemas of every document kind, generated from the pydantic models, for editors.

Catalog files name theirs on their first line (`# yaml-language-server: $schema=...`), which
the YAML language server (VS Code, Neovim, JetBrains) reads; for the loader it is a comment.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, TypeAdapter

from catalogctl.catalog.layout import schema_name


def _models() -> dict[str, Any]:
    from catalogctl.model import Dataset, MetricsRegistry, Model, Ruleset, Submission, Suite
    from catalogctl.model.accepted import AcceptedFindings
    from catalogctl.model.benchmark import Benchmark
    from catalogctl.model.diff import DiffReport
    from catalogctl.model.resolved import ResolvedConfig
    from catalogctl.model.results import RunResults

    return {
        "suite": Suite,
        "metrics": MetricsRegistry,
        "model": Model,
        "dataset": Dataset,
        "benchmark": TypeAdapter(Benchmark),
        "ruleset": Ruleset,
        "submission": Submission,
        "accepted": AcceptedFindings,
        # What the tool writes or reads beside the catalog: a run's results (`check`), the
        # resolved config (`resolve`, `preflight`) and the diff report (`diff --format json`).
        "results": RunResults,
        "resolved": ResolvedConfig,
        "diff": DiffReport,
    }


def schema_documents() -> dict[str, str]:
    """File name -> JSON text of every schema (stable: sorted keys, a final newline)."""
    out: dict[str, str] = {}
    for kind, model in _models().items():
        data = model.model_json_schema() if isinstance(model, type) and issubclass(model, BaseModel) else None
        if data is None:
            data = model.json_schema()
        data = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"catalogctl/{schema_name(kind)}",
            **data,
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
