"""`catalogctl new`: scaffolds that validate, pending where a person decides, never overwriting."""

from __future__ import annotations

from pathlib import Path

import pytest

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
