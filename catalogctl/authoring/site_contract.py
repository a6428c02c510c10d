"""A resolved contract written for people: sections of labelled facts and tables, thresholds as
"≥ 80.5446 (81.3582 × 0.99)". Reads what `catalog.contract.resolve_contract` returns without
display copy (exactly what the digest covers); metric labels come beside it as captions.

The sections are made as plain data (`contract_sections`). A site makes each distinct top-level
value of its contracts into its `Section` (of `model.reports.site`) and its canonical text
once (`ContractParts`): many benchmarks show the same model, the same gates, often the same
phases; their pages then show one model, which the site lays out once, and their digests are
made from one text."""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal
from typing import Any

from catalogctl.authoring.site_source import as_json
from catalogctl.catalog.contract import Shared, canonical_text, digest_of_parts
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


def section(key: str, value: Any, captions: dict[str, Localized]) -> SectionData | None:
    """The section of a contract's top-level `key` holding `value` (None for the page's heading
    and the metrics); `captions` are the metrics' labels by key."""
    if key in _HEAD or key == "metrics":
        return None
    title = _TITLES.get(key, key.replace("_", " ").capitalize())
    if key in ("performance", "accuracy"):
        return _phase(title, value, captions)
    if key == "model":
        shown = {k: v for k, v in value.items() if k not in ("i18n", "metadata", "renamed_from")}
        return {"title": title, "facts": flatten(shown)}
    if key == "dataset":
        return {"title": title, "tables": [_dataset_table([value])]}
    if isinstance(value, dict):
        return {"title": title, "facts": flatten(value)}
    if isinstance(value, list) and value and isinstance(value[0], dict):
        columns = sorted({k for item in value for k in item})
        rows = [[text(item.get(c, "")) for c in columns] for item in value]
        return {"title": title, "tables": [{"columns": columns, "rows": rows}]}
    return {"title": title, "facts": [{"label": key, "value": text(value)}]}


def contract_sections(contract: dict[str, Any], captions: dict[str, Localized]) -> list[SectionData]:
    """The sections of a resolved contract, in the contract's own order, as the data of the
    `Section`s they are; `captions` are the metrics' labels by key."""
    return [data for key, value in contract.items() if (data := section(key, value, captions)) is not None]


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


class ContractParts:
    """The top-level values of a site's contracts (a model, a phase, the gates), each made once
    into its section and its canonical text: many benchmarks hold the same one. Values count as
    equal by the sha256 of their JSON, in their own order (a section shows them in that order)."""

    def __init__(self, captions: dict[str, Localized], shared: Shared) -> None:
        self.captions = captions
        self.shared = shared  # the memo the contracts are resolved with
        self.made: dict[tuple[str, bytes], tuple[str, Section | None]] = {}

    def of(self, contract: dict[str, Any]) -> tuple[list[Section], str]:
        """The sections of a resolved contract without display copy, and its digest (`digest_of`)."""
        sections: list[Section] = []
        texts: list[tuple[str, str]] = []
        for key, value in contract.items():
            found = (key, hashlib.sha256(as_json(value)).digest())
            made = self.made.get(found)
            if made is None:
                data = section(key, value, self.captions)
                shown = None if data is None else Section.model_validate(data)
                made = self.made[found] = (canonical_text(value, self.shared), shown)
            texts.append((key, made[0]))
            if made[1] is not None:
                sections.append(made[1])
        return sections, digest_of_parts(texts)
