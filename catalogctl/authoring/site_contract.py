"""A resolved contract written for people: sections of labelled facts and tables, thresholds as
"≥ 80.5446 (81.3582 × 0.99)". Reads what `catalog.contract.resolve_contract` returns without
display copy (exactly what the digest covers); metric labels come beside it as captions.

The sections are made as plain data (`contract_sections`), each distinct one validated once
into a `Section` of `model.reports.site` (`Sections`): many benchmarks show the same model, the
same gates, often the same phases, and their pages then show one model, which the site lays out
once. Built one model at a time, a page's forty-odd facts and its history cost a sixth of
building the benchmarks' pages."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from catalogctl.authoring.site_source import as_json
from catalogctl.model import AnyBenchmark, InferenceBenchmark
from catalogctl.model.reports.site import Localized, Section

FactData = dict[str, Any]  # the data of a `Fact`, validated with its page; and so on
TableData = dict[str, Any]
SectionData = dict[str, Any]

# Top-level keys that are the page's heading, not the contract's body.
_HEAD = {"id", "kind", "family", "title", "summary", "owners", "i18n", "metadata", "renamed_from", "mlperf_name"}
_TITLES = {
    "model": "Model",
    "api_type": "API",
    "execution": "Execution",
    "preprocessing": "Preprocessing",
    "performance": "Performance phase",
    "accuracy": "Accuracy phase",
    "dataset": "Dataset",
    "training": "Training",
    "validation": "Validation",
    "limits": "Limits",
    "quality_target": "Quality target",
    "evaluation_schedule": "Evaluation schedule",
    "optimizer": "Optimizer",
    "postprocessing": "Gates",
    "approved_drafters": "Approved drafters",
}


def text(value: Any) -> str:
    """A value as one line of text: numbers and ids exactly as the catalog holds them."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value):
        return " · ".join(text(v) for v in value)  # metric keys may hold commas
    if isinstance(value, dict) and list(value) == ["by_concurrency"]:
        return _by_concurrency(value["by_concurrency"])
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


def _by_concurrency(steps: list[dict[str, Any]]) -> str:
    """`600000 up to concurrency 32; 1200000 above`."""
    parts = []
    for step in steps:
        limit = step.get("up_to")
        parts.append(
            f"{text(step['value'])} up to concurrency {limit}" if limit is not None else f"{step['value']} above"
        )
    return "; ".join(parts)


def _number(value: Decimal) -> str:
    return f"{float(value):.6g}" if abs(value) < 100000 else f"{value.normalize():f}"


def bound_text(threshold: dict[str, Any]) -> str:
    """`≥ 80.5446 (81.3582 × 0.99)`, `≤ …` for an upper bound, both joined by "and"."""
    reference = threshold["reference"]
    parts = []
    for key, sign in (("lower_factor", "≥"), ("upper_factor", "≤")):
        factor = threshold.get(key)
        if factor is not None:
            product = Decimal(str(reference)) * Decimal(str(factor))  # as `check` computes the bound
            parts.append(f"{sign} {_number(product)} ({reference} × {factor})")
    scale = threshold.get("scale")
    return " and ".join(parts) + (f" [{scale}]" if scale else "")


def flatten(value: Any, prefix: str = "") -> list[FactData]:
    """Nested mappings as dotted labels; lists of scalars and `by_concurrency` steps as one value."""
    if isinstance(value, dict) and list(value) != ["by_concurrency"]:
        facts: list[FactData] = []
        for key, item in value.items():
            facts.extend(flatten(item, f"{prefix}.{key}" if prefix else str(key)))
        return facts
    return [{"label": prefix or "value", "value": text(value)}]


def _dataset_table(datasets: list[dict[str, Any]]) -> TableData:
    rows = [[d["id"], text(d.get("samples", "")), text(d.get("source", {}).get("sha256", ""))] for d in datasets]
    return {"columns": ["dataset", "samples", "sha256"], "rows": rows}


def _accuracy_table(entries: list[dict[str, Any]]) -> TableData:
    rows = []
    for entry in entries:
        aggregation = entry["repeat_aggregation"]
        generation = ", ".join(f"{k} {text(v)}" for k, v in entry["generation"].items())
        rows.append(
            [
                entry["dataset"]["id"],
                entry["evaluation_recipe"]["name"],
                str(entry["num_repeats"]),
                f"{aggregation['method']} (k={aggregation.get('k', entry['num_repeats'])})",
                generation,
            ]
        )
    return {"columns": ["dataset", "recipe", "repeats", "aggregation", "generation"], "rows": rows}


def _phase(title: str, phase: dict[str, Any], captions: dict[str, Localized]) -> SectionData:
    facts: list[FactData] = []
    tables: list[TableData] = []
    for key, item in phase.items():
        if key == "datasets" and item and isinstance(item[0], dict) and "num_repeats" in item[0]:
            tables.append(_accuracy_table(item))
        elif key == "datasets":
            tables.append(_dataset_table(item))
        elif key == "thresholds":
            facts.extend(
                {"label": f"thresholds.{key}", "value": bound_text(bound), "caption": captions.get(key)}
                for key, bound in item.items()
            )
        else:
            facts.extend(flatten(item, key))
    return {"title": title, "facts": facts, "tables": tables}


def contract_sections(contract: dict[str, Any], captions: dict[str, Localized]) -> list[SectionData]:
    """The sections of a resolved contract, in the contract's own order, as the data of the
    `Section`s they are; `captions` are the metrics' labels by key."""
    sections: list[SectionData] = []
    for key, value in contract.items():
        if key in _HEAD or key == "metrics":
            continue
        title = _TITLES.get(key, key.replace("_", " ").capitalize())
        if key in ("performance", "accuracy"):
            sections.append(_phase(title, value, captions))
        elif key == "model":
            shown = {k: v for k, v in value.items() if k not in ("i18n", "metadata", "renamed_from")}
            sections.append({"title": title, "facts": flatten(shown)})
        elif key == "dataset":
            sections.append({"title": title, "tables": [_dataset_table([value])]})
        elif isinstance(value, dict):
            sections.append({"title": title, "facts": flatten(value)})
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            columns = sorted({k for item in value for k in item})
            rows = [[text(item.get(c, "")) for c in columns] for item in value]
            sections.append({"title": title, "tables": [{"columns": columns, "rows": rows}]})
        else:
            sections.append({"title": title, "facts": [{"label": key, "value": text(value)}]})
    return sections


def runner_line(bench: AnyBenchmark) -> str | None:
    """The harness that runs an inference benchmark in one line (`lm-eval · tasks gsm8k · lm-eval
    >=0.4,<0.5`); None for a training benchmark, whose run writes MLLOG logs."""
    if not isinstance(bench, InferenceBenchmark):
        return None
    runner = bench.runner
    if runner is None:
        return "endpoints (the MLCommons endpoints client)"
    parts: list[str] = [runner.name]
    if runner.tasks:
        parts.append("tasks " + ", ".join(runner.tasks))
    if runner.version:
        parts.append(f"{runner.name} {runner.version}")
    return " · ".join(parts)


class Sections:
    """Each distinct section of the contracts of a site, made into a `Section` once."""

    def __init__(self) -> None:
        self.made: dict[bytes, Section] = {}  # by the JSON of its data: equal data, one model

    def of(self, contract: dict[str, Any], captions: dict[str, Localized]) -> list[Section]:
        """`contract_sections` as models, each the one made for equal data before."""
        sections = []
        for data in contract_sections(contract, captions):
            key = as_json(data)
            made = self.made.get(key)
            if made is None:
                made = self.made[key] = Section.model_validate(data)
            sections.append(made)
        return sections
