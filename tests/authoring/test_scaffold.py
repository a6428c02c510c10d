"""`catalogctl new`: scaffolds that validate, pending where a person decides, never overwriting."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalogctl.model.documents.benchmark import InferenceBenchmark
from tests.catalog_edit import load, problems
from tests.helpers import CliResult, run_cli


def new(root: Path, *args: str, code: int = 0) -> CliResult:
    return run_cli("new", *args, "-C", str(root), code=code)


@pytest.mark.parametrize(
    ("args", "path"),
    [
        (["model", "m1"], "benchmark_suite/models/m1.yaml"),
        (["dataset", "d1"], "benchmark_suite/datasets/d1.yaml"),
        (["benchmark", "b1"], "benchmark_suite/benchmarks/b1.yaml"),
        (["model", "m2", "--from", "llama3-1-8b"], "benchmark_suite/models/m2.yaml"),
        (["dataset", "d2", "--from", "r2e-gym-subset"], "benchmark_suite/datasets/d2.yaml"),
        (["benchmark", "b2", "--from", "gpt-oss-120b"], "benchmark_suite/benchmarks/b2.yaml"),
        (["benchmark", "b3", "--from", "llm-post-training"], "benchmark_suite/benchmarks/b3.yaml"),
    ],
)
def test_a_scaffold_validates_with_its_schema_line(catalog_dir: Path, args: list[str], path: str) -> None:
    done = new(catalog_dir, *args)
    assert done.stdout == f"wrote {path}\n"
    kind = path.split("/")[1][:-1]
    assert (catalog_dir / path).read_text().splitlines()[0] == (
        f"# yaml-language-server: $schema=../../schemas/{kind}.schema.json"
    )
    assert problems(catalog_dir) == []
    assert load(catalog_dir).ok


def test_a_new_model_leaves_its_repository_and_commit_pending(catalog_dir: Path) -> None:
    done = new(catalog_dir, "model", "m1")
    assert done.stderr.splitlines() == [
        "  pending: benchmark_suite/models/m1.yaml:3:15: model `m1`: reference_id is pending (<TBD>); "
        "blocks freezing any benchmark that uses it",
        "  pending: benchmark_suite/models/m1.yaml:4:6: model `m1`: sha is pending (<TBD>); "
        "blocks freezing any benchmark that uses it",
    ]


def test_a_copied_dataset_must_have_its_own_source_decided(catalog_dir: Path) -> None:
    new(catalog_dir, "dataset", "gsm8k-v2", "--from", "gsm8k")
    text = (catalog_dir / "benchmark_suite/datasets/gsm8k-v2.yaml").read_text()
    assert "id: gsm8k-v2\n" in text
    assert "  url: <TBD>\n  sha256: <TBD>\n" in text
    assert "samples: <TBD>\n" in text


def test_never_overwrites(catalog_dir: Path) -> None:
    before = (catalog_dir / "benchmark_suite/models/llama3-1-8b.yaml").read_text()
    done = new(catalog_dir, "model", "llama3-1-8b", code=2)
    assert done.stderr.splitlines() == [
        "error: benchmark_suite/models/llama3-1-8b.yaml exists: `new` never overwrites",
        "hint: edit it, or choose another id than `llama3-1-8b`",
    ]
    assert (catalog_dir / "benchmark_suite/models/llama3-1-8b.yaml").read_text() == before


@pytest.mark.parametrize("ident", ["../x", "a/b", "MMLU", "-x", "a..b"])
def test_refuses_ids_that_are_not_ids(catalog_dir: Path, ident: str) -> None:
    done = run_cli("new", "-C", str(catalog_dir), "dataset", "--", ident, code=2)
    assert done.stderr.startswith(f"error: `{ident}` is not a valid id")
    assert sorted(p.name for p in (catalog_dir / "benchmark_suite/datasets").iterdir()) == sorted(
        p.name for p in (Path(__file__).parent.parent.parent / "benchmark_suite/datasets").iterdir()
    )


def test_from_an_unknown_entity(catalog_dir: Path) -> None:
    done = new(catalog_dir, "model", "m1", "--from", "llama3", code=2)
    assert done.stderr.startswith("error: no valid model `llama3` to copy")


BENCHMARKS = "benchmark_suite/benchmarks"


def test_a_new_benchmark_takes_its_model_and_datasets(catalog_dir: Path) -> None:
    done = new(catalog_dir, "benchmark", "b1", "--model", "gpt-oss-120b", "--dataset", "aime25", "--dataset", "gpqa")
    assert done.stdout == f"wrote {BENCHMARKS}/b1.yaml\n"
    bench = load(catalog_dir).catalog.benchmarks["b1"]
    assert isinstance(bench, InferenceBenchmark)
    assert bench.accuracy is not None
    assert bench.model == "gpt-oss-120b"
    assert [(d.dataset, d.evaluation_recipe) for d in bench.accuracy.datasets] == [
        ("aime25", "mlperf_exact_match"),
        ("gpqa", "mlperf_multiple_choice"),
    ]
    assert bench.accuracy.dataset_aggregation.method == "unweighted_mean"
    assert problems(catalog_dir) == []


@pytest.mark.parametrize(
    ("args", "stderr"),
    [
        (
            ["--model", "gpt-oss-12b"],
            ["error: no valid model `gpt-oss-12b` for --model", "hint: did you mean `gpt-oss-120b`?"],
        ),
        (
            ["--dataset", "aime24"],
            ["error: no valid dataset `aime24` for --dataset", "hint: did you mean `aime25`?"],
        ),
        (
            ["--dataset", "zzz"],
            ["error: no valid dataset `zzz` for --dataset", "hint: list them with `catalogctl ls datasets`"],
        ),
        (
            ["--dataset", "gpt_oss_perf"],
            [
                "error: dataset `gpt_oss_perf` is not scored (no answers or no evaluation recipe): an accuracy "
                "dataset needs both",
                "hint: name a dataset with a ground truth and an evaluation recipe",
            ],
        ),
        (
            ["--from", "gsm8k", "--dataset", "aime25"],
            [
                "error: --dataset fills a new benchmark's template; a copy keeps its source's datasets",
                "hint: edit the copy's accuracy.datasets, or leave out --from",
            ],
        ),
    ],
)
def test_a_new_benchmarks_references_must_exist(catalog_dir: Path, args: list[str], stderr: list[str]) -> None:
    done = new(catalog_dir, "benchmark", "b1", *args, code=2)
    assert done.stderr.splitlines() == stderr
    assert not (catalog_dir / BENCHMARKS / "b1.yaml").exists()


def test_model_and_dataset_are_a_benchmarks_options(catalog_dir: Path) -> None:
    done = new(catalog_dir, "model", "m1", "--model", "llama3-1-8b", code=2)
    assert done.stderr == "error: --model and --dataset fill a new benchmark's references, not a model's\n"


def test_a_copy_keeps_the_sources_comments_and_i18n(catalog_dir: Path) -> None:
    # The copy was dumped from plain data: the comments and the `i18n` block were lost.
    source = (catalog_dir / BENCHMARKS / "gsm8k.yaml").read_text()
    new(catalog_dir, "benchmark", "gsm8k-cot", "--from", "gsm8k", "--model", "gpt-oss-120b")
    copy = (catalog_dir / BENCHMARKS / "gsm8k-cot.yaml").read_text()
    assert copy == (
        source.replace("id: gsm8k\n", "id: gsm8k-cot\n")
        .replace("Grade-school math word problems\n", "Grade-school math word problems (copy of gsm8k)\n")
        .replace("model: llama3-1-8b\n", "model: gpt-oss-120b\n")
    )
    assert "  # Strict and flexible are both reported" in copy
    assert "    title: GSM8K · 小学数学应用题\n" in copy
    assert problems(catalog_dir) == []


def test_a_copy_leaves_out_the_names_that_stand_for_its_source(catalog_dir: Path) -> None:
    new(catalog_dir, "model", "llama-copy", "--from", "llama3-1-8b")
    copy = (catalog_dir / "benchmark_suite/models/llama-copy.yaml").read_text()
    # The lines that introduce mlperf_name go with it; the sha's own comment stays.
    assert "mlperf_name" not in copy
    assert "model directory name" not in copy
    assert copy.endswith("\nlicense: Llama 3.1 Community License\n")
    assert [line.split("  #")[0].rstrip() for line in copy.splitlines() if line.startswith("sha:")] == ["sha: <TBD>"]
    assert problems(catalog_dir) == []
