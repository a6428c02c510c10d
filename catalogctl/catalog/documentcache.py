"""What the document cache holds: the outcome of checking one catalog file on its own.

A file's outcome (its diagnostics, and its plain data when it validated) depends only on its
bytes, its path (diagnostics name it; its folder says its kind; its name must match its id), the
tool's version and the rules it is checked by. The key is the SHA-256 of all of these, the bytes
by their git blob id. The rules are digested from the source of the modules that decide a
file's verdict (the models, which the committed JSON Schemas are generated from, their
validators, the YAML reader, the diagnostics): any change to them is a new key.

A hit skips the YAML parse: the stored plain data is validated again by the same models (the
same input gives the same value), and the document keeps its text, so positions are parsed
again only if a later check reports one. Cross-document checks always run on what is loaded.
Within one process (`ci` loads its base and its head) a `DocumentCache` also remembers what it
built, so a file both sides hold is checked once.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from catalogctl.errors import Diagnostic, Severity
from catalogctl.io.cachekey import cache_key
from catalogctl.io.cachestore import EntryStore, cache_disabled, find_git_dir, store_folder
from catalogctl.version import __version__

if TYPE_CHECKING:  # not imported at run time: a remembered verdict needs neither
    from pydantic import BaseModel

    from catalogctl.io.tree import Tree, WorkingTree
    from catalogctl.io.yamlio import Document

_PACKAGE = Path(__file__).resolve().parent.parent
# The sources a single file's verdict depends on (relative to the package).
_RULE_SOURCES = ("model", "catalog/validation.py", "catalog/loader.py", "catalog/diagnostics.py", "errors.py")
_RULE_FILES = ("io/yamlbuild.py", "io/yamlio.py", "io/pep440.py")  # pep440: a runner's version
# The sources a whole catalog's verdict depends on: the single-file rules and the cross-document ones.
VERDICT_SOURCES = (
    "model",
    "catalog",
    "io/tree.py",
    "io/gitrepo.py",  # how a ref's tree is listed and read
    "io/yamlio.py",
    "io/yamlbuild.py",
    "io/pep440.py",
    "errors.py",
    "words.py",
)


@dataclass
class Examined:
    """A file checked on its own: its diagnostics, its document and its value when it validated."""

    diagnostics: list[Diagnostic]
    document: Document | None = None
    value: BaseModel | None = None


@functools.cache
def rules_digest() -> str:
    """A digest of the source of every module that decides a single file's verdict."""
    return sources_digest((*_RULE_SOURCES, *_RULE_FILES))


@functools.cache
def sources_digest(names: tuple[str, ...]) -> str:
    """A digest of the source of these modules and packages (paths relative to the package)."""
    files: list[Path] = []
    for name in names:
        target = _PACKAGE / name
        files.extend(sorted(target.glob("*.py")) if target.is_dir() else [target])
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


# The libraries whose behaviour or wording is part of a verdict (pydantic's messages, ruamel's
# parser): another version, or ruamel without its C parser, is another key.
_LIBRARIES = ("pydantic", "pydantic-core", "ruamel.yaml", "packaging")


@functools.cache
def environment_digest() -> str:
    """A digest of what besides catalogctl's own source decides a verdict: the Python version,
    the versions of the libraries it validates and parses with, and which YAML parser loads."""
    from importlib import metadata

    from catalogctl.io.yamlbuild import parser_name

    parts = [sys.implementation.name, sys.version]
    for name in _LIBRARIES:
        try:
            parts.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{name} absent")
    parts.append(parser_name())
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


_TAG_TEXT = b'"$date'  # begins both tags: a payload without it holds no tagged value


def _tagged(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return {"$datetime": value.isoformat()}
    if isinstance(value, dt.date):
        return {"$date": value.isoformat()}
    raise TypeError(f"not plain data: {type(value).__name__}")


def _untagged(obj: dict[str, Any]) -> Any:
    if len(obj) == 1:
        if "$datetime" in obj:
            return dt.datetime.fromisoformat(obj["$datetime"])
        if "$date" in obj:
            return dt.date.fromisoformat(obj["$date"])
    return obj


def diagnostic_rows(diagnostics: list[Diagnostic]) -> list[list[Any]]:
    """Diagnostics as JSON data."""
    return [[d.severity.value, d.code, d.message, d.path, d.line, d.column, d.hint] for d in diagnostics]


def diagnostics_of(rows: Any) -> list[Diagnostic]:
    """The diagnostics `diagnostic_rows` gave; ValueError (or TypeError) when `rows` are not such rows."""
    if not isinstance(rows, list):
        raise ValueError("not diagnostics")
    return [_diagnostic(row) for row in rows]


def _diagnostic(row: list[Any]) -> Diagnostic:
    severity, code, message, path, line, column, hint = row
    if not all(isinstance(v, str) for v in (code, message, path, hint)):
        raise ValueError("not a diagnostic")
    if not (isinstance(line, int) and isinstance(column, int)):
        raise ValueError("not a diagnostic")
    return Diagnostic(path, line, column, Severity(severity), code, message, hint)


def encode(examined: Examined) -> bytes | None:
    """The payload of an entry; None when the data would not read back identical."""
    data = None
    if examined.value is not None and examined.document is not None:
        data = examined.document.data
    entry = {"diagnostics": diagnostic_rows(examined.diagnostics), "data": data}
    try:  # the common case: no dates, nothing spelled like a tag; NaN and infinities refused
        payload = json.dumps(entry, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except ValueError:
        return None
    except TypeError:  # dates: tagged, and read back to be sure
        try:
            payload = json.dumps(entry, default=_tagged, ensure_ascii=False, allow_nan=False).encode("utf-8")
        except (TypeError, ValueError):
            return None
        return payload if decode(payload) == (examined.diagnostics, data) else None
    return None if _TAG_TEXT in payload else payload


def decode(payload: bytes) -> tuple[list[Diagnostic], Any] | None:
    """The diagnostics and the plain data (None when the file did not validate) of a payload;
    None when it is not one."""
    try:
        entry = json.loads(payload, object_hook=_untagged if _TAG_TEXT in payload else None)
        return diagnostics_of(entry["diagnostics"]), entry["data"]
    except (ValueError, TypeError, KeyError, AttributeError):
        return None


Rebuild = Callable[[list[Diagnostic], Any], Examined | None]


class DocumentCache:
    """The outcomes of single files, remembered in this process and, when a store is given,
    across runs."""

    def __init__(self, store: EntryStore | None, tree: WorkingTree | None = None) -> None:
        self.store = store
        self._memo: dict[str, Examined] = {}
        # A working tree's blob ids by stat, kept across runs in the store (as git's index).
        self._tree = tree
        if store is not None and tree is not None:
            tree.known_ids(store.stamps(str(tree.root)))

    def key(self, kind: str, path: str, blob: str) -> str:
        """The key of the outcome of a file (by its git blob id)."""
        parts = (__version__, rules_digest(), environment_digest(), kind, path, blob)
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()

    def recall(self, key: str) -> Examined | None:
        """The outcome under `key` if this process already has it."""
        return self._memo.get(key)

    def lookup(self, key: str, rebuild: Rebuild) -> Examined | None:
        """The outcome under `key`: remembered, or rebuilt from a stored entry (None on a miss,
        or when the entry does not rebuild)."""
        found = self._memo.get(key)
        if found is not None or self.store is None:
            return found
        payload = self.store.get(key)
        decoded = decode(payload) if payload is not None else None
        if decoded is None:
            return None
        examined = rebuild(*decoded)
        if examined is not None:
            self._memo[key] = examined
        return examined

    def remember(self, key: str, examined: Examined) -> None:
        """Keep an outcome for this process, and store it."""
        if self.store is not None:
            payload = encode(examined)
            if payload is not None:
                self.store.put(key, payload)
        self._memo[key] = examined

    def flush(self) -> None:
        """Store what this load remembered (one transaction for all new entries)."""
        if self.store is not None:
            if self._tree is not None:
                stamps = self._tree.settled_ids()
                if stamps is not None:
                    self.store.keep_stamps(str(self._tree.root), stamps)
            self.store.flush()


def cache_for(tree: Tree, *, enabled: bool = True) -> DocumentCache:
    """The cache a tree's files are checked through: stored beside its repository (or in the
    user's cache folder), or in this process only when disabled (`--no-cache`, the environment)
    or when there is no key to authenticate entries with (`cachekey`: a warning says why)."""
    if not enabled or cache_disabled():
        return DocumentCache(None)
    secret = cache_key()
    if secret is None:
        return DocumentCache(None)
    from catalogctl.io.tree import WorkingTree

    root: Path | None = getattr(tree, "root", None)
    repo = getattr(tree, "repo", None)
    if repo is not None:
        git_dir: Path | None = Path(repo.path)
    else:
        git_dir = find_git_dir(root) if root is not None else None
    working = tree if type(tree) is WorkingTree else None  # a subclass may replace a file's bytes
    return DocumentCache(EntryStore(store_folder(git_dir), secret), working)
