"""The only place YAML is parsed or written.

Every file is read by `yamlbuild`'s non-recursive builder, with its limits: catalog files by
`parse_document` (positions on demand), files other tools wrote by `read_foreign_yaml`. Writing
is here too: `dump_yaml` for output, `update_document` for edits that keep a file's comments.

Positions are only needed for files with problems, so they are computed on demand by building
the data again with position tracking on (`Document.positions`).
"""

from __future__ import annotations

import codecs
import datetime as dt
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.representer import SafeRepresenter
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, SingleQuotedScalarString

from catalogctl.errors import CatalogError, EnvironmentProblem
from catalogctl.io.tree import blob_id
from catalogctl.io.yamlbuild import (
    MAX_DEPTH,
    MAX_INT_DIGITS,
    STR_TAG,
    YAML11_BOOLS,
    PathKey,
    Position,
    Positions,
    YamlProblem,
    build,
    line_column,
    root_mark,
)

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_INT_DIGITS",
    "Document",
    "PathKey",
    "Position",
    "Positions",
    "YamlProblem",
    "dump_yaml",
    "known_document",
    "parse_document",
    "read_foreign_yaml",
    "reusing_parses",
    "update_document",
]

MAX_FILE_BYTES = 1024 * 1024


def _decode(data: bytes) -> str:
    if len(data) > MAX_FILE_BYTES:
        raise YamlProblem(
            "yaml-too-large",
            f"file of {len(data):,} bytes is over the {MAX_FILE_BYTES:,}-byte limit",
            1,
            1,
        )
    body = data[len(codecs.BOM_UTF8) :] if data.startswith(codecs.BOM_UTF8) else data
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = line_column(body[: exc.start].decode("utf-8"))
        raise YamlProblem("yaml-encoding", "the file is not valid UTF-8", line, column) from None


class _Parse:
    """One text's data and (once asked) positions, shared by the documents of that text, and
    what was made of that data once (`Document.made_once`)."""

    __slots__ = ("data", "made", "positions")

    def __init__(self, data: Any) -> None:
        self.data = data
        self.positions: Positions | None = None
        self.made: dict[Any, Any] = {}

    def with_positions(self, text: str) -> Positions:
        """The positions, built on first use (the data built beside them is the same data)."""
        if self.positions is None:
            positions = Positions()
            build(text, positions)
            self.positions = positions
        return self.positions


class Document:
    """One parsed YAML file: its text, its plain data, and its positions on demand.

    A loader may `release()` the data once it has validated it: a large catalog then keeps only
    the text of each file (or not even that, when it can read the file again), and the data
    comes back (parsed again) only if someone asks.
    """

    __slots__ = ("_blob", "_data", "_positions", "_reread", "_shared", "_text", "path")

    def __init__(self, path: str, text: str, data: Any, shared: _Parse | None = None) -> None:
        self.path = path
        self._text: str | None = text
        self._data = data
        self._positions: Positions | None = None
        self._shared = shared
        self._reread: Callable[[str], bytes] | None = None
        self._blob = ""

    @property
    def text(self) -> str:
        """The file's text (read again, and checked to be the same bytes, after `release`)."""
        if self._text is None:
            assert self._reread is not None
            data = self._reread(self.path)
            if blob_id(data) != self._blob:
                raise DocumentChanged(
                    f"{self.path} changed while catalogctl was reading the catalog",
                    "run the command again",
                )
            self._text = _decode(data)
        return self._text

    @property
    def data(self) -> Any:
        """The plain data (parsed again after `release`)."""
        if self._data is _RELEASED:
            if self._shared is not None:
                self._data, self._positions = self._shared.data, self._shared.with_positions(self.text)
                return self._data
            positions = Positions()
            self._data = build(self.text, positions)
            self._positions = positions
        return self._data

    def made_once(self) -> dict[Any, Any] | None:
        """While `reusing_parses` shares this document's parse: a memo shared by the documents of
        the same bytes, for what is made of their data alone (a model validated from it); else None."""
        return None if self._shared is None else self._shared.made

    def root_position(self) -> tuple[int, int]:
        """Line and column of the root value, as `positions` has them, without building them all
        (a whole file added or removed is shown there; a ruleset holds thousands of positions)."""
        if self._positions is not None:
            pos, _ = self._positions.nearest(())
            return pos.line, pos.column
        return root_mark(self.text)

    def release(self, reread: Callable[[str], bytes] | None = None, blob: str = "") -> None:
        """Drop the parsed data (and positions) to save memory; `data` parses again on demand.
        Given how to read a file again (by its path) and the git blob id of its bytes, the text is dropped
        too: read again when someone asks, and refused if the bytes are no longer those."""
        self._data = _RELEASED
        self._positions = None
        if reread is not None and blob:
            self._text, self._reread, self._blob = None, reread, blob

    @property
    def positions(self) -> Positions:
        """Positions of every key and value (computed on first use)."""
        if self._positions is None:
            if self._shared is not None:
                self._positions = self._shared.with_positions(self.text)
                if self._data is _RELEASED:
                    self._data = self._shared.data
                return self._positions
            positions = Positions()
            data = build(self.text, positions)
            if self._data is _RELEASED:
                self._data = data
            self._positions = positions
        return self._positions


_RELEASED: Any = object()


class DocumentChanged(EnvironmentProblem):
    """A file read again (for a position) no longer holds the bytes the catalog was built from."""


# While `reusing_parses` is on: which paths to keep, and their parses by the git blob id of the bytes.
_PARSES: ContextVar[tuple[Callable[[str], bool], dict[str, _Parse]] | None] = ContextVar(
    "catalogctl_parses", default=None
)


@contextmanager
def reusing_parses(keep: Callable[[str], bool]) -> Iterator[None]:
    """Within this block, the bytes of a file whose path `keep` accepts are parsed once: documents
    of the same bytes share their data and positions (which nobody mutates). For a verb that reads
    the same large blobs from many trees (the site's rulesets); kept until the block ends."""
    token = _PARSES.set((keep, {}))
    try:
        yield
    finally:
        _PARSES.reset(token)


def parse_document(path: str, data: bytes) -> Document:
    """Parse one catalog file; raises `YamlProblem` with a position when it is not acceptable."""
    text = _decode(data)
    reuse = _PARSES.get()
    if reuse is None or not reuse[0](path):
        return Document(path, text, build(text))
    parses, key = reuse[1], blob_id(data)
    shared = parses.get(key)
    if shared is None:
        shared = parses[key] = _Parse(build(text))
    return Document(path, text, shared.data, shared)


def unread_document(path: str, reread: Callable[[str], bytes], blob: str) -> Document:
    """A catalog file not read yet, known by the git blob id of its bytes: read (and checked to be
    those bytes) when someone asks for its text, data or positions."""
    document = Document(path, "", _RELEASED)
    document.release(reread, blob)
    return document


def known_document(path: str, data: bytes, plain: Any) -> Document:
    """A catalog file whose plain data is already known (from a cache): decoded and limited as
    `parse_document` decodes it, not parsed again (positions are, if someone asks)."""
    return Document(path, _decode(data), plain)


# Every string the tool writes reads back identical. YAML allows only its printable characters
# raw (the reader, libyaml, refuses the C0 and C1 controls, DEL, U+FFFE and U+FFFF) and reads CR,
# NEL, LS and PS as line breaks (normalised) and a BOM as a stream mark: a string with any of
# them (a key too) is written double-quoted, where the emitter escapes each (\x01, \r, \N, \L,
# \P, \uFEFF) and every reader gets the same string back. A lone surrogate (a JSON input may hold
# one) has no escape the reader accepts (libyaml refuses \uD800) and no UTF-8 form: refused, never
# written as something else.
_ESCAPE = re.compile("[^\t\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _needs_escapes(value: str) -> bool:
    """Whether `value` needs escapes (a double-quoted scalar); refuses a lone surrogate."""
    if _ESCAPE.search(value) is None:
        return False
    surrogate = _SURROGATE.search(value)
    if surrogate is not None:
        raise CatalogError(
            f"cannot write {value!r} as YAML: it holds a lone surrogate (U+{ord(surrogate.group()):04X})",
            "fix the input it came from: neither YAML nor UTF-8 can hold a lone surrogate",
        )
    return True


def _represent_str(representer: Any, value: str) -> Any:
    """Multi-line text as a literal block, the way people write it; text kept exactly, and
    quoted where a YAML 1.1 reader (or this module) would not read it back as the same string."""
    # libyaml refuses a literal block whose first line starts with a tab (no indentation yet)
    if _needs_escapes(value) or ("\n" in value and value.startswith("\t")):
        return representer.represent_scalar(STR_TAG, value, style='"')
    if YAML11_BOOLS.fullmatch(value):
        return representer.represent_scalar(STR_TAG, value, style="'")
    return representer.represent_scalar(STR_TAG, value, style="|" if "\n" in value else None)


class _TextRepresenter(SafeRepresenter):
    """SafeRepresenter with block style for multi-line text."""

    def ignore_aliases(self, data: Any) -> bool:
        """Never anchors: a value used twice is written twice, as a catalog file must be."""
        return True


def _represent_datetime(representer: Any, value: dt.datetime) -> Any:
    """ISO 8601 with its `T` (`2026-12-01T07:11:59+00:00`): YAML reads it as the same timestamp,
    and JSON Schema's `date-time` accepts it (YAML's own form, with a space, it does not)."""
    return representer.represent_scalar("tag:yaml.org,2002:timestamp", value.isoformat())


_TextRepresenter.add_representer(str, _represent_str)
_TextRepresenter.add_representer(dt.datetime, _represent_datetime)


def read_foreign_yaml(data: bytes) -> Any:
    """A YAML file another tool wrote (e.g. a run's config.yaml) as plain data (None when empty):
    the same builder and limits as catalog files, without their rules on keys and words; errors
    as `YamlProblem` with a position. Catalog files use `parse_document`."""
    return build(_decode(data), foreign=True)


def _quoted(value: Any) -> Any:
    """`value` with its strings (keys too) quoted as `dump_yaml` quotes them: double quotes for
    those that need escapes, single quotes for YAML 1.1's boolean words."""
    if isinstance(value, str):
        if _needs_escapes(value):
            return DoubleQuotedScalarString(value)
        return SingleQuotedScalarString(value) if YAML11_BOOLS.fullmatch(value) else value
    if isinstance(value, dict):
        return {_quoted(key): _quoted(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_quoted(item) for item in value]
    return value


def update_document(text: str, updates: dict[PathKey, Any], remove: Iterable[PathKey] = ()) -> str:
    """`text` with the values at these paths replaced (or added) and the keys at `remove` left
    out, keeping comments, quotes, key order and layout: a round trip through ruamel.yaml's
    round-trip mode."""
    import io

    yaml = YAML()  # round-trip
    yaml.preserve_quotes = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 4096
    document = yaml.load(text)
    for path, value in updates.items():
        node = document
        for part in path[:-1]:
            node = node[part]
        node[_quoted(path[-1])] = _quoted(value)
    for path in remove:
        node = document
        for part in path[:-1]:
            node = node[part]
        _remove_key(node, path[-1])
    out = io.StringIO()
    yaml.dump(document, out)
    return out.getvalue()


def _remove_key(node: Any, key: str | int) -> None:
    """Remove `key` from a round-trip mapping with the comment lines above it: ruamel keeps them
    after the previous value, on its last scalar (whose own end-of-line comment stays)."""
    keys = list(node)
    if key not in keys:
        return
    index = keys.index(key)
    node.pop(key)
    if not index:
        return  # the lines above the first key are the mapping's own
    holder, last = node, keys[index - 1]
    while isinstance(holder[last], (dict, list)) and holder[last]:
        holder = holder[last]
        last = len(holder) - 1 if isinstance(holder, list) else list(holder)[-1]
    slots = holder.ca.items.get(last)
    slot = 0 if isinstance(holder, list) else 2  # where ruamel puts what follows a value
    if slots and slots[slot] is not None:
        own, _, _above = slots[slot].value.partition("\n")
        if own.strip():
            slots[slot].value = own + "\n"
        else:
            slots[slot] = None


def dump_yaml(data: Any) -> str:
    """Render plain data as block YAML (for `show`); keys keep their order."""
    import io

    yaml = YAML(typ="safe", pure=True)
    yaml.Representer = _TextRepresenter
    yaml.default_flow_style = False
    yaml.sort_base_mapping_type_on_output = False  # type: ignore[assignment]
    yaml.width = 4096
    yaml.allow_unicode = True
    stream = io.StringIO()
    yaml.dump(data, stream)
    return stream.getvalue()
