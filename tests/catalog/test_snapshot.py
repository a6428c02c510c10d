"""A check that starts from the last check of the same tree: unchanged files unread, and each
entity's cross-document findings found again exactly when something they read changed."""

from __future__ import annotations

import inspect
import json
import os
from pathlib import Path

import pytest

from catalogctl.catalog import loader, snapshot, verdict
from catalogctl.catalog.documentcache import cache_for
from catalogctl.catalog.layout import DEFAULT
from catalogctl.catalog.loader import load_tree
from catalogctl.catalog.verdict import check_tree
from catalogctl.errors import Diagnostic
from catalogctl.io import tree as tree_module
from catalogctl.io.cachestore import EntryStore
from catalogctl.io.tree import WorkingTree
from tests.helpers import counting_reads, replace_in

BENCHMARKS = "benchmark_suite/benchmarks"
SUITE_FILES = ["benchmark_suite/metrics.yaml", "benchmark_suite/suite.yaml"]


def _uncached(root: Path) -> list[Diagnostic]:
    return load_tree(WorkingTree(root), use_cache=False).diagnostics


def _check(root: Path) -> list[Diagnostic]:
    """A check that is neither remembered nor from scratch, and agrees with one from scratch."""
    found = check_tree(WorkingTree(root))
    assert not found.remembered
    assert found.diagnostics == _uncached(root)
    return found.diagnostics


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files the checks read (the test suite's own extra loads left out)."""
    monkeypatch.setattr(tree_module, "_SETTLED_NS", -(10**12))  # every file's stamp is trusted
    monkeypatch.setattr(loader.Loader, "load", inspect.unwrap(loader.Loader.load))
    return counting_reads(monkeypatch)


def _checked_once(root: Path, reads: list[str]) -> None:
    assert not check_tree(WorkingTree(root)).remembered
    reads.clear()


def test_an_edit_reads_the_edited_file_and_what_it_is_checked_against(catalog_repo: Path, reads: list[str]) -> None:
    _checked_once(catalog_repo, reads)
    replace_in(
        catalog_repo,
        f"{BENCHMARKS}/gsm8k.yaml",
        "8.5K grade-school math word problems requiring",
        "8.6K grade-school math word problems requiring",
    )
    found = check_tree(WorkingTree(catalog_repo))
    # The benchmark, and the dataset it is checked against again (built from the cache).
    assert sorted(set(reads)) == sorted(
        [f"{BENCHMARKS}/gsm8k.yaml", "benchmark_suite/datasets/gsm8k.yaml", *SUITE_FILES]
    )
    assert found.diagnostics == _uncached(catalog_repo)


def test_a_dataset_edit_checks_the_benchmarks_that_use_it_again(catalog_repo: Path, reads: list[str]) -> None:
    _checked_once(catalog_repo, reads)
    replace_in(catalog_repo, "benchmark_suite/datasets/gsm8k.yaml", "samples: 1319", "samples: 1320")
    found = check_tree(WorkingTree(catalog_repo))
    # The dataset, and the one benchmark that uses it (built to be checked again).
    assert sorted(set(reads)) == sorted(
        [f"{BENCHMARKS}/gsm8k.yaml", "benchmark_suite/datasets/gsm8k.yaml", *SUITE_FILES]
    )
    mismatches = [d.path for d in found.diagnostics if d.code == "figure-mismatch"]
    assert f"{BENCHMARKS}/gsm8k.yaml" in mismatches  # unchanged, found again under the new dataset
    assert found.diagnostics == _uncached(catalog_repo)


def test_a_hint_follows_what_exists_now(catalog_repo: Path) -> None:
    """A reference to an absent model is checked again each time: its hint lists the models
    there are, and a model added elsewhere changes it."""
    (catalog_repo / "benchmark_suite/models/llama3-1-8b.yaml").unlink()
    first = _check(catalog_repo)
    assert any(d.code == "ref-unknown-model" and "llama3-1-8b" in d.message for d in first)
    model = (catalog_repo / "benchmark_suite/models/deepseek-r1.yaml").read_text(encoding="utf-8")
    close = model.replace("id: deepseek-r1", "id: llama3-1-8c")
    (catalog_repo / "benchmark_suite/models/llama3-1-8c.yaml").write_text(close, encoding="utf-8")
    second = _check(catalog_repo)
    hints = {d.hint for d in second if d.code == "ref-unknown-model"}
    assert any("llama3-1-8c" in hint for hint in hints)
    assert second != first


def test_a_rename_is_judged_by_what_exists_now(catalog_repo: Path) -> None:
    """`renamed_from` names a benchmark that still exists; once that one is removed, the
    unchanged benchmark that names it is no longer in error."""
    path = catalog_repo / BENCHMARKS / "gsm8k.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "renamed_from: deepseek-r1\n", encoding="utf-8")
    assert any(d.code == "contract-inconsistent" and "renamed_from" in d.message for d in _check(catalog_repo))
    (catalog_repo / BENCHMARKS / "deepseek-r1.yaml").unlink()
    assert not any("renamed_from" in d.message for d in _check(catalog_repo))


def test_a_metric_removed_is_found_in_the_benchmarks_that_use_it(catalog_repo: Path) -> None:
    _check(catalog_repo)
    replace_in(catalog_repo, "benchmark_suite/metrics.yaml", "key: pass_at_4", "key: pass_at_4x")
    assert any(d.code == "ref-unknown-metric" for d in _check(catalog_repo))


def test_an_unchanged_entity_is_shown_where_it_stands(catalog_repo: Path) -> None:
    """A changed dataset takes an unchanged one's MLPerf name: the unchanged one, taken from the
    snapshot unread, is read for its position."""
    _check(catalog_repo)
    replace_in(catalog_repo, "benchmark_suite/datasets/aime25.yaml", "id: aime25", "id: aime25\nmlperf_name: gpqa")
    found = _check(catalog_repo)
    assert [d.code for d in found if d.code == "mlperf-name-ambiguous"] == ["mlperf-name-ambiguous"]


def test_a_pending_value_names_the_unchanged_benchmarks_it_blocks(catalog_repo: Path) -> None:
    _check(catalog_repo)
    replace_in(catalog_repo, "benchmark_suite/datasets/gsm8k.yaml", "samples: 1319", "samples: <TBD>")
    found = _check(catalog_repo)
    assert any(d.code == "pending-value" and "blocks freezing gsm8k" in d.message for d in found)


def _slot_key(root: Path) -> str:
    key = snapshot.slot(WorkingTree(root), DEFAULT)
    assert key is not None
    return key


@pytest.mark.parametrize(
    "payload",
    [
        b"not json",
        b'{"frame": 1, "files": []}',
        b'{"files": []}',
        json.dumps({"frame": "x", "files": [["p", "benchmark", "b", [], True]]}).encode(),  # no entity
        json.dumps({"frame": "x", "files": [["p", "suite", "b", [], True]]}).encode(),  # not a kind it holds
        json.dumps({"frame": "x", "files": [["p", "model", "b", [["bad"]], False]]}).encode(),
        json.dumps({"frame": "x", "files": [["p.yaml", "model", "b", [], True, [None], [], ""]]}).encode(),
    ],
)
def test_a_snapshot_that_does_not_decode_is_ignored(catalog_repo: Path, payload: bytes) -> None:
    assert snapshot.decode(payload) is None
    _check(catalog_repo)
    replace_in(catalog_repo, "benchmark_suite/datasets/gsm8k.yaml", "samples: 1319", "samples: 1320")
    store = EntryStore(Path(os.environ["CATALOGCTL_CACHE_DIR"]))
    store.put(_slot_key(catalog_repo), payload)
    store.flush()
    assert any(d.code == "figure-mismatch" for d in _check(catalog_repo))


def test_a_snapshot_is_used_only_in_its_own_frame(catalog_repo: Path) -> None:
    _check(catalog_repo)
    tree = WorkingTree(catalog_repo)
    manifest = verdict._manifest(tree, DEFAULT)
    assert manifest is not None
    assert snapshot.recall(cache_for(tree), _slot_key(catalog_repo), manifest.frame) is not None
    assert snapshot.recall(cache_for(tree), _slot_key(catalog_repo), "another frame") is None
