"""The only place JSON that users hand the tool is parsed (resolved configs, results, a runner's
files): one document with no duplicate key (a reader that keeps the first value would see
another document than one that keeps the last), no NaN or Infinity (NaN only where a reader asks
for it: an MLLOG line's diverged accuracy), integers within 64 bits, and nesting no deeper
than YAML's cap, so that nothing above can recurse without bound or overflow a float."""

from __future__ import annotations

import json
import math
from typing import Any

MAX_DEPTH = 64


class JsonProblem(ValueError):
    """JSON that is not one plain document within the limits; the message says where, `brief`
    says what without the position (for a reader that names the line itself)."""

    def __init__(self, message: str, brief: str = "") -> None:
        super().__init__(message)
        self.brief = brief or message


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
    """How deeply `data` nests (checking, on the way, that every string is Unicode and every
    integer within 64 bits: beyond, a float of it overflows)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            _unicode(value)
        if isinstance(value, int) and not -(2**64) < value < 2**64:
            raise JsonProblem("an integer beyond 64 bits")
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


def _nan_only(name: str) -> Any:
    return math.nan if name == "NaN" else _no_constant(name)


def parse_json(data: bytes, *, nan: bool = False) -> Any:
    """A JSON document, or `JsonProblem` saying why not; `nan`: a `NaN` is read as one (never an
    Infinity)."""
    try:
        parsed = json.loads(data, object_pairs_hook=_no_duplicates, parse_constant=_nan_only if nan else _no_constant)
    except RecursionError:
        raise JsonProblem(f"nesting deeper than {MAX_DEPTH} levels") from None
    except JsonProblem:
        raise
    except ValueError as exc:  # JSONDecodeError, and UnicodeDecodeError of bytes that are not text
        raise JsonProblem(str(exc), getattr(exc, "msg", "")) from None
    if _depth(parsed) > MAX_DEPTH:
        raise JsonProblem(f"nesting deeper than {MAX_DEPTH} levels")
    return parsed
