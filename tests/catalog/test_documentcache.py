"""The document cache: a speed-up only, never a verdict of its own."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from catalogctl.catalog import documentcache as cache_module
from catalogctl.catalog.documentcache import DocumentCache, Examined, cache_for, decode, encode
from catalogctl.catalog.loader import load_tree
from catalogctl.catalog.verdict import check_tree
from catalogctl.errors import error
from catalogctl.io.cachestore import EntryStore
from catalogctl.io.gitrepo import lookup, open_repository
from catalogctl.io.gittree import GitTree
from catalogctl.io.tree import WorkingTree, blob_id
from catalogctl.io.yamlio import parse_document
from catalogctl.review.ci import ReviewRequest, run_review
from tests.cache_corpus import state
from tests.helpers import commit_all, git, replace_in, run_cli

BROKEN = "benchmark_suite/models/deepseek-r1.yaml"


@pytest.fixture(autouse=True)
def default_location(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests look at where entries go by default (the suite elsewhere sets the folder)."""
    monkeypatch.delenv("CATALOGCTL_CACHE_DIR")


def _rows(folder: Path) -> dict[str, tuple[str, bytes]]:
    if not (folder / "entries.sqlite").is_file():
        return {}
    with closing(sqlite3.connect(folder / "entries.sqlite")) as db:
        return {key: (checksum, payload) for key, checksum, payload in db.execute("SELECT * FROM entries")}


def _entries(root: Path) -> dict[str, tuple[str, bytes]]:
    return _rows(root / ".git" / "catalogctl" / "cache")


def _yaml_files(root: Path) -> int:
    return len(list((root / "benchmark_suite").rglob("*.yaml")))


def _uncached(root: Path) -> tuple[object, ...]:
    return state(load_tree(WorkingTree(root), use_cache=False))


def _with_an_error(root: Path) -> None:
    replace_in(root, BROKEN, "id: deepseek-r1", "id: deepseek-r1\nextra_key: 1")


def test_blob_id_is_gits(catalog_repo: Path) -> None:
    data = (catalog_repo / BROKEN).read_bytes()
    assert blob_id(data) == git(catalog_repo, "hash-object", BROKEN)


def test_a_warm_run_reads_entries_and_gives_the_same_verdict(catalog_repo: Path) -> None:
    _with_an_error(catalog_repo)
    cold = state(load_tree(WorkingTree(catalog_repo)))
    entries = _entries(catalog_repo)
    assert len(entries) == _yaml_files(catalog_repo)
    database = catalog_repo / ".git" / "catalogctl" / "cache" / "entries.sqlite"
    before = database.stat().st_mtime_ns
    warm = state(load_tree(WorkingTree(catalog_repo)))
    assert warm == cold == _uncached(catalog_repo)
    assert _entries(catalog_repo) == entries
    assert database.stat().st_mtime_ns == before  # read, not rewritten
    assert any(d.code == "schema-unknown-key" for d in warm[0])


@pytest.mark.parametrize("damage", ["truncated", "corrupt", "foreign", "empty", "lying"])
def test_a_damaged_entry_is_rebuilt(catalog_repo: Path, damage: str) -> None:
    _with_an_error(catalog_repo)
    load_tree(WorkingTree(catalog_repo))
    folder = catalog_repo / ".git" / "catalogctl" / "cache"
    good = _entries(catalog_repo)
    keys = sorted(good)
    forger = EntryStore(folder)
    with closing(sqlite3.connect(folder / "entries.sqlite")) as db, db:
        for index, key in enumerate(keys):
            checksum, raw = good[key]
            if damage == "truncated":
                row = (checksum, raw[: len(raw) // 2])
            elif damage == "corrupt":
                row = (checksum, raw.replace(b'"error"', b'"warning"').replace(b"deepseek", b"deepseeq"))
            elif damage == "foreign":  # another file's entry, or one of another version, under this key
                row = good[keys[index - 1]]
            elif damage == "empty":
                row = (checksum, b"")
            else:  # a sound entry whose data its model refuses: checked again from the file
                forger.put(key, json.dumps({"diagnostics": [], "data": {"id": 1}}).encode())
                continue
            db.execute("UPDATE entries SET checksum = ?, payload = ? WHERE key = ?", (*row, key))
    forger.flush()
    assert state(load_tree(WorkingTree(catalog_repo))) == _uncached(catalog_repo)
    assert _entries(catalog_repo) == good  # rebuilt as they were


def test_a_database_that_is_not_one_is_set_aside_and_rebuilt(catalog_repo: Path) -> None:
    _with_an_error(catalog_repo)
    load_tree(WorkingTree(catalog_repo))
    good = _entries(catalog_repo)
    folder = catalog_repo / ".git" / "catalogctl" / "cache"
    (folder / "entries.sqlite").write_bytes(b"garbage" * 1000)
    assert state(load_tree(WorkingTree(catalog_repo))) == _uncached(catalog_repo)
    assert _entries(catalog_repo) == good
    assert [p.read_bytes() for p in folder.glob("entries.sqlite.corrupt.*")] == [b"garbage" * 1000]


def test_another_tool_version_does_not_read_the_entries(catalog_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    load_tree(WorkingTree(catalog_repo))
    first = _entries(catalog_repo)
    monkeypatch.setattr(cache_module, "__version__", "99.0.0")
    assert state(load_tree(WorkingTree(catalog_repo))) == _uncached(catalog_repo)
    assert first.items() < _entries(catalog_repo).items()  # new keys, the old entries untouched


def test_entries_live_in_the_common_git_folder_of_a_worktree(catalog_repo: Path, tmp_path: Path) -> None:
    worktree = tmp_path / "second"
    git(catalog_repo, "worktree", "add", "-q", str(worktree), "v1")
    load_tree(WorkingTree(worktree))
    assert _entries(catalog_repo)
    assert not (worktree / ".git").is_dir()


def test_the_variable_puts_entries_in_a_folder_of_ones_choice(
    catalog_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CATALOGCTL_CACHE_DIR", str(tmp_path / "kept"))
    load_tree(WorkingTree(catalog_repo))
    assert _entries(catalog_repo) == {}
    assert len(_rows(tmp_path / "kept")) == _yaml_files(catalog_repo)
    monkeypatch.setenv("CATALOGCTL_CACHE_DIR", "relative")  # only an absolute path counts
    load_tree(WorkingTree(catalog_repo))
    assert _entries(catalog_repo)


def test_a_tree_outside_git_uses_the_user_cache_folder(
    catalog_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    load_tree(WorkingTree(catalog_dir))
    assert len(_rows(tmp_path / "xdg" / "catalogctl" / "cache")) == _yaml_files(catalog_dir)
    assert not (catalog_dir / ".git").exists()


def test_no_cache_option_and_variable_neither_read_nor_write(
    catalog_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = run_cli("validate", "--no-cache", "--format", "json", catalog_repo).stdout
    assert _entries(catalog_repo) == {}
    monkeypatch.setenv("CATALOGCTL_NO_CACHE", "1")
    assert run_cli("validate", "--format", "json", catalog_repo).stdout == expected
    assert run_cli("ci", "--base", "v1", "-C", catalog_repo, "--format", "json").stdout
    assert _entries(catalog_repo) == {}
    monkeypatch.setenv("CATALOGCTL_NO_CACHE", "0")
    assert run_cli("validate", "--format", "json", catalog_repo).stdout == expected
    assert _entries(catalog_repo)


@pytest.mark.slow
def test_two_cold_runs_at_once_both_succeed_alike(catalog_repo: Path) -> None:
    _with_an_error(catalog_repo)
    argv = [sys.executable, "-m", "catalogctl", "validate", "--format", "json", str(catalog_repo)]
    env = {k: v for k, v in os.environ.items() if k != "CATALOGCTL_NO_CACHE"}
    runs = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) for _ in range(2)]
    outputs = [run.communicate(timeout=120) for run in runs]
    uncached = subprocess.run([*argv, "--no-cache"], capture_output=True, check=False, env=env)
    assert [run.returncode for run in runs] == [1, 1]
    assert outputs[0] == outputs[1] == (uncached.stdout, b"")
    assert len(_entries(catalog_repo)) == _yaml_files(catalog_repo) + 2  # and the catalog's verdict and snapshot
    assert not list((catalog_repo / ".git" / "catalogctl" / "cache").glob("*.corrupt.*"))


def test_ci_over_shared_blobs_finds_what_the_uncached_path_finds(catalog_repo: Path) -> None:
    replace_in(
        catalog_repo, "benchmark_suite/benchmarks/deepseek-r1.yaml", "id: deepseek-r1", "id: deepseek-r1\nbogus: 1"
    )
    replace_in(catalog_repo, "benchmark_suite/models/gpt-oss-120b.yaml", "id: gpt-oss-120b", "id: gpt-oss-120b\nx: 1")
    commit_all(catalog_repo, "two broken files")
    git(catalog_repo, "tag", "-a", "v2", "-m", "second")
    replace_in(catalog_repo, "benchmark_suite/models/gpt-oss-120b.yaml", "\nx: 1", "")
    uncached = run_review(catalog_repo, ReviewRequest(base="v1", head=None, use_cache=False))
    cold = run_review(catalog_repo, ReviewRequest(base="v1", head=None))
    warm = run_review(catalog_repo, ReviewRequest(base="v1", head=None))
    assert cold == warm == uncached
    assert any(f.code == "schema-unknown-key" for f in uncached[0].findings)
    ref = run_review(catalog_repo, ReviewRequest(base="v1", head="v2"))
    assert ref == run_review(catalog_repo, ReviewRequest(base="v1", head="v2", use_cache=False))


def test_a_git_tree_reuses_what_the_working_tree_proved(catalog_repo: Path) -> None:
    cache = cache_for(WorkingTree(catalog_repo))
    head = load_tree(WorkingTree(catalog_repo), cache)
    repo = open_repository(catalog_repo)
    commit = lookup(repo, "v1")
    assert commit is not None
    base = load_tree(GitTree(repo, commit, "v1"), cache)
    document = head.catalog.locations[("benchmark", "deepseek-r1")].document
    assert base.catalog.locations[("benchmark", "deepseek-r1")].document is document  # reused, not parsed again
    assert base.catalog.benchmarks == head.catalog.benchmarks


def test_an_entry_holds_only_what_reads_back_identical() -> None:
    doc = parse_document("x.yaml", b"when: 2026-01-02\nat: 2026-01-02T03:04:05+00:00\nratio: 1.0\n")
    examined = Examined([error("c", "m", "x.yaml", 1, 2, "h")], doc, object())  # type: ignore[arg-type]
    payload = encode(examined)
    assert payload is not None
    assert decode(payload) == (examined.diagnostics, doc.data)
    tricky = parse_document("x.yaml", b'v: {"$date": "2026-01-02"}\n')
    assert encode(Examined([], tricky, object())) is None  # type: ignore[arg-type]
    for text in (b"v: .nan\n", b"v: .nan\nwhen: 2026-01-02\n"):
        assert encode(Examined([], parse_document("x.yaml", text), object())) is None  # type: ignore[arg-type]
    assert decode(b"[]") is None
    assert decode(b'{"diagnostics": [["error", 1, "m", "p", 1, 1, ""]], "data": null}') is None
    assert decode(b'{"diagnostics": [["error", "c", "m", "p", "1", 1, ""]], "data": null}') is None


def test_a_store_that_cannot_be_written_is_skipped(catalog_repo: Path) -> None:
    (catalog_repo / ".git" / "catalogctl").write_text("not a folder")
    assert state(load_tree(WorkingTree(catalog_repo))) == _uncached(catalog_repo)
    assert DocumentCache(EntryStore(catalog_repo / ".git" / "catalogctl" / "cache")).lookup("ab" * 32, None) is None  # type: ignore[arg-type]


def test_a_store_copied_from_another_user_misses_and_gives_the_same_answers(
    catalog_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _with_an_error(catalog_repo)
    monkeypatch.setenv("CATALOGCTL_CACHE_KEY", "their-secret-" * 4)  # another user's, or another CI's
    theirs = check_tree(WorkingTree(catalog_repo))
    assert check_tree(WorkingTree(catalog_repo)).remembered
    copied = _entries(catalog_repo)
    monkeypatch.delenv("CATALOGCTL_CACHE_KEY")  # this user's own key file
    mine = check_tree(WorkingTree(catalog_repo))
    assert not mine.remembered
    assert mine.diagnostics == theirs.diagnostics == check_tree(WorkingTree(catalog_repo), use_cache=False).diagnostics
    rewritten = _entries(catalog_repo)
    # Every entry was a miss, checked again and stored under this user's key (a hit is not rewritten).
    assert rewritten.keys() == copied.keys()
    assert all(rewritten[key][0] != copied[key][0] for key in copied)
    assert check_tree(WorkingTree(catalog_repo)).remembered
    reference = run_cli("validate", "--format", "json", "--no-cache", catalog_repo, code=1).stdout
    assert run_cli("validate", "--format", "json", catalog_repo, code=1).stdout == reference
