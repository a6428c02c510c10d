"""The configuration file of a catalog repository, found at its root and validated.

As ruff does, `catalogctl.toml` (keys at its top level) takes precedence over `[tool.catalogctl]`
in `pyproject.toml`; a pyproject.toml without the table is no configuration. Every problem is a
diagnostic with the file, line and column where the text shows them, the key's dotted name, a
stable code and a hint; together they raise `ConfigInvalid` (exit 2).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from catalogctl.catalog.cohorts import Calendar
from catalogctl.catalog.diagnostics import did_you_mean
from catalogctl.catalog.layout import DEFAULT, Layout
from catalogctl.errors import ConfigInvalid, Diagnostic, error
from catalogctl.io.tree import Tree
from catalogctl.model.documents.config import Config

OWN_FILE = "catalogctl.toml"
PYPROJECT = "pyproject.toml"
CONFIG_FILES = (OWN_FILE, PYPROJECT)  # in order of precedence
_AT = re.compile(r"\(at line (\d+), column (\d+)\)$")


@dataclass(frozen=True)
class LoadedConfig:
    """A configuration and the file it came from ("" for the defaults)."""

    config: Config
    file: str = ""


def config_file(root: Path) -> tuple[str, dict[str, Any], str] | None:
    """The file that configures `root`, its keys and its text; None when none does."""
    return _first_config(lambda name: (root / name).read_bytes() if (root / name).is_file() else None)


def _first_config(read: Callable[[str], bytes | None]) -> tuple[str, dict[str, Any], str] | None:
    """The first configuration file `read` finds (None: absent), its keys and its text."""
    for name in CONFIG_FILES:
        try:
            raw = read(name)
            if raw is None:
                continue
            text = raw.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigInvalid(
                f"cannot read {name}", [error("config-syntax", f"cannot read the file: {exc}", name, 0, 0)]
            ) from None
        try:
            data: dict[str, Any] = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigInvalid(f"{name} is not valid TOML", [_syntax(name, str(exc), text)]) from None
        if name == OWN_FILE:
            return name, data, text
        tool = data.get("tool")
        table = tool.get("catalogctl") if isinstance(tool, dict) else None
        if isinstance(table, dict):
            return name, table, text
        if table is not None:
            where = _position(text, "", ["tool", "catalogctl"])
            message = f"tool.catalogctl: should be a table (got {table!r})"
            problem = error("config-invalid-value", message, name, *where, "write [tool.catalogctl] and its keys")
            raise ConfigInvalid(f"{name}: the catalogctl configuration is not valid", [problem])
    return None


def config_root(start: Path) -> Path:
    """The catalog repository's root at or above `start`: the first folder holding a
    configuration file, the default catalog folder or `.git` (`start` itself when none does)."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if any((folder / name).is_file() for name in CONFIG_FILES) or (folder / DEFAULT.suite_dir).is_dir():
            return folder
        if (folder / ".git").exists():
            return folder
    return start


def config_for(start: Path | None = None) -> LoadedConfig:
    """The configuration of the catalog repository at or above `start` (default: here)."""
    return load_config(config_root(start or Path.cwd()))


def calendar_for(start: Path | None = None) -> Calendar:
    """The cohort calendar of the catalog repository at or above `start`: the one function
    every verb asks for submission dates, the next cohort and skipped cohorts."""
    return Calendar(config_for(start).config.calendar)


def layout_for(start: Path | None = None) -> Layout:
    """The layout (catalog and rulesets folders) configured at or above `start` (default: here)."""
    config = config_for(start).config
    return Layout(config.catalog, config.rulesets)


def layout_of(tree: Tree) -> Layout:
    """The layout a tree is read in when its reader names none: its repository's, as every verb
    reads it (a working tree's configuration, also for the tree of a ref in a clone); a tree of
    no working tree (a bare repository's) is read in the configuration it holds."""
    from catalogctl.io.tree import WorkingTree

    if isinstance(tree, WorkingTree):
        return layout_for(tree.root)
    from catalogctl.io.gittree import GitTree  # pygit2: only for a git tree

    if isinstance(tree, GitTree) and tree.repo.workdir is not None:
        return layout_for(Path(tree.repo.workdir))
    config = config_in_tree(tree).config
    return Layout(config.catalog, config.rulesets)


def config_in_tree(tree: Tree) -> LoadedConfig:
    """The configuration a tree holds at its root (a git ref's, e.g. a pull request's base)."""
    return _validated(_first_config(lambda name: tree.read(name) if tree.kind(name) == "file" else None))


def load_config(root: Path) -> LoadedConfig:
    """The configuration of the catalog repository at `root` (the defaults when it has none)."""
    return _validated(config_file(root))


def _validated(found: tuple[str, dict[str, Any], str] | None) -> LoadedConfig:
    """The configuration of a file's keys, or `ConfigInvalid` saying what is wrong, key by key."""
    if found is None:
        return LoadedConfig(Config())
    name, data, text = found
    try:
        return LoadedConfig(Config.model_validate(data), name)
    except ValidationError as exc:
        prefix = "tool.catalogctl." if name == PYPROJECT else ""
        problems = sorted(_problem(name, text, prefix, err) for err in exc.errors(include_url=False))
        raise ConfigInvalid(f"{name}: the catalogctl configuration is not valid", problems) from None


def _syntax(name: str, message: str, text: str) -> Diagnostic:
    at = _AT.search(message)
    if at:
        line, column = int(at.group(1)), int(at.group(2))
    elif message.endswith("(at end of document)"):
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
    else:
        line, column = 0, 0
    shown = _AT.sub("", message).removesuffix("(at end of document)").strip()
    return error("config-syntax", shown, name, line, column, "see https://toml.io")


def _problem(name: str, text: str, prefix: str, err: Any) -> Diagnostic:
    """One pydantic error as a diagnostic naming the dotted key."""
    loc = [str(part) for part in err["loc"] if part != "[key]"]
    dotted = (prefix + ".".join(loc)).replace(".[", "[") if loc else prefix.rstrip(".") or "the file"
    dotted = re.sub(r"\.(\d+)(?=\.|$)", r"[\1]", dotted)
    line, column = _position(text, prefix, loc)
    if err["type"] == "extra_forbidden":
        known = _known_keys(loc[:-1])
        hint = did_you_mean(loc[-1], known) or f"known keys: {', '.join(sorted(known))}"
        return error("config-unknown-key", f"unknown key `{dotted}`", name, line, column, hint)
    message = str(err["msg"]).removeprefix("Value error, ")
    value = err.get("input")
    quiet = isinstance(value, dict | list) or err["type"] == "missing" or f"`{value}`" in message
    shown = "" if quiet else f" (got {value!r})"
    return error("config-invalid-value", f"{dotted}: {message}{shown}", name, line, column, _hint(loc))


def _hint(loc: list[str]) -> str:
    """What to write, for the keys whose form is not obvious."""
    if "rules" in loc:
        return 'a rule: {slot = "C0", weekday = "wednesday", week = 1}; week -1 is the last'
    if "dates" in loc:
        return "a date per cohort: 2027-01-C0 = 2027-01-13"
    if loc in (["catalog"], ["rulesets"]):
        return 'a folder relative to the repository root, e.g. catalog = "benchmarks/catalog"'
    return "see the documentation: reference/configuration"


def _known_keys(loc: list[str]) -> set[str]:
    """The keys allowed in the table at `loc` (kebab-case aliases where a field has one)."""
    from pydantic import BaseModel

    model: Any = Config
    for part in loc:
        field = next((f for n, f in model.model_fields.items() if (f.alias or n) == part), None)
        if field is None:
            break
        annotation = field.annotation
        inner = getattr(annotation, "__args__", (annotation,))
        found = next((a for a in inner if isinstance(a, type) and issubclass(a, BaseModel)), None)
        if found is None:
            break
        model = found
    return {f.alias or n for n, f in model.model_fields.items()}


_HEADER = re.compile(r"(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?")
_KEY = re.compile(r"\s*(\"[^\"]*\"|[A-Za-z0-9_-]+)\s*=")


def _position(text: str, prefix: str, loc: list[str]) -> tuple[int, int]:
    """Where the key at `loc` is written: its `key =` line (or its table's header), the column
    of the innermost key when it sits in an inline table; (0, 0) when the text does not show it."""
    wanted = [*(prefix.rstrip(".").split(".") if prefix else []), *loc]
    table = (0, 0)
    current: list[str] = []
    arrays: dict[tuple[str, ...], int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.fullmatch(line.strip())
        if header:
            current = [p.strip().strip('"') for p in header.group(2).split(".")]
            if header.group(1) == "[[":
                arrays[tuple(current)] = arrays.get(tuple(current), -1) + 1
                current = [*current, str(arrays[tuple(current)])]
            if wanted[: len(current)] == current:
                table = (number, line.index("[") + 1)  # the key may not be written: its table
                if len(wanted) == len(current):
                    return table
            elif current[: len(wanted)] == wanted and table == (0, 0):
                table = (number, line.index("[") + 1)  # a table written only as its sub-tables
            continue
        key = _KEY.match(line)
        if key is None or wanted[: len(current) + 1] != [*current, key.group(1).strip('"')]:
            continue
        rest = [p for p in wanted[len(current) + 1 :] if not p.isdigit()]
        inner = re.search(rf'"?\b{re.escape(rest[-1])}"?\s*=', line[key.end() :]) if rest else None
        return number, (key.end() + inner.start() + 1) if inner else len(line) - len(line.lstrip()) + 1
    return table
