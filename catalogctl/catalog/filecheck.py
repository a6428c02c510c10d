"""One catalog file checked on its own: parsed, validated against the model of its kind (a
benchmark's by its `kind` key), its name against its id; or its outcome rebuilt from a cache
entry without parsing. What the loader asks of every file it reads."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from catalogctl.catalog.documentcache import Examined
from catalogctl.catalog.validation import validate_document
from catalogctl.errors import Diagnostic, error
from catalogctl.io.yamlio import Document, YamlProblem, known_document, parse_document
from catalogctl.model import (
    Dataset,
    InferenceBenchmark,
    MetricsRegistry,
    Model,
    Ruleset,
    Suite,
    TrainingBenchmark,
)

BENCHMARK_KINDS: dict[str, type[BaseModel]] = {"inference": InferenceBenchmark, "training": TrainingBenchmark}


_SINGLE_KINDS = ("suite", "metrics")


_MODELS: dict[str, type[BaseModel]] = {
    "suite": Suite,
    "metrics": MetricsRegistry,
    "model": Model,
    "dataset": Dataset,
    "ruleset": Ruleset,
}


def _model_of(kind: str, data: Any) -> type[BaseModel] | None:
    """The model a file of this kind is checked against (a benchmark's by its `kind` key)."""
    if kind != "benchmark":
        return _MODELS[kind]
    found = data.get("kind") if isinstance(data, dict) else None
    return BENCHMARK_KINDS.get(found) if isinstance(found, str) else None


def _kind_problem(doc: Document) -> Diagnostic:
    """A benchmark whose `kind` is missing or not one of the benchmark kinds."""
    data = doc.data
    found = data.get("kind") if isinstance(data, dict) else None
    pos, _ = doc.positions.nearest(("kind",))
    if found is None:
        message, line, column = "missing key `kind` in the document", pos.key_line, pos.key_column
    else:
        message, line, column = f"kind: should be 'inference' or 'training' (got {found!r})", pos.line, pos.column
    return error(
        "schema-missing-key" if found is None else "schema-invalid-value",
        message,
        doc.path,
        line,
        column,
        "kind: inference (performance/accuracy phases) or kind: training (time to a quality target)",
    )


def check_file(kind: str, path: str, data: bytes) -> Examined:
    """Parse and validate one file on its own: YAML, its model, its name against its id."""
    try:
        doc = parse_document(path, data)
    except YamlProblem as problem:
        return Examined([problem.diagnostic(path)])
    model = _model_of(kind, doc.data)
    if model is None:
        return Examined([_kind_problem(doc)])
    value, problems = validate_document(doc, model)
    if value is None:
        return Examined(problems)
    if kind in _SINGLE_KINDS:
        return Examined(problems, doc, value)
    stem = path.rsplit("/", 1)[-1][: -len(".yaml")]
    ident = value.cohort if isinstance(value, Ruleset) else value.id  # type: ignore[attr-defined]
    if stem != ident:
        pos, _ = doc.positions.nearest(("cohort",) if kind == "ruleset" else ("id",))
        mismatch = error(
            "ruleset-name-mismatch" if kind == "ruleset" else "file-name-mismatch",
            f"file is named `{stem}.yaml` but its {'cohort' if kind == 'ruleset' else 'id'} is `{ident}`",
            path,
            pos.line,
            pos.column,
            f"rename the file to `{ident}.yaml`",
        )
        return Examined([*problems, mismatch])
    return Examined(problems, doc, value)


def rebuild_file(kind: str, path: str, data: bytes, diagnostics: list[Diagnostic], plain: Any) -> Examined | None:
    """A file's outcome from a cache entry: its plain data validated again, without parsing;
    None when the entry does not fit the file (it is then checked from scratch)."""
    if plain is None:
        return Examined(diagnostics)
    model = _model_of(kind, plain)
    if model is None:
        return None
    try:
        doc = known_document(path, data, plain)
        value = model.model_validate(plain)
    except (YamlProblem, ValidationError):
        return None
    return Examined(diagnostics, doc, value)
