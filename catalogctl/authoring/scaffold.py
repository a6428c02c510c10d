"""`catalogctl new`: a new model, dataset or benchmark file that validates, with `<TBD>` where a
person must decide (pending values block freezing until they are decided)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalogctl.catalog.config import layout_for
from catalogctl.catalog.diagnostics import errors_only
from catalogctl.catalog.index import Catalog
from catalogctl.catalog.layout import modeline
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


@dataclass(frozen=True)
class References:
    """What a new benchmark refers to (`--model`, `--dataset`); empty: the catalog's first."""

    model: str | None = None
    datasets: tuple[str, ...] = ()

    def check(self, kind: str, copying: bool) -> None:
        """Refuse references where they mean nothing: for a model or dataset, datasets of a copy."""
        if kind != "benchmark" and (self.model is not None or self.datasets):
            raise UsageError(f"--model and --dataset fill a new benchmark's references, not a {kind}'s")
        if copying and self.datasets:
            raise UsageError(
                "--dataset fills a new benchmark's template; a copy keeps its source's datasets",
                "edit the copy's accuracy.datasets, or leave out --from",
            )


def _check_id(ident: str) -> None:
    from pydantic import TypeAdapter, ValidationError

    from catalogctl.model.common import Id

    try:
        TypeAdapter(Id).validate_python(ident)
    except ValidationError as exc:
        raise UsageError(exc.errors(include_url=False)[0]["msg"]) from None


def _known(catalog: Catalog, kind: str, ident: str, purpose: str) -> None:
    """Refuse an id the catalog has no valid entity of `kind` for, with a "did you mean"."""
    from catalogctl.catalog.diagnostics import did_you_mean

    if ident not in catalog.table(kind):
        hint = did_you_mean(ident, catalog.table(kind)) or f"list them with `catalogctl ls {kind}s`"
        raise EntityNotFound(f"no valid {kind} `{ident}` {purpose}", hint)


def _references(catalog: Catalog, refs: References) -> tuple[str, list[tuple[str, str]]]:
    """The new benchmark's model and its scored datasets, each with its first evaluation recipe:
    those asked for (each checked to exist and to be scored), else the catalog's first ones."""
    if refs.model is not None:
        _known(catalog, "model", refs.model, "for --model")
    for name in refs.datasets:
        _known(catalog, "dataset", name, "for --dataset")
    wanted = list(dict.fromkeys(refs.datasets)) or sorted(catalog.datasets)
    scored = [
        (d, recipe)
        for d in wanted
        if catalog.datasets[d].answers.kind != "none"
        for recipe in sorted(catalog.datasets[d].evaluation_recipes)[:1]
    ]
    unscored = [d for d in refs.datasets if d not in dict(scored)]
    if unscored:
        raise UsageError(
            f"dataset `{unscored[0]}` is not scored (no answers or no evaluation recipe): "
            "an accuracy dataset needs both",
            "name a dataset with a ground truth and an evaluation recipe",
        )
    if not catalog.models or not scored:
        raise UsageError(
            "a new benchmark needs a model and a scored dataset in the catalog",
            "add them first (catalogctl new model ID, catalogctl new dataset ID), or copy a benchmark with --from",
        )
    return refs.model or sorted(catalog.models)[0], scored if refs.datasets else scored[:1]


def _template(catalog: Catalog, kind: str, ident: str, refs: References) -> dict[str, Any]:
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
    model, scored = _references(catalog, refs)
    # One dataset is the benchmark's score; several are averaged until a person decides otherwise.
    method = "single_dataset" if len(scored) == 1 else "unweighted_mean"
    return {
        "kind": "inference",
        "id": ident,
        "family": "text",
        "title": ident,
        "summary": f"Benchmark {ident}: say what it measures and why.",
        "owners": ["task-force"],
        "model": model,
        "api_type": "openai",
        "execution": {"response_mode": "non_streaming"},
        "preprocessing": {"input_transform": "chat_template"},
        "accuracy": {
            "datasets": [{"dataset": d, "evaluation_recipe": recipe, "num_repeats": 1} for d, recipe in scored],
            "generation": {"temperature": 0.0},
            "dataset_aggregation": {"method": method},
            "requirements": {"min_accuracy_sample_count": TBD},
        },
        "postprocessing": {"gates": ["dataset_integrity", "model_integrity", "generation_integrity"]},
    }


def _copy(catalog: Catalog, kind: str, ident: str, source: str, refs: References) -> str:
    """The source file's text with the copy's id and its own pending values, its comments,
    layout and display copy (i18n) kept: a round trip through the YAML writer."""
    from catalogctl.io.yamlio import PathKey, parse_document, update_document

    _known(catalog, kind, source, "to copy")
    if refs.model is not None:
        _known(catalog, "model", refs.model, "for --model")
    document = catalog.locate(kind, source).document
    data = parse_document(document.path, document.text.encode("utf-8")).data
    updates: dict[PathKey, Any] = {("id",): ident}
    if kind == "model":
        updates[("sha",)] = TBD
    elif kind == "dataset":
        updates.update({("samples",): TBD, ("source", "url"): TBD, ("source", "sha256"): TBD})
    else:
        if "title" in data:
            updates[("title",)] = f"{data['title']} (copy of {source})"
        if refs.model is not None:
            updates[("model",)] = refs.model
    # A rename and the MLPerf tools' name stand for the source entity alone.
    return update_document(document.text, updates, remove=[("renamed_from",), ("mlperf_name",)])


def scaffold(path: Path, kind: str, ident: str, source: str | None, refs: References | None = None) -> Scaffolded:
    """Write `benchmark_suite/<kind>s/<ident>.yaml` (in the layout configured at `path`); refuse an
    existing file or an invalid id."""
    from catalogctl.io.files import write_atomic
    from catalogctl.io.yamlio import dump_yaml

    refs = refs or References()
    refs.check(kind, source is not None)
    _check_id(ident)
    layout = layout_for(path)
    root = find_root(path, layout)
    relative = layout.entity_path(kind, ident)
    target = root / relative
    if target.exists() or target.is_symlink():
        raise UsageError(f"{relative} exists: `new` never overwrites", f"edit it, or choose another id than `{ident}`")
    catalog = load_tree(WorkingTree(root), layout=layout).catalog
    if source:
        text = _copy(catalog, kind, ident, source, refs)
    else:
        text = modeline(kind, relative) + dump_yaml(_template(catalog, kind, ident, refs))
    write_atomic(target, text.encode("utf-8"))
    result = load_tree(WorkingTree(root), layout=layout)
    mine = [d for d in result.diagnostics if d.path == relative]
    errors = errors_only(mine)
    if errors:
        target.unlink()
        raise CatalogInvalid(f"the scaffold of {relative} does not validate (a bug): nothing was written", errors)
    return Scaffolded(relative, [f"{file_line_col(relative, d.line, d.column)}: {d.message}" for d in mine])
