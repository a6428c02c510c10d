"""Reading a harness's files for `check`: JSON and YAML as the harness wrote them, validated
against the model of the part `check` reads; a file that does not fit is refused with its name and
one line per key that does not."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from catalogctl.errors import InputsUnusable, error, file_line_col
from catalogctl.io.files import read_input
from catalogctl.io.jsonio import JsonProblem, parse_json
from catalogctl.io.yamlio import YamlProblem, read_foreign_yaml

Model = TypeVar("Model", bound=BaseModel)


def read_json(path: Path, what: str, hint: str) -> Any:
    """A JSON file's data; refused when it is not one JSON document."""
    try:
        return parse_json(read_input(path))
    except JsonProblem as exc:
        raise InputsUnusable(f"{path}: not {what}: {exc}", hint) from None


def read_yaml(path: Path, what: str, hint: str) -> Any:
    """A YAML file's data; refused (with the line and column) when it is not YAML."""
    try:
        return read_foreign_yaml(read_input(path))
    except YamlProblem as problem:
        where = file_line_col(str(path), problem.line, problem.column)
        raise InputsUnusable(f"{where}: not {what}: {problem.message}", hint) from None


def peek_json(path: Path) -> Any:
    """A JSON file's data, or None when it is not JSON (what `check` makes of the file is then
    decided by another reader, which says what is wrong with it)."""
    try:
        return parse_json(read_input(path))
    except JsonProblem:
        return None


def validated(model: type[Model], data: Any, path: Path, what: str, hint: str) -> Model:
    """`data` as `model`; refused naming `path` and each key that does not fit."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        found = [
            error("schema-invalid-value", f"{'.'.join(str(p) for p in e['loc']) or 'document'}: {e['msg']}", str(path))
            for e in exc.errors(include_url=False)
        ]
        raise InputsUnusable(f"{path}: not {what}", hint, found) from None
