"""Plain Python data from YAML text, built from libyaml's event stream in one loop.

libyaml's C parser (through ruamel.yaml) yields the events; this module builds the data itself,
without recursion. That is what lets one pass reject what must never be read -- anchors,
aliases, explicit tags, directives, several documents, duplicate keys, deep nesting, huge
integers -- with the exact position, and it avoids libyaml's recursive composer, which crashes
the process (segfault) on deeply nested input. Scalars are typed by ruamel's own YAML 1.2
resolver and constructor.

Catalog files are read with rules of their own on top (keys are strings, no word that YAML 1.1
reads as a boolean, some content); files another tool wrote (`foreign=True`) only with the
limits, which every YAML the tool reads passes through.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.reader import ReaderError

from catalogctl.errors import Diagnostic, error

MAX_DEPTH = 64
MAX_INT_DIGITS = 40

STR_TAG = "tag:yaml.org,2002:str"
_INT_TAG = "tag:yaml.org,2002:int"
_CORE_TAG_PREFIX = "tag:yaml.org,2002:"

# ruamel's resolver still types a plain `<<` and `=` as YAML 1.1's merge and value keys, which no
# constructor builds (a KeyError) and which readers disagree on (PyYAML merges `<<`, YAML 1.2
# reads both as strings): refused, like the YAML 1.1 booleans, so that a file means one thing.
_RESERVED_TAGS = {"tag:yaml.org,2002:merge": "merge", "tag:yaml.org,2002:value": "value"}

# Plain words that YAML 1.1 readers (PyYAML and most runners) type as booleans while YAML 1.2
# reads them as strings: a catalog value must mean the same to every reader.
YAML11_BOOLS = re.compile(r"y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF")

PathKey = tuple[str | int, ...]

_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # what YAML counts as a line break

_SAFE = YAML(typ="safe")  # one instance: creating one per document costs ~0.45 ms
_RESOLVER = _SAFE.resolver
_CONSTRUCTOR = _SAFE.constructor


def parser_name() -> str:
    """Which parser yields the events: libyaml's C one, or ruamel's pure-Python one where the C
    extension did not build. Their messages differ, so a remembered verdict depends on it."""
    return "C parser" if _SAFE.Parser.__name__ == "CParser" else "pure-Python parser"


# Plain scalar text -> its resolved tag. Resolving is a pure function of the text here (the
# version is always 1.2: a %YAML directive is rejected before any scalar of its document), and
# a catalog repeats the same keys and small values in every file: resolving each distinct text
# once takes a third off parsing. Bounded: cleared when full, and long texts are not kept.
_TAG_CACHE: dict[str, str] = {}
_TAG_CACHE_MAX = 65536
_TAG_CACHE_MAX_TEXT = 128


@dataclass  # not frozen: raising it through a @contextmanager sets __traceback__ on it
class YamlProblem(Exception):
    """A file that is not acceptable YAML for a catalog; positions are 1-based."""

    __hash__ = Exception.__hash__  # eq compares fields; keep exceptions hashable

    code: str
    message: str
    line: int
    column: int
    hint: str = ""

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.code} {self.message}"

    def diagnostic(self, path: str) -> Diagnostic:
        """This problem as an error diagnostic of the file at `path`."""
        return error(self.code, self.message, path, self.line, self.column, self.hint)


@dataclass(frozen=True)
class Position:
    """Where a key and its value stand in a file (1-based)."""

    key_line: int
    key_column: int
    line: int
    column: int


@dataclass
class Positions:
    """Positions of every key and value of one document, and the source text of scalars that
    YAML typed as something other than a string (so an error can say what to quote)."""

    by_path: dict[PathKey, Position] = field(default_factory=dict)
    plain_text: dict[PathKey, str] = field(default_factory=dict)

    def nearest(self, path: Iterable[str | int]) -> tuple[Position, PathKey]:
        """The position of `path`, or of its closest ancestor that exists in the file."""
        parts = tuple(path)
        while parts and parts not in self.by_path:
            parts = parts[:-1]
        return self.by_path.get(parts, Position(1, 1, 1, 1)), parts


def line_column(before: str) -> tuple[int, int]:
    """The 1-based line and column (in characters, as YAML marks count) just after `before`."""
    lines = _LINE_BREAK.split(before)
    return len(lines), len(lines[-1]) + 1


def build(text: str, positions: Positions | None = None, *, foreign: bool = False) -> Any:
    """The plain data of the one YAML document in `text`; fills `positions` when given.

    Raises `YamlProblem` with a position. `foreign` reads a file another tool wrote: the limits
    hold, the catalog's own rules do not (any scalar may be a key, YAML 1.1 words are read as
    YAML 1.2 reads them, and an empty file is None)."""
    try:
        return _Builder(positions, foreign).run(_SAFE.parse(text))
    except YamlProblem:
        raise
    except ReaderError as exc:  # a refused character: libyaml gives its UTF-8 byte offset, no mark
        line, col = line_column(text.encode("utf-8")[: exc.position].decode("utf-8", "replace"))
        raise YamlProblem("yaml-syntax", str(exc).splitlines()[0], line, col) from None
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        problem = exc.problem or exc.context or "invalid YAML"
        raise YamlProblem("yaml-syntax", problem, line, col) from None
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "invalid YAML"
        raise YamlProblem("yaml-syntax", first, line, col) from None


# -- scalars ------------------------------------------------------------------------------------


def _mark(event: Event) -> tuple[int, int]:
    mark = event.start_mark
    return mark.line + 1, mark.column + 1


def _problem(event: Event, code: str, message: str, hint: str = "") -> YamlProblem:
    line, col = _mark(event)
    return YamlProblem(code, message, line, col, hint)


def _plain_tag(text: str) -> str:
    """The tag YAML 1.2 gives a plain scalar of this text (memoised)."""
    tag = _TAG_CACHE.get(text)
    if tag is None:
        tag = str(_RESOLVER.resolve(ScalarNode, text, (True, False)))
        if len(text) <= _TAG_CACHE_MAX_TEXT:
            if len(_TAG_CACHE) >= _TAG_CACHE_MAX:
                _TAG_CACHE.clear()
            _TAG_CACHE[text] = tag
    return tag


_SHARED_MAX = 48  # ids, metric keys, enum values: the strings thousands of documents repeat


def _shared(text: str) -> str:
    """One string object for each short text: a catalog of thousands of files repeats the same
    ids and keys, which the validated models keep (9 MB of a 5,000-benchmark catalog)."""
    return sys.intern(text) if len(text) <= _SHARED_MAX else text


def _scalar_value(event: ScalarEvent, foreign: bool) -> tuple[Any, bool]:
    """The typed value of a scalar, and whether it was a plain scalar typed as a non-string."""
    if event.style:  # quoted or block scalar: always a string
        return _shared(event.value), False
    text = _shared(event.value)
    tag = _plain_tag(text)
    if tag == STR_TAG:
        if not foreign and YAML11_BOOLS.fullmatch(text):
            raise _problem(
                event,
                "yaml-ambiguous-scalar",
                f"plain `{text}` is a string in YAML 1.2 but a boolean in YAML 1.1",
                f'write "{text}" in quotes for a string, or true/false for a boolean',
            )
        return text, False
    if tag in _RESERVED_TAGS:
        raise _problem(
            event,
            "yaml-reserved-scalar",
            f"plain `{text}` is YAML's {_RESERVED_TAGS[tag]} key, which readers do not agree on",
            f'write "{text}" in quotes for a string',
        )
    if tag == _INT_TAG and len(text) > MAX_INT_DIGITS:
        raise _problem(
            event,
            "yaml-integer-too-long",
            f"integer of {len(text)} characters (at most {MAX_INT_DIGITS})",
            "quote it if it is not a number",
        )
    node = ScalarNode(tag, text, event.start_mark, event.end_mark)
    # Call the tag's constructor directly: construct_object() would memoise every node forever.
    try:
        return _CONSTRUCTOR.yaml_constructors[tag](_CONSTRUCTOR, node), True
    except (ValueError, OverflowError) as exc:  # e.g. a timestamp such as 2026-13-45
        raise _problem(
            event,
            "yaml-invalid-scalar",
            f"`{text}` is not a valid {tag.rsplit(':', 1)[-1]}: {exc}",
            "quote it if it is meant as a string",
        ) from None


def _reject(event: Event, foreign: bool) -> None:
    """Refuse an alias, an anchor or an explicit tag: only plain data is read."""
    where = "" if foreign else " in a catalog file"
    if isinstance(event, AliasEvent):
        raise _problem(
            event, "yaml-alias", f"alias *{event.anchor} is not allowed{where}", "write the value out in full"
        )
    anchor = getattr(event, "anchor", None)
    if anchor is not None:
        raise _problem(
            event,
            "yaml-anchor",
            f"anchor &{anchor} is not allowed{where}",
            "remove the anchor; write repeated values out in full",
        )
    tag = getattr(event, "tag", None)
    if tag is not None:
        if tag.startswith(_CORE_TAG_PREFIX):  # the parser expands `!!str`: show it as written
            tag = "!!" + tag[len(_CORE_TAG_PREFIX) :]
        raise _problem(
            event,
            "yaml-tag",
            f"explicit tag {tag} is not allowed{where}",
            "remove the tag; quote the value if it must be a string",
        )


# -- the builder --------------------------------------------------------------------------------


_NO_KEY: Any = object()  # a mapping's next event is a key
_NODE_EVENTS = (ScalarEvent, MappingStartEvent, SequenceStartEvent, AliasEvent)


def root_mark(text: str) -> tuple[int, int]:
    """The line and column of the root node of a document that `build` accepts (what its
    positions hold for the path ()), read from the first events only."""
    return next((_mark(e) for e in _SAFE.parse(text) if type(e) in _NODE_EVENTS), (1, 1))


@dataclass(slots=True)
class _Open:
    """A mapping or sequence still being filled."""

    container: dict[Any, Any] | list[Any]
    path: PathKey
    key: Any = _NO_KEY  # in a mapping: the key whose value comes next
    key_mark: tuple[int, int] = (0, 0)
    seen: dict[Any, tuple[int, int]] = field(default_factory=dict)  # mapping keys -> where they stand


class _Builder:
    """Builds one document from its events, one event at a time; no recursion."""

    def __init__(self, positions: Positions | None, foreign: bool) -> None:
        self.positions = positions
        self.foreign = foreign
        self.stack: list[_Open] = []
        self.root: Any = None
        self.documents = 0

    def run(self, events: Iterable[Any]) -> Any:
        """Consume every event; return the document's data."""
        for event in events:  # Any: mypy cannot narrow by `type(event) in ...`
            kind = type(event)
            if kind in _NODE_EVENTS:
                self.node(event)
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                self.stack.pop()
            elif kind is DocumentStartEvent:
                self.document_start(event)
        if not self.foreign and (self.documents == 0 or self.root is None):
            raise YamlProblem("yaml-empty", "the file holds no YAML content", 1, 1)
        return self.root

    def document_start(self, event: DocumentStartEvent) -> None:
        """Allow one document, without directives (they would change how scalars are typed)."""
        self.documents += 1
        if self.documents > 1:
            raise _problem(
                event,
                "yaml-multiple-documents",
                "the file must hold exactly one YAML document"
                if self.foreign
                else "a catalog file holds exactly one YAML document",
                "split the documents into files of their own",
            )
        if event.version is not None or event.tags:
            read_as = "the file is read" if self.foreign else "catalog files are always read"
            raise _problem(
                event,
                "yaml-directive",
                "%YAML and %TAG directives are not allowed",
                f"remove the directive: {read_as} as YAML 1.2",
            )

    def node(self, event: Any) -> None:
        """A scalar, an alias or the start of a collection: a key or a value."""
        if event.anchor is not None or event.tag is not None:  # an alias's name is its `anchor`
            _reject(event, self.foreign)
        parent = self.stack[-1] if self.stack else None
        if parent is not None and parent.key is _NO_KEY and isinstance(parent.container, dict):
            self.key(parent, event)
        else:
            self.value(parent, event)

    def key(self, parent: _Open, event: Any) -> None:
        """A mapping key: a scalar (a string in a catalog file), not seen before in the mapping."""
        if type(event) is not ScalarEvent:
            what = "a scalar" if self.foreign else "a plain string"
            raise _problem(event, "yaml-non-string-key", f"a mapping key must be {what}, not a collection")
        value, _ = _scalar_value(event, self.foreign)
        if not self.foreign and not isinstance(value, str):
            raise _problem(
                event,
                "yaml-non-string-key",
                f"key `{event.value}` is read as {type(value).__name__}, not a string",
                f'quote it: "{event.value}"',
            )
        first = parent.seen.get(value)
        if first is not None:
            raise _problem(
                event,
                "yaml-duplicate-key",
                f"duplicate key `{value}` (first defined at line {first[0]})",
                "remove one of the two entries",
            )
        parent.key = value
        parent.key_mark = parent.seen[value] = _mark(event)

    def value(self, parent: _Open | None, event: Any) -> None:
        """A value: attached to its parent, and opened when it is a collection."""
        kind = type(event)
        if kind is ScalarEvent:
            value, typed = _scalar_value(event, self.foreign)
        else:
            value, typed = ({} if kind is MappingStartEvent else []), False
        path, key_mark = self.attach(parent, value)
        if self.positions is not None:
            line, col = _mark(event)
            key_line, key_col = key_mark or (line, col)
            self.positions.by_path[path] = Position(key_line, key_col, line, col)
            if typed:
                self.positions.plain_text[path] = event.value
        if kind is not ScalarEvent:
            if len(self.stack) >= MAX_DEPTH:
                raise _problem(event, "yaml-too-deep", f"nesting deeper than {MAX_DEPTH} levels")
            self.stack.append(_Open(value, path))

    def attach(self, parent: _Open | None, value: Any) -> tuple[PathKey, tuple[int, int] | None]:
        """Put `value` in its place; returns its path and its key's mark (None: its own)."""
        if parent is None:
            self.root = value
            return (), None
        container = parent.container
        if isinstance(container, dict):
            key = parent.key
            container[key] = value
            parent.key = _NO_KEY
            return (*parent.path, key), parent.key_mark
        container.append(value)
        return (*parent.path, len(container) - 1), None
