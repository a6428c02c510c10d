"""`catalogctl diff` on real repositories with tags."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalogctl import load_catalog
from catalogctl.api import diff_refs
from catalogctl.catalog.contract import contract_digest
from catalogctl.diff.markdown import diff_markdown
from catalogctl.diff.trees import DiffReport
from catalogctl.errors import CatalogInvalid, RefNotFound
from catalogctl.render.diff import diff_github, diff_text
from tests.helpers import commit_all, git, replace_in, run_cli, write

AIME = "benchmark_suite/datasets/aime25.yaml"
GPT = "benchmark_suite/benchmarks/gpt-oss-120b.yaml"


def changes(report: DiffReport) -> list[tuple[str, str, str, str, str]]:
    return [(c.change_class, c.kind, c.id, c.change, c.path) for c in report.changes]


def test_no_changes_at_all(catalog_repo: Path) -> None:
    report = diff_refs(catalog_repo, "v1")
    assert report.changes == []
    assert not report.semantic
    assert diff_text(report).splitlines()[-1] == "no semantic changes"


def test_comment_and_formatting_only_edits_are_no_semantic_change(catalog_repo: Path) -> None:
    replace_in(catalog_repo, GPT, "kind: inference\n", "# reviewed\nkind: inference\n")
    replace_in(
        catalog_repo,
        GPT,
        "    temperature: 1.0\n    top_p: 1.0\n    top_k: 0\n    reasoning_effort: low\n"
        "    max_new_tokens: 10240\n  requirements",
        "    max_new_tokens: 10240\n    top_k: 0\n    temperature: 1\n    top_p: 1.0\n"
        "    reasoning_effort: low\n  requirements",
    )
    replace_in(catalog_repo, AIME, "prompts:\n  column: question", "prompts: {column: 'question'}")
    report = diff_refs(catalog_repo, "v1")
    assert report.changes == []
    assert [(b.id, b.status) for b in report.benchmarks] == [("gpt-oss-120b", "identical")]
    assert diff_text(report) == f"diff {report.old.label} -> working tree\n\nno semantic changes\n"


def test_reordering_identity_lists_and_gates_is_no_change(catalog_repo: Path) -> None:
    text = (catalog_repo / GPT).read_text()
    aime_block = text[text.index("    - dataset: aime25") : text.index("    - dataset: gpqa")]
    text = text.replace(aime_block, "").replace(
        "  generation:\n    temperature: 1.0\n    top_p: 1.0\n    top_k: 0\n"
        "    reasoning_effort: low\n    max_new_tokens: 10240\n  dataset_",
        aime_block + "  generation:\n    temperature: 1.0\n    top_p: 1.0\n"
        "    top_k: 0\n    reasoning_effort: low\n    max_new_tokens: 10240\n"
        "  dataset_",
    )
    text = text.replace(
        "    - dataset_integrity\n    - model_integrity", "    - model_integrity\n    - dataset_integrity"
    )
    (catalog_repo / GPT).write_text(text)
    moved = load_catalog(catalog_repo)
    assert moved.ok
    bench = moved.catalog.benchmarks["gpt-oss-120b"]
    assert [d.dataset for d in bench.accuracy.datasets] == ["gpqa", "livecodebench", "aime25"]  # type: ignore[union-attr]
    report = diff_refs(catalog_repo, "v1")
    assert report.changes == []
    assert [(b.id, b.status) for b in report.benchmarks] == [("gpt-oss-120b", "identical")]


def test_each_class_of_change_with_position_and_impact(catalog_repo: Path) -> None:
    replace_in(catalog_repo, AIME, "samples: 30", "samples: 31")  # contract, shared by no other benchmark
    replace_in(catalog_repo, AIME, "title: AIME 2025", "title: AIME 2025 (I)")  # display
    replace_in(catalog_repo, "benchmark_suite/suite.yaml", "valid_for: 4", "valid_for: 6")  # policy
    replace_in(catalog_repo, GPT, "min_accuracy_sample_count: 4395", "min_accuracy_sample_count: 4419")
    report = diff_refs(catalog_repo, "v1")
    assert changes(report) == [
        ("contract", "benchmark", "gpt-oss-120b", "modified", "accuracy.requirements.min_accuracy_sample_count"),
        ("contract", "dataset", "aime25", "modified", "samples"),
        ("policy", "suite", "mlperf-endpoints", "modified", "policies.seed_rotation.valid_for"),
        ("display", "dataset", "aime25", "modified", "title"),
    ]
    samples = report.changes[1]
    assert (samples.old, samples.new, samples.file, samples.line, samples.column) == (30, 31, AIME, 5, 1)
    assert samples.impact == ["gpt-oss-120b"]
    assert report.changes[3].impact == []
    assert report.summary == {"contract": 2, "display": 1, "policy": 1}
    [status] = report.benchmarks
    assert (status.id, status.status) == ("gpt-oss-120b", "changed")
    assert status.old_digest != status.new_digest


def test_an_mlperf_name_is_a_contract_change(catalog_repo: Path) -> None:
    # The official checker keys a dataset by it: renaming it changes what the checker applies.
    perf = "benchmark_suite/datasets/gpt_oss_perf.yaml"
    replace_in(catalog_repo, perf, "mlperf_name: mlperf_gpt_oss_performance", "mlperf_name: mlperf_gpt_oss_perf")
    report = diff_refs(catalog_repo, "v1")
    assert changes(report) == [("contract", "dataset", "gpt_oss_perf", "modified", "mlperf_name")]
    assert report.changes[0].impact == ["gpt-oss-120b"]


def test_impact_through_a_shared_dataset(catalog_repo: Path) -> None:
    bench = (catalog_repo / "benchmark_suite/benchmarks/gsm8k.yaml").read_text()
    bench = bench.replace("id: gsm8k", "id: gsm8k-aime").replace("dataset: gsm8k", "dataset: aime25")
    bench = bench.replace("evaluation_recipe: lm_eval_gsm8k", "evaluation_recipe: mlperf_exact_match")
    bench = bench.replace("min_accuracy_sample_count: 1319", "min_accuracy_sample_count: 30")
    write(catalog_repo, "benchmark_suite/benchmarks/gsm8k-aime.yaml", bench)
    commit_all(catalog_repo, "A second benchmark on aime25")
    git(catalog_repo, "tag", "v2")
    replace_in(catalog_repo, AIME, "sha256: <TBD>", "sha256: " + "ab" * 32)
    report = diff_refs(catalog_repo, "v2")
    assert changes(report) == [("contract", "dataset", "aime25", "modified", "source.sha256")]
    assert report.changes[0].impact == ["gpt-oss-120b", "gsm8k-aime"]
    assert [(b.id, b.status) for b in report.benchmarks] == [("gpt-oss-120b", "changed"), ("gsm8k-aime", "changed")]


def test_metric_change_reaches_benchmarks_through_requirements(catalog_repo: Path) -> None:
    old = "direction: lower\n    ratio: false\n    description: 99th percentile of the time from"
    replace_in(catalog_repo, "benchmark_suite/metrics.yaml", old, old.replace("lower", "higher"))
    report = diff_refs(catalog_repo, "v1")
    assert changes(report) == [("contract", "metric", "ttft_p99_ms", "modified", "direction")]
    assert report.changes[0].impact == ["gpt-oss-120b"]
    assert report.changes[0].line == 84


def test_recipe_change_impacts_only_its_users(catalog_repo: Path) -> None:
    replace_in(catalog_repo, "benchmark_suite/datasets/gsm8k.yaml", "scorer: lm_eval", "scorer: lm_eval_v2")
    report = diff_refs(catalog_repo, "v1")
    assert changes(report) == [("contract", "dataset", "gsm8k", "modified", "evaluation_recipes.lm_eval_gsm8k.scorer")]
    assert report.changes[0].impact == ["gsm8k"]


def test_removal_is_reported_at_its_old_line(catalog_repo: Path) -> None:
    replace_in(catalog_repo, GPT, "    max_ttft_latency_ms: 3000\n", "")
    (catalog_repo / "benchmark_suite/benchmarks/gsm8k.yaml").unlink()
    report = diff_refs(catalog_repo, "v1")
    assert changes(report) == [
        ("contract", "benchmark", "gpt-oss-120b", "modified", "performance.requirements.max_ttft_latency_ms"),
        ("contract", "benchmark", "gsm8k", "removed", ""),
    ]
    removed = report.changes[1]
    assert (removed.file, removed.line) == ("benchmark_suite/benchmarks/gsm8k.yaml", 2)
    field = report.changes[0]
    assert (field.old, field.new) == (3000.0, None)
    assert (field.file, field.line) == (GPT, 24)  # where the requirements block stands in NEW
    statuses = {b.id: b.status for b in report.benchmarks}
    assert statuses == {"gpt-oss-120b": "changed", "gsm8k": "removed"}


def test_rename_is_one_rename(catalog_repo: Path) -> None:
    models = catalog_repo / "benchmark_suite/models"
    text = (
        (models / "llama3-1-8b.yaml")
        .read_text()
        .replace("id: llama3-1-8b", "id: llama-3-1-8b\nrenamed_from: llama3-1-8b")
    )
    (models / "llama3-1-8b.yaml").unlink()
    write(catalog_repo, "benchmark_suite/models/llama-3-1-8b.yaml", text)
    for bench in ("ceval", "gsm8k", "llama3-1-8b"):
        path = f"benchmark_suite/benchmarks/{bench}.yaml"
        replace_in(catalog_repo, path, "model: llama3-1-8b", "model: llama-3-1-8b")
    report = diff_refs(catalog_repo, "v1")
    assert changes(report) == [
        ("contract", "benchmark", "ceval", "modified", "model"),
        ("contract", "benchmark", "gsm8k", "modified", "model"),
        ("contract", "benchmark", "llama3-1-8b", "modified", "model"),
        ("contract", "model", "llama-3-1-8b", "renamed", "renamed_from"),
    ]
    rename = next(c for c in report.changes if c.change == "renamed")
    assert (rename.old, rename.new, rename.line) == ("llama3-1-8b", "llama-3-1-8b", 3)
    assert not any(c.change in ("added", "removed") for c in report.changes)


def test_fingerprints_are_stable(catalog_repo: Path, tmp_path: Path) -> None:
    replace_in(catalog_repo, AIME, "samples: 30", "samples: 31")
    first = diff_refs(catalog_repo, "v1").changes[0].fingerprint
    assert diff_refs(catalog_repo, "v1").changes[0].fingerprint == first
    commit_all(catalog_repo, "More samples")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(catalog_repo), str(clone))
    assert diff_refs(clone, "v1", "HEAD").changes[0].fingerprint == first
    assert len(first) == 16


def test_unknown_and_shallow_refs(catalog_repo: Path, tmp_path: Path) -> None:
    with pytest.raises(RefNotFound, match="unknown ref `nope`"):
        diff_refs(catalog_repo, "nope")
    commit_all(catalog_repo, "second")
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", "--no-tags", f"file://{catalog_repo}", str(shallow))
    with pytest.raises(RefNotFound) as caught:
        diff_refs(shallow, "v1")
    assert "shallow clone" in caught.value.hint


def test_invalid_side_is_refused(catalog_repo: Path) -> None:
    replace_in(catalog_repo, AIME, "samples: 30", "samples: thirty")
    with pytest.raises(CatalogInvalid, match="cannot diff"):
        diff_refs(catalog_repo, "v1")


# -- cohorts ---------------------------------------------------------------------------------


def freeze(root: Path, cohort: str, previous: str | None, benchmarks: list[str], seed_sets: str) -> None:
    """Write a ruleset with the digests of the working tree, commit it and tag it."""
    catalog = load_catalog(root).catalog
    lines = [
        f"cohort: {cohort}",
        "submission_date: 2026-09-02",
        f"previous: {previous or 'null'}",
        "frozen_at: 2026-08-28T12:00:00Z",
        "catalog_tree: 4b825dc642cb6eb9a060e54bf8d69288fbee4904",
        "benchmarks:",
    ]
    for bench in benchmarks:
        lines += [f"  - id: {bench}", f"    digest: {contract_digest(catalog, bench)}"]
    write(root, f"rulesets/{cohort}.yaml", "\n".join(lines) + "\n" + seed_sets)
    commit_all(root, f"Freeze {cohort}")
    git(root, "tag", "-a", cohort, "-m", cohort)


SET_A = """seed_sets:
  - id: A
    scheduler_rng_seed: 16159082839903944936
    sample_index_rng_seed: 2747215439041700203
    model_seed: 42
    introduced_in: 2026-09-C0
    valid_through: 2026-09-C1
"""
SET_B = """  - id: B
    scheduler_rng_seed: 1
    sample_index_rng_seed: 2
    model_seed: 3
    introduced_in: 2026-09-C1
    valid_through: 2026-11-C0
"""


@pytest.fixture
def two_cohorts(catalog_repo: Path) -> Path:
    freeze(catalog_repo, "2026-09-C0", None, ["deepseek-r1", "gpt-oss-120b"], SET_A)
    replace_in(catalog_repo, AIME, "samples: 30", "samples: 31")
    replace_in(catalog_repo, GPT, "min_accuracy_sample_count: 4395", "min_accuracy_sample_count: 4403")
    freeze(catalog_repo, "2026-09-C1", "2026-09-C0", ["gpt-oss-120b", "gsm8k"], SET_A + SET_B)
    return catalog_repo


def test_between_two_cohorts(two_cohorts: Path) -> None:
    report = diff_refs(two_cohorts, "2026-09-C0", "2026-09-C1")
    delta = report.cohorts
    assert delta is not None
    assert (delta.benchmarks_added, delta.benchmarks_removed) == (["gsm8k"], ["deepseek-r1"])
    assert (delta.benchmarks_identical, delta.benchmarks_changed) == ([], ["gpt-oss-120b"])
    assert (delta.seed_sets.introduced, delta.seed_sets.still_valid, delta.seed_sets.retired) == (["B"], ["A"], [])
    assert ("policy", "ruleset", "2026-09-C1", "added", "") in changes(report)
    text = diff_text(report)
    assert "cohort 2026-09-C0 -> 2026-09-C1" in text
    assert "  seed sets introduced: B" in text


def test_cohort_without_its_tag_is_found_and_the_output_says_so(two_cohorts: Path) -> None:
    git(two_cohorts, "tag", "-d", "2026-09-C0")
    report = diff_refs(two_cohorts, "2026-09-C0", "2026-09-C1")
    assert report.old.note.startswith("tag `2026-09-C0` not found: using ")
    assert report.cohorts is not None
    assert diff_text(report).splitlines()[1].startswith("note: tag `2026-09-C0` not found")


def test_retired_seed_set(two_cohorts: Path) -> None:
    replace_in(two_cohorts, "rulesets/2026-09-C1.yaml", "- id: A", "- id: C")
    commit_all(two_cohorts, "Rotate")
    git(two_cohorts, "tag", "-f", "-a", "2026-09-C1", "-m", "moved")
    delta = diff_refs(two_cohorts, "2026-09-C0", "2026-09-C1").cohorts
    assert delta is not None
    assert (delta.seed_sets.introduced, delta.seed_sets.retired) == (["B", "C"], ["A"])


# -- outputs -------------------------------------------------------------------------------------


def test_json_output_has_the_documented_shape(two_cohorts: Path) -> None:
    result = run_cli("diff", "2026-09-C0", "2026-09-C1", "-C", str(two_cohorts), "-f", "json")
    data = json.loads(result.stdout)
    assert data["schema"] == "catalogctl/diff/v1"
    DiffReport.model_validate(data)  # the documented shape, field by field
    assert set(data["changes"][0]) == {
        "kind",
        "id",
        "change",
        "path",
        "old",
        "new",
        "class",
        "fingerprint",
        "file",
        "line",
        "column",
        "impact",
    }


def test_markdown_and_github_outputs(catalog_repo: Path) -> None:
    replace_in(catalog_repo, AIME, "samples: 30", "samples: 31")
    replace_in(catalog_repo, AIME, "title: AIME 2025", "title: AIME | 2025")
    report = diff_refs(catalog_repo, "v1")
    markdown = diff_markdown(report)
    assert (
        "| contract | dataset aime25: samples 30 -> 31 | `gpt-oss-120b` | `benchmark_suite/datasets/aime25.yaml:5:1` |"
        in markdown
    )
    assert 'title "AIME 2025" -> "AIME \\| 2025"' in markdown
    github = diff_github(report).splitlines()
    assert github[0] == (
        "::warning file=benchmark_suite/datasets/aime25.yaml,line=5,col=1,title=contract change::"
        "dataset aime25: samples 30 -> 31 (changes gpt-oss-120b)"
    )
    assert github[1].startswith(
        "::notice file=benchmark_suite/datasets/aime25.yaml,line=3,col=1,title=display change::"
    )


@pytest.mark.parametrize(("fail_on", "code"), [("never", 0), ("any", 1), ("contract", 0)])
def test_fail_on_display_change(catalog_repo: Path, fail_on: str, code: int) -> None:
    replace_in(catalog_repo, AIME, "title: AIME 2025", "title: AIME 2025 (I)")
    run_cli("diff", "v1", "-C", str(catalog_repo), "--fail-on", fail_on, code=code)


def test_fail_on_contract_change(catalog_repo: Path) -> None:
    replace_in(catalog_repo, AIME, "samples: 30", "samples: 31")
    result = run_cli("diff", "v1", "-C", str(catalog_repo), "--fail-on", "contract", code=1)
    assert "gpt-oss-120b: contract changed" in result.stdout


def test_unknown_ref_exits_2(catalog_repo: Path) -> None:
    result = run_cli("diff", "v9", "-C", str(catalog_repo), code=2)
    assert result.stderr == "error: unknown ref `v9`\nhint: fetch it first: git fetch --tags origin\n"
    result = run_cli("diff", "2026-09-C0", "-C", str(catalog_repo), code=2)  # a cohort: the clone has every tag
    assert result.stderr == (
        "error: no such cohort `2026-09-C0`: no release tag and no rulesets/2026-09-C0.yaml\n"
        "hint: list the frozen cohorts with `catalogctl cohorts`\n"
    )


def test_fail_on_contract_ignores_a_contract_field_no_benchmark_uses(catalog_repo: Path) -> None:
    replace_in(
        catalog_repo,
        "benchmark_suite/datasets/gpqa.yaml",
        "  mlperf_multiple_choice:",
        "  unused:\n    scorer: x\n    ground_truth: <TBD>\n  mlperf_multiple_choice:",
    )
    report = diff_refs(catalog_repo, "v1")
    assert [(c.change_class, c.impact) for c in report.changes] == [("contract", [])]
    assert not report.contracts_changed
    run_cli("diff", "v1", "-C", str(catalog_repo), "--fail-on", "contract")


def test_an_approved_drafter_is_a_contract_change_and_its_order_is_none(catalog_repo: Path) -> None:
    bench = "benchmark_suite/benchmarks/deepseek-r1.yaml"
    text = (catalog_repo / bench).read_text()
    first, second = text.split("  - model_id: ")[1:]
    reordered = text.replace(
        f"  - model_id: {first}  - model_id: {second}", f"  - model_id: {second}  - model_id: {first}"
    )
    write(catalog_repo, bench, reordered if reordered.endswith("\n") else reordered + "\n")
    assert changes(diff_refs(catalog_repo, "v1")) == []
    nvfp4 = "93947a0d7bd04f73ff98636f6b18ff5839e7aaf9\n    approved_cohort: "
    replace_in(catalog_repo, bench, nvfp4 + "2026-09-C1", nvfp4 + "2026-10-C0")
    report = diff_refs(catalog_repo, "v1")
    assert changes(report) == [
        (
            "contract",
            "benchmark",
            "deepseek-r1",
            "modified",
            "approved_drafters.git-sha1:93947a0d7bd04f73ff98636f6b18ff5839e7aaf9.approved_cohort",
        )
    ]
    assert report.changes[0].line == 66
