"""Schema problems as the loader reports them: one mutated file of a copy of the shipped catalog,
and the exact diagnostics of that file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from catalogctl.catalog.loader import load_tree
from catalogctl.errors import Diagnostic, error
from catalogctl.io.tree import WorkingTree

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
BENCH = "benchmark_suite/benchmarks/gsm8k.yaml"
MODEL = "benchmark_suite/models/llama3-1-8b.yaml"
DATASET = "benchmark_suite/datasets/gsm8k.yaml"
RULESET = "rulesets/2026-01-C0.yaml"
SEED = "16159082839903944936"
RULESET_TEXT = f"""\
cohort: 2026-01-C0
submission_date: 2026-01-07
previous: null
frozen_at: 2026-01-02T10:00:00Z
catalog_tree: 0e9e39f249a16976918f6564b8830bc894c89659
benchmarks:
  - id: gsm8k
    digest: sha256:{"ab" * 32}
seed_sets:
  - id: A
    scheduler_rng_seed: {SEED}
    sample_index_rng_seed: 1
    model_seed: 2
    introduced_in: 2026-01-C0
    valid_through: 2026-03-C1
"""
ID_RULE = "use 1-64 characters of a-z, 0-9, '.', '_' and '-', starting with a letter or digit, without '..'"


def copy_catalog(root: Path) -> Path:
    """A copy of the shipped catalog under `root`."""
    shutil.copytree(REPO_ROOT / "benchmark_suite", root / "benchmark_suite")
    return root


def diagnostics_of(root: Path, path: str, old: str, new: str) -> list[Diagnostic]:
    """Copy the catalog, replace `old` by `new` in `path` (exactly once; with old == "" the file is
    written whole as `new`), load it: the diagnostics of that file, pending-value warnings aside."""
    copy_catalog(root)
    target = root / path
    if old:
        text = target.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} is not in {path} exactly once"
        new = text.replace(old, new)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(new, encoding="utf-8")
    result = load_tree(WorkingTree(root))
    return [d for d in result.diagnostics if d.path == path and d.code != "pending-value"]


def test_the_shipped_catalog_has_no_error(tmp_path: Path) -> None:
    result = load_tree(WorkingTree(copy_catalog(tmp_path)))
    assert result.ok
    assert {d.code for d in result.diagnostics} == {"pending-value"}


def test_unknown_key_suggests_the_near_miss(tmp_path: Path) -> None:
    found = diagnostics_of(tmp_path, BENCH, "    temperature: 0.0", "    temprature: 0.0")
    assert found == [
        error(
            "schema-unknown-key",
            "unknown key `temprature` in accuracy.generation",
            BENCH,
            23,
            5,
            "did you mean `temperature`?",
        )
    ]


def test_unknown_top_level_key_lists_the_allowed_keys(tmp_path: Path) -> None:
    found = diagnostics_of(tmp_path, MODEL, "license:", "colour: red\nlicense:")
    assert found == [
        error(
            "schema-unknown-key",
            "unknown key `colour` in the document",
            MODEL,
            6,
            1,
            "allowed keys: chat_template, description, i18n, id, license, metadata, mlperf_name, processor, "
            "reference_id, renamed_from, sha, title, tokenizer",
        )
    ]


def test_missing_top_level_key(tmp_path: Path) -> None:
    found = diagnostics_of(tmp_path, BENCH, "api_type: openai_completions\n", "")
    assert found == [error("schema-missing-key", "missing key `api_type` in the document", BENCH, 2, 1)]


def test_missing_nested_key_points_at_its_mapping(tmp_path: Path) -> None:
    found = diagnostics_of(tmp_path, BENCH, "      evaluation_recipe: lm_eval_gsm8k\n", "")
    assert found == [
        error("schema-missing-key", "missing key `evaluation_recipe` in accuracy.datasets[0]", BENCH, 19, 7)
    ]


def test_string_where_an_int_is_expected(tmp_path: Path) -> None:
    found = diagnostics_of(tmp_path, BENCH, "max_new_tokens: 256", "max_new_tokens: '256'")
    assert found == [
        error(
            "schema-wrong-type",
            "accuracy.generation.max_new_tokens: should be a valid integer (got '256')",
            BENCH,
            24,
            21,
        )
    ]


def test_bool_where_an_int_is_expected(tmp_path: Path) -> None:
    found = diagnostics_of(tmp_path, BENCH, "num_repeats: 1", "num_repeats: true")
    assert found == [
        error(
            "schema-wrong-type", "accuracy.datasets[0].num_repeats: should be a valid integer (got True)", BENCH, 21, 20
        )
    ]


@pytest.mark.parametrize(("written", "shown"), [("1319.0", "1319.0"), ("true", "True")])
def test_non_string_in_a_pendable_int_is_one_type_error(tmp_path: Path, written: str, shown: str) -> None:
    # The pending (<TBD>) branch of the field must not add "a string is expected".
    found = diagnostics_of(tmp_path, DATASET, "samples: 1319", f"samples: {written}")
    assert found == [error("schema-wrong-type", f"samples: should be a valid integer (got {shown})", DATASET, 5, 10)]


@pytest.mark.parametrize(("written", "typed"), [("0042", "int 42"), ("1.10", "float 1.1")])
def test_id_typed_as_a_number_needs_quotes(tmp_path: Path, written: str, typed: str) -> None:
    found = diagnostics_of(tmp_path, MODEL, "id: llama3-1-8b", f"id: {written}")
    assert found == [
        error(
            "schema-quote-needed",
            f"id: YAML reads `{written}` as {typed}, but a string is expected",
            MODEL,
            2,
            5,
            f'write it in quotes: "{written}"',
        )
    ]


def test_id_no_is_ambiguous(tmp_path: Path) -> None:
    found = diagnostics_of(tmp_path, MODEL, "id: llama3-1-8b", "id: no")
    assert found == [
        error(
            "yaml-ambiguous-scalar",
            "plain `no` is a string in YAML 1.2 but a boolean in YAML 1.1",
            MODEL,
            2,
            5,
            'write "no" in quotes for a string, or true/false for a boolean',
        )
    ]


@pytest.mark.parametrize(
    ("written", "value", "shown"),
    [
        ("../x", "../x", "../x"),
        ("a/b", "a/b", "a/b"),
        ("MMLU", "MMLU", "MMLU"),
        ("-x", "-x", "-x"),
        ("a..b", "a..b", "a..b"),
        ('"mmlu\\n"', "mmlu\n", "mmlu\\n"),  # the message stays on one line
        ("x" * 65, "x" * 65, "x" * 65),
    ],
)
def test_id_with_path_tricks_is_invalid(tmp_path: Path, written: str, value: str, shown: str) -> None:
    found = diagnostics_of(tmp_path, MODEL, "id: llama3-1-8b", f"id: {written}")
    assert found == [error("schema-invalid-value", f"id: `{shown}` is not a valid id: {ID_RULE}", MODEL, 2, 5)]


def test_pending_value_where_it_is_not_allowed(tmp_path: Path) -> None:
    found = diagnostics_of(tmp_path, BENCH, "title: GSM8K · Grade-school math word problems", "title: <TBD>")
    assert found == [
        error(
            "schema-pending-not-allowed",
            "title: `<TBD>` is a pending value, not allowed here",
            BENCH,
            5,
            8,
            "only values that may stay undecided can be pending",
        )
    ]


@pytest.mark.parametrize("seed", [SEED, str(2**64 - 1), "1"])
def test_64_bit_seed_is_accepted_exactly(tmp_path: Path, seed: str) -> None:
    assert diagnostics_of(tmp_path, RULESET, "", RULESET_TEXT.replace(SEED, seed)) == []
    ruleset = load_tree(WorkingTree(tmp_path)).catalog.rulesets["2026-01-C0"]
    assert ruleset.seed_sets[0].scheduler_rng_seed == int(seed)


def test_a_seed_of_0_is_refused(tmp_path: Path) -> None:
    # 0 is what a runner that never set its seeds records (LoadGen's defaults): never a drawn seed.
    found = diagnostics_of(tmp_path, RULESET, "", RULESET_TEXT.replace(SEED, "0"))
    assert [(d.code, d.line, d.column) for d in found] == [("schema-invalid-value", 11, 25)]
    assert "scheduler_rng_seed" in found[0].message


def test_seed_over_64_bits_is_refused(tmp_path: Path) -> None:
    found = diagnostics_of(tmp_path, RULESET, "", RULESET_TEXT.replace(SEED, str(2**64)))
    assert found == [
        error(
            "schema-invalid-value",
            "seed_sets[0].scheduler_rng_seed: should be less than or equal to 18446744073709551615 "
            "(got 18446744073709551616)",
            RULESET,
            11,
            25,
        )
    ]


def test_negative_seed_is_refused(tmp_path: Path) -> None:
    found = diagnostics_of(tmp_path, RULESET, "", RULESET_TEXT.replace(SEED, "-1"))
    assert found == [
        error(
            "schema-invalid-value",
            "seed_sets[0].scheduler_rng_seed: should be greater than or equal to 0 (got -1)",
            RULESET,
            11,
            25,
        )
    ]


def test_bool_seed_is_refused(tmp_path: Path) -> None:
    found = diagnostics_of(tmp_path, RULESET, "", RULESET_TEXT.replace(SEED, "true"))
    assert found == [
        error(
            "schema-wrong-type",
            "seed_sets[0].scheduler_rng_seed: should be a valid integer (got True)",
            RULESET,
            11,
            25,
        )
    ]


def test_a_shared_parse_is_validated_once_and_its_problems_name_each_file() -> None:
    from catalogctl.catalog.validation import validate_document
    from catalogctl.io.yamlio import parse_document, reusing_parses
    from catalogctl.model import Ruleset

    with reusing_parses(keep=lambda path: path.startswith("rulesets/")):
        first = parse_document(RULESET, RULESET_TEXT.encode())
        again = parse_document(RULESET, RULESET_TEXT.encode())  # another tree's copy of the blob
        assert validate_document(again, Ruleset)[0] is validate_document(first, Ruleset)[0]
        broken = RULESET_TEXT.replace("model_seed: 2", "model_seed: two").encode()
        one = validate_document(parse_document("rulesets/a.yaml", broken), Ruleset)[1]
        two = validate_document(parse_document("rulesets/b.yaml", broken), Ruleset)[1]
        assert [d.path for d in one] == ["rulesets/a.yaml"]
        assert [d.path for d in two] == ["rulesets/b.yaml"]
    outside = parse_document(RULESET, RULESET_TEXT.encode())
    assert validate_document(outside, Ruleset)[0] is not validate_document(outside, Ruleset)[0]
