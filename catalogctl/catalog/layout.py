"""Where things stand in a catalog repository: folder names, entity and ruleset paths, and the
schema line a catalog file starts with. Every path the tool builds comes from here."""

from __future__ import annotations

SUITE_DIR = "benchmark_suite"
RULESETS_DIR = "rulesets"
SUITE_FILE = f"{SUITE_DIR}/suite.yaml"
METRICS_FILE = f"{SUITE_DIR}/metrics.yaml"
ENTITY_DIRS: dict[str, str] = {
    "model": f"{SUITE_DIR}/models",
    "dataset": f"{SUITE_DIR}/datasets",
    "benchmark": f"{SUITE_DIR}/benchmarks",
}
CATALOG_PATHS = (f"{SUITE_DIR}/", f"{RULESETS_DIR}/")  # what a release is made of
CHANGELOG = "CHANGELOG.md"
SCHEMA_DIR = "schemas"
MODELINE = "# yaml-language-server: $schema="


def ruleset_path(cohort: str) -> str:
    """The frozen ruleset of a cohort."""
    return f"{RULESETS_DIR}/{cohort}.yaml"


def entity_path(kind: str, ident: str) -> str:
    """Where the file of an entity stands."""
    return ruleset_path(ident) if kind == "ruleset" else f"{ENTITY_DIRS[kind]}/{ident}.yaml"


def schema_name(kind: str) -> str:
    """The file name of a kind's schema."""
    return f"{kind}.schema.json"


def modeline(kind: str, relative_to: str) -> str:
    """The first line of a catalog file at `relative_to` (repository-relative) naming its schema."""
    depth = relative_to.count("/")
    return f"{MODELINE}{'../' * depth}{SCHEMA_DIR}/{schema_name(kind)}\n"
