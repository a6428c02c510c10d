"""`ci` costs what the pull request touches: the head's verdict is remembered, and the whole
catalogs are loaded only when a policy rule needs them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from catalogctl.catalog import loader
from tests.helpers import commit_all, git, replace_in, run_cli
from tests.review_repo import GSM8K, RULESET, TODAY, gate


def _count_whole_loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    loads: list[str] = []
    for name in ("load_tree", "load_documents"):
        real = getattr(loader, name)

        def counted(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            loads.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(loader, name, counted)
    return loads


def test_a_second_gate_on_a_contract_change_loads_no_whole_catalog(
    frozen: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    replace_in(frozen, GSM8K, "max_new_tokens: 256", "max_new_tokens: 512")
    first = gate(frozen, "-f", "json").stdout
    loads = _count_whole_loads(monkeypatch)
    assert gate(frozen, "-f", "json").stdout == first
    assert loads == []  # the head's verdict is remembered; no rule needed a whole catalog
    assert "contract-change-next-freeze" in first


def test_a_removal_a_frozen_cohort_uses_still_loads_both_sides(frozen: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (frozen / "benchmark_suite/datasets/gsm8k.yaml").unlink()
    first = gate(frozen, code=1).stdout
    loads = _count_whole_loads(monkeypatch)
    second = gate(frozen, code=1).stdout
    assert second == first
    assert "frozen-reference-removed" in second
    # the head's whole catalog (load_tree, through load_documents), and the base's documents
    assert sorted(loads) == ["load_documents", "load_documents", "load_tree"]


@pytest.mark.parametrize("replacement", ["folder", "symlink"])
def test_a_frozen_benchmark_replaced_by_what_is_no_file_is_a_removal(frozen: Path, replacement: str) -> None:
    path = frozen / GSM8K
    text = path.read_text(encoding="utf-8")
    path.unlink()
    if replacement == "folder":
        path.mkdir()
        (path / "README").write_text("x\n", encoding="utf-8")
    else:
        (frozen / "gsm8k.yaml").write_text(text, encoding="utf-8")
        path.symlink_to(frozen / "gsm8k.yaml")
    done = gate(frozen, code=1)
    assert "frozen-reference-removed" in done.stdout


def test_a_frozen_ruleset_replaced_by_a_folder_is_a_deletion(frozen: Path) -> None:
    path = frozen / RULESET
    path.unlink()
    path.mkdir()
    (path / "README").write_text("x\n", encoding="utf-8")
    done = gate(frozen, code=1)
    assert "ruleset-deleted" in done.stdout


def test_an_entity_folder_replaced_by_a_file_is_findings_not_a_crash(frozen: Path) -> None:
    folder = frozen / "benchmark_suite/models"
    for child in folder.iterdir():
        child.unlink()
    folder.rmdir()
    folder.write_text("not a folder\n", encoding="utf-8")
    done = gate(frozen, code=1)
    assert "frozen-reference-removed" in done.stdout


def test_moving_the_catalog_folder_is_an_error_the_gate_cannot_accept(frozen: Path) -> None:
    """Read with the head's folders, the base looked empty: a pull request that moved the catalog
    and deleted a frozen benchmark on the way passed the gate."""
    (frozen / "benchmark_suite").rename(frozen / "suite2")
    (frozen / "suite2/benchmarks/gsm8k.yaml").unlink()
    (frozen / "catalogctl.toml").write_text('catalog = "suite2"\n', encoding="utf-8")
    done = gate(frozen, "-f", "json", code=1)
    moved = [f for f in json.loads(done.stdout)["findings"] if f["code"] == "layout-changed"]
    assert [(f["severity"], f["status"]) for f in moved] == [("error", "open")]
    assert moved[0]["message"] == (
        "the pull request moves the catalog folder from benchmark_suite to suite2: the gate compares "
        "both sides folder by folder and cannot review a move"
    )


def test_an_entity_folder_replaced_by_a_symlink_removes_what_it_held(frozen: Path) -> None:
    folder = frozen / "benchmark_suite/benchmarks"
    folder.rename(frozen / ".benchmarks-elsewhere")
    folder.symlink_to(frozen / ".benchmarks-elsewhere")
    done = gate(frozen, code=1)
    assert done.stdout.count("frozen-reference-removed") == 2  # gsm8k and deepseek-r1


def test_a_head_ref_that_moves_the_catalog_is_reviewed_with_its_own_configuration(frozen: Path) -> None:
    """`--head REF` with main checked out: the head's configuration is the ref's, not the
    working tree's (the move, and the frozen benchmark deleted on the way, passed the gate)."""
    shutil.copytree(frozen / "benchmark_suite", frozen / "cat")
    (frozen / "cat/benchmarks/gsm8k.yaml").unlink()  # the old folder stays, unread
    (frozen / "catalogctl.toml").write_text('catalog = "cat"\n', encoding="utf-8")
    commit_all(frozen, "move the catalog")
    git(frozen, "checkout", "-q", "main")
    done = run_cli("ci", "--base", "main", "--head", "pr", "-C", str(frozen), "--today", TODAY, "-f", "json", code=1)
    codes = [f["code"] for f in json.loads(done.stdout)["findings"]]
    assert "layout-changed" in codes


def test_a_move_is_reported_alone_not_as_a_catalog_read_as_new(frozen: Path) -> None:
    (frozen / "benchmark_suite").rename(frozen / "suite2")
    (frozen / "catalogctl.toml").write_text('catalog = "suite2"\n', encoding="utf-8")
    done = json.loads(gate(frozen, "-f", "json", code=1).stdout)
    assert [f["code"] for f in done["findings"]] == ["layout-changed"]
    assert not any("read as an empty catalog" in note for note in done["notes"])


def test_an_invalid_configuration_at_the_base_is_named_as_the_base(frozen: Path) -> None:
    git(frozen, "checkout", "-q", "main")
    (frozen / "catalogctl.toml").write_text("catalog = 3\n", encoding="utf-8")
    commit_all(frozen, "a broken configuration")
    git(frozen, "checkout", "-q", "pr")
    git(frozen, "merge", "-q", "main")
    (frozen / "catalogctl.toml").unlink()  # the pull request fixes it
    done = run_cli("ci", "--base", "main", "-C", str(frozen), "--today", TODAY, code=2)
    assert done.stderr.startswith("error: the configuration at the base main: catalogctl.toml")
