"""Types shared by every document kind: ids, pending values, display fields, strict models."""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Callable, Iterator, Sequence
from typing import Annotated, Any, Literal, TypeVar, get_args, get_origin

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, GetCoreSchemaHandler
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError, core_schema

ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")
# ASCII digits only: `\d` also matches other scripts' digits (`٢٠٢٦-12-C1`), which int() reads
# as 2026, so a second spelling of a cohort would pass.
COHORT_PATTERN = re.compile(r"([0-9]{4})-(0[1-9]|1[0-2])-C([01])")
FIRST_COHORT_YEAR, LAST_COHORT_YEAR = 2000, 9999
PENDING_PATTERN = re.compile(r"<[^<>\n]+>")
# A metric key is the name a harness emits, verbatim: `exact_match,strict-match` (lm-eval: metric,filter),
# `accuracy:mean` and `pass_at_k:pass_at_k[k=4]` (evalscope 1.14.1's MetricIdentity.key:
# name:aggregation[dimensions]), `match/accuracy` and `match/accuracy[mean]` (inspect_ai 0.3.285's
# score/metric[reducer], _display/core/results.py task_metrics).
METRIC_KEY_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_.,:/=\[\]-]{0,127}")
UINT64_MAX = 2**64 - 1


class StrictModel(BaseModel):
    """Base of every document model: strict types, unknown keys rejected, immutable."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, allow_inf_nan=False)


class Pending(str):
    """A value the catalog has not decided yet, written `<TBD>` (or `<any note>`).

    It is never accepted as a real value: `validate` lists it, and it blocks freezing every
    benchmark that depends on it.
    """

    __slots__ = ()

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        # Anything but a string fails as `not_pending` too, so only the other branch of a
        # `Pendable` union speaks (a float where an int is expected is not a quoting problem).
        return core_schema.no_info_before_validator_function(
            cls._only_strings,
            core_schema.no_info_after_validator_function(cls._validate, core_schema.str_schema(strict=True)),
            serialization=core_schema.to_string_ser_schema(),
        )

    @classmethod
    def _only_strings(cls, value: Any) -> Any:
        if not isinstance(value, str):
            raise PydanticCustomError("not_pending", "not a pending value")
        return value

    @classmethod
    def _validate(cls, value: str) -> Pending:
        if not PENDING_PATTERN.fullmatch(value):
            raise PydanticCustomError("not_pending", "not a pending value")
        return cls(value)


def _shown(value: str) -> str:
    """A value for a one-line message: line breaks and control characters escaped."""
    return repr(value)[1:-1]


def id_problem(value: str) -> str | None:
    """Why `value` is not an id (None when it is one): the grammar of every catalog id."""
    if not ID_PATTERN.fullmatch(value) or ".." in value:
        return (
            f"`{_shown(value)}` is not a valid id: use 1-64 characters of a-z, 0-9, '.', '_' and '-', "
            "starting with a letter or digit, without '..'"
        )
    return None


def _check_id(value: str) -> str:
    problem = id_problem(value)
    if problem is not None:
        raise PydanticCustomError("invalid_id", "{problem}", {"problem": problem})
    return value


def _check_text(value: str) -> str:
    if PENDING_PATTERN.fullmatch(value):
        raise PydanticCustomError(
            "pending_not_allowed", "`{value}` is a pending value, not allowed here", {"value": _shown(value)}
        )
    if not value.strip():
        raise PydanticCustomError("empty_text", "must not be empty")
    return value


def cohort_id_problem(value: str) -> str | None:
    """Why `value` is not a cohort id (None when it is one)."""
    match = COHORT_PATTERN.fullmatch(value)
    if match is None:
        return f"`{_shown(value)}` is not a cohort id: write YYYY-MM-C0 or YYYY-MM-C1"
    if not FIRST_COHORT_YEAR <= int(match.group(1)) <= LAST_COHORT_YEAR:
        return f"`{value}` is out of range: cohort years run from {FIRST_COHORT_YEAR} to {LAST_COHORT_YEAR}"
    return None


def _check_cohort(value: str) -> str:
    problem = cohort_id_problem(value)
    if problem is not None:
        raise PydanticCustomError("invalid_cohort", "{problem}", {"problem": problem})
    return value


def _check_metric_key(value: str) -> str:
    if not METRIC_KEY_PATTERN.fullmatch(value):
        raise PydanticCustomError("invalid_metric_key", "`{value}` is not a valid metric key", {"value": _shown(value)})
    return value


def matching(pattern: str, what: str) -> Callable[[str], str]:
    """A validator that accepts strings fully matching `pattern`, described as `what`."""
    compiled = re.compile(pattern)

    def check(value: str) -> str:
        if not compiled.fullmatch(value):
            raise PydanticCustomError("pattern_mismatch", "`{value}` is not {what}", {"value": value, "what": what})
        return value

    return check


Id = Annotated[str, AfterValidator(_check_id)]
Text = Annotated[str, AfterValidator(_check_text)]
CohortId = Annotated[str, AfterValidator(_check_cohort)]
MetricKey = Annotated[str, AfterValidator(_check_metric_key)]
Sha256 = Annotated[str, AfterValidator(matching(r"[0-9a-f]{64}", "a sha256: 64 lowercase hex digits"))]
GitSha = Annotated[str, AfterValidator(matching(r"[0-9a-f]{40}", "a git commit id: 40 lowercase hex digits"))]
HubRepo = Annotated[
    str,
    AfterValidator(matching(r"[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*", "a hub repository: owner/name")),
]
Url = Annotated[str, AfterValidator(matching(r"(https?|s3|gs|hf)://\S+", "a URL (http, https, s3, gs or hf)"))]
PositiveInt = Annotated[int, Field(ge=1)]
Uint64 = Annotated[int, Field(ge=0, le=UINT64_MAX)]
Digest = Annotated[str, AfterValidator(matching(r"sha256:[0-9a-f]{64}", "a digest: sha256: and 64 hex digits"))]


def mlperf_name_field() -> Any:
    """The optional `mlperf_name` of a benchmark, dataset or model: part of the contract, since the
    official MLPerf tools key what they check by it."""
    return Field(
        default=None,
        description="the name the MLPerf tools (submission checker, mlperf-logging) give this entity, when it "
        "is not the catalog id; when absent, the id is that name",
    )


# Scalar metadata (display only): free-form, but flat, so it never hides contract data.
MetadataValue = str | int | float | bool | None


T = TypeVar("T")

# A value, or a pending value: the pending form is tried first so `<TBD>` never passes as a
# string.
Pendable = Annotated[Pending | T, Field(union_mode="left_to_right")]


def display(**kwargs: Any) -> Any:
    """A field that is display copy: never part of a contract digest, classed `display` by diff."""
    return Field(json_schema_extra={"x-display": True}, **kwargs)


def is_display(info: FieldInfo) -> bool:
    """Whether a model field is display copy."""
    extra = info.json_schema_extra
    return isinstance(extra, dict) and bool(extra.get("x-display"))


class I18nCopy(StrictModel):
    """Translated display copy for one language."""

    title: Text | None = None
    label: Text | None = None
    summary: Text | None = None
    description: Text | None = None


I18n = dict[Annotated[str, Field(pattern=r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")], I18nCopy]


def model_classes(annotation: Any) -> Iterator[type[BaseModel]]:
    """The pydantic models an annotation can hold (through Optional, Union, Annotated, list, dict)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
        return
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        yield from model_classes(typing.get_args(annotation)[0])
    elif origin in (typing.Union, types.UnionType, list, dict, tuple):
        for arg in typing.get_args(annotation):
            yield from model_classes(arg)


def field_names_at(model: type[BaseModel], path: Sequence[int | str]) -> list[str]:
    """The keys allowed at `path` below `model` (map keys and list indexes are passed through)."""
    current = _models_at(model, path)
    return sorted({name for cls in current for name in cls.model_fields})


def _models_at(model: type[BaseModel], path: Sequence[int | str]) -> list[type[BaseModel]]:
    current: list[type[BaseModel]] = [model]
    for part in path:
        if not isinstance(part, str):
            continue
        nxt = [
            c for cls in current if (f := cls.model_fields.get(part)) is not None for c in model_classes(f.annotation)
        ]
        # not a key: pydantic names a tagged union's branch by its tag (`poisson`): stay on that branch
        nxt = nxt or [cls for cls in current if _has_tag(cls, part)]
        if nxt:
            current = nxt
    return current


def _has_tag(cls: type[BaseModel], tag: str) -> bool:
    return any(
        get_args(f.annotation) == (tag,) for f in cls.model_fields.values() if get_origin(f.annotation) is Literal
    )


def path_is_display(model: type[BaseModel], path: Sequence[int | str]) -> bool:
    """Whether a field path (map keys and list indexes passed through) is display copy."""
    current: list[type[BaseModel]] = [model]
    for part in path:
        if not isinstance(part, str):
            continue
        fields = [f for cls in current if (f := cls.model_fields.get(part)) is not None]
        if not fields:
            continue  # a map key or a list item's identity: stay on the item's model
        if any(is_display(f) for f in fields):
            return True
        current = [c for f in fields for c in model_classes(f.annotation)] or current
    return False
