"""One document against its pydantic model, with every problem as a positioned diagnostic."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, get_args

from pydantic import BaseModel, ValidationError

from catalogctl.catalog.diagnostics import did_you_mean
from catalogctl.errors import Diagnostic, error
from catalogctl.io.yamlio import Document, PathKey
from catalogctl.model.common import Pending, field_names_at

M = TypeVar("M", bound=BaseModel)


# Error kinds of our own validators whose message already quotes the value.
_SHOWS_VALUE = frozenset({"invalid_id", "invalid_cohort", "invalid_metric_key", "pattern_mismatch"})


def validate_document(doc: Document, model: type[M], base: PathKey = ()) -> tuple[M | None, list[Diagnostic]]:
    """Validate `doc.data` (or the part at `base`) against `model`; a valid document once for the
    documents of the same bytes while their parse is shared (a site reads each cohort's ruleset
    from three trees): the models are immutable."""
    memo = doc.made_once()
    if memo is None or base:
        return _validated(doc, model, base)
    hit = memo.get(("validated", model))
    if hit is None:
        hit, problems = _validated(doc, model, base)
        if hit is None:  # its diagnostics name this document's path: not shared
            return hit, problems
        memo[("validated", model)] = hit
    return hit, []


def _validated(doc: Document, model: type[M], base: PathKey) -> tuple[M | None, list[Diagnostic]]:
    data = value_at(doc.data, base)
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        return None, schema_diagnostics(doc, model, exc, base)


def read_user_document(path: Path, model: type[M], what: str) -> M:
    """A YAML file the user named (a submission, a seed file), validated against `model`;
    `CatalogInvalid` with positioned diagnostics when it is not one."""
    from catalogctl.errors import CatalogInvalid
    from catalogctl.io.files import read_input
    from catalogctl.io.yamlio import YamlProblem, parse_document

    data = read_input(path)
    try:
        doc = parse_document(str(path), data)
    except YamlProblem as problem:
        raise CatalogInvalid(f"{path} is not a valid {what}", [problem.diagnostic(str(path))]) from None
    value, problems = validate_document(doc, model)
    if value is None:
        raise CatalogInvalid(f"{path} is not a valid {what}", problems)
    return value


def schema_diagnostics(
    doc: Document, model: type[BaseModel], exc: ValidationError, base: PathKey = ()
) -> list[Diagnostic]:
    """Turn pydantic's errors into diagnostics at the right file position."""
    errors = exc.errors(include_url=False)
    out: list[Diagnostic] = []
    seen: set[tuple[PathKey, str]] = set()
    for err in errors:
        if err["type"] == "not_pending":  # the pending branch of a union: the other branch speaks
            continue
        path = _data_path(doc.data, base, err["loc"])
        key = (path, err["type"])
        if key in seen:
            continue
        seen.add(key)
        out.append(_diagnostic(doc, model, err, base, path))
    return out


def value_at(data: Any, path: PathKey) -> Any:
    """The value at a document path."""
    for part in path:
        data = data[part]
    return data


def _data_path(data: Any, base: PathKey, loc: tuple[int | str, ...]) -> PathKey:
    """The document path of an error: loc elements that are not keys in the data (union branch
    labels, the missing key itself) are skipped."""
    node = value_at(data, base)
    path: list[str | int] = list(base)
    for part in loc:
        found, child = _step(node, part)
        if found:
            node = child
            path.append(part)
    return tuple(path)


def _step(node: Any, part: int | str) -> tuple[bool, Any]:
    """Whether `part` is a key (or index) of `node`, and the child there."""
    if isinstance(node, dict) and isinstance(part, str) and part in node:
        return True, node[part]
    if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
        return True, node[part]
    return False, None


def _dotted(path: PathKey) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "document"


def _diagnostic(doc: Document, model: type[BaseModel], err: Any, base: PathKey, path: PathKey) -> Diagnostic:
    kind = err["type"]
    loc = tuple(err["loc"])
    positions = doc.positions
    where = _dotted(path[len(base) :]) if len(path) > len(base) else "document"
    if kind == "extra_forbidden":
        name = str(loc[-1])
        if path[-1:] == (name,):
            path = path[:-1]
        pos, _ = positions.nearest((*path, name))
        allowed = field_names_at(model, loc[:-1])
        hint = did_you_mean(name, allowed) or (f"allowed keys: {', '.join(sorted(allowed))}" if allowed else "")
        parent = _dotted(path[len(base) :]) if len(path) > len(base) else "the document"
        return error(
            "schema-unknown-key", f"unknown key `{name}` in {parent}", doc.path, pos.key_line, pos.key_column, hint
        )
    if kind == "missing":
        name = str(loc[-1])
        pos, _ = positions.nearest(path)
        parent = where if len(path) > len(base) else "the document"
        return error("schema-missing-key", f"missing key `{name}` in {parent}", doc.path, pos.key_line, pos.key_column)
    if kind in ("union_tag_invalid", "union_tag_not_found"):  # a tagged union's tag, said as the key it is
        tag_err, tag_path = _tag_error(err, path)
        return _diagnostic(doc, model, tag_err, base, tag_path)
    pos, _ = positions.nearest(path)
    message = str(err["msg"])
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    elif message.startswith("Input should"):
        message = "should" + message[len("Input should") :]
    value = err.get("input")
    source = positions.plain_text.get(path)
    if kind == "pending_not_allowed":
        return error(
            "schema-pending-not-allowed",
            f"{where}: {message}",
            doc.path,
            pos.line,
            pos.column,
            "only values that may stay undecided can be pending",
        )
    if kind == "string_type" and source is not None:
        return error(
            "schema-quote-needed",
            f"{where}: YAML reads `{source}` as {type(value).__name__} {value!r}, but a string is expected",
            doc.path,
            pos.line,
            pos.column,
            f'write it in quotes: "{source}"',
        )
    hint = ""
    if kind == "literal_error" and isinstance(value, str):
        expected = err.get("ctx", {}).get("expected", "")
        hint = did_you_mean(value, [e.strip(" '") for e in expected.replace(" or ", ",").split(",") if e.strip(" '")])
    code = "schema-wrong-type" if kind.endswith("_type") or kind == "model_attributes_type" else "schema-invalid-value"
    quiet = kind in ("value_error", "assertion_error") or value is None or isinstance(value, (dict, list))
    shown = "" if quiet or kind in _SHOWS_VALUE else f" (got {value!r})"
    return error(code, f"{where}: {message}{shown}", doc.path, pos.line, pos.column, hint)


def _tag_error(err: Any, path: PathKey) -> tuple[Any, PathKey]:
    """A discriminated union's bad or missing tag as the error of its key: `missing key `type``,
    or `type: should be 'a' or 'b' (got 'c')` at the value."""
    ctx = err.get("ctx", {})
    field = str(ctx.get("discriminator", "")).strip("'")
    loc = (*err["loc"], field)
    if err["type"] == "union_tag_not_found":
        return {**err, "type": "missing", "loc": loc}, path
    tags = [t.strip() for t in str(ctx.get("expected_tags", "")).split(",")]
    expected = ", ".join(tags[:-1]) + f" or {tags[-1]}" if len(tags) > 1 else tags[0]
    literal = {"type": "literal_error", "loc": loc, "msg": f"Input should be {expected}", "ctx": {"expected": expected}}
    return {**literal, "input": ctx.get("tag")}, (*path, field)


@dataclass(frozen=True)
class PendingValue:
    """A pending value and where it stands."""

    path: PathKey
    value: str


def find_pending(value: Any, path: PathKey = ()) -> Iterator[PendingValue]:
    """Every pending value in a validated model, with its document path."""
    if isinstance(value, Pending):
        yield PendingValue(path, str(value))
    elif isinstance(value, BaseModel):
        for name in _pending_fields(type(value)):
            yield from find_pending(getattr(value, name), (*path, name))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from find_pending(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from find_pending(item, (*path, index))


@functools.cache
def _pending_fields(model: type[BaseModel]) -> tuple[str, ...]:
    """The fields of a model whose annotation can hold a pending value: only those are walked
    (a catalog has thousands of models, most of their fields never pending)."""
    return tuple(name for name, info in model.model_fields.items() if _may_be_pending(info.annotation, set()))


def _may_be_pending(annotation: Any, seen: set[type]) -> bool:
    """Whether a value of this annotation can be, or contain, a `Pending`."""
    if annotation is Pending or annotation is Any or annotation is object:
        return True
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if annotation in seen:  # a recursive model: its fields are being looked at already
            return False
        seen.add(annotation)
        return any(_may_be_pending(info.annotation, seen) for info in annotation.model_fields.values())
    return any(_may_be_pending(arg, seen) for arg in get_args(annotation))
