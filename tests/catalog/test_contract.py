"""Resolved contracts and their digests: what changes a digest and what does not."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from catalogctl.catalog.contract import (
    Shared,
    canonical_form,
    canonical_json,
    canonical_text,
    contract_digest,
    digest_of_parts,
    resolve_contract,
)
from catalogctl.errors import EntityNotFound
from tests.catalog_edit import load
from tests.helpers import replace_in, write


def digests(root: Path) -> dict[str, str]:
    catalog = load(root).catalog
    return {ident: contract_digest(catalog, ident) for ident in sorted(catalog.benchmarks)}


def test_gpt_oss_overrides_are_merged_per_dataset(catalog_dir: Path) -> None:
    contract = resolve_contract(load(catalog_dir).catalog, "gpt-oss-120b")
    aime = contract["accuracy"]["datasets"][0]
    assert aime["dataset"]["id"] == "aime25"
    assert aime["generation"] == {
        "temperature": 1.0,
        "top_p": 1.0,
        "top_k": 0,
        "max_new_tokens": 32768,
        "reasoning_effort": "high",
    }
    assert aime["evaluation_recipe"] == {
        "name": "mlperf_exact_match",
        "scorer": "pass_at_1",
        "extractor": "boxed_math_extractor",
        "ground_truth": "answer",
    }
    assert aime["repeat_aggregation"] == {"method": "mean_of_k", "k": 8}
    assert contract["accuracy"]["generation"]["reasoning_effort"] == "low"  # the base block is unchanged
    assert contract["model"]["reference_id"] == "openai/gpt-oss-120b"
    assert sorted(contract["metrics"]) == [
        "accuracy_sample_count",
        "context_length",
        "duration_ms",
        "exact_match",
        "sample_count",
        "tpot_p99_ms",
        "ttft_p99_ms",
    ]


def test_training_contract_inlines_its_dataset(catalog_dir: Path) -> None:
    contract = resolve_contract(load(catalog_dir).catalog, "llm-post-training")
    assert contract["dataset"]["splits"] == {"train": {"samples": 700}, "validation": {"samples": 251}}
    assert contract["metrics"]["pass_at_4"]["unit"] == "fraction"


@pytest.mark.parametrize(
    ("relative", "old", "new"),
    [
        ("benchmarks/gpt-oss-120b.yaml", "kind: inference\n", "# a comment\nkind: inference\n"),
        (
            "benchmarks/gpt-oss-120b.yaml",
            "    reasoning_effort: low\n    max_new_tokens: 10240\n  dataset_aggregation",
            "    max_new_tokens: 10240\n    reasoning_effort: low\n  dataset_aggregation",
        ),
        ("benchmarks/gpt-oss-120b.yaml", "title: gpt-oss-120b reasoning", "title: A new title"),
        ("benchmarks/gsm8k.yaml", "    summary: 8.5K", "    summary: 8500"),
        ("datasets/aime25.yaml", "title: AIME 2025", "title: AIME 2025 (I and II)"),
        ("metrics.yaml", "label: Exact match\n", "label: Exact-match accuracy\n"),
        (
            "benchmarks/deepseek-r1.yaml",
            "    temperature: 0.0\n    top_p: 1.0\n    top_k: 1\n    max_new_tokens: 20000\n  requirements",
            "    temperature: 0\n    top_p: 1\n    top_k: 1\n    max_new_tokens: 20000\n  requirements",
        ),
        (
            "datasets/gpqa.yaml",
            "  mlperf_multiple_choice:",
            "  unused:\n    scorer: x\n    ground_truth: <TBD>\n  mlperf_multiple_choice:",
        ),
    ],
    ids=["comment", "key-order", "title", "i18n", "dataset-title", "metric-label", "number-format", "unused-recipe"],
)
def test_display_and_formatting_changes_keep_every_digest(catalog_dir: Path, relative: str, old: str, new: str) -> None:
    before = digests(catalog_dir)
    replace_in(catalog_dir, f"benchmark_suite/{relative}", old, new)
    assert load(catalog_dir).ok
    assert digests(catalog_dir) == before


@pytest.mark.parametrize(
    ("relative", "old", "new", "changed"),
    [
        ("benchmarks/gpt-oss-120b.yaml", "      num_repeats: 8", "      num_repeats: 9", ["gpt-oss-120b"]),
        (
            "datasets/aime25.yaml",
            "extractor: boxed_math_extractor",
            "extractor: last_number_extractor",
            ["gpt-oss-120b"],
        ),
        ("datasets/mlperf_deepseek_r1.yaml", "  sha256: 36facfae", "  sha256: 46facfae", ["deepseek-r1"]),
        ("models/llama3-1-8b.yaml", "sha: 0e9e39f2", "sha: 1e9e39f2", ["ceval", "gsm8k", "llama3-1-8b"]),
        (
            "metrics.yaml",
            "direction: lower\n    ratio: false\n    description: 99th percentile of the time from",
            "direction: higher\n    ratio: false\n    description: 99th percentile of the time from",
            ["gpt-oss-120b"],
        ),
        ("benchmarks/llm-post-training.yaml", "target: 0.69", "target: 0.7", ["llm-post-training"]),
    ],
    ids=["repeats", "recipe", "dataset-sha", "model-sha", "metric-direction", "quality-target"],
)
def test_contract_changes_change_exactly_the_dependent_digests(
    catalog_dir: Path, relative: str, old: str, new: str, changed: list[str]
) -> None:
    before = digests(catalog_dir)
    replace_in(catalog_dir, f"benchmark_suite/{relative}", old, new)
    after = digests(catalog_dir)
    assert sorted(k for k in before if before[k] != after[k]) == changed


def test_digest_is_sha256_of_canonical_json(catalog_dir: Path) -> None:
    import hashlib

    catalog = load(catalog_dir).catalog
    body = canonical_json(canonical_form(resolve_contract(catalog, "deepseek-r1", display=False)))
    assert contract_digest(catalog, "deepseek-r1") == "sha256:" + hashlib.sha256(body).hexdigest()
    assert b"title" not in body
    assert b'": ' not in body


def test_a_digest_made_from_the_text_of_each_top_level_value_is_the_same(catalog_dir: Path) -> None:
    catalog = load(catalog_dir).catalog
    shared: Shared = {}
    for ident in sorted(catalog.benchmarks):
        contract = resolve_contract(catalog, ident, display=False, shared=shared)
        texts = [(key, canonical_text(value, shared)) for key, value in reversed(contract.items())]
        assert digest_of_parts(texts) == contract_digest(catalog, ident)
    assert digest_of_parts([]) == "sha256:" + hashlib.sha256(b"{}").hexdigest()
    body = '{"a":1,"é":"x"}'.encode()
    assert digest_of_parts([("é", '"x"'), ("a", "1")]) == "sha256:" + hashlib.sha256(body).hexdigest()


def test_big_integers_survive_canonical_json() -> None:
    seed = 16159082839903944936
    assert json.loads(canonical_json({"b": 2**64 - 1, "a": seed})) == {"a": seed, "b": 2**64 - 1}
    assert canonical_json({"b": 1, "a": 2}) == b'{"a":2,"b":1}'


def test_resolving_an_unknown_benchmark(catalog_dir: Path) -> None:
    with pytest.raises(EntityNotFound, match="no benchmark `nope` in the working tree"):
        resolve_contract(load(catalog_dir).catalog, "nope")


def test_digest_of_an_unvalidated_reference_is_a_clear_error(catalog_dir: Path) -> None:
    write(catalog_dir, "benchmark_suite/models/llama3-1-8b.yaml", "id: llama3-1-8b\n")  # invalid: dropped
    from catalogctl.errors import CatalogError

    with pytest.raises(CatalogError, match="uses model `llama3-1-8b`, which is not in the catalog"):
        contract_digest(load(catalog_dir).catalog, "gsm8k")


def test_a_shared_memo_resolves_the_same_contracts_and_builds_each_entity_once(catalog_dir: Path) -> None:
    catalog = load(catalog_dir).catalog
    shared: Shared = {}
    for display in (False, True):
        for ident in sorted(catalog.benchmarks):
            alone = resolve_contract(catalog, ident, display=display)
            assert resolve_contract(catalog, ident, display=display, shared=shared) == alone
    first, again = (resolve_contract(catalog, "gsm8k", display=False, shared=shared) for _ in range(2))
    assert first["model"] is again["model"]
    assert first["metrics"] == again["metrics"]


def test_reordering_a_runners_arguments_changes_the_digest(catalog_dir: Path) -> None:
    """`extra_args` is a command line: its order is its meaning, unlike a list of gates."""
    gsm8k = "benchmark_suite/benchmarks/gsm8k.yaml"
    replace_in(catalog_dir, gsm8k, "  batch_size: auto\n", '  batch_size: auto\n  extra_args: ["-w", "--seed", "7"]\n')
    before = contract_digest(load(catalog_dir).catalog, "gsm8k")
    replace_in(catalog_dir, gsm8k, '["-w", "--seed", "7"]', '["--seed", "-w", "7"]')
    assert contract_digest(load(catalog_dir).catalog, "gsm8k") != before
