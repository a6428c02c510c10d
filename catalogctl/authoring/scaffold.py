"""`catalogctl new`: a new model, dataset or benchmark file that validates, with `<TBD>` where a
person must decide (pending values block freezing until they are decided)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalogctl.catalog.diagnostics import errors_only
from catalogctl.catalog.index import Catalog
from catalogctl.catalog.layout import entity_path, modeline
from catalogctl.catalog.loader import load_tree
from catalogctl.catalog.source import find_root
from catalogctl.errors import CatalogInvalid, EntityNotFound, UsageError, file_line_col
from catalogctl.io.tree import WorkingTree

TBD = "<TBD>"


@dataclass
class Scaffolded:
    """The file written and the values left to decide."""

    path: str
    pending: list[str]


def _check_id(ident: str) -> None:
    from pydantic import TypeAdapter, ValidationError

    from catalogctl.model.common import Id

    try:
        TypeAdapter(Id).validate_python(ident)
    except ValidationError as exc:
        raise UsageError(exc.errors(include_url=False)[0]["msg"]) from None


def _template(catalog: Catalog, kind: str, ident: str) -> dict[str, Any]:
    if kind == "model":
        return {"id": ident, "reference_id": TBD, "sha": TBD}
    if kind == "dataset":
        return {
            "id": ident,
            "description": f"Dataset {ident}: say what it holds and where it comes from.",
            "samples": TBD,
            "source": {"url": TBD, "sha256": TBD},
            "prompts": {"column": TBD},
            "answers": {"kind": "reference", "column": TBD},
            "evaluation_recipes": {"exact_match": {"scorer": "exact_match", "ground_truth": TBD}},
        }
    scored = [
        (d, recipe)
        for d, dataset in sorted(catalog.datasets.items())
        if dataset.answers.kind != "none"
        for recipe in sorted(dataset.evaluation_recipes)[:1]
    ]
    if not catalog.models or not scored:
        raise UsageError(
            "a new benchmark needs a model and a scored dataset in the catalog",
            "add them first (catalogctl new model ID, catalogctl new dataset ID), or copy a benchmark with --from",
        )
    dataset, recipe = scored[0]
    return {
        "kind": "inference",
        "id": ident,
        "family": "text",
        "title": ident,
        "summary": f"Benchmark {ident}: say what it measures and why.",
        "owners": ["task-force"],
        "model": sorted(catalog.models)[0],
        "api_type": "openai",
        "execution": {"response_mode": "non_streaming"},
        "preprocessing": {"input_transform": "chat_template"},
        "accuracy": {
            "datasets": [{"dataset": dataset, "evaluation_recipe": recipe, "num_repeats": 1}],
            "generation": {"temperature": 0.0},
            "dataset_aggregation": {"method": "single_dataset"},
            "requirements": {"min_accuracy_sample_count": TBD},
        },
        "postprocessing": {"gates": ["dataset_integrity", "model_integrity", "generation_integrity"]},
    }


def _copy(catalog: Catalog, kind: str, ident: str, source: str) -> dict[str, Any]:
    from catalogctl.catalog.diagnostics import did_you_mean
    from catalogctl.io.yamlio import parse_document

    if source not in catalog.table(kind):
        hint = did_you_mean(source, catalog.table(kind))
        raise EntityNotFound(f"no valid {kind} `{source}` to copy", hint)
    document = catalog.locate(kind, source).document
    data: dict[str, Any] = dict(parse_document(document.path, document.text.encode("utf-8")).data)
    data["id"] = ident
    # The MLPerf tools' name stands for the source entity alone: the copy goes by its id there.
    for key in ("renamed_from", "i18n", "mlperf_name"):
        data.pop(key, None)
    if kind == "model":
        data["sha"] = TBD
    elif kind == "dataset":
        data["samples"] = TBD
        data["source"] = {**data["source"], "url": TBD, "sha256": TBD}
    elif "title" in data:
        data["title"] = f"{data['title']} (copy of {source})"
    return data


def scaffold(path: Path, kind: str, ident: str, source: str | None) -> Scaffolded:
    """Write `benchmark_suite/<kind>s/<ident>.yaml`; refuse an existing file or an invalid id."""
    from catalogctl.io.files import write_atomic
    from catalogctl.io.yamlio import dump_yaml

    _check_id(ident)
    root = find_root(path)
    relative = entity_path(kind, ident)
    target = root / relative
    if target.exists() or target.is_symlink():
        raise UsageError(f"{relative} exists: `new` never overwrites", f"edit it, or choose another id than `{ident}`")
    catalog = load_tree(WorkingTree(root)).catalog
    data = _copy(catalog, kind, ident, source) if source else _template(catalog, kind, ident)
    write_atomic(target, (modeline(kind, relative) + dump_yaml(data)).encode("utf-8"))
    result = load_tree(WorkingTree(root))
    mine = [d for d in result.diagnostics if d.path == relative]
    errors = errors_only(mine)
    if errors:
        target.unlink()
        raise CatalogInvalid(f"the scaffold of {relative} does not validate (a bug): nothing was written", errors)
    return Scaffolded(relative, [f"{file_line_col(relative, d.line, d.column)}: {d.message}" for d in mine])
