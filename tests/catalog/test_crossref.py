"""Cross-reference and consistency checks, each with its exact message and position."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.catalog_edit import load, problems, problems_after
from tests.helpers import replace_in

GPT = "benchmarks/gpt-oss-120b.yaml"
GPT_FILE = f"benchmark_suite/{GPT}"
TRAINING = "benchmarks/llm-post-training.yaml"
TRAINING_FILE = f"benchmark_suite/{TRAINING}"


def test_shipped_catalog_is_valid_with_its_pending_values(catalog_dir: Path) -> None:
    result = load(catalog_dir)
    assert result.ok
    assert problems(catalog_dir) == []
    pending = [d for d in result.diagnostics if d.code == "pending-value"]
    assert len(pending) == 20
    first = pending[0]
    assert (first.path, first.line, first.column) == ("benchmark_suite/datasets/aime25.yaml", 7, 8)
    assert first.message == ("dataset `aime25`: source.url is pending (<TBD>); blocks freezing gpt-oss-120b")


def test_unknown_model_with_near_miss(catalog_dir: Path) -> None:
    assert problems_after(catalog_dir, GPT, "model: gpt-oss-120b", "model: gpt-oss-12b") == [
        f"{GPT_FILE}:10:8: error ref-unknown-model: unknown model `gpt-oss-12b` (did you mean `gpt-oss-120b`?)"
    ]


def test_unknown_dataset_and_recipe(catalog_dir: Path) -> None:
    replace_in(catalog_dir, f"benchmark_suite/{GPT}", "- dataset: gpqa", "- dataset: gpqaa")
    assert problems_after(catalog_dir, GPT, "evaluation_recipe: mlperf_code_tests", "evaluation_recipe: code") == [
        f"{GPT_FILE}:40:16: error ref-unknown-dataset: unknown dataset `gpqaa` (did you mean `gpqa`?)",
        f"{GPT_FILE}:47:26: error ref-unknown-recipe: unknown evaluation recipe `code` (known: mlperf_code_tests)",
    ]


def test_unknown_metric_in_thresholds_points_at_the_key(catalog_dir: Path) -> None:
    assert problems_after(catalog_dir, GPT, "    exact_match:", "    exact_mach:") == [
        f"{GPT_FILE}:62:5: error ref-unknown-metric: unknown metric `exact_mach` (did you mean `exact_match`?)"
    ]


def test_unknown_gate_and_gate_of_another_kind(catalog_dir: Path) -> None:
    assert problems_after(catalog_dir, GPT, "    - accuracy_gate", "    - acuracy_gate\n    - quality_target") == [
        f"{GPT_FILE}:76:7: error ref-unknown-gate: unknown gate `acuracy_gate` (did you mean `accuracy_gate`?)",
        f"{GPT_FILE}:77:7: error contract-inconsistent: gate `quality_target` does not apply to inference benchmarks",
    ]


def test_override_key_must_be_stated_in_base(catalog_dir: Path) -> None:
    old = "        reasoning_effort: high\n        max_new_tokens: 32768\n    - dataset: gpqa"
    new = "        reasoning_effort: high\n        min_new_tokens: 5\n    - dataset: gpqa"
    assert problems_after(catalog_dir, GPT, old, new) == [
        f"{GPT_FILE}:39:9: error override-key-not-in-base: override sets `min_new_tokens`, which accuracy.generation "
        "does not state (state min_new_tokens in accuracy.generation first)"
    ]


def test_override_key_unknown_to_the_schema(catalog_dir: Path) -> None:
    old = "        reasoning_effort: high\n        max_new_tokens: 32768\n    - dataset: gpqa"
    new = "        reasoning_efort: high\n        max_new_tokens: 32768\n    - dataset: gpqa"
    assert problems_after(catalog_dir, GPT, old, new) == [
        f"{GPT_FILE}:38:9: error schema-unknown-key: unknown key `reasoning_efort` in accuracy.datasets[0].generation "
        "(did you mean `reasoning_effort`?)"
    ]


def test_accuracy_sample_count_must_match_repeats_times_samples(catalog_dir: Path) -> None:
    assert problems_after(catalog_dir, GPT, "min_accuracy_sample_count: 4395", "min_accuracy_sample_count: 4396") == [
        f"{GPT_FILE}:68:32: error figure-mismatch: min_accuracy_sample_count is 4396, but num_repeats x samples gives "
        "4395 = 8x30 + 5x198 + 3x1055 (write 4395, or fix the repeats)"
    ]


def test_schedule_table_is_checked_against_its_formula(catalog_dir: Path) -> None:
    assert problems_after(catalog_dir, TRAINING, "samples: 5120", "samples: 5000") == [
        f"{TRAINING_FILE}:56:16: error figure-mismatch: for gbs 512 the formula gives 5120, but the table says 5000 "
        "(formula: gbs * ceil(2.5 + 3840 / gbs))"
    ]


def test_formula_is_never_evaluated_by_python(catalog_dir: Path) -> None:
    evil = "first_evaluation_samples: __import__('os').system('touch pwned')"
    found = problems_after(catalog_dir, TRAINING, "first_evaluation_samples: gbs * ceil(2.5 + 3840 / gbs)", evil)
    assert found == [
        f"{TRAINING_FILE}:49:29: error formula-invalid: first_evaluation_samples: "
        "`__import__('os').system('touch pwned')` "
        "is not allowed in a formula (use numbers, gbs, + - * / // % **, parentheses, ceil, floor, min, max)"
    ]
    assert not (catalog_dir / "pwned").exists()


def test_formula_with_an_unknown_variable(catalog_dir: Path) -> None:
    old = "first_evaluation_samples: gbs * ceil(2.5 + 3840 / gbs)"
    assert problems_after(catalog_dir, TRAINING, old, "first_evaluation_samples: gbs * steps") == [
        f"{TRAINING_FILE}:49:29: error formula-invalid: first_evaluation_samples: unknown variable "
        "`steps` (known: gbs) "
        "(use numbers, gbs, + - * / // % **, parentheses, ceil, floor, min, max)"
    ]


def test_rollouts_must_equal_tasks_times_attempts(catalog_dir: Path) -> None:
    assert problems_after(catalog_dir, TRAINING, "rollouts: 1004", "rollouts: 1000") == [
        f"{TRAINING_FILE}:28:13: error figure-mismatch: rollouts is 1000, but 251 tasks x 4 attempts is 1004"
    ]


def test_pass_at_k_needs_k_attempts(catalog_dir: Path) -> None:
    found = problems_after(catalog_dir, TRAINING, "attempts_per_task: 4", "attempts_per_task: 3")
    assert (
        f"{TRAINING_FILE}:27:22: error contract-inconsistent: pass_at_4 needs 4 attempts per task, "
        "but attempts_per_task is 3" in found
    )


def test_unknown_split(catalog_dir: Path) -> None:
    assert problems_after(catalog_dir, TRAINING, "  split: validation", "  split: validaton") == [
        f"{TRAINING_FILE}:24:10: error ref-unknown-split: unknown split `validaton` (did you mean `validation`?)"
    ]


def test_dataset_splits_must_add_up(catalog_dir: Path) -> None:
    assert problems_after(catalog_dir, "datasets/r2e-gym-subset.yaml", "samples: 951", "samples: 950") == [
        "benchmark_suite/datasets/r2e-gym-subset.yaml:10:10: error figure-mismatch: samples is 950, "
        "but the splits add up "
        "to 951 (700 train + 251 validation)"
    ]


def test_recipe_ground_truth_must_be_the_answer_column(catalog_dir: Path) -> None:
    assert problems_after(
        catalog_dir, "datasets/aime25.yaml", "    ground_truth: answer", "    ground_truth: answers"
    ) == [
        "benchmark_suite/datasets/aime25.yaml:18:19: error contract-inconsistent: recipe `mlperf_exact_match` scores "
        "against `answers`, but the answers are in `answer` (did you mean `answer`?)"
    ]


def test_metric_keys_colliding_when_case_folded(catalog_dir: Path) -> None:
    found = problems_after(catalog_dir, "metrics.yaml", "  - key: pass_at_4", "  - key: EXACT_MATCH")
    assert found[-1] == (
        "benchmark_suite/metrics.yaml:20:10: error id-collision: metric `EXACT_MATCH` collides with `exact_match` "
        "when case is ignored (give every metric a distinct key)"
    )


def test_threshold_scale_must_fit_the_metric(catalog_dir: Path) -> None:
    deepseek = "benchmarks/deepseek-r1.yaml"
    assert problems_after(catalog_dir, deepseek, "      scale: absolute", "      scale: percent") == [
        f"benchmark_suite/{deepseek}:46:7: error schema-invalid-value: accuracy.thresholds.TOKENS_PER_SAMPLE: "
        "reference 3886.2274 is outside 0..100 for scale percent"
    ]


def test_single_dataset_aggregation_needs_one_dataset(catalog_dir: Path) -> None:
    assert problems_after(
        catalog_dir, GPT, "    method: micro_average\n    weighting: base_questions", "    method: single_dataset"
    ) == [
        f"{GPT_FILE}:59:13: error contract-inconsistent: single_dataset aggregation, but 3 datasets are listed "
        "(use micro_average, unweighted_mean or per_dataset)"
    ]


def test_renamed_from_an_entity_that_still_exists(catalog_dir: Path) -> None:
    assert problems_after(catalog_dir, GPT, "kind: inference\n", "kind: inference\nrenamed_from: deepseek-r1\n") == [
        f"{GPT_FILE}:3:15: error contract-inconsistent: renamed_from `deepseek-r1`, but that benchmark still exists "
        "(remove the old file, or drop renamed_from)"
    ]


def test_a_dataset_alias_stands_for_one_dataset(catalog_dir: Path) -> None:
    # Colliding aliases validated, and a run's `gpqa` was scored as livecodebench (the last one won).
    replace_in(
        catalog_dir, "benchmark_suite/datasets/livecodebench.yaml", "samples: ", "aliases: [gpqa, shared]\nsamples: "
    )
    replace_in(catalog_dir, "benchmark_suite/datasets/aime25.yaml", "samples: ", "aliases: [shared]\nsamples: ")
    found = [line for line in problems(catalog_dir) if "alias-ambiguous" in line]
    assert [line.split(": ", 1)[1] for line in found] == [
        "error alias-ambiguous: alias `gpqa` of dataset `livecodebench` is the id of dataset `gpqa`: "
        "a run's dataset name "
        "must stand for one dataset",
        "error alias-ambiguous: alias `shared` of dataset `livecodebench` is an alias of dataset "
        "`aime25`: a run's dataset "
        "name must stand for one dataset",
    ]


def test_an_mlperf_name_stands_for_one_entity_of_its_kind(catalog_dir: Path) -> None:
    # The checker keys datasets by name: two datasets under one name would be scored as one.
    replace_in(catalog_dir, "benchmark_suite/datasets/aime25.yaml", "samples: ", "mlperf_name: gpqa\nsamples: ")
    assert problems(catalog_dir) == [
        "benchmark_suite/datasets/aime25.yaml:5:14: error mlperf-name-ambiguous: dataset `aime25` is "
        "`gpqa` for the MLPerf "
        "tools, as dataset `gpqa` is: the official checker would take one for the other "
        "(give each its own mlperf_name)"
    ]


@pytest.mark.conformance
def test_the_shipped_mlperf_names_are_the_checkers(catalog_dir: Path) -> None:
    from submission_checker import checker
    from submission_checker.models.aggregate.point_result import MIN_QUERY_COUNT

    catalog = load(catalog_dir).catalog
    assert catalog.datasets["gpt_oss_perf"].mlperf_name == "mlperf_gpt_oss_performance"
    assert "mlperf_gpt_oss_performance" in MIN_QUERY_COUNT
    # The accuracy datasets of gpt-oss-120b already carry the checker's names.
    assert {"aime25", "gpqa", "livecodebench"} <= set(MIN_QUERY_COUNT) & set(catalog.datasets)
    names = {m.mlperf_name or ident for ident, m in catalog.models.items() if ident != "qwen3-5-397b-a17b"}
    assert names == {"llama3_1-8b", "gpt-oss-120b", "deepseek-r1"}
    assert names <= set(checker._ALLOWED_MODEL_NAMES)
    assert catalog.benchmarks["llm-post-training"].mlperf_name == "qwen35_397b_grpo"


DEEPSEEK_FILE = "benchmark_suite/benchmarks/deepseek-r1.yaml"
R1_CHECKSUM = "git-sha1:56d4cbbb4d29f4355bab4b9a39ccb717a14ad5ad"


def test_an_approved_drafter_is_in_one_form_of_section_2_9_4(catalog_dir: Path) -> None:
    replace_in(
        catalog_dir,
        DEEPSEEK_FILE,
        "  - model_id: deepseek-ai/DeepSeek-R1\n",
        "  - model_id: deepseek-ai/DeepSeek-R1\n    target_checksum: sha256:" + "0" * 64 + "\n",
    )
    replace_in(
        catalog_dir, DEEPSEEK_FILE, "    weight_checksum: git-sha1:93947a0d7bd04f73ff98636f6b18ff5839e7aaf9\n", ""
    )
    assert problems(catalog_dir) == [
        f"{DEEPSEEK_FILE}:64:5: error schema-invalid-value: approved_drafters[0]: states model_id, weight_checksum "
        "and target_checksum: a drafter is identified by its weights (model_id + weight_checksum) or by its "
        "configuration (target_checksum + configuration), not both (§2.9.4)",
        f"{DEEPSEEK_FILE}:68:5: error schema-invalid-value: approved_drafters[1]: lacks weight_checksum: a drafter "
        "is identified by model_id + weight_checksum, or by target_checksum + configuration (§2.9.4)",
    ]


def test_an_approved_drafter_names_its_cohort_and_is_listed_once(catalog_dir: Path) -> None:
    replace_in(
        catalog_dir,
        DEEPSEEK_FILE,
        "approved_cohort: 2026-09-C1\n  - model_id: centml",
        "approved_cohort: 2026-9\n  - model_id: centml",
    )
    assert problems(catalog_dir) == [
        f"{DEEPSEEK_FILE}:66:22: error schema-invalid-value: approved_drafters[0].approved_cohort: `2026-9` is not a "
        "cohort id: write YYYY-MM-C0 or YYYY-MM-C1"
    ]
    replace_in(catalog_dir, DEEPSEEK_FILE, "approved_cohort: 2026-9\n", "approved_cohort: 2026-09-C1\n")
    replace_in(catalog_dir, DEEPSEEK_FILE, "git-sha1:93947a0d7bd04f73ff98636f6b18ff5839e7aaf9", R1_CHECKSUM)
    assert problems(catalog_dir) == [
        f"{DEEPSEEK_FILE}:67:5: error contract-inconsistent: approved_drafters[1] is the drafter of "
        "approved_drafters[0] "
        "again (list each approved drafter once)"
    ]


def test_optimizer_formulas_are_validated_with_positions(catalog_dir: Path) -> None:
    old = "learning_rate: 1e-6 * (gbs / 256) ** 0.5"
    assert problems_after(catalog_dir, TRAINING, old, "learning_rate: 1e-6 * (steps / 256) ** 0.5") == [
        f"{TRAINING_FILE}:70:18: error formula-invalid: learning_rate: unknown variable `steps` (known: gbs) "
        "(use numbers, gbs, + - * / // % **, parentheses, ceil, floor, min, max)"
    ]
    old = "gradient_clip_norm: 0.125 * (256 / gbs) ** 0.5"
    assert problems_after(catalog_dir, TRAINING, old, "gradient_clip_norm: (0 - gbs) ** 0.5")[1:] == [
        f"{TRAINING_FILE}:72:23: error formula-invalid: gradient_clip_norm: a negative number (-256) "
        "has no real power 1/2 "
        "(use numbers, gbs, + - * / // % **, parentheses, ceil, floor, min, max)"
    ]


def test_validation_samples_must_be_the_splits(catalog_dir: Path) -> None:
    assert problems_after(catalog_dir, TRAINING, "  samples: 251  #", "  samples: 250  #") == [
        f"{TRAINING_FILE}:25:12: error figure-mismatch: samples is 250, but split `validation` has 251"
    ]
