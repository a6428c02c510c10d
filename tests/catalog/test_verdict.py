"""The remembered verdict of a whole catalog: given only for exactly the inputs it was found on."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from catalogctl.catalog import loader, verdict
from catalogctl.catalog.layout import DEFAULT
from catalogctl.catalog.loader import load_tree
from catalogctl.catalog.verdict import catalog_key, check_tree
from catalogctl.errors import Diagnostic
from catalogctl.io import cachestore as cache_module
from catalogctl.io import tree as tree_module
from catalogctl.io.cachestore import EntryStore
from catalogctl.io.gitrepo import lookup, open_repository
from catalogctl.io.gittree import GitTree
from catalogctl.io.tree import WorkingTree
from tests.helpers import copy_catalog, counting_reads, replace_in

DATASET = "benchmark_suite/datasets/gsm8k.yaml"
MODEL = "benchmark_suite/models/gpt-oss-120b.yaml"


def _uncached(root: Path) -> list[Diagnostic]:
    return load_tree(WorkingTree(root), use_cache=False).diagnostics


def _store(root: Path) -> Path:
    return Path(os.environ["CATALOGCTL_CACHE_DIR"]) / "entries.sqlite"


def _warm(root: Path) -> None:
    assert not check_tree(WorkingTree(root)).remembered
    assert check_tree(WorkingTree(root)).remembered


def test_a_second_check_is_the_remembered_verdict(catalog_repo: Path) -> None:
    replace_in(catalog_repo, DATASET, "samples: 1319", "samples: 1320")  # a cross-document mismatch
    first = check_tree(WorkingTree(catalog_repo))
    second = check_tree(WorkingTree(catalog_repo))
    assert (first.remembered, second.remembered) == (False, True)
    assert second.diagnostics == first.diagnostics == _uncached(catalog_repo)
    assert any(d.code == "figure-mismatch" for d in second.diagnostics)


def _edit_figure(root: Path) -> None:
    replace_in(root, DATASET, "samples: 1319", "samples: 1320")


def _add_invalid_file(root: Path) -> None:
    (root / "benchmark_suite/models/extra.yaml").write_text("id: extra\nunknown: 1\n", encoding="utf-8")


def _remove_model(root: Path) -> None:
    (root / MODEL).unlink()


def _rename_file(root: Path) -> None:
    (root / DATASET).rename(root / "benchmark_suite/datasets/gsm8k-renamed.yaml")


def _replace_by_symlink(root: Path) -> None:
    target = root / DATASET
    target.rename(root / "gsm8k.yaml")
    target.symlink_to(root / "gsm8k.yaml")


def _stray_file(root: Path) -> None:
    (root / "benchmark_suite/benchmarks/notes.txt").write_text("hello\n", encoding="utf-8")


def _folder_for_file(root: Path) -> None:
    (root / "benchmark_suite/metrics.yaml").unlink()
    (root / "benchmark_suite/metrics.yaml").mkdir()


def _same_size_edit(root: Path) -> None:
    # Same size, same mtime: only the content (and the change time) differ.
    path = root / DATASET
    info = path.stat()
    path.write_bytes(path.read_bytes().replace(b"samples: 1319", b"samples: 1318"))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


MUTATIONS: dict[str, Callable[[Path], None]] = {
    "figure edited": _edit_figure,
    "invalid file added": _add_invalid_file,
    "model removed": _remove_model,
    "file renamed": _rename_file,
    "file replaced by a symlink": _replace_by_symlink,
    "stray file": _stray_file,
    "folder instead of a file": _folder_for_file,
    "same size and mtime": _same_size_edit,
}


@pytest.mark.parametrize("mutation", MUTATIONS.values(), ids=MUTATIONS.keys())
def test_any_change_is_checked_again(catalog_repo: Path, mutation: Callable[[Path], None]) -> None:
    _warm(catalog_repo)
    before = check_tree(WorkingTree(catalog_repo)).diagnostics
    mutation(catalog_repo)
    after = check_tree(WorkingTree(catalog_repo))
    assert not after.remembered
    assert after.diagnostics == _uncached(catalog_repo)
    assert after.diagnostics != before  # each mutation shows in the verdict
    again = check_tree(WorkingTree(catalog_repo))
    assert again.remembered
    assert again.diagnostics == after.diagnostics


def test_another_tool_version_or_rule_source_is_not_the_same_verdict(
    catalog_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _warm(catalog_repo)
    monkeypatch.setattr(verdict, "__version__", "99.0.0")
    assert not check_tree(WorkingTree(catalog_repo)).remembered
    monkeypatch.setattr(verdict, "sources_digest", lambda names: "another rule source")
    assert not check_tree(WorkingTree(catalog_repo)).remembered


def _verdict_rows(root: Path) -> list[tuple[str, str, bytes]]:
    with closing(sqlite3.connect(_store(root))) as db:
        rows = db.execute("SELECT key, checksum, payload FROM entries").fetchall()
    return [row for row in rows if row[0] == catalog_key(WorkingTree(root), DEFAULT)]


@pytest.mark.parametrize("damage", ["corrupt", "lying"])
def test_a_damaged_verdict_is_not_trusted(catalog_repo: Path, damage: str) -> None:
    _edit_figure(catalog_repo)
    _warm(catalog_repo)
    [(key, _, _)] = _verdict_rows(catalog_repo)
    if damage == "corrupt":  # the payload changed under its checksum: an error dropped
        with closing(sqlite3.connect(_store(catalog_repo))) as db, db:
            forged = json.dumps({"diagnostics": [], "data": None}).encode()
            db.execute("UPDATE entries SET payload = ? WHERE key = ?", (forged, key))
    else:  # a sound entry that is no verdict (it holds a document's data)
        store = EntryStore(_store(catalog_repo).parent)
        store.put(key, json.dumps({"diagnostics": [], "data": {"id": "x"}}).encode())
        store.flush()
    found = check_tree(WorkingTree(catalog_repo))
    assert not found.remembered
    assert found.diagnostics == _uncached(catalog_repo)
    assert any(d.code == "figure-mismatch" for d in found.diagnostics)


# The first check reads the edited file's positions while it is edited only because the cache
# check's extra loads run first; without them that check stops with DocumentChanged (the file
# changed while catalogctl read it), and the verdict asserted below is never given.
@pytest.mark.cache_check
def test_a_file_changed_while_it_is_checked_is_not_remembered(
    catalog_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The load reads an edited file, which is put back before the run ends: its folders hold
    what they held at the start, but the verdict is of the edit."""
    path = catalog_repo / DATASET
    original = path.read_bytes()
    real = loader.Loader.load

    def edited_meanwhile(self: Any) -> Any:
        path.write_bytes(original.replace(b"samples: 1319", b"samples: 1320"))
        try:
            return real(self)
        finally:
            path.write_bytes(original)

    monkeypatch.setattr(loader.Loader, "load", edited_meanwhile)
    first = check_tree(WorkingTree(catalog_repo))
    assert any(d.code == "figure-mismatch" for d in first.diagnostics)  # what the load saw
    monkeypatch.setattr(loader.Loader, "load", real)
    second = check_tree(WorkingTree(catalog_repo))
    assert not second.remembered
    assert second.diagnostics == _uncached(catalog_repo)
    assert not any(d.code == "figure-mismatch" for d in second.diagnostics)


def test_a_git_tree_verdict_is_remembered_by_its_tree(catalog_repo: Path) -> None:
    repo = open_repository(catalog_repo)
    commit = lookup(repo, "v1")
    assert commit is not None
    first = check_tree(GitTree(repo, commit, "v1"))
    second = check_tree(GitTree(repo, commit, "v1"))
    assert (first.remembered, second.remembered) == (False, True)
    assert second.diagnostics == _uncached(catalog_repo)


def test_an_unreadable_file_is_never_remembered(catalog_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def unreadable(self: WorkingTree, folder: str) -> dict[str, str]:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(WorkingTree, "file_ids", unreadable)
    assert catalog_key(WorkingTree(catalog_repo), DEFAULT) is None
    assert not check_tree(WorkingTree(catalog_repo)).remembered
    assert not check_tree(WorkingTree(catalog_repo)).remembered


@pytest.mark.slow
def test_the_cli_answers_a_second_run_without_building_a_model(catalog_repo: Path) -> None:
    argv = [sys.executable, "-m", "catalogctl", "validate", "--format", "json", str(catalog_repo)]
    uncached = subprocess.run([*argv, "--no-cache"], capture_output=True, check=True, timeout=120)
    first = subprocess.run(argv, capture_output=True, check=True, timeout=120)
    probe = (
        "import runpy, sys\n"
        "try:\n"
        "    runpy.run_module('catalogctl', run_name='__main__', alter_sys=True)\n"
        "finally:\n"
        "    built = sorted(m for m in sys.modules if m.startswith(('catalogctl.model.documents.benchmark', "
        "'catalogctl.catalog.loader', 'catalogctl.catalog.crossref')))\n"
        "    print(built, file=sys.stderr)\n"
    )
    second = subprocess.run([sys.executable, "-c", probe, *argv[3:]], capture_output=True, check=True, timeout=120)
    assert first.stdout == second.stdout == uncached.stdout
    assert second.stderr == b"[]\n"


# -- blob ids kept by stat -------------------------------------------------------------------------


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return counting_reads(monkeypatch)


def test_a_remembered_verdict_reads_no_unchanged_file(catalog_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tree_module, "_SETTLED_NS", -(10**12))  # every file counts as settled
    _warm(catalog_repo)
    reads = _reads(monkeypatch)
    assert check_tree(WorkingTree(catalog_repo)).remembered
    assert reads == []
    _same_size_edit(catalog_repo)  # same size and mtime: its change time tells
    found = check_tree(WorkingTree(catalog_repo))
    assert DATASET in reads
    assert not found.remembered
    assert found.diagnostics == _uncached(catalog_repo)


def test_a_file_changed_just_before_it_was_hashed_is_hashed_again(
    catalog_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _warm(catalog_repo)  # the files were written just now: none is settled
    assert EntryStore(_store(catalog_repo).parent).stamps(str(catalog_repo.resolve())) == {}
    reads = _reads(monkeypatch)
    assert check_tree(WorkingTree(catalog_repo)).remembered
    assert DATASET in reads


@pytest.mark.parametrize("damage", ["torn", "not stamps"])
def test_damaged_stamps_are_ignored(catalog_repo: Path, monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    monkeypatch.setattr(tree_module, "_SETTLED_NS", -(10**12))
    _warm(catalog_repo)
    store = EntryStore(_store(catalog_repo).parent)
    root = str(catalog_repo.resolve())
    assert len(store.stamps(root)) == _yaml_count(catalog_repo)
    key = cache_module._stamps_key(root)
    if damage == "torn":  # the checksum no longer verifies
        with closing(sqlite3.connect(_store(catalog_repo))) as db, db:
            assert db.execute("UPDATE entries SET payload = ? WHERE key = ?", (b"{}", key)).rowcount == 1
    else:  # a sound entry that holds no stamps
        store.put(key, json.dumps({DATASET: [[1, 2], None]}).encode())
        store.flush()
    assert store.stamps(root) == {}
    expected = _uncached(catalog_repo)
    reads = _reads(monkeypatch)
    found = check_tree(WorkingTree(catalog_repo))
    assert found.remembered
    assert found.diagnostics == expected
    assert len(reads) == _yaml_count(catalog_repo)  # every file hashed again, none believed


def _yaml_count(root: Path) -> int:
    return sum(1 for _ in (root / "benchmark_suite").rglob("*.yaml"))


def test_a_folder_moved_behind_a_symlink_is_checked_again(tmp_path: Path) -> None:
    """The configured catalog folder's parent becomes a link: every file is then refused."""
    from catalogctl.api import validate_catalog

    root = tmp_path / "repo"
    copy_catalog(root / "sub")
    (root / "catalogctl.toml").write_text('catalog = "sub/benchmark_suite"\n', encoding="utf-8")
    (root / ".git").mkdir()
    assert not validate_catalog(root).remembered
    assert validate_catalog(root).remembered
    (root / "sub").rename(tmp_path / "elsewhere")
    (root / "sub").symlink_to(tmp_path / "elsewhere")
    found = validate_catalog(root)
    assert not found.remembered
    assert found.diagnostics == validate_catalog(root, use_cache=False).diagnostics
    assert any(d.code == "file-symlink" for d in found.diagnostics)


@pytest.mark.slow
def test_another_yaml_parser_is_not_the_same_verdict(catalog_repo: Path, tmp_path: Path) -> None:
    """Without ruamel's C parser (a machine where it did not build) messages differ: a verdict
    found with one parser is not given for the other."""
    (catalog_repo / "benchmark_suite/models/broken.yaml").write_text("a: [x\nb: {\n", encoding="utf-8")
    no_c = tmp_path / "no-c-parser"
    no_c.mkdir()
    (no_c / "_ruamel_yaml.py").write_text("raise ImportError('no C parser here')\n", encoding="utf-8")
    argv = [sys.executable, "-m", "catalogctl", "validate", "--format", "json", str(catalog_repo)]
    with_c = subprocess.run(argv, capture_output=True, check=False, timeout=120)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(no_c), *sys.path])}
    fresh = subprocess.run([*argv, "--no-cache"], capture_output=True, check=False, timeout=120, env=env)
    without_c = subprocess.run(argv, capture_output=True, check=False, timeout=120, env=env)
    assert with_c.stdout != fresh.stdout  # the parsers do word it differently
    assert without_c.stdout == fresh.stdout


def test_a_file_away_while_its_folder_is_listed_is_not_remembered_as_away(
    catalog_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process moves a model away while the run lists its folder, and back before the
    run ends: the folders hold at the end what they held at the start, but the run never saw
    the model (a breaker's find)."""
    check_tree(WorkingTree(catalog_repo))
    _edit_figure(catalog_repo)
    model = catalog_repo / MODEL
    data = model.read_bytes()
    real = loader.Loader.yaml_files

    def racing(self: loader.Loader, folder: str) -> list[str]:
        if not folder.endswith("/models"):
            return real(self, folder)
        model.unlink()
        try:
            return real(self, folder)
        finally:
            model.write_bytes(data)

    monkeypatch.setattr(loader.Loader, "yaml_files", racing)
    away = check_tree(WorkingTree(catalog_repo))
    assert any(d.code == "ref-unknown-model" for d in away.diagnostics)  # what the run saw
    monkeypatch.setattr(loader.Loader, "yaml_files", real)
    again = check_tree(WorkingTree(catalog_repo))
    assert not again.remembered
    assert again.diagnostics == _uncached(catalog_repo)
