"""The verdict of a whole catalog, remembered by everything it depends on.

The diagnostics `load_tree` gives (single-file and cross-document) are a function of the tool
(its version and the source of the modules that decide them: models, catalog checks, readers),
of its environment (Python, the pydantic and ruamel versions, which YAML parser loads), of the
layout and what each configured folder's path passes through, and of what the catalog's
folders hold: the kind of each folder, and the name, kind, mode and content id (the git blob
id) of every entry in them. `check_tree` keys the diagnostics by the SHA-256 of all of these.
When a run already checked exactly these inputs, the stored diagnostics are the verdict: no
document is read, parsed or built. Otherwise the catalog is checked from the snapshot of the last
check of the same tree (`incremental`; from scratch when there is none), through the document
cache. The verdict (and the new snapshot) is stored only if the folders still hold what the key
covers, the load examined every catalog file the key lists with the blob id listed, and every
file read had that id (a file edited meanwhile, even if put back, or away while its folder was
listed, is not filed under the old content).

A stored verdict is an entry of the document cache (same store, same HMAC under the user's
secret): one that is torn, corrupt, foreign or planted by someone without the secret reads as
absent and the catalog is checked again.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from catalogctl.catalog.documentcache import (
    VERDICT_SOURCES,
    Examined,
    cache_for,
    decode,
    environment_digest,
    sources_digest,
)
from catalogctl.catalog.layout import Layout, is_entity_file
from catalogctl.io.tree import WorkingTree, file_blobs, folders_above
from catalogctl.version import __version__

if TYPE_CHECKING:
    from catalogctl.catalog.documentcache import DocumentCache
    from catalogctl.catalog.index import LoadResult
    from catalogctl.errors import Diagnostic
    from catalogctl.io.tree import Tree


def catalog_key(tree: Tree, layout: Layout) -> str | None:
    """The key of the verdict on a tree's catalog read in `layout`; None when a file cannot be
    read (its diagnostic is then the loader's to give)."""
    found = _manifest(tree, layout)
    return None if found is None else found.key


@dataclass(frozen=True)
class _Manifest:
    """The key of a verdict; the file id of every entry it covers, by path; and the digest of
    its frame (what the folders' paths pass through and what kind each folder is), without
    which a file's id does not say whether it can be read."""

    key: str
    ids: dict[str, str]
    frame: str


def _manifest(tree: Tree, current: Layout) -> _Manifest | None:
    frame = hashlib.sha256()
    for part in ("catalogctl-verdict/3", __version__, sources_digest(VERDICT_SOURCES), environment_digest()):
        frame.update(part.encode() + b"\0")
    entries = hashlib.sha256()
    ids: dict[str, str] = {}
    try:
        # What each configured folder's path passes through (a parent replaced by a link makes
        # every file below it refused), then what the folders hold.
        for folder in (current.suite_dir, current.rulesets_dir):
            for above in folders_above(folder):
                frame.update(f"above\0{above}\0{tree.kind(above)}\0".encode())
        suite_kind = tree.kind(current.suite_dir)
        folders = [current.rulesets_dir]
        if suite_kind == "dir":
            folders += [current.suite_dir, *current.entity_dirs.values()]
        for folder in sorted({current.suite_dir, *folders}):
            kind = tree.kind(folder) if folder != current.suite_dir else suite_kind
            frame.update(f"folder\0{folder}\0{kind}\0".encode())
            if kind == "dir" and folder in folders:
                for path, file_id in sorted(tree.file_ids(folder).items()):
                    entries.update(f"{path}\0{file_id}\0".encode())
                    ids[path] = file_id
    except (OSError, ValueError):
        return None
    framed = frame.hexdigest()
    key = hashlib.sha256(f"{framed}\0{entries.hexdigest()}".encode()).hexdigest()
    return _Manifest(key, ids, framed)


def _saw_keyed_content(tree: Tree, layout: Layout, manifest: _Manifest, examined: dict[str, str]) -> bool:
    """Whether a load examined exactly what the manifest covers (`examined`: the blob id of each
    file it examined, by path): the folders hold it still, the load examined every catalog file
    the manifest lists with the blob id listed (a file away while its folder was listed was not
    examined), and every file read had that id (a file edited and put back meanwhile did not)."""
    after = _manifest(tree, layout)
    if after is None or after.key != manifest.key:
        return False
    if not isinstance(tree, WorkingTree):
        return True  # a git tree does not change
    if examined != _catalog_files(manifest.ids, layout):
        return False
    return all(manifest.ids.get(path, "").endswith(f":{blob}") for path, blob in tree.served_ids().items())


def _catalog_files(ids: dict[str, str], current: Layout) -> dict[str, str]:
    """The blob id of every file among a manifest's entries that a load examines: the suite
    files, and the regular `.yaml` files of the entity and ruleset folders."""
    folders = {*current.entity_dirs.values(), current.rulesets_dir}
    out: dict[str, str] = {}
    for path, blob in file_blobs(ids).items():
        folder, _, name = path.rpartition("/")
        if path in (current.suite_file, current.metrics_file) or (folder in folders and is_entity_file(name)):
            out[path] = blob
    return out


@dataclass
class Verdict:
    """Every diagnostic of a tree's catalog (sorted), and whether it was remembered."""

    label: str
    diagnostics: list[Diagnostic]
    remembered: bool = False
    loaded: LoadResult | None = None  # the catalog, when this run loaded it
    file_ids: dict[str, str] | None = None  # the file id of every entry of the catalog's folders, when listed


def check_tree(
    tree: Tree, cache: DocumentCache | None = None, *, layout: Layout | None = None, use_cache: bool = True
) -> Verdict:
    """The diagnostics of the catalog of a tree read in `layout` (default: its repository's), as
    `load_tree` gives them: the remembered verdict when nothing it depends on changed, else a
    check from the last check of this tree (`incremental`; from scratch when there is none),
    through `cache` (default the tree's own; none with `use_cache=False`)."""
    if layout is None:
        from catalogctl.catalog.config import layout_of

        layout = layout_of(tree)
    if cache is None:
        cache = cache_for(tree, enabled=use_cache)
    manifest = _manifest(tree, layout) if cache.store is not None else None
    if manifest is None:  # nothing to remember by (the cache off, or a file unreadable): a plain load
        from catalogctl.catalog.loader import load_tree

        loaded = load_tree(tree, cache, layout=layout)
        return Verdict(tree.label, loaded.diagnostics, loaded=loaded)
    known = _recall(cache, manifest.key)
    if known is not None:
        cache.flush()  # the blob ids hashed again (a file touched, not changed)
        return Verdict(tree.label, known, remembered=True, file_ids=manifest.ids)
    from catalogctl.catalog import snapshot  # a remembered verdict imports no model
    from catalogctl.catalog.incremental import check_from

    slot = snapshot.slot(tree, layout)
    prior = snapshot.recall(cache, slot, manifest.frame) if slot is not None else None
    checked = check_from(tree, cache, prior, file_blobs(manifest.ids), layout=layout)
    if _saw_keyed_content(tree, layout, manifest, checked.examined):
        cache.remember(manifest.key, Examined(checked.diagnostics))
        if slot is not None:
            snapshot.keep(cache, slot, manifest.frame, checked.snapshot)
        cache.flush()
    return Verdict(tree.label, checked.diagnostics, loaded=checked.loaded, file_ids=manifest.ids)


def _recall(cache: DocumentCache, key: str) -> list[Diagnostic] | None:
    assert cache.store is not None
    payload = cache.store.get(key)
    decoded = decode(payload) if payload is not None else None
    cache.store.close()
    if decoded is None or decoded[1] is not None:
        return None
    return sorted(decoded[0])
