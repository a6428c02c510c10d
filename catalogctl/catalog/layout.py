"""Where things stand in a catalog repository: folder names, entity and ruleset paths, and the
schema line a catalog file starts with. Every path the tool builds comes from here.

The catalog and rulesets folders are configurable (`catalog`, `rulesets`): an entry point reads
the layout its repository configures (`config.layout_for`) and passes it down with the tree or
repository it belongs to; every path of the catalog is asked of that `Layout`, never of a global."""

from __future__ import annotations

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
