"""The one loader: every document of a tree, validated into a `Catalog`, with its diagnostics.

`load_catalog(tree)` is the one loader every verb uses, whether the tree is the working
directory or a git ref.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from catalogctl.catalog import layout
from catalogctl.catalog.crossref import check_catalog
from catalogctl.catalog.index import Catalog, LoadResult, Location
from catalogctl.catalog.layout import entity_path
from catalogctl.catalog.validation import validate_document
from catalogctl.errors import Diagnostic, EnvironmentProblem, error, warning
from catalogctl.io.tree import Tree, UnsafePath
from catalogctl.io.yamlio import Document, YamlProblem, parse_document
from catalogctl.model import (
    Dataset,
    InferenceBenchmark,
    MetricsRegistry,
    Model,
    Ruleset,
    Suite,
    TrainingBenchmark,
)

BENCHMARK_KINDS: dict[str, type[BaseModel]] = {"inference": InferenceBenchmark, "training": TrainingBenchmark}


class _Loader:
    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.catalog = Catalog(label=tree.label)
        self.diagnostics: list[Diagnostic] = []

    def parse(self, path: str) -> Document | None:
        try:
            return parse_document(path, self.tree.read(path))
        except YamlProblem as problem:
            self.diagnostics.append(problem.diagnostic(path))
        except UnsafePath as exc:
            # A link has no lines: 1:1 is where editors and pre-commit can point at it.
            self.diagnostics.append(error("file-symlink", str(exc), path, 1, 1))
        except OSError as exc:
            reason = exc.strerror or str(exc)
            self.diagnostics.append(error("file-unreadable", f"cannot read the file: {reason}", path, 0, 0))
        return None

    def yaml_files(self, folder: str) -> list[str]:
        """The `.yaml` files of a folder; everything else there is reported."""
        files: list[str] = []
        for entry in self.tree.entries(folder):
            name = entry.path.rsplit("/", 1)[-1]
            if entry.kind == "symlink":
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
            elif name.startswith("."):
                continue
            elif entry.kind == "file" and name.endswith(".yaml"):
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

    def load_single(self, path: str, model: type[BaseModel], key: tuple[str, str]) -> BaseModel | None:
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
        doc = self.parse(path)
        if doc is None:
            return None
        value, problems = validate_document(doc, model)
        self.diagnostics.extend(problems)
        if value is not None:
            self.catalog.locations[key] = Location(doc)
        return value

    def load_entities(self, kind: str, folder: str, target: dict[str, Any]) -> None:
        for path in self.yaml_files(folder):
            self.load_entity_file(kind, path, target)

    def load_entity_file(self, kind: str, path: str, target: dict[str, Any]) -> None:
        stem = path.rsplit("/", 1)[-1][: -len(".yaml")]
        self.catalog.invalid.add((kind, stem))  # until it validates
        doc = self.parse(path)
        if doc is None:
            return
        model = self.model_for(kind, doc)
        if model is None:
            return
        value, problems = validate_document(doc, model)
        self.diagnostics.extend(problems)
        if value is None:
            return
        ident = value.cohort if isinstance(value, Ruleset) else value.id  # type: ignore[attr-defined]
        if stem != ident:
            pos, _ = doc.positions.nearest(("cohort",) if kind == "ruleset" else ("id",))
            self.diagnostics.append(
                error(
                    "ruleset-name-mismatch" if kind == "ruleset" else "file-name-mismatch",
                    f"file is named `{stem}.yaml` but its {'cohort' if kind == 'ruleset' else 'id'} is `{ident}`",
                    path,
                    pos.line,
                    pos.column,
                    f"rename the file to `{ident}.yaml`",
                )
            )
            return
        target[ident] = value
        self.catalog.invalid.discard((kind, stem))
        self.catalog.locations[(kind, ident)] = Location(doc)
        doc.release()  # validated: only the text is kept, for positions

    def model_for(self, kind: str, doc: Document) -> type[BaseModel] | None:
        models: dict[str, type[BaseModel]] = {"model": Model, "dataset": Dataset, "ruleset": Ruleset}
        if kind != "benchmark":
            return models[kind]
        data = doc.data
        found = data.get("kind") if isinstance(data, dict) else None
        if isinstance(found, str) and found in BENCHMARK_KINDS:
            return BENCHMARK_KINDS[found]
        pos, _ = doc.positions.nearest(("kind",))
        if found is None:
            message, line, column = "missing key `kind` in the document", pos.key_line, pos.key_column
        else:
            message, line, column = f"kind: should be 'inference' or 'training' (got {found!r})", pos.line, pos.column
        self.diagnostics.append(
            error(
                "schema-missing-key" if found is None else "schema-invalid-value",
                message,
                doc.path,
                line,
                column,
                "kind: inference (performance/accuracy phases) or kind: training (time to a quality target)",
            )
        )
        return None

    def target(self, kind: str) -> dict[str, Any]:
        tables: dict[str, dict[str, Any]] = {
            "model": self.catalog.models,
            "dataset": self.catalog.datasets,
            "benchmark": self.catalog.benchmarks,
            "ruleset": self.catalog.rulesets,
        }
        return tables[kind]

    def load_suite_files(self) -> None:
        suite = self.load_single(layout.current().suite_file, Suite, ("suite", ""))
        self.catalog.suite = suite if isinstance(suite, Suite) else None
        registry = self.load_single(layout.current().metrics_file, MetricsRegistry, ("metrics", ""))
        if isinstance(registry, MetricsRegistry):
            self.index_metrics(registry)

    def load(self) -> LoadResult:
        suite = layout.current().suite_dir
        root_kind = self.tree.kind(suite)
        if root_kind is None:
            raise EnvironmentProblem(
                f"no catalog in the {self.tree.label}: `{suite}/` not found",
                "run in the catalog repository, or pass its path",
            )
        if self.check_folder(suite, required=True):
            self.load_suite_files()
            self.expect_only(suite, {"suite.yaml", "metrics.yaml", "models", "datasets", "benchmarks"})
            for kind, folder in layout.current().entity_dirs.items():
                if self.check_folder(folder, required=False):
                    self.load_entities(kind, folder, self.target(kind))
        if self.check_folder(layout.current().rulesets_dir, required=False):
            self.load_entities("ruleset", layout.current().rulesets_dir, self.catalog.rulesets)
        return LoadResult(self.catalog, self.diagnostics)

    def expect_only(self, folder: str, names: set[str]) -> None:
        for entry in self.tree.entries(folder):
            name = entry.path.rsplit("/", 1)[-1]
            if name in names or name.startswith("."):
                continue
            if entry.kind == "symlink":
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


class SubsetLoader:
    """Loads the suite, the metric registry and, on request, single entities of a tree, without
    cross-document checks: for verbs that must not pay for the whole catalog."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self._loader = _Loader(tree)
        self._loader.load_suite_files()
        self._asked: set[tuple[str, str]] = set()

    def want(self, wanted: Iterable[tuple[str, str]]) -> None:
        """Load these (kind, id) entities, if their files exist and were not loaded yet."""
        for kind, ident in sorted(set(wanted) - self._asked):
            self._asked.add((kind, ident))
            path = entity_path(kind, ident)
            if self.tree.kind(path) == "file":
                self._loader.load_entity_file(kind, path, self._loader.target(kind))

    @property
    def result(self) -> LoadResult:
        """What has been loaded so far."""
        return LoadResult(self._loader.catalog, sorted(self._loader.diagnostics))


def load_tree(tree: Tree) -> LoadResult:
    """Load and validate the catalog of a tree: documents, schemas and cross-references."""
    result = _Loader(tree).load()
    result.diagnostics.extend(check_catalog(result.catalog))
    result.diagnostics.sort()
    return result
