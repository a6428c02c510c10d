"""The one loader: every document of a tree, validated into a `Catalog`, with its diagnostics.

`load_catalog(tree)` is the one loader every verb uses, whether the tree is the working
directory or a git ref.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from catalogctl.catalog.config import layout_of
from catalogctl.catalog.crossref import check_catalog
from catalogctl.catalog.documentcache import DocumentCache, Examined, cache_for
from catalogctl.catalog.filecheck import check_file, rebuild_file
from catalogctl.catalog.index import Catalog, LoadResult, Location
from catalogctl.catalog.layout import Layout, is_entity_file, is_ignored
from catalogctl.catalog.snapshot import FileState, Snapshot, holds
from catalogctl.errors import Diagnostic, EnvironmentProblem, error, warning
from catalogctl.io.tree import Tree, UnsafePath, WorkingTree, blob_id, file_blobs, shown_path, undecodable
from catalogctl.io.yamlio import DocumentChanged
from catalogctl.model import MetricsRegistry, Suite


class Loader:
    """Reads a tree's catalog folder by folder, each file checked on its own (through a
    document cache, and from a prior snapshot when given), into a `Catalog`."""

    def __init__(
        self,
        tree: Tree,
        cache: DocumentCache | None = None,
        prior: Snapshot | None = None,
        known: dict[str, str] | None = None,  # path -> git blob id
        *,
        layout: Layout,
    ) -> None:
        self.tree, self.layout = tree, layout
        self.cache = cache if cache is not None else DocumentCache(None)
        self.catalog = Catalog(label=tree.label)
        self.diagnostics: list[Diagnostic] = []
        self.blob_ids: dict[str, str] = {}  # path -> git blob id, where the tree gives it for free
        self.read_blobs: dict[str, str] = {}  # path -> git blob id of the bytes examined
        # What the last check of this tree found, and the blob ids the files are known to have now
        # (the verdict's manifest): a file both agree on is taken from there, unread.
        self.prior = prior or {}
        self.known = known or {}
        self.files: Snapshot = {}  # every file examined (of the kinds a snapshot holds), as found
        self.unread: set[str] = set()  # the files taken from the prior

    def read(self, path: str) -> bytes | None:
        try:
            return self.tree.read(path)
        except UnsafePath as exc:
            # A link has no lines: 1:1 is where editors and pre-commit can point at it.
            self.diagnostics.append(error("file-symlink", str(exc), path, 1, 1))
        except OSError as exc:
            reason = exc.strerror or str(exc)
            self.diagnostics.append(error("file-unreadable", f"cannot read the file: {reason}", path, 0, 0))
        return None

    def examine(self, kind: str, path: str) -> Examined | None:
        """One file checked on its own, through the cache; None when it cannot be read."""
        found = self.outcome(kind, path)
        if found is not None:
            self.diagnostics.extend(found.diagnostics)
            if holds(kind):
                self.files[path] = FileState(kind, self.read_blobs[path], found.diagnostics, found.value is not None)
        return found

    def from_prior(self, kind: str, path: str) -> FileState | None:
        """The file as the last check found it, when it still has the same blob id."""
        state = self.prior.get(path)
        blob = self.known.get(path) or self.blob_ids.get(path)
        if state is None or state.kind != kind or blob is None or state.blob != blob:
            return None
        self.read_blobs[path] = blob
        self.diagnostics.extend(state.diagnostics)
        self.files[path] = state
        self.unread.add(path)
        return state

    def outcome(self, kind: str, path: str) -> Examined | None:
        """One file checked on its own, through the cache; None when it cannot be read. A git
        tree's blob ids are free: a file the cache remembers is then not even read."""
        blob = self.blob_ids.get(path)
        data = None if blob is not None else self.read(path)
        if blob is None and data is None:
            return None
        blob = blob or blob_id(data or b"")
        self.read_blobs[path] = blob
        key = self.cache.key(kind, path, blob)
        found = self.cache.recall(key)
        if found is None:
            data = data if data is not None else self.read(path)
            if data is None:
                return None
            found = self.cache.lookup(
                key, lambda diagnostics, plain: rebuild_file(kind, path, data, diagnostics, plain)
            )
            if found is None:
                found = check_file(kind, path, data)
                self.cache.remember(key, found)
        return found

    def yaml_files(self, folder: str) -> list[str]:
        """The `.yaml` files of a folder; everything else there is reported."""
        files: list[str] = []
        for entry in self.tree.entries(folder):
            name = entry.path.rsplit("/", 1)[-1]
            if undecodable(name):
                self.diagnostics.append(_undecodable_name(entry.path))
            elif entry.kind == "symlink":
                self.diagnostics.append(
                    error(
                        "file-symlink",
                        "symlinks are not allowed in the catalog; not followed",
                        entry.path,
                        1,
                        1,
                        "replace the link by the file itself",
                    )
                )
            elif is_ignored(name):
                continue
            elif entry.kind == "file" and is_entity_file(name):
                files.append(entry.path)
            else:
                hint = "rename it to .yaml" if name.endswith(".yml") else "move it out of the catalog folders"
                self.diagnostics.append(
                    warning(
                        "file-unexpected",
                        f"{entry.kind} `{name}` is not read by the catalog",
                        entry.path,
                        0,
                        0,
                        hint,
                    )
                )
        return files

    def check_folder(self, folder: str, *, required: bool) -> bool:
        kind = self.tree.kind(folder)
        if kind == "dir":
            return True
        if kind == "symlink":
            self.diagnostics.append(
                error(
                    "file-symlink",
                    "the folder is a symlink; not followed",
                    folder,
                    0,
                    0,
                    "make it a real folder",
                )
            )
        elif kind is not None:
            self.diagnostics.append(error("file-unexpected", f"`{folder}` should be a folder", folder, 0, 0))
        elif required:
            self.diagnostics.append(error("file-missing", f"`{folder}/` is missing", folder, 0, 0))
        return False

    def load_single(self, path: str, key: tuple[str, str]) -> BaseModel | None:
        kind = self.tree.kind(path)
        if kind is None:
            self.diagnostics.append(error("file-missing", f"`{path}` is missing", path, 0, 0))
            return None
        if kind != "file":
            self.diagnostics.append(
                error(
                    "file-symlink" if kind == "symlink" else "file-unexpected",
                    f"`{path}` must be a regular file",
                    path,
                    *((1, 1) if kind == "symlink" else (0, 0)),
                )
            )
            return None
        examined = self.examine(key[0], path)
        if examined is None or examined.value is None or examined.document is None:
            return None
        self.catalog.locations[key] = Location(examined.document)
        return examined.value

    def load_entities(self, kind: str, folder: str, target: dict[str, Any]) -> None:
        if not isinstance(self.tree, WorkingTree):  # a working tree's ids cost a read each
            self.blob_ids.update(file_blobs(self.tree.file_ids(folder)))
        for path in self.yaml_files(folder):
            self.load_entity_file(kind, path, target)

    def load_entity_file(self, kind: str, path: str, target: dict[str, Any]) -> None:
        stem = path.rsplit("/", 1)[-1][: -len(".yaml")]
        self.catalog.invalid.add((kind, stem))  # until it validates
        unread = self.from_prior(kind, path)
        if unread is not None:
            if unread.valid:
                self.catalog.invalid.discard((kind, stem))
            return
        examined = self.examine(kind, path)
        if examined is None or examined.value is None or examined.document is None:
            return
        self.keep(kind, stem, path, examined, target)

    def materialize(self, kind: str, ident: str) -> Any:
        """The value of a valid entity taken from the prior unread: its file read and checked now
        (refused if it no longer holds what the prior and the blob id say)."""
        path = self.layout.entity_path(kind, ident)
        blob = self.read_blobs[path]
        examined = self.outcome(kind, path)
        if examined is None or examined.value is None or examined.document is None or self.read_blobs[path] != blob:
            raise DocumentChanged(f"{path} changed while catalogctl was reading the catalog", "run the command again")
        target = self.target(kind)
        self.keep(kind, ident, path, examined, target)
        return target[ident]

    def keep(self, kind: str, stem: str, path: str, examined: Examined, target: dict[str, Any]) -> None:
        """A validated entity into the catalog."""
        assert examined.document is not None
        target[stem] = examined.value
        self.catalog.invalid.discard((kind, stem))
        self.catalog.locations[(kind, stem)] = Location(examined.document)
        # Validated: neither data nor text is kept; positions read the file again (checked to be
        # the same bytes). A ruleset keeps its text: `freeze` and the policy compare it as written.
        if kind == "ruleset":
            examined.document.release()
        else:
            examined.document.release(self.tree.read, self.read_blobs[path])

    def target(self, kind: str) -> dict[str, Any]:
        tables: dict[str, dict[str, Any]] = {
            "model": self.catalog.models,
            "dataset": self.catalog.datasets,
            "benchmark": self.catalog.benchmarks,
            "ruleset": self.catalog.rulesets,
        }
        return tables[kind]

    def load_suite_files(self) -> None:
        suite = self.load_single(self.layout.suite_file, ("suite", ""))
        self.catalog.suite = suite if isinstance(suite, Suite) else None
        registry = self.load_single(self.layout.metrics_file, ("metrics", ""))
        if isinstance(registry, MetricsRegistry):
            self.index_metrics(registry)

    def load(self) -> LoadResult:
        suite = self.layout.suite_dir
        root_kind = self.tree.kind(suite)
        if root_kind is None:
            raise EnvironmentProblem(
                f"no catalog in the {self.tree.label}: `{suite}/` not found",
                "run in the catalog repository, or pass its path",
            )
        if self.check_folder(suite, required=True):
            self.load_suite_files()
            self.expect_only(suite, {"suite.yaml", "metrics.yaml", "models", "datasets", "benchmarks"})
            for kind, folder in self.layout.entity_dirs.items():
                if self.check_folder(folder, required=False):
                    self.load_entities(kind, folder, self.target(kind))
        if self.check_folder(self.layout.rulesets_dir, required=False):
            self.load_entities("ruleset", self.layout.rulesets_dir, self.catalog.rulesets)
        self.cache.flush()
        return LoadResult(self.catalog, self.diagnostics)

    def expect_only(self, folder: str, names: set[str]) -> None:
        for entry in self.tree.entries(folder):
            name = entry.path.rsplit("/", 1)[-1]
            if name in names or is_ignored(name):
                continue
            if undecodable(name):
                self.diagnostics.append(_undecodable_name(entry.path))
            elif entry.kind == "symlink":
                self.diagnostics.append(
                    error("file-symlink", "symlinks are not allowed in the catalog; not followed", entry.path, 1, 1)
                )
            else:
                self.diagnostics.append(
                    warning(
                        "file-unexpected",
                        f"`{name}` is not part of the catalog layout",
                        entry.path,
                        0,
                        0,
                        f"the catalog reads {', '.join(sorted(names))}",
                    )
                )

    def index_metrics(self, registry: MetricsRegistry) -> None:
        location = self.catalog.locations[("metrics", "")]
        folded: dict[str, str] = {}
        for index, metric in enumerate(registry.metrics):
            here = location.child("metrics", index, "key")
            first = folded.get(metric.key.casefold())
            if first is not None:
                line, column = here.position()
                same = first == metric.key
                self.diagnostics.append(
                    error(
                        "yaml-duplicate-key" if same else "id-collision",
                        f"metric `{metric.key}` is declared twice"
                        if same
                        else f"metric `{metric.key}` collides with `{first}` when case is ignored",
                        location.document.path,
                        line,
                        column,
                        "give every metric a distinct key",
                    )
                )
                continue
            folded[metric.key.casefold()] = metric.key
            self.catalog.metrics[metric.key] = metric
            self.catalog.locations[("metric", metric.key)] = Location(location.document, ("metrics", index))


def _undecodable_name(path: str) -> Diagnostic:
    """A file or folder whose name is not UTF-8: never read (no id is such a name), and shown
    with the byte escaped, so that every output (a terminal, JSON, an annotation) can hold it."""
    hint = "rename it: an id, and so its file's name, is UTF-8 text"
    return error("file-name-encoding", "the name is not UTF-8 text; not read", shown_path(path), 1, 1, hint)


class SubsetLoader:
    """Loads the suite, the metric registry and, on request, single entities of a tree, without
    cross-document checks: for verbs that must not pay for the whole catalog."""

    def __init__(self, tree: Tree, cache: DocumentCache | None = None, *, layout: Layout) -> None:
        self.tree = tree
        self._loader = Loader(tree, cache, layout=layout)
        self._loader.load_suite_files()
        self._asked: set[tuple[str, str]] = set()

    def want(self, wanted: Iterable[tuple[str, str]]) -> None:
        """Load these (kind, id) entities, if their files exist and were not loaded yet."""
        for kind, ident in sorted(set(wanted) - self._asked):
            self._asked.add((kind, ident))
            path = self._loader.layout.entity_path(kind, ident)
            if self.tree.kind(path) == "file":
                self._loader.load_entity_file(kind, path, self._loader.target(kind))

    @property
    def result(self) -> LoadResult:
        """What has been loaded so far."""
        return LoadResult(self._loader.catalog, sorted(self._loader.diagnostics))


def load_rulesets(tree: Tree, cache: DocumentCache | None = None, *, layout: Layout) -> Catalog:
    """The rulesets of a tree (and where each stands), without the rest of its catalog: what
    the release policy reads first."""
    loader = Loader(tree, cache, layout=layout)
    if tree.kind(layout.rulesets_dir) == "dir":
        loader.load_entities("ruleset", layout.rulesets_dir, loader.catalog.rulesets)
    loader.cache.flush()
    return loader.catalog


def load_documents(
    tree: Tree, cache: DocumentCache | None = None, *, layout: Layout, use_cache: bool = True
) -> LoadResult:
    """Load every document of a tree, each checked on its own (through `cache`, default the
    tree's own), without the cross-document checks (`load_tree` adds them)."""
    if cache is None:
        cache = cache_for(tree, enabled=use_cache)
    return Loader(tree, cache, layout=layout).load()


def load_tree(
    tree: Tree, cache: DocumentCache | None = None, *, layout: Layout | None = None, use_cache: bool = True
) -> LoadResult:
    """Load and validate the catalog of a tree: documents, schemas and cross-references.

    The tree is read in `layout` (default: its repository's, `config.layout_of`); single files are
    checked through `cache` (default: the tree's own, see `cache.cache_for`; none with
    `use_cache=False`); cross-references are checked on every call."""
    result = load_documents(tree, cache, layout=layout or layout_of(tree), use_cache=use_cache)
    result.diagnostics.extend(check_catalog(result.catalog))
    result.diagnostics.sort()
    return result
