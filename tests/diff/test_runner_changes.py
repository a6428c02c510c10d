"""A pack's harness settings in `diff` and in the pull-request gate: the few-shot count and every
field of `runner` change what runs, so each is a contract change of its benchmark."""

from __future__ import annotations

from pathlib import Path

from catalogctl.api import diff_refs
from catalogctl.render.diff import diff_text
from tests.helpers import replace_in

GSM8K = "benchmark_suite/benchmarks/gsm8k.yaml"


def test_few_shot_and_runner_changes_are_contract_changes(catalog_repo: Path) -> None:
    replace_in(catalog_repo, GSM8K, "num_fewshot: 5", "num_fewshot: 8")
    replace_in(catalog_repo, GSM8K, 'version: ">=0.4,<0.5"', 'version: "==0.4.13"')
    replace_in(catalog_repo, GSM8K, "  tasks: [gsm8k]\n", "  tasks: [gsm8k_cot]\n")
    replace_in(catalog_repo, GSM8K, '    gsm8k: "3.0"', '    gsm8k_cot: "3.0"')
    report = diff_refs(catalog_repo, "v1")
    lines = diff_text(report).splitlines()
    assert [line for line in lines if line.startswith("  contract")] == [
        f"  contract  benchmark gsm8k: preprocessing.num_fewshot 5 -> 8  {GSM8K}:16:3",
        f'  contract  benchmark gsm8k: runner.task_versions {{"gsm8k": "3.0"}} -> {{"gsm8k_cot": "3.0"}}  {GSM8K}:47:3',
        f'  contract  benchmark gsm8k: runner.tasks ["gsm8k"] -> ["gsm8k_cot"]  {GSM8K}:44:3',
        f'  contract  benchmark gsm8k: runner.version ">=0.4,<0.5" -> "==0.4.13"  {GSM8K}:45:3',
    ]
    assert [(b.id, b.status) for b in report.benchmarks] == [("gsm8k", "changed")]
    assert lines[-1] == "4 changes: 4 contract, 0 display, 0 policy"


def test_naming_a_runner_is_a_contract_change(catalog_repo: Path) -> None:
    replace_in(catalog_repo, GSM8K, "  name: lm-eval\n", "  name: evalscope\n")
    replace_in(catalog_repo, GSM8K, "  batch_size: auto\n", "")
    report = diff_refs(catalog_repo, "v1")
    assert [(c.change_class, c.path, c.old, c.new) for c in report.changes] == [
        ("contract", "runner.batch_size", "auto", None),
        ("contract", "runner.name", "lm-eval", "evalscope"),
    ]
