"""What the last check of a tree's catalog found, file by file: the start of the next check.

For each file it examined, a check keeps the file's kind and git blob id, its own diagnostics and
whether it validated; for a valid model, dataset or benchmark also its facts (`facts`), its own
cross-document diagnostics, and the state of everything those were found under (its model and
datasets by blob id, or invalid, or absent; the metric registry's blob id; whether the benchmark
it was renamed from exists). The next check of the same tree takes a file whose kind and blob id
are the same from here without reading it, and an entity's cross-document diagnostics too when
every state they were found under is the same (a reference to an absent entity is checked
again: its hint lists what exists).

One snapshot is kept per tree (a working tree by its folder, a repository's refs together), in the
document cache's store, under a key over the tool's version, the source of the modules that
decide a verdict, the environment and the layout: any other tool reads no snapshot. Like every
entry it is authenticated (an HMAC under the user's secret): one planted by someone without the
secret, or one that does not decode, is ignored, and the catalog is checked from scratch.
"""

from __future__ import annotations

import gc
import hashlib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from catalogctl.catalog.documentcache import (
    VERDICT_SOURCES,
    diagnostic_rows,
    diagnostics_of,
    environment_digest,
    sources_digest,
)
from catalogctl.catalog.facts import ENTITY_KINDS, EntityFacts
from catalogctl.errors import Diagnostic
from catalogctl.version import __version__

if TYPE_CHECKING:
    from catalogctl.catalog.documentcache import DocumentCache
    from catalogctl.catalog.layout import Layout
    from catalogctl.io.tree import Tree

_KINDS = (*ENTITY_KINDS, "ruleset")  # the files a snapshot holds (the suite files are read each time)


@dataclass
class EntityState:
    """A valid entity's facts and own cross-document diagnostics, and a digest of the states of
    what those were found under (`incremental` says which)."""

    facts: EntityFacts
    cross: list[Diagnostic] = field(default_factory=list)
    states: str = ""


@dataclass
class FileState:
    """One file as a check found it."""

    kind: str
    blob: str
    diagnostics: list[Diagnostic]
    valid: bool
    entity: EntityState | None = None  # a valid model's, dataset's or benchmark's


Snapshot = dict[str, FileState]  # by path


def holds(kind: str) -> bool:
    """Whether a snapshot holds files of this kind."""
    return kind in _KINDS


def slot(tree: Tree, current: Layout) -> str | None:
    """The key of a tree's snapshot read in `current`; None for a tree whose reads its file ids may not tell
    (only a working tree and a git tree are known to agree with theirs)."""
    from catalogctl.io.gittree import GitTree
    from catalogctl.io.tree import WorkingTree

    if type(tree) is WorkingTree:
        where = f"working tree\0{tree.root}"
    elif type(tree) is GitTree:
        where = f"git\0{tree.repo.path}"
    else:
        return None
    parts = [
        "catalogctl-snapshot/1",
        __version__,
        sources_digest(VERDICT_SOURCES),
        environment_digest(),
        current.suite_dir,
        current.rulesets_dir,
        *(f"{kind}={folder}" for kind, folder in sorted(current.entity_dirs.items())),
        where,
    ]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def recall(cache: DocumentCache, key: str, frame: str) -> Snapshot | None:
    """The snapshot stored under `key`, or None; None too when it was taken in another frame
    (a folder's path passing through a link now, say: its files' ids no longer say they can be
    read)."""
    if cache.store is None:
        return None
    payload = cache.store.get(key)
    found = decode(payload) if payload is not None else None
    return found[1] if found is not None and found[0] == frame else None


def keep(cache: DocumentCache, key: str, frame: str, snapshot: Snapshot) -> None:
    """Store `snapshot`, taken in `frame`, under `key` with the cache's next flush (replacing
    the one there)."""
    if cache.store is not None:
        cache.store.put(key, encode(frame, snapshot))


def encode(frame: str, snapshot: Snapshot) -> bytes:
    """A snapshot as its payload."""
    rows: list[list[Any]] = []
    for path, state in snapshot.items():
        row = [
            path,
            state.kind,
            state.blob,
            diagnostic_rows(state.diagnostics),
            state.valid,
        ]
        entity = state.entity
        if entity is not None:
            row += [entity.facts.plain(), diagnostic_rows(entity.cross), entity.states]
        rows.append(row)
    return json.dumps({"frame": frame, "files": rows}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def decode(payload: bytes) -> tuple[str, Snapshot] | None:
    """The frame and the snapshot of a payload; None when it is not one."""
    collecting = gc.isenabled()
    gc.disable()  # thousands of small lists, none of them cyclic: no collection while they are built
    try:
        stored = json.loads(payload)
        frame, rows = stored["frame"], stored["files"]
        if not isinstance(frame, str):
            return None
        snapshot: Snapshot = {}
        for row in rows:
            path, kind, blob, diagnostics, valid, *rest = row
            if not (isinstance(path, str) and isinstance(blob, str) and kind in _KINDS and isinstance(valid, bool)):
                return None
            # A valid model, dataset or benchmark has its entity; nothing else has one.
            if bool(rest) != (valid and kind != "ruleset"):
                return None
            entity = _entity(kind, path, *rest) if rest else None
            snapshot[path] = FileState(kind, blob, diagnostics_of(diagnostics) if diagnostics else [], valid, entity)
        return frame, snapshot
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    finally:
        if collecting:
            gc.enable()


def _entity(kind: str, path: str, facts: Any, cross: Any, states: Any) -> EntityState:
    name = path.rsplit("/", 1)[-1]
    if not (name.endswith(".yaml") and isinstance(states, str)):
        raise ValueError("not an entity")
    found = EntityFacts.from_plain(kind, name[: -len(".yaml")], facts)
    return EntityState(found, diagnostics_of(cross) if cross else [], states)
