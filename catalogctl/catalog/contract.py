"""A benchmark's resolved contract (model, datasets, recipes and metrics inlined, overrides
merged) and its digest.

The digest is the sha256 of the canonical JSON of the contract without display copy: comments,
key order, number formatting (`0` vs `0.0`) and titles do not change it; anything that changes
what runs or how it is scored does.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from catalogctl.catalog.index import Catalog
from catalogctl.errors import CatalogError, EntityNotFound
from catalogctl.io.urls import redact_url
from catalogctl.model import InferenceBenchmark, Pending, is_display
from catalogctl.model.documents.benchmark import REQUIREMENT_METRICS, AccuracyDataset, Generation
from catalogctl.model.documents.resolved import contract_datasets


def plain(value: Any, *, display: bool = True) -> Any:
    """A model as plain JSON-able data; unset optional fields are left out, display fields too
    unless `display`."""
    if type(value) in _LEAVES:  # most values: returned as they are, without the checks below
        return value
    if isinstance(value, BaseModel):
        out: dict[str, Any] = {}
        for name, shown in _fields(type(value)):
            if shown and not display:
                continue
            item = getattr(value, name)
            if item is None or (isinstance(item, (dict, list)) and not item):  # unset, or `{}` / `[]`
                continue
            out[name] = item if type(item) in _LEAVES else plain(item, display=display)
        return out
    if isinstance(value, dict):
        return {k: v if type(v) in _LEAVES else plain(v, display=display) for k, v in value.items()}
    if isinstance(value, list):
        return [v if type(v) in _LEAVES else plain(v, display=display) for v in value]
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, str):
        return str(value)  # a Pending stays visible as its `<...>` text
    return value


# Values `plain` returns unchanged (a str subclass, such as Pending, is not one: it becomes a str).
_LEAVES = frozenset({str, int, float, bool, type(None)})


@functools.cache
def _fields(model: type[BaseModel]) -> tuple[tuple[str, bool], ...]:
    """A model's fields in order, each with whether it is display copy: read once per class (a
    large catalog's contracts walk hundreds of thousands of fields)."""
    return tuple((name, is_display(info)) for name, info in model.model_fields.items())


# List items with an identity are matched by it, never by position.
# A drafter is identified by its weights' checksum (or, with no weights, by the target's and its
# configuration: such entries fall back to sorting).
IDENTITY_KEYS = ("id", "key", "dataset", "gbs", "weight_checksum")
# Lists whose order is their meaning (a runner's `extra_args`, a command line's words): kept as they are.
ORDERED_KEYS = frozenset({"extra_args"})


def canonical_form(value: Any, shared: Shared | None = None) -> Any:
    """Plain data where order carries no meaning: lists of items with an identity become maps
    keyed by it, other lists are sorted. Digests and diffs both use it, so a reordering changes
    neither. With the `shared` memo of the contracts `value` was resolved with, the form of the
    models, datasets and metrics they share is made once."""
    if shared is not None and isinstance(value, dict):
        hit = shared.get((id(value), "canonical", False))
        if hit is not None and hit[0] is value:
            if hit[1] is None:
                hit = shared[(id(value), "canonical", False)] = (value, canonical_form(value))
            return hit[1]
    if isinstance(value, dict):
        # A value that is neither a dict nor a list is its own form: no call made for it. A
        # harness's arguments keep their order: `-T fewshot=5` is not `fewshot=5 -T`.
        return {
            k: v if k in ORDERED_KEYS else canonical_form(v, shared) if isinstance(v, (dict, list)) else v
            for k, v in value.items()
        }
    if isinstance(value, list):
        if value and all(isinstance(v, dict) for v in value):
            for key in IDENTITY_KEYS:
                ids = [_identity(v.get(key)) for v in value]
                if all(key in v for v in value) and len(set(ids)) == len(ids):
                    return {i: canonical_form(v, shared) for i, v in zip(ids, value, strict=True)}
        return sorted((canonical_form(v, shared) for v in value), key=canonical_json)  # never repr: key order
    return value


def _identity(value: Any) -> str:
    """An item's identity as text: an inlined entity (a dataset in an accuracy entry) by its id,
    never by its repr, which would depend on key order."""
    if isinstance(value, dict) and "id" in value:
        return str(value["id"])
    return str(value)


def merge_generation(base: Generation, override: Generation | None) -> Generation:
    """An override merged over its base, key by key (one level: generation blocks are flat)."""
    if override is None:
        return base
    return base.model_copy(update={k: getattr(override, k) for k in override.model_fields_set})


def metric_keys(bench: Any) -> list[str]:
    keys: list[str] = []
    if isinstance(bench, InferenceBenchmark):
        if bench.performance is not None:
            keys.extend(REQUIREMENT_METRICS[f] for f in sorted(bench.performance.requirements.model_fields_set))
        if bench.accuracy is not None:
            keys.extend(bench.accuracy.thresholds)
            keys.extend(bench.accuracy.reported_metrics)
            keys.append(REQUIREMENT_METRICS["min_accuracy_sample_count"])
    else:
        keys.append(bench.quality_target.metric)
    return list(dict.fromkeys(keys))


def _lookup(table: dict[str, Any], kind: str, ident: str, bench_id: str) -> Any:
    try:
        return table[ident]
    except KeyError:
        raise CatalogError(
            f"benchmark `{bench_id}` uses {kind} `{ident}`, which is not in the catalog (or is invalid)",
            "run `catalogctl validate` to see why",
        ) from None


def _inline_dataset(dataset: Any, display: bool) -> dict[str, Any]:
    """A dataset as a contract inlines it: without its recipes (the one used is inlined beside
    it), so a change to a recipe the benchmark does not use leaves its digest alone."""
    data: dict[str, Any] = plain(dataset, display=display)
    data.pop("evaluation_recipes", None)
    return data


# (id, form, display) -> (entity, its plain data); (id, "canonical", False) -> (plain data, its
# canonical form, None until asked for)
Shared = dict[tuple[int, str, bool], tuple[Any, Any]]


def _once(shared: Shared | None, entity: Any, form: str, display: bool) -> Any:
    """`entity` as plain data (`form`: "plain" or "dataset", as a contract inlines it), made once
    per `shared` memo when one is given: models, datasets and metrics are inlined by many
    benchmarks."""
    if shared is None:
        return _inline_dataset(entity, display) if form == "dataset" else plain(entity, display=display)
    key = (id(entity), form, display)
    hit = shared.get(key)
    if hit is None or hit[0] is not entity:  # the entity is kept, so its id is never reused
        hit = shared[key] = (entity, _once(None, entity, form, display))
        shared[(id(hit[1]), "canonical", False)] = (hit[1], None)  # its canonical form, once asked for
    return hit[1]


def _accuracy_entry(
    catalog: Catalog, bench_id: str, base: Generation, entry: AccuracyDataset, display: bool, shared: Shared | None
) -> dict[str, Any]:
    dataset = _lookup(catalog.datasets, "dataset", entry.dataset, bench_id)
    recipe = dataset.evaluation_recipes.get(entry.evaluation_recipe)
    if recipe is None:
        raise CatalogError(f"dataset `{entry.dataset}` has no evaluation recipe `{entry.evaluation_recipe}`")
    aggregation = entry.repeat_aggregation
    return {
        "dataset": _once(shared, dataset, "dataset", display),
        "evaluation_recipe": {"name": entry.evaluation_recipe, **_once(shared, recipe, "plain", display)},
        "num_repeats": entry.num_repeats,
        "generation": plain(merge_generation(base, entry.generation)),
        "repeat_aggregation": plain(aggregation) if aggregation else {"method": "mean_of_k", "k": entry.num_repeats},
    }


def resolve_contract(
    catalog: Catalog, bench_id: str, *, display: bool = True, shared: Shared | None = None
) -> dict[str, Any]:
    """The full contract of a benchmark, with nothing left to look up or merge. With a `shared`
    memo (one per catalog), the inlined models, datasets, recipes and metrics are built once and
    shared between the contracts resolved with it: such contracts are read, never changed."""
    if bench_id not in catalog.benchmarks:
        raise EntityNotFound(f"no benchmark `{bench_id}` in the {catalog.label}")
    bench = catalog.benchmarks[bench_id]
    out: dict[str, Any] = plain(bench, display=display)
    out["model"] = _once(shared, _lookup(catalog.models, "model", bench.model, bench_id), "plain", display)
    if isinstance(bench, InferenceBenchmark):
        if bench.performance is not None:
            out["performance"]["datasets"] = [
                _once(shared, _lookup(catalog.datasets, "dataset", d, bench_id), "dataset", display)
                for d in bench.performance.datasets
            ]
        if bench.accuracy is not None:
            acc = bench.accuracy
            out["accuracy"]["datasets"] = [
                _accuracy_entry(catalog, bench_id, acc.generation, e, display, shared) for e in acc.datasets
            ]
    else:
        dataset = _lookup(catalog.datasets, "dataset", bench.dataset, bench_id)
        out["dataset"] = _once(shared, dataset, "dataset", display)
    out["metrics"] = {
        key: _once(shared, _lookup(catalog.metrics, "metric", key, bench_id), "plain", display)
        for key in metric_keys(bench)
    }
    return out


def contract_digest(catalog: Catalog, bench_id: str) -> str:
    """The digest a ruleset freezes: `digest_of` the contract without display copy."""
    return digest_of(resolve_contract(catalog, bench_id, display=False))


def digest_of(contract: Any, shared: Shared | None = None) -> str:
    """`sha256:<hex>` of a resolved contract (without display copy) as plain data: the canonical
    JSON of its canonical form, so that list order and number formatting do not count. Freeze
    digests the contract it resolves with this, and `check` the contract a resolved config
    carries, so the two cannot drift. `shared`: the memo the contract was resolved with."""
    return "sha256:" + hashlib.sha256(canonical_json(canonical_form(contract, shared))).hexdigest()


def canonical_text(value: Any, shared: Shared | None = None) -> str:
    """The canonical JSON of `value` (`canonical_json(canonical_form(value, shared))`) as text."""
    return canonical_json(canonical_form(value, shared)).decode("utf-8")


def digest_of_parts(texts: Iterable[tuple[str, str]]) -> str:
    """`digest_of` a contract from the `canonical_text` of each of its top-level values, by key:
    canonical JSON writes a mapping as its keys in order, each with its value's text. A caller
    that meets the same value in many contracts (the same model, the same gates) makes its text
    once."""
    body = ",".join(f"{_string(key)}:{text}" for key, text in sorted(texts))
    return "sha256:" + hashlib.sha256(("{" + body + "}").encode("utf-8")).hexdigest()


def dataset_sources(catalog: Catalog, contract: dict[str, Any]) -> dict[str, str]:
    """Where each dataset of a resolved contract is downloaded from (display copy), by id; a
    pending url is left out, and a URL's credentials (written by hand: `pin` refuses them) too."""
    urls = {ident: catalog.datasets[ident].source.url for ident in contract_datasets(contract)}
    return {ident: redact_url(str(url)) for ident, url in urls.items() if not isinstance(url, Pending)}


def canonical_json(data: Any) -> bytes:
    """Canonical JSON (sorted keys, no whitespace, UTF-8) used for digests."""
    return _CANONICAL.encode(data).encode("utf-8")


# What `json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
# allow_nan=False)` makes, without a new encoder for each call (sorting a list calls this per item).
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
_string = json.encoder.encode_basestring  # a key as `_CANONICAL` writes it (ensure_ascii=False)
