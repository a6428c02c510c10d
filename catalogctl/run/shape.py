"""Just enough of the shape of plain data read from a file (a resolved config, a runner's files)
that the code reading it cannot trip: the keys it indexes exist, and the containers it descends
into are containers. Validating such data against models is not this module's job.

A path is a tuple of steps: a key of a mapping; a key ending in `?`, which may be absent, null
or empty (the rest of the path is then not checked, as `data.get(key) or {}` reads it); or `*`,
every item of a list (or value of a mapping). `kind` says what the value at the end must be.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

Kind = Literal["mapping", "list", "string", "present"]
Rule = tuple[tuple[str, ...], Kind]

_TYPES: dict[Kind, type | tuple[type, ...]] = {"mapping": Mapping, "list": list, "string": str, "present": object}


def rule(path: str, kind: Kind = "present") -> Rule:
    """A rule from a dotted path (`accuracy?.datasets.*.id`); keys with dots need a tuple."""
    return tuple(path.split(".")) if path else (), kind


def shape_problems(data: Any, rules: Iterable[Rule]) -> list[str]:
    """What in `data` does not fit `rules`, each once, in the rules' order."""
    found: list[str] = []
    for path, kind in rules:
        found += _walk(data, path, kind, "")
    return list(dict.fromkeys(found))


def _walk(node: Any, path: tuple[str, ...], kind: Kind, where: str) -> list[str]:
    if not path:
        if isinstance(node, _TYPES[kind]):
            return []
        return [f"{where or 'the document'} is {_what(node)}, not a {kind}"]
    step, rest = path[0], path[1:]
    if step == "*":
        if isinstance(node, Mapping):
            items = [(f"{where}.{key}", value) for key, value in node.items()]
        elif isinstance(node, list):
            items = [(f"{where}[{index}]", value) for index, value in enumerate(node)]
        else:
            return [f"{where or 'the document'} is {_what(node)}, not a list"]
        return [problem for label, item in items for problem in _walk(item, rest, kind, label)]
    if not isinstance(node, Mapping):
        return [f"{where or 'the document'} is {_what(node)}, not a mapping"]
    optional = step.endswith("?")
    key = step.removesuffix("?")
    label = f"{where}.{key}" if where else key
    if key not in node:
        return [] if optional else [f"{label} is missing"]
    if optional and not node[key]:
        return []
    return _walk(node[key], rest, kind, label)


def _what(value: Any) -> str:
    """How a value reads in YAML or JSON terms."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    return f"of type {type(value).__name__}"
