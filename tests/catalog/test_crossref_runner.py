"""`runner`: each problem of the block at its position, with a hint, and the checks of what the
harness it names can run and report against the rest of the contract."""

from __future__ import annotations

from pathlib import Path

from tests.catalog_edit import problems, problems_after
from tests.helpers import replace_in

GSM = "benchmarks/gsm8k.yaml"
GSM_FILE = f"benchmark_suite/{GSM}"
CEVAL = "benchmarks/ceval.yaml"
CEVAL_FILE = f"benchmark_suite/{CEVAL}"


def test_a_misspelt_runner_gets_a_suggestion(catalog_dir: Path) -> None:
    assert problems_after(catalog_dir, GSM, "name: lm-eval", "name: lm_eval") == [
        f"{GSM_FILE}:43:9: error schema-invalid-value: runner.name: should be 'endpoints', 'lm-eval', 'evalscope', "
        "'inspect' or 'external' (got 'lm_eval') (did you mean `lm-eval`?)"
    ]


def test_an_unknown_key_gets_the_allowed_keys(catalog_dir: Path) -> None:
    assert problems_after(catalog_dir, GSM, "  batch_size: auto\n", "  batch_size: auto\n  limit: 100\n") == [
        f"{GSM_FILE}:47:3: error schema-unknown-key: unknown key `limit` in runner (allowed keys: batch_size, "
        "extra_args, name, rubric, task_hashes, task_versions, tasks, version)"
    ]


def test_a_near_miss_key_gets_a_suggestion(catalog_dir: Path) -> None:
    assert problems_after(catalog_dir, GSM, "  task_versions:", "  task_version:") == [
        f"{GSM_FILE}:47:3: error schema-unknown-key: unknown key `task_version` in runner "
        "(did you mean `task_versions` or `version`?)"
    ]


def test_the_version_is_a_pep_440_specifier(catalog_dir: Path) -> None:
    assert problems_after(catalog_dir, GSM, 'version: ">=0.4,<0.5"', 'version: "=>0.4"') == [
        f"{GSM_FILE}:45:12: error schema-invalid-value: runner.version: `=>0.4` is not a PEP 440 version "
        "specifier: write one such as >=0.4,<0.5 or ==0.4.13 (PEP 440)"
    ]


def test_a_rubric_needs_a_judging_runner(catalog_dir: Path) -> None:
    assert problems_after(catalog_dir, GSM, "  batch_size: auto\n", "  batch_size: auto\n  rubric: a/b\n") == [
        f"{GSM_FILE}:47:11: error schema-invalid-value: runner.rubric: runner `lm-eval` has no judge to grade "
        "with a rubric: give one to inspect or evalscope"
    ]


def _rename(root: Path, relative: str, old: str, new: str) -> None:
    path = root / "benchmark_suite" / relative
    path.write_text(path.read_text().replace(old, new))


def test_lm_eval_metric_keys_have_a_filter(catalog_dir: Path) -> None:
    replace_in(catalog_dir, "benchmark_suite/metrics.yaml", "  - key: exact_match,strict-match", "  - key: strict")
    _rename(catalog_dir, GSM, "exact_match,strict-match", "strict")
    assert problems(catalog_dir) == [
        f"{GSM_FILE}:29:7: error contract-inconsistent: `strict` is not a metric key lm-eval writes (lm-eval 0.4 "
        "writes `<metric>,<filter>`: exact_match,strict-match, or acc,none for a task without filters)"
    ]


def test_evalscope_metric_keys_name_their_aggregation(catalog_dir: Path) -> None:
    replace_in(catalog_dir, "benchmark_suite/metrics.yaml", "  - key: accuracy:mean", "  - key: accuracy")
    _rename(catalog_dir, CEVAL, "accuracy:mean", "accuracy")
    assert problems(catalog_dir) == [
        f"{CEVAL_FILE}:30:7: error contract-inconsistent: `accuracy` is not a metric key evalscope writes "
        "(evalscope writes `<name>:<aggregation>`: accuracy:mean)"
    ]


def test_a_pack_metric_key_must_be_in_the_registry(catalog_dir: Path) -> None:
    assert problems_after(catalog_dir, CEVAL, "    - accuracy:mean", "    - acuracy:mean") == [
        f"{CEVAL_FILE}:30:7: error ref-unknown-metric: unknown metric `acuracy:mean` (did you mean `accuracy:mean`?)",
        f"{CEVAL_FILE}:31:19: error contract-inconsistent: primary_metric `accuracy:mean` is neither reported nor "
        "thresholded",
    ]


def test_a_pack_lists_the_metrics_check_reads(catalog_dir: Path) -> None:
    text = "  reported_metrics:\n    - accuracy:mean\n  primary_metric: accuracy:mean\n"
    assert problems_after(catalog_dir, CEVAL, text, "") == [
        f"{CEVAL_FILE}:18:1: error contract-inconsistent: runner `evalscope` reports metrics that check reads by "
        "key, but accuracy.reported_metrics is empty (list the keys evalscope writes, verbatim)"
    ]


def test_a_harness_that_takes_tasks_runs_no_performance_phase(catalog_dir: Path) -> None:
    performance = (
        "performance:\n  datasets: [gsm8k]\n  generation:\n    temperature: 0.0\n    max_new_tokens: 256\n"
        "  requirements: {}\naccuracy:\n"
    )
    assert problems_after(catalog_dir, GSM, "accuracy:\n", performance) == [
        f"{GSM_FILE}:17:1: error contract-inconsistent: runner `lm-eval` measures no performance phase (run the "
        "performance phase with the endpoints client, as another benchmark)"
    ]


def test_a_harness_that_takes_tasks_needs_an_accuracy_phase(catalog_dir: Path) -> None:
    path = catalog_dir / "benchmark_suite" / CEVAL
    text = path.read_text()
    start, end = text.index("accuracy:\n"), text.index("postprocessing:")
    performance = (
        "performance:\n  datasets: [ceval]\n  generation:\n    temperature: 0.0\n    max_new_tokens: 16\n"
        "  requirements: {}\n"
    )
    path.write_text(text[:start] + performance + text[end:])
    assert problems(catalog_dir) == [
        f"{CEVAL_FILE}:18:1: error contract-inconsistent: runner `evalscope` measures no performance phase (run "
        "the performance phase with the endpoints client, as another benchmark)",
        f"{CEVAL_FILE}:34:9: error contract-inconsistent: runner `evalscope` scores answers, but the benchmark has "
        "no accuracy phase (state accuracy: its datasets, generation and the metrics the harness reports)",
    ]
