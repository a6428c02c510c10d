"""The only place JSON that users hand the tool is parsed (resolved configs, results, a runner's
files): one document with no duplicate key (a reader that keeps the first value would see
another document than one that keeps the last), no NaN or Infinity, and nesting no deeper than
YAML's cap, so that nothing above can recurse without bound."""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 64


class JsonProblem(ValueError):
    """JSON that is not one plain document within the limits; the message says where."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise JsonProblem(f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise JsonProblem(f"{name} is not a JSON number")


def _depth(data: Any) -> int:
    """How deeply `data` nests (checking, on the way, that every string is Unicode)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            _unicode(value)
        if isinstance(value, dict):
            for key in value:
                _unicode(key)
        if isinstance(value, (dict, list)):
            deepest = max(deepest, depth)
            if depth <= MAX_DEPTH:  # deeper is refused: no need to look further
                stack.extend((v, depth + 1) for v in (value.values() if isinstance(value, dict) else value))
    return deepest


def _unicode(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # JSON's \ud800 escapes make strings no file or terminal can hold
        raise JsonProblem(f"the string {text!r} is not Unicode text (a lone surrogate)") from None


def parse_json(data: bytes) -> Any:
    """A JSON document, or `JsonProblem` saying why not."""
    try:
        parsed = json.loads(data, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except RecursionError:
        raise JsonProblem(f"nesting deeper than {MAX_DEPTH} levels") from None
    except JsonProblem:
        raise
    except ValueError as exc:  # JSONDecodeError, and UnicodeDecodeError of bytes that are not text
        raise JsonProblem(str(exc)) from None
    if _depth(parsed) > MAX_DEPTH:
        raise JsonProblem(f"nesting deeper than {MAX_DEPTH} levels")
    return parsed
