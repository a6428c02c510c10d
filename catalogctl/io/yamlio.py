"""The only place YAML is parsed or written.

Parsing runs libyaml's C parser (through ruamel.yaml) for the event stream and builds plain
Python data from the events in one non-recursive loop. Doing the construction ourselves is what
lets one pass reject what a catalog must never contain -- anchors, aliases, explicit tags,
directives, several documents, duplicate or non-string keys, deep nesting, huge integers --
with the exact position, and it avoids libyaml's recursive composer, which crashes the process
(segfault) on deeply nested input. Scalars are typed by ruamel's own YAML 1.2 resolver and
constructor.

Positions are only needed for files with problems, so they are computed on demand by running the
same loop again with position tracking on (`Document.positions`).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
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
    StreamEndEvent,
)
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.reader import ReaderError
from ruamel.yaml.representer import SafeRepresenter

from catalogctl.errors import Diagnostic, error

MAX_FILE_BYTES = 1024 * 1024
MAX_DEPTH = 64
MAX_INT_DIGITS = 40

STR_TAG = "tag:yaml.org,2002:str"
_CORE_TAG_PREFIX = "tag:yaml.org,2002:"

# Plain words that YAML 1.1 readers (PyYAML and most runners) type as booleans while YAML 1.2
# reads them as strings: a catalog value must mean the same to every reader.
_YAML11_BOOLS = re.compile(r"y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF")

PathKey = tuple[str | int, ...]

_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # what YAML counts as a line break

_SAFE = YAML(typ="safe")  # one instance: creating one per document costs ~0.45 ms
_RESOLVER = _SAFE.resolver
_CONSTRUCTOR = _SAFE.constructor

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


def _mark(event: Event) -> tuple[int, int]:
    mark = event.start_mark
    return mark.line + 1, mark.column + 1


def _scalar_value(event: ScalarEvent) -> tuple[Any, bool]:
    """The typed value of a scalar, and whether it was a plain scalar typed as a non-string."""
    if event.style:  # quoted or block scalar: always a string
        return event.value, False
    text = event.value
    tag = _TAG_CACHE.get(text)
    if tag is None:
        tag = str(_RESOLVER.resolve(ScalarNode, text, (True, False)))
        if len(text) <= _TAG_CACHE_MAX_TEXT:
            if len(_TAG_CACHE) >= _TAG_CACHE_MAX:
                _TAG_CACHE.clear()
            _TAG_CACHE[text] = tag
    if tag == STR_TAG:
        if _YAML11_BOOLS.fullmatch(text):
            line, col = _mark(event)
            raise YamlProblem(
                "yaml-ambiguous-scalar",
                f"plain `{text}` is a string in YAML 1.2 but a boolean in YAML 1.1",
                line,
                col,
                f'write "{text}" in quotes for a string, or true/false for a boolean',
            )
        return text, False
    if tag == "tag:yaml.org,2002:int" and len(text) > MAX_INT_DIGITS:
        line, col = _mark(event)
        raise YamlProblem(
            "yaml-integer-too-long",
            f"integer of {len(text)} characters (at most {MAX_INT_DIGITS})",
            line,
            col,
            "quote it if it is not a number",
        )
    node = ScalarNode(tag, text, event.start_mark, event.end_mark)
    # Call the tag's constructor directly: construct_object() would memoise every node forever.
    try:
        return _CONSTRUCTOR.yaml_constructors[tag](_CONSTRUCTOR, node), True
    except (ValueError, OverflowError) as exc:  # e.g. a timestamp such as 2026-13-45
        line, col = _mark(event)
        raise YamlProblem(
            "yaml-invalid-scalar",
            f"`{text}` is not a valid {tag.rsplit(':', 1)[-1]}: {exc}",
            line,
            col,
            "quote it if it is meant as a string",
        ) from None


def _reject(event: Event) -> None:
    line, col = _mark(event)
    if isinstance(event, AliasEvent):
        raise YamlProblem(
            "yaml-alias",
            f"alias *{event.anchor} is not allowed in a catalog file",
            line,
            col,
            "write the value out in full",
        )
    anchor = getattr(event, "anchor", None)
    if anchor is not None:
        raise YamlProblem(
            "yaml-anchor",
            f"anchor &{anchor} is not allowed in a catalog file",
            line,
            col,
            "remove the anchor; write repeated values out in full",
        )
    tag = getattr(event, "tag", None)
    if tag is not None:
        if tag.startswith(_CORE_TAG_PREFIX):  # the parser expands `!!str`: show it as written
            tag = "!!" + tag[len(_CORE_TAG_PREFIX) :]
        raise YamlProblem(
            "yaml-tag",
            f"explicit tag {tag} is not allowed in a catalog file",
            line,
            col,
            "remove the tag; quote the value if it must be a string",
        )


def _build(text: str, positions: Positions | None) -> Any:
    """Build plain data from the event stream; fill `positions` when given."""
    # Each open container: [container, path, pending key, key position, key marks by key].
    stack: list[list[Any]] = []
    root: Any = None
    documents = 0
    for event in _SAFE.parse(text):
        kind = type(event)
        if kind is DocumentStartEvent:
            documents += 1
            if documents > 1:
                line, col = _mark(event)
                raise YamlProblem(
                    "yaml-multiple-documents",
                    "a catalog file holds exactly one YAML document",
                    line,
                    col,
                    "split the documents into files of their own",
                )
            if event.version is not None or event.tags:
                line, col = _mark(event)
                raise YamlProblem(
                    "yaml-directive",
                    "%YAML and %TAG directives are not allowed",
                    line,
                    col,
                    "remove the directive: catalog files are always read as YAML 1.2",
                )
            continue
        if kind is StreamEndEvent or kind not in _CONTENT_EVENTS:
            continue
        if kind is MappingEndEvent or kind is SequenceEndEvent:
            stack.pop()
            continue
        if kind is AliasEvent or event.anchor is not None or event.tag is not None:
            _reject(event)

        parent = stack[-1] if stack else None
        is_key = parent is not None and isinstance(parent[0], dict) and parent[2] is _NO_KEY
        if kind is ScalarEvent:
            value, typed = _scalar_value(event)
        elif is_key:
            line, col = _mark(event)
            raise YamlProblem(
                "yaml-non-string-key",
                "a mapping key must be a plain string, not a collection",
                line,
                col,
            )
        else:
            value = {} if kind is MappingStartEvent else []
            typed = False

        if is_key:
            assert parent is not None
            if not isinstance(value, str):
                line, col = _mark(event)
                raise YamlProblem(
                    "yaml-non-string-key",
                    f"key `{event.value}` is read as {type(value).__name__}, not a string",
                    line,
                    col,
                    f'quote it: "{event.value}"',
                )
            seen: dict[str, tuple[int, int]] = parent[4]
            here = _mark(event)
            if value in seen:
                first = seen[value]
                raise YamlProblem(
                    "yaml-duplicate-key",
                    f"duplicate key `{value}` (first defined at line {first[0]})",
                    here[0],
                    here[1],
                    "remove one of the two entries",
                )
            seen[value] = here
            parent[2] = value
            parent[3] = here
            continue

        # A value: attach it to its parent.
        if parent is None:
            path: PathKey = ()
            key_pos = _mark(event)
            root = value
        elif isinstance(parent[0], dict):
            path = (*parent[1], parent[2])
            key_pos = parent[3]
            parent[0][parent[2]] = value
            parent[2] = _NO_KEY
        else:
            path = (*parent[1], len(parent[0]))
            key_pos = _mark(event)
            parent[0].append(value)
        if positions is not None:
            line, col = _mark(event)
            positions.by_path[path] = Position(key_pos[0], key_pos[1], line, col)
            if typed:
                positions.plain_text[path] = event.value
        if kind is not ScalarEvent:
            if len(stack) >= MAX_DEPTH:
                line, col = _mark(event)
                raise YamlProblem(
                    "yaml-too-deep",
                    f"nesting deeper than {MAX_DEPTH} levels",
                    line,
                    col,
                )
            stack.append([value, path, _NO_KEY, None, {}])
    if documents == 0 or root is None:
        raise YamlProblem("yaml-empty", "the file holds no YAML content", 1, 1)
    return root


_NO_KEY = object()
_CONTENT_EVENTS = frozenset(
    {
        ScalarEvent,
        MappingStartEvent,
        MappingEndEvent,
        SequenceStartEvent,
        SequenceEndEvent,
        AliasEvent,
    }
)


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
        line, column = _line_column(body[: exc.start].decode("utf-8"))
        raise YamlProblem("yaml-encoding", "the file is not valid UTF-8", line, column) from None


def _line_column(before: str) -> tuple[int, int]:
    """The 1-based line and column (in characters, as YAML marks count) just after `before`."""
    lines = _LINE_BREAK.split(before)
    return len(lines), len(lines[-1]) + 1


def _parse(text: str, positions: Positions | None) -> Any:
    try:
        return _build(text, positions)
    except YamlProblem:
        raise
    except ReaderError as exc:  # a refused character: libyaml gives its UTF-8 byte offset, no mark
        line, col = _line_column(text.encode("utf-8")[: exc.position].decode("utf-8", "replace"))
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


class Document:
    """One parsed YAML file: its text, its plain data, and its positions on demand.

    A loader may `release()` the data once it has validated it: a large catalog then keeps only
    the text of each file, and the data comes back (parsed again) only if someone asks.
    """

    __slots__ = ("_data", "_positions", "path", "text")

    def __init__(self, path: str, text: str, data: Any) -> None:
        self.path = path
        self.text = text
        self._data = data
        self._positions: Positions | None = None

    @property
    def data(self) -> Any:
        """The plain data (parsed again after `release`)."""
        if self._data is _RELEASED:
            positions = Positions()
            self._data = _parse(self.text, positions)
            self._positions = positions
        return self._data

    def release(self) -> None:
        """Drop the parsed data (and positions) to save memory; `data` parses again on demand."""
        self._data = _RELEASED
        self._positions = None

    @property
    def positions(self) -> Positions:
        """Positions of every key and value (computed on first use)."""
        if self._positions is None:
            positions = Positions()
            data = _parse(self.text, positions)
            if self._data is _RELEASED:
                self._data = data
            self._positions = positions
        return self._positions


_RELEASED: Any = object()


def parse_document(path: str, data: bytes) -> Document:
    """Parse one catalog file; raises `YamlProblem` with a position when it is not acceptable."""
    text = _decode(data)
    return Document(path, text, _parse(text, None))


def _represent_str(representer: Any, value: str) -> Any:
    """Multi-line text as a literal block, the way people write it; text kept exactly, and
    quoted where a YAML 1.1 reader (or this module) would not read it back as the same string."""
    if _YAML11_BOOLS.fullmatch(value):
        return representer.represent_scalar(STR_TAG, value, style="'")
    return representer.represent_scalar(STR_TAG, value, style="|" if "\n" in value else None)


class _TextRepresenter(SafeRepresenter):
    """SafeRepresenter with block style for multi-line text."""

    def ignore_aliases(self, data: Any) -> bool:
        """Never anchors: a value used twice is written twice, as a catalog file must be."""
        return True


_TextRepresenter.add_representer(str, _represent_str)


def read_foreign_yaml(path: str, data: bytes) -> Any:
    """A YAML file another tool wrote (e.g. a run's config.yaml): read leniently with the safe
    loader, errors as `YamlProblem` with a position. Catalog files use `parse_document`."""
    text = _decode(data)
    try:
        return _SAFE.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        raise YamlProblem("yaml-syntax", str(exc.problem or exc.context or "invalid YAML"), line, col) from None
    except (YAMLError, ValueError, RecursionError) as exc:
        raise YamlProblem(
            "yaml-syntax", str(exc).strip().splitlines()[0] if str(exc).strip() else "invalid YAML", 1, 1
        ) from None


def update_document(text: str, updates: dict[PathKey, Any]) -> str:
    """`text` with the values at these paths replaced (or added), keeping comments, quotes,
    key order and layout: a round trip through ruamel.yaml's round-trip mode."""
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
        node[path[-1]] = value
    out = io.StringIO()
    yaml.dump(document, out)
    return out.getvalue()


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


def read_file(path: Path) -> Document:
    """Parse a YAML file from disk."""
    return parse_document(str(path), path.read_bytes())
