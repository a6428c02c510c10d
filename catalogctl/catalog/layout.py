"""Where things stand in a catalog repository: folder names, entity and ruleset paths, and the
schema line a catalog file starts with. Every path the tool builds comes from here.

The catalog and rulesets folders are configurable (`catalog`, `rulesets`): a command runs with
the layout its repository configures (`using`), and every path is asked of `current()` when it
is built, never imported as a value."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from catalogctl.io.tree import undecodable

CHANGELOG = "CHANGELOG.md"
SCHEMA_DIR = "schemas"
MODELINE = "# yaml-language-server: $schema="


@dataclass(frozen=True)
class Layout:
    """The catalog folder and the rulesets folder, repository-relative, and the paths inside them."""

    suite_dir: str = "benchmark_suite"
    rulesets_dir: str = "rulesets"

    @property
    def suite_file(self) -> str:
        """The suite's identity and policies."""
        return f"{self.suite_dir}/suite.yaml"

    @property
    def metrics_file(self) -> str:
        """The registry of metric keys."""
        return f"{self.suite_dir}/metrics.yaml"

    @property
    def entity_dirs(self) -> dict[str, str]:
        """The folder of each kind of entity."""
        return {kind: f"{self.suite_dir}/{kind}s" for kind in ("model", "dataset", "benchmark")}

    @property
    def catalog_paths(self) -> tuple[str, str]:
        """What a release is made of, as path prefixes."""
        return f"{self.suite_dir}/", f"{self.rulesets_dir}/"

    def ruleset_path(self, cohort: str) -> str:
        """The frozen ruleset of a cohort."""
        return f"{self.rulesets_dir}/{cohort}.yaml"

    def entity_path(self, kind: str, ident: str) -> str:
        """Where the file of an entity stands."""
        return self.ruleset_path(ident) if kind == "ruleset" else f"{self.entity_dirs[kind]}/{ident}.yaml"


DEFAULT = Layout("benchmark_suite", "rulesets")
_CURRENT: ContextVar[Layout] = ContextVar("catalogctl_layout", default=DEFAULT)


def current() -> Layout:
    """The layout of the repository the running command works on (the default outside one)."""
    return _CURRENT.get()


@contextmanager
def using(layout: Layout) -> Iterator[Layout]:
    """Run the block with `layout` as the current one; the previous one is back afterwards."""
    token = _CURRENT.set(layout)
    try:
        yield layout
    finally:
        _CURRENT.reset(token)


def ruleset_path(cohort: str) -> str:
    """The frozen ruleset of a cohort, in the current layout."""
    return current().ruleset_path(cohort)


def entity_path(kind: str, ident: str) -> str:
    """Where the file of an entity stands, in the current layout."""
    return current().entity_path(kind, ident)


def is_ignored(name: str) -> bool:
    """Whether a name in a catalog folder is left alone (a dot file or folder: an editor's, git's)."""
    return name.startswith(".")


def is_entity_file(name: str) -> bool:
    """Whether a regular file of this name in an entity or ruleset folder is one the loader reads
    (a name that is not UTF-8 is reported instead: `file-name-encoding`)."""
    return name.endswith(".yaml") and not is_ignored(name) and not undecodable(name)


def schema_name(kind: str) -> str:
    """The file name of a kind's schema."""
    return f"{kind}.schema.json"


def modeline(kind: str, relative_to: str) -> str:
    """The first line of a catalog file at `relative_to` (repository-relative) naming its schema."""
    depth = relative_to.count("/")
    return f"{MODELINE}{'../' * depth}{SCHEMA_DIR}/{schema_name(kind)}\n"
