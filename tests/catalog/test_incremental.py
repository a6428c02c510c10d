"""A verdict found through the cache is always the verdict from scratch, however the catalog
changed since the runs that filled the cache.

A copy of the shipped catalog in a real git repository is edited step by step: figures, files
deleted and restored, broken and mended, metrics removed and duplicated, aliases and MLPerf names
made ambiguous, pending values added and settled, renames, copies, symlinks, touches, reverts to
earlier bytes, commits. After every step `check_tree` runs twice with one cache store kept across
the steps (the second run is the remembered verdict), and both must give exactly what
`load_tree(tree, use_cache=False)` gives. With a `check_tree` that re-checks only what changed
since an earlier run, every edit is a chance for a stored per-file, per-entity or catalog-wide
result to be reused where it no longer holds.

What a run keeps is drawn: nothing (a new tree and cache per run, as the CLI runs), one
`DocumentCache` across the runs (a process that checks several trees, as `ci` does), or one tree
and one cache (a long-lived process); and whether every file's blob id is trusted by its stat from
the start (`_SETTLED_NS` negative), so that runs take blob ids from the store's stamps. Where stats
are trusted (those, and a kept tree's own), each write gets an mtime of its own: two contents never
share a stat, as they could within one tick of a coarse clock. `CATALOGCTL_INCREMENTAL_EXAMPLES`
and `CATALOGCTL_INCREMENTAL_STEPS` make the property larger for a longer soak.
"""

from __future__ import annotations

import io
import os
import random
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from catalogctl.catalog.documentcache import cache_for
from catalogctl.catalog.layout import DEFAULT
from catalogctl.catalog.loader import load_tree
from catalogctl.catalog.verdict import check_tree
from catalogctl.errors import Diagnostic
from catalogctl.io import tree as tree_module
from catalogctl.io.cachestore import CACHE_DIR_ENV
from catalogctl.io.gitrepo import lookup, open_repository
from catalogctl.io.gittree import GitTree
from catalogctl.io.tree import Tree, WorkingTree
from catalogctl.io.yamlio import parse_document
from catalogctl.render.common import diagnostic_line
from tests.helpers import SHIPPED_CATALOG, commit_all, init_repo

SUITE = DEFAULT.suite_dir
# Every file of the shipped catalog, by its path inside the catalog folder.
SHIPPED = {p.relative_to(SHIPPED_CATALOG).as_posix(): p.read_bytes() for p in sorted(SHIPPED_CATALOG.rglob("*.yaml"))}
METRICS = "metrics.yaml"
KINDS = ("model", "dataset", "benchmark")


def _ids(kind: str) -> tuple[str, ...]:
    return tuple(sorted(rel[len(kind) + 2 : -len(".yaml")] for rel in SHIPPED if rel.startswith(f"{kind}s/")))


IDS = {kind: _ids(kind) for kind in KINDS}
ENTITY_FILES = {kind: tuple(f"{kind}s/{ident}.yaml" for ident in IDS[kind]) for kind in KINDS}
ALL_ENTITY_FILES = tuple(path for kind in KINDS for path in ENTITY_FILES[kind])
STRAY_FOLDERS = ("", *(f"{kind}s" for kind in KINDS))


def _moved(rel: str) -> str:
    return f"{rel[: -len('.yaml')]}-moved.yaml"


def _copied(rel: str) -> str:
    return f"{rel[: -len('.yaml')]}-copy.yaml"


def _stray(folder: str) -> str:
    return f"{folder}/notes.txt" if folder else "notes.txt"


# Every path an edit may create, besides the shipped ones.
EXTRA_FILES = (
    *(_moved(rel) for rel in ALL_ENTITY_FILES),
    *(_copied(rel) for rel in ALL_ENTITY_FILES),
    *(_stray(folder) for folder in STRAY_FOLDERS),
)
ALL_FILES = (*SHIPPED, *EXTRA_FILES)


@cache
def _plain(rel: str) -> Any:
    """The plain data of a shipped file (never mutated)."""
    return parse_document(rel, SHIPPED[rel]).data


def _original(rel: str, *path: str) -> Any:
    value = _plain(rel)
    for part in path:
        value = value.get(part) if isinstance(value, dict) else None
    return value


def _named(kind: str, key: str) -> tuple[str, ...]:
    """The values of `key` in the shipped entities of a kind (their mlperf_names, their aliases)."""
    found: list[str] = []
    for rel in ENTITY_FILES[kind]:
        value = _original(rel, key)
        found.extend(value if isinstance(value, list) else [value] if isinstance(value, str) else [])
    return tuple(sorted(set(found)))


METRIC_KEYS = tuple(m["key"] for m in _original(METRICS, "metrics"))
SPLIT_DATASETS = tuple(rel for rel in ENTITY_FILES["dataset"] if _original(rel, "splits"))
PENDING_FIELDS = {"model": ("sha", "reference_id"), "dataset": ("source.url", "source.sha256", "prompts.column")}
# A settled value for each field that may be pending, where the shipped one is pending too.
SETTLED = {
    "sha": "0123456789abcdef0123456789abcdef01234567",
    "reference_id": "example/model",
    "source.url": "https://example.org/data.parquet",
    "source.sha256": "ab" * 32,
    "prompts.column": "prompt",
}
PENDING = "<TBD>"
BROKEN_YAML = {"unclosed": b"\nbroken: [unclosed\n", "dup-key": b"\nid: again\n"}


def _pool(kind: str) -> tuple[str, ...]:
    """Names a reference to an entity of this kind may take: ids, copies' and moved files' ids, a
    missing one."""
    return (*IDS[kind], *(f"{i}-copy" for i in IDS[kind]), *(f"{i}-moved" for i in IDS[kind]), f"no-such-{kind}")


# -- the working copy -----------------------------------------------------------------------------

Entry = tuple[str, bytes]  # ("file", bytes) or ("link", target)
State = dict[str, Entry]


def _yaml() -> YAML:
    yaml = YAML()  # round trip: comments and layout stay, so positions move only where edited
    yaml.width = 4096
    yaml.preserve_quotes = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


class Workspace:
    """The catalog folder of a repository, edited through paths inside it."""

    def __init__(self, root: Path, *, own_mtimes: bool) -> None:
        self.root = root
        self.folder = root / SUITE
        self.own_mtimes = own_mtimes
        self._clock = 0
        self._stashed = 0

    def local(self, rel: str) -> Path:
        return self.folder / rel

    def regular(self, rel: str) -> bytes | None:
        """The bytes of a regular file (not a link); None otherwise."""
        path = self.local(rel)
        return path.read_bytes() if path.is_file() and not path.is_symlink() else None

    def exists(self, rel: str) -> bool:
        return self.local(rel).is_symlink() or self.local(rel).exists()

    def settle(self, path: Path) -> None:
        """Where stats are trusted, each write gets an mtime no other write has."""
        if self.own_mtimes:
            self._clock += 1
            stamp = 1_600_000_000 * 10**9 + self._clock * 10**9
            os.utime(path, ns=(stamp, stamp))

    def write(self, rel: str, data: bytes) -> None:
        path = self.local(rel)
        if path.is_symlink():
            path.unlink()  # never written through
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        self.settle(path)

    def remove(self, rel: str) -> None:
        if self.exists(rel):
            self.local(rel).unlink()

    def link(self, rel: str, data: bytes) -> None:
        """Replace a file by a symlink to a copy of `data` outside the catalog."""
        self._stashed += 1
        stash = self.root / "stash" / f"{self._stashed}-{rel.replace('/', '-')}"
        stash.parent.mkdir(exist_ok=True)
        stash.write_bytes(data)
        self.remove(rel)
        self.local(rel).parent.mkdir(parents=True, exist_ok=True)
        self.local(rel).symlink_to(os.path.relpath(stash, self.local(rel).parent))

    def text_or_original(self, rel: str) -> bytes | None:
        data = self.regular(rel)
        return data if data is not None else SHIPPED.get(rel)

    def data(self, rel: str) -> Any:
        """The file's data to edit (round trip): as it is, or as shipped when it is absent, a link,
        or no YAML mapping (an edit of a broken file mends it)."""
        current = self.regular(rel)
        if current is not None:
            try:
                found = _yaml().load(current.decode("utf-8"))
            except (YAMLError, UnicodeDecodeError):
                found = None
            if isinstance(found, dict):
                return found
        return _yaml().load(SHIPPED[rel].decode("utf-8")) if rel in SHIPPED else None

    def put(self, rel: str, data: Any) -> None:
        text = io.StringIO()
        _yaml().dump(data, text)
        self.write(rel, text.getvalue().encode("utf-8"))

    def change(self, rel: str, change: Callable[[Any], None]) -> None:
        data = self.data(rel)
        if data is not None:
            change(data)
            self.put(rel, data)

    def state(self) -> State:
        found: State = {}
        for folder, dirs, files in os.walk(self.folder):
            for name in dirs + files:
                path = Path(folder) / name
                rel = path.relative_to(self.folder).as_posix()
                if path.is_symlink():
                    found[rel] = ("link", os.readlink(path).encode())
                elif path.is_file():
                    found[rel] = ("file", path.read_bytes())
        return found

    def restore(self, state: State, only: str | None = None) -> None:
        """Put back what `state` holds (at one path, or everywhere)."""
        now = self.state()
        for rel in [only] if only is not None else sorted(now.keys() | state.keys()):
            want = state.get(rel)
            if want == now.get(rel):
                continue
            if want is None:
                self.remove(rel)
            elif want[0] == "link":
                self.remove(rel)
                self.local(rel).parent.mkdir(parents=True, exist_ok=True)
                self.local(rel).symlink_to(want[1].decode())
            else:
                self.write(rel, want[1])


# -- edits ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Edit:
    """One change to the catalog: what (`op`), where (a path inside the catalog folder), how."""

    op: str
    path: str = ""
    value: Any = None


def _figure(value: Any, original: Any) -> Any:
    if value == "orig":
        return original
    if value == "+1":
        return original + 1 if isinstance(original, int) else 1
    return value


def _set(data: Any, dotted: str, value: Any) -> None:
    """Set (or, with None, drop) a dotted key, when its parents are mappings."""
    *parents, last = dotted.split(".")
    for part in parents:
        data = data.get(part) if isinstance(data, dict) else None
    if isinstance(data, dict):
        if value is None:
            data.pop(last, None)
        else:
            data[last] = value


def _rename_key(mapping: Any, old: str, new: str) -> None:
    if isinstance(mapping, dict) and old in mapping and new not in mapping:
        items = list(mapping.items())
        for key, _ in items:
            del mapping[key]
        for key, value in items:
            mapping[new if key == old else key] = value


def _samples(run: Run, edit: Edit) -> None:
    """A dataset's sample count: the shipped one, one more, pending, or not positive."""
    figure = _figure(edit.value, _original(edit.path, "samples"))
    run.ws.change(edit.path, lambda data: _set(data, "samples", figure))


def _split(run: Run, edit: Edit) -> None:
    """One split of a dataset: its shipped size (and name), one more sample, or another name."""
    split, how = edit.value

    def change(data: Any) -> None:
        splits = data.get("splits")
        if how == "rename":
            _rename_key(splits, split, f"{split}-x")
            return
        _rename_key(splits, f"{split}-x", split)
        _set(data, f"splits.{split}.samples", _figure(how, _original(edit.path, "splits", split, "samples")))

    run.ws.change(edit.path, change)


def _count_path(rel: str) -> str:
    """The figure a benchmark states that its datasets' sizes decide."""
    if _original(rel, "kind") == "training":
        return "validation.samples"
    if _original(rel, "accuracy") is not None:
        return "accuracy.requirements.min_accuracy_sample_count"
    return "performance.requirements.min_sample_count"


def _bench_count(run: Run, edit: Edit) -> None:
    where = _count_path(edit.path)
    original = _original(edit.path, *where.split("."))
    run.ws.change(edit.path, lambda data: _set(data, where, _figure(edit.value, original)))


def _uses(run: Run, edit: Edit) -> None:
    """Point a benchmark at another model or dataset (the first it uses)."""
    field, target = edit.value

    def change(data: Any) -> None:
        if field == "model" or _original(edit.path, "kind") == "training":
            data[field] = target
            return
        accuracy = data.get("accuracy")
        if isinstance(accuracy, dict) and accuracy.get("datasets"):
            accuracy["datasets"][0]["dataset"] = target
        elif isinstance(data.get("performance"), dict) and data["performance"].get("datasets"):
            data["performance"]["datasets"][0] = target

    run.ws.change(edit.path, change)


def _delete(run: Run, edit: Edit) -> None:
    run.ws.remove(edit.path)


def _restore(run: Run, edit: Edit) -> None:
    run.ws.write(edit.path, SHIPPED[edit.path])


def _break_yaml(run: Run, edit: Edit) -> None:
    """Not YAML (an unclosed flow sequence), or a key given twice."""
    base = run.ws.text_or_original(edit.path) or b""
    run.ws.write(edit.path, base + BROKEN_YAML[edit.value])


def _schema_error(run: Run, edit: Edit) -> None:
    """Well-formed YAML its model refuses: an unknown key, or its first key (`kind`, `id`) gone."""

    def change(data: Any) -> None:
        if edit.value == "extra-key":
            data["unexpected_key"] = 1
        elif data:
            del data[next(iter(data))]

    run.ws.change(edit.path, change)


def _metric_entries(data: Any) -> list[Any]:
    entries = data.get("metrics")
    return entries if isinstance(entries, list) else []


def _metric_remove(run: Run, edit: Edit) -> None:
    def change(data: Any) -> None:
        entries = _metric_entries(data)
        entries[:] = [m for m in entries if not (isinstance(m, dict) and m.get("key") == edit.value)]

    run.ws.change(METRICS, change)


def _metric_duplicate(run: Run, edit: Edit) -> None:
    """The entry of a metric again: the same key, or the key in capitals (the same ignoring case)."""
    key, shout = edit.value

    def change(data: Any) -> None:
        entries = _metric_entries(data)
        found = [m for m in entries if isinstance(m, dict) and m.get("key") == key]
        if found:
            again = {name: found[0][name] for name in ("label", "unit", "direction", "ratio") if name in found[0]}
            entries.append({"key": key.upper() if shout else key, **again, "description": "Declared again."})

    run.ws.change(METRICS, change)


def _metric_unit(run: Run, edit: Edit) -> None:
    """A metric's unit moved across the ratio/absolute line (scales that fit no longer do), or back."""
    key, how = edit.value
    shipped = next(m for m in _original(METRICS, "metrics") if m["key"] == key)

    def change(data: Any) -> None:
        for metric in _metric_entries(data):
            if isinstance(metric, dict) and metric.get("key") == key:
                ratio_unit = metric.get("unit") in ("percent", "fraction")
                unit = shipped["unit"] if how == "orig" else "count" if ratio_unit else "percent"
                metric["unit"], metric["ratio"] = unit, unit == "fraction"

    run.ws.change(METRICS, change)


def _aliases(run: Run, edit: Edit) -> None:
    run.ws.change(edit.path, lambda data: _set(data, "aliases", list(edit.value) or None))


def _mlperf_name(run: Run, edit: Edit) -> None:
    run.ws.change(edit.path, lambda data: _set(data, "mlperf_name", edit.value))


def _pending(run: Run, edit: Edit) -> None:
    """A value made pending, or settled (to the shipped value when that one is not pending)."""
    field, pending = edit.value
    shipped = _original(edit.path, *field.split("."))
    settled = shipped if isinstance(shipped, str) and not re.fullmatch(r"<[^<>\n]+>", shipped) else SETTLED[field]
    run.ws.change(edit.path, lambda data: _set(data, field, PENDING if pending else settled))


def _renamed_from(run: Run, edit: Edit) -> None:
    run.ws.change(edit.path, lambda data: _set(data, "renamed_from", edit.value))


def _rename_file(run: Run, edit: Edit) -> None:
    """Move `x.yaml` to `x-moved.yaml` (its id no longer its name), or back."""
    here, moved = run.ws.local(edit.path), run.ws.local(_moved(edit.path))
    if run.ws.exists(edit.path) and not run.ws.exists(_moved(edit.path)):
        here.rename(moved)
    elif run.ws.exists(_moved(edit.path)):
        moved.rename(here)


def _change_id(run: Run, edit: Edit) -> None:
    stem = edit.path.rsplit("/", 1)[-1][: -len(".yaml")]
    run.ws.change(edit.path, lambda data: _set(data, "id", f"{stem}-other" if edit.value == "other" else stem))


def _copy(run: Run, edit: Edit) -> None:
    """A new entity: a copy of one (as it stands) under a new id, in its own file."""
    data = run.ws.data(edit.path)
    if data is not None:
        data["id"] = _copied(edit.path).rsplit("/", 1)[-1][: -len(".yaml")]
        run.ws.put(_copied(edit.path), data)


def _touch(run: Run, edit: Edit) -> None:
    """The same bytes, with a new mtime, or written again."""
    data = run.ws.regular(edit.path)
    if data is None:
        return
    if edit.value == "rewrite":
        run.ws.write(edit.path, data)
    elif run.ws.own_mtimes:
        run.ws.settle(run.ws.local(edit.path))
    else:
        os.utime(run.ws.local(edit.path))


def _symlink(run: Run, edit: Edit) -> None:
    data = run.ws.text_or_original(edit.path)
    if data is not None:
        run.ws.link(edit.path, data)


def _revert(run: Run, edit: Edit) -> None:
    """Back to the bytes of an earlier step (0: as shipped): at the path given, else at one of the
    paths that differ (`which` of them), else (`which` None) the whole catalog."""
    index, which = edit.value
    earlier, now = run.states[index % len(run.states)], run.ws.state()
    differ = sorted(rel for rel in earlier.keys() | now.keys() if earlier.get(rel) != now.get(rel))
    if edit.path:
        run.ws.restore(earlier, edit.path)
    elif which is None:
        run.ws.restore(earlier)
    elif differ:
        run.ws.restore(earlier, differ[which % len(differ)])


def _shift(run: Run, edit: Edit) -> None:
    """A comment line below the first: every position after it moves, nothing else changes."""
    base = run.ws.text_or_original(edit.path) or b""
    first, newline, rest = base.partition(b"\n")
    run.ws.write(edit.path, first + newline + b"# a line that moves every position below it\n" + rest)


def _same_size(run: Run, edit: Edit) -> None:
    """A sample count's last digit changed, the size and the mtime kept: only the change time
    (and the content) tell. Where stats are trusted, an ordinary edit instead."""
    path = run.ws.local(edit.path)
    data = run.ws.regular(edit.path)
    match = re.search(rb"(?m)^samples: \d*(\d)\b", data or b"")
    if data is None or match is None:
        return
    digit = b"%d" % ((int(match.group(1)) + 1) % 10)
    changed = data[: match.start(1)] + digit + data[match.end(1) :]
    if run.ws.own_mtimes:
        run.ws.write(edit.path, changed)
        return
    info = path.stat()
    path.write_bytes(changed)
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


def _folder(run: Run, edit: Edit) -> None:
    """An entity folder moved out of the catalog (all its entities gone at once), or back."""
    here, aside = run.ws.local(edit.path), run.ws.root / "aside" / edit.path
    if here.is_dir():
        if aside.exists():
            shutil.rmtree(aside)
        aside.parent.mkdir(exist_ok=True)
        here.rename(aside)
    elif aside.is_dir() and not run.ws.exists(edit.path):
        aside.rename(here)


def _stray_file(run: Run, edit: Edit) -> None:
    """A file the catalog does not read, added or removed."""
    rel = _stray(edit.path)
    if run.ws.exists(rel):
        run.ws.remove(rel)
    else:
        run.ws.write(rel, b"notes\n")


def _answers(run: Run, edit: Edit) -> None:
    """A dataset without answers, a recipe under another name, or both as shipped."""

    def change(data: Any) -> None:
        if edit.value == "none":
            data["answers"] = {"kind": "none"}
        elif edit.value == "recipe":
            recipes = data.get("evaluation_recipes")
            if isinstance(recipes, dict) and recipes:
                first = next(iter(recipes))
                _rename_key(recipes, first, f"{first}-renamed")
        else:
            fresh = _yaml().load(SHIPPED[edit.path].decode("utf-8"))
            for key in ("answers", "evaluation_recipes"):
                _set(data, key, fresh.get(key))

    run.ws.change(edit.path, change)


def _commit(run: Run, edit: Edit) -> None:
    """Commit, then check the commit's tree, and a run as `ci` makes it: the working tree and an
    earlier commit through one cache."""
    run.commits.append(commit_all(run.ws.root, f"step {len(run.done) + 1}"))
    run.check_commit(run.commits[-1])
    run.check_beside(run.commits[edit.value % len(run.commits)])


OPS: dict[str, Callable[[Run, Edit], None]] = {
    "touch": _touch,
    "restore": _restore,
    "samples": _samples,
    "split": _split,
    "bench_count": _bench_count,
    "uses": _uses,
    "delete": _delete,
    "break_yaml": _break_yaml,
    "schema_error": _schema_error,
    "metric_remove": _metric_remove,
    "metric_duplicate": _metric_duplicate,
    "metric_unit": _metric_unit,
    "aliases": _aliases,
    "mlperf_name": _mlperf_name,
    "pending": _pending,
    "renamed_from": _renamed_from,
    "rename_file": _rename_file,
    "change_id": _change_id,
    "copy": _copy,
    "symlink": _symlink,
    "revert": _revert,
    "shift": _shift,
    "same_size": _same_size,
    "stray": _stray_file,
    "folder": _folder,
    "answers": _answers,
    "commit": _commit,
}


# -- running and comparing ------------------------------------------------------------------------


def _difference(found: list[Diagnostic], expected: list[Diagnostic]) -> str:
    have, want = Counter(found), Counter(expected)
    lines = [f"  missing: {diagnostic_line(d)}" for d in sorted((want - have).elements())]
    lines += [f"  extra:   {diagnostic_line(d)}" for d in sorted((have - want).elements())]
    return "\n".join(lines) or "  (the same diagnostics in another order)"


KEPT = ("nothing", "cache", "tree")  # what a run keeps from the one before


class Run:
    """A repository holding a copy of the shipped catalog, edited step by step and checked after
    each step."""

    def __init__(self, root: Path, *, kept: str, settled: bool) -> None:
        self.ws = Workspace(init_repo(root), own_mtimes=settled or kept == "tree")
        for rel, data in SHIPPED.items():
            self.ws.write(rel, data)
        self.kept, self.settled = kept, settled
        self.done: list[Edit] = []
        self.commits = [commit_all(root, "the shipped catalog")]
        self._tree = WorkingTree(root)
        self._cache = cache_for(self._tree) if kept != "nothing" else None
        self.states = [self.ws.state()]
        self.verdicts = [self.check()]

    def where(self) -> str:
        steps = "".join(f"\n  {i}. {e}" for i, e in enumerate(self.done, 1)) or " none"
        return f"kept across runs: {self.kept}, every file settled: {self.settled}; edits:{steps}"

    def same(self, found: list[Diagnostic], expected: list[Diagnostic], what: str) -> None:
        if found != expected:
            raise AssertionError(
                f"{what}: check_tree differs from a load from scratch\n{_difference(found, expected)}\n{self.where()}"
            )

    def twice(self, make: Callable[[], Tree], what: str, *, tree: Tree | None = None) -> list[Diagnostic]:
        """Check a tree twice (the second run is the remembered verdict), each against a load
        from scratch of a tree of its own: a new tree, or the kept one when given; through the
        kept cache if any, else a new one on the run's store."""
        expected = load_tree(make(), use_cache=False).diagnostics
        for attempt in ("first", "second"):
            found = check_tree(make() if tree is None else tree, self._cache)
            self.same(found.diagnostics, expected, f"{what}, {attempt} run")
        # A kept working tree's verdict is not stored once a file it read is gone (its served ids
        # still name it): only a new tree's second run is sure to be remembered.
        if tree is None:
            assert found.remembered, f"{what}: the second run is not the remembered verdict\n{self.where()}"
        return expected

    def check(self) -> list[Diagnostic]:
        def make() -> Tree:
            return WorkingTree(self.ws.root)

        return self.twice(make, "working tree", tree=self._tree if self.kept == "tree" else None)

    def git_tree(self, commit_id: str) -> GitTree:
        repo = open_repository(self.ws.root)
        commit = lookup(repo, commit_id)
        assert commit is not None
        return GitTree(repo, commit, commit_id[:12])

    def check_commit(self, commit_id: str) -> None:
        self.twice(lambda: self.git_tree(commit_id), f"commit {commit_id[:12]}")

    def check_beside(self, base: str) -> None:
        """The working tree and an earlier commit through one cache, as `ci` checks its head
        and loads its base."""
        head = WorkingTree(self.ws.root)
        shared = cache_for(head)
        for tree, fresh in ((head, WorkingTree(self.ws.root)), (self.git_tree(base), self.git_tree(base))):
            expected = load_tree(fresh, use_cache=False).diagnostics
            self.same(check_tree(tree, shared).diagnostics, expected, f"{tree.label} beside the working tree")

    def step(self, edit: Edit) -> list[Diagnostic]:
        OPS[edit.op](self, edit)
        self.done.append(edit)
        found = self.check()
        self.states.append(self.ws.state())
        self.verdicts.append(found)
        return found


@contextmanager
def running(*, kept: str, settled: bool) -> Iterator[Run]:
    """A run in a folder of its own, with a cache store of its own (kept across its steps)."""
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_DIR_ENV, str(Path(folder) / "cache"))
        if settled:
            patch.setattr(tree_module, "_SETTLED_NS", -(10**12))
        yield Run(Path(folder) / "repo", kept=kept, settled=settled)


@pytest.fixture(autouse=True)
def cache_never_changes_a_verdict() -> None:
    """Replaces conftest's fixture of that name, which loads every catalog three more times,
    through the very tree under test: here every run is compared with a load from scratch
    anyway, and the trees and caches are exactly those the runs use."""


# -- the property ---------------------------------------------------------------------------------


_NO_VALUE = st.none()


def _edits(op: str, paths: tuple[str, ...], values: st.SearchStrategy[Any] = _NO_VALUE) -> st.SearchStrategy[Edit]:
    return st.builds(Edit, st.just(op), st.sampled_from(paths), values)


def _per_kind(
    op: str, pools: dict[str, tuple[str, ...]], values: Callable[[str], st.SearchStrategy[Any]]
) -> st.SearchStrategy[Edit]:
    """Edits of `op` on the files of several kinds, each with values drawn for its kind (one
    branch of its own, so that each op is drawn about as often as any other)."""
    return st.sampled_from(sorted(pools)).flatmap(lambda kind: _edits(op, pools[kind], values(kind)))


def _mostly(taken: tuple[str, ...], others: tuple[str | None, ...]) -> st.SearchStrategy[str | None]:
    """Half the time a name another entity has already (the collision whose diagnostic lands in
    the other, unedited file), else any of `others`."""
    return st.sampled_from(taken) | st.sampled_from(others) if taken else st.sampled_from(others)


_STEPS = st.integers(0, 1000)
# For each op, the edits it is drawn with.
STRATEGIES: dict[str, st.SearchStrategy[Edit]] = {
    "touch": _edits("touch", ALL_FILES, st.sampled_from(["utime", "rewrite"])),
    "restore": _edits("restore", tuple(SHIPPED)),
    "samples": _edits("samples", ENTITY_FILES["dataset"], st.sampled_from(["+1", PENDING, 0, "orig"])),
    "split": st.sampled_from(SPLIT_DATASETS).flatmap(
        lambda rel: _edits(
            "split",
            (rel,),
            st.tuples(st.sampled_from(sorted(_original(rel, "splits"))), st.sampled_from(["+1", "rename", "orig"])),
        )
    ),
    "bench_count": _edits("bench_count", ENTITY_FILES["benchmark"], st.sampled_from(["+1", PENDING, "orig"])),
    "uses": _per_kind(
        "uses",
        dict.fromkeys(("model", "dataset"), ENTITY_FILES["benchmark"]),
        lambda kind: st.tuples(st.just(kind), st.sampled_from(_pool(kind))),
    ),
    "delete": _edits("delete", ALL_FILES),
    "break_yaml": _edits("break_yaml", tuple(SHIPPED), st.sampled_from(sorted(BROKEN_YAML))),
    "schema_error": _edits("schema_error", tuple(SHIPPED), st.sampled_from(["extra-key", "drop-first-key"])),
    "metric_remove": _edits("metric_remove", (METRICS,), st.sampled_from(METRIC_KEYS)),
    "metric_duplicate": _edits(
        "metric_duplicate", (METRICS,), st.tuples(st.sampled_from(METRIC_KEYS), st.sampled_from([True, False]))
    ),
    "metric_unit": _edits(
        "metric_unit", (METRICS,), st.tuples(st.sampled_from(METRIC_KEYS), st.sampled_from(["toggle", "orig"]))
    ),
    "aliases": _edits(
        "aliases",
        ENTITY_FILES["dataset"],
        st.lists(
            _mostly(_named("dataset", "aliases"), ("shared-alias", *IDS["dataset"])),
            unique=True,
            min_size=1,
            max_size=2,
        ).map(tuple),
    ),
    "mlperf_name": _per_kind(
        "mlperf_name",
        ENTITY_FILES,
        lambda kind: _mostly(_named(kind, "mlperf_name"), ("shared-name", *IDS[kind], None)),
    ),
    "pending": _per_kind(
        "pending",
        {kind: ENTITY_FILES[kind] for kind in PENDING_FIELDS},
        lambda kind: st.tuples(st.sampled_from(PENDING_FIELDS[kind]), st.sampled_from([True, False])),
    ),
    "renamed_from": _per_kind(
        "renamed_from",
        {kind: ENTITY_FILES[kind] for kind in ("dataset", "benchmark")},
        lambda kind: st.sampled_from((*IDS[kind], "old-name", None)),
    ),
    "rename_file": _edits("rename_file", ALL_ENTITY_FILES),
    "change_id": _edits("change_id", ALL_ENTITY_FILES, st.sampled_from(["other", "own"])),
    "copy": _edits("copy", ALL_ENTITY_FILES),
    "symlink": _edits("symlink", tuple(SHIPPED)),
    "revert": _edits("revert", ("",), st.tuples(_STEPS, st.none() | _STEPS)),
    "shift": _edits("shift", tuple(SHIPPED)),
    "same_size": _edits("same_size", ENTITY_FILES["dataset"]),
    "stray": _edits("stray", STRAY_FOLDERS),
    "folder": _edits("folder", STRAY_FOLDERS[1:]),
    "answers": _edits("answers", ENTITY_FILES["dataset"], st.sampled_from(["none", "recipe", "orig"])),
    "commit": _edits("commit", ("",), _STEPS),
}


# The edits whose diagnostics land in files they do not touch (catalog-wide checks, a dependency's
# warnings naming its benchmarks) are drawn twice as often.
TWICE = ("aliases", "mlperf_name", "pending", "uses", "samples")


@st.composite
def edit_lists(draw: st.DrawFn, most: int) -> list[Edit]:
    """Between 3/4 of `most` and `most` edits, their ops in a drawn order, no op again before
    every op has come (each op is drawn about as often, those of TWICE twice as often, however few
    the examples)."""
    ops = sorted([*STRATEGIES, *TWICE])
    random.Random(draw(st.integers(0, 2**32 - 1))).shuffle(ops)  # hypothesis' permutations keep most in place
    count = draw(st.integers(max(1, most * 3 // 4), most))
    return [draw(STRATEGIES[ops[index % len(ops)]]) for index in range(count)]


EXAMPLES = int(os.environ.get("CATALOGCTL_INCREMENTAL_EXAMPLES", "25"))
STEPS = int(os.environ.get("CATALOGCTL_INCREMENTAL_STEPS", "8"))


@pytest.mark.fuzz
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=edit_lists(STEPS), kept=st.sampled_from(KEPT), settled=st.booleans())
def test_every_run_through_the_cache_is_the_verdict_from_scratch(edits: list[Edit], kept: str, settled: bool) -> None:
    with running(kept=kept, settled=settled) as run:
        for edit in edits:
            run.step(edit)


# -- one scripted sequence ------------------------------------------------------------------------


@dataclass(frozen=True)
class Shows:
    """After the step, a diagnostic of this code in this file (mentioning `text`), or none
    (`present=False`)."""

    code: str
    path: str
    text: str = ""
    present: bool = True

    def holds(self, found: list[Diagnostic]) -> bool:
        hits = [d for d in found if d.code == self.code and d.path == f"{SUITE}/{self.path}" and self.text in d.message]
        return bool(hits) == self.present


def _lacks(code: str, path: str, text: str = "") -> Shows:
    return Shows(code, path, text, present=False)


@dataclass(frozen=True)
class Same:
    """After the step, exactly the diagnostics after step `step` (0: the shipped catalog)."""

    step: int


Expect = Shows | Same
LLAMA = "models/llama3-1-8b.yaml"
GSM8K_BENCH, GSM8K_DATA = "benchmarks/gsm8k.yaml", "datasets/gsm8k.yaml"
R2E, POST_TRAINING = "datasets/r2e-gym-subset.yaml", "benchmarks/llm-post-training.yaml"
DEEPSEEK_BENCH = "benchmarks/deepseek-r1.yaml"
SCRIPT: list[tuple[Edit, tuple[Expect, ...]]] = [
    # 1-3 figures: a dataset's samples (its benchmark's count no longer adds up, until it is
    # changed too), a split's size
    (Edit("samples", GSM8K_DATA, "+1"), (Shows("figure-mismatch", GSM8K_BENCH),)),
    (Edit("bench_count", GSM8K_BENCH, "+1"), (_lacks("figure-mismatch", GSM8K_BENCH),)),
    (
        Edit("split", R2E, ("validation", "+1")),
        (Shows("figure-mismatch", R2E), Shows("figure-mismatch", POST_TRAINING, "split `validation` has 252")),
    ),
    # 4-5 the same bytes: touched, written again
    (Edit("touch", GSM8K_DATA, "utime"), (Same(3),)),
    (Edit("touch", LLAMA, "rewrite"), (Same(3),)),
    # 6-8 referenced files deleted, one restored
    (Edit("delete", LLAMA), (Shows("ref-unknown-model", GSM8K_BENCH),)),
    (Edit("delete", "datasets/cnn_dailymail.yaml"), (Shows("ref-unknown-dataset", "benchmarks/llama3-1-8b.yaml"),)),
    (Edit("restore", LLAMA), (_lacks("ref-unknown-model", GSM8K_BENCH),)),
    # 9-10 a referenced dataset broken (its references are not reported again), then mended (with
    # the shipped samples, which the benchmark's count of step 2 no longer fits)
    (
        Edit("break_yaml", GSM8K_DATA, "unclosed"),
        (Shows("yaml-syntax", GSM8K_DATA), _lacks("figure-mismatch", GSM8K_BENCH)),
    ),
    (
        Edit("samples", GSM8K_DATA, "orig"),
        (_lacks("yaml-syntax", GSM8K_DATA), Shows("figure-mismatch", GSM8K_BENCH, "is 1320, but")),
    ),
    # 11-12 a referenced model its schema refuses, then as shipped
    (
        Edit("schema_error", "models/gpt-oss-120b.yaml", "extra-key"),
        (
            Shows("schema-unknown-key", "models/gpt-oss-120b.yaml"),
            _lacks("ref-unknown-model", "benchmarks/gpt-oss-120b.yaml"),
        ),
    ),
    (Edit("restore", "models/gpt-oss-120b.yaml"), (_lacks("schema-unknown-key", "models/gpt-oss-120b.yaml"),)),
    # 13-16 the metric registry: a used metric removed, a key twice, a key twice ignoring case, a unit
    (Edit("metric_remove", METRICS, "exact_match"), (Shows("ref-unknown-metric", DEEPSEEK_BENCH, "exact_match"),)),
    (Edit("metric_duplicate", METRICS, ("pass_at_4", False)), (Shows("yaml-duplicate-key", METRICS),)),
    (Edit("metric_duplicate", METRICS, ("rouge1", True)), (Shows("id-collision", METRICS),)),
    (
        Edit("metric_unit", METRICS, ("TOKENS_PER_SAMPLE", "toggle")),
        (Shows("contract-inconsistent", DEEPSEEK_BENCH, "TOKENS_PER_SAMPLE"),),
    ),
    # 17-18 aliases: another dataset's id; another dataset's alias (reported in that other file)
    (Edit("aliases", GSM8K_DATA, ("aime25",)), (Shows("alias-ambiguous", GSM8K_DATA),)),
    (
        Edit("aliases", "datasets/gpqa.yaml", ("dsr1-perf",)),
        (Shows("alias-ambiguous", "datasets/mlperf_deepseek_r1.yaml"),),
    ),
    # 19-20 MLPerf names: another model's (reported in the other file), another dataset's id
    (Edit("mlperf_name", "models/deepseek-r1.yaml", "llama3_1-8b"), (Shows("mlperf-name-ambiguous", LLAMA),)),
    (Edit("mlperf_name", GSM8K_DATA, "aime25"), (Shows("mlperf-name-ambiguous", GSM8K_DATA),)),
    # 21-23 pending values: one added to a model, one settled in a dataset, a benchmark moved onto
    # the model (the model's warning now names it)
    (
        Edit("pending", LLAMA, ("sha", True)),
        (Shows("pending-value", LLAMA, "blocks freezing ceval, gsm8k, llama3-1-8b"),),
    ),
    (Edit("pending", GSM8K_DATA, ("source.url", False)), (_lacks("pending-value", GSM8K_DATA, "source.url"),)),
    (
        Edit("uses", DEEPSEEK_BENCH, ("model", "llama3-1-8b")),
        (Shows("pending-value", LLAMA, "blocks freezing ceval, deepseek-r1, gsm8k, llama3-1-8b"),),
    ),
    # 24-26 renamed_from an existing benchmark, which is then deleted; then a missing one
    (Edit("renamed_from", GSM8K_BENCH, "deepseek-r1"), (Shows("contract-inconsistent", GSM8K_BENCH, "still exists"),)),
    (
        Edit("delete", DEEPSEEK_BENCH),
        (
            _lacks("contract-inconsistent", GSM8K_BENCH, "still exists"),
            Shows("pending-value", LLAMA, "blocks freezing ceval, gsm8k, llama3-1-8b"),
        ),
    ),
    (Edit("renamed_from", GSM8K_BENCH, "old-name"), (Same(25),)),
    # 27-29 a file renamed; a benchmark copied under a new id; a file replaced by a symlink
    (
        Edit("rename_file", "datasets/aime25.yaml"),
        (
            Shows("file-name-mismatch", "datasets/aime25-moved.yaml"),
            Shows("ref-unknown-dataset", "benchmarks/gpt-oss-120b.yaml"),
        ),
    ),
    (
        Edit("copy", POST_TRAINING),
        (
            Shows("mlperf-name-ambiguous", "benchmarks/llm-post-training-copy.yaml"),
            Shows("pending-value", R2E, "blocks freezing llm-post-training, llm-post-training-copy"),
        ),
    ),
    (Edit("symlink", "datasets/gpqa.yaml"), (Shows("file-symlink", "datasets/gpqa.yaml"),)),
    # 30-31 every line below the first moved; a sample count edited at the same size and mtime
    (Edit("shift", R2E), (Shows("pending-value", R2E),)),
    (Edit("same_size", GSM8K_DATA), (Shows("figure-mismatch", GSM8K_BENCH, "gives 1310"),)),
    # 32-34 a stray file; the models' folder moved away (the stray file with it), then back
    (Edit("stray", "models"), (Shows("file-unexpected", "models/notes.txt"),)),
    (
        Edit("folder", "models"),
        (Shows("ref-unknown-model", GSM8K_BENCH), _lacks("file-unexpected", "models/notes.txt")),
    ),
    (Edit("folder", "models"), (Same(32),)),
    # 35-36 a dataset without answers; an id that is not the file's name
    (Edit("answers", GSM8K_DATA, "none"), (Shows("contract-inconsistent", GSM8K_BENCH, "no answers"),)),
    (
        Edit("change_id", "models/qwen3-5-397b-a17b.yaml", "other"),
        (Shows("file-name-mismatch", "models/qwen3-5-397b-a17b.yaml"),),
    ),
    # 37 commit: the commit's tree, and the working tree beside the shipped commit
    (Edit("commit", "", 0), (Same(36),)),
    # 38-40 back to earlier bytes: the benchmark deleted at step 25, the whole shipped catalog, the
    # whole catalog of step 20
    (
        Edit("revert", DEEPSEEK_BENCH, (24, None)),
        (Shows("pending-value", LLAMA, "blocks freezing ceval, deepseek-r1, gsm8k, llama3-1-8b"),),
    ),
    (Edit("revert", "", (0, None)), (Same(0),)),
    (Edit("revert", "", (20, None)), (Same(20),)),
    # 41 commit: its tree, and the working tree beside the commit of step 37
    (Edit("commit", "", 1), (Same(20),)),
]


@pytest.mark.slow
@pytest.mark.parametrize(("kept", "settled"), [("nothing", False), ("nothing", True), ("tree", False)])
def test_a_scripted_sequence_of_every_edit(kept: str, settled: bool) -> None:
    assert {edit.op for edit, _ in SCRIPT} == OPS.keys() == STRATEGIES.keys()
    with running(kept=kept, settled=settled) as run:
        for number, (edit, expected) in enumerate(SCRIPT, 1):
            found = run.step(edit)
            for expect in expected:
                holds = found == run.verdicts[expect.step] if isinstance(expect, Same) else expect.holds(found)
                assert holds, f"step {number}, {edit}: not {expect}\n" + "\n".join(map(diagnostic_line, found))
