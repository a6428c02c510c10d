"""The shape of plain data: required and optional keys, items, and what a value must be."""

from __future__ import annotations

from typing import Any

import pytest

from catalogctl.run.shape import Rule, rule, shape_problems


@pytest.mark.parametrize(
    ("data", "problems"),
    [
        ({"a": {"b": [{"c": 1}, {"c": 2}]}}, []),
        ({"a": {"b": []}}, []),  # no items: nothing to check in them
        ({"a": {"b": [{"c": 1}, {}]}}, ["a.b[1].c is missing"]),
        ({"a": {}}, ["a.b is missing"]),
        ({}, ["a is missing"]),
        ({"a": [1]}, ["a is a list, not a mapping"]),
        ({"a": {"b": "x"}}, ["a.b is a string, not a list"]),
        ({"a": {"b": {"k": {"c": True}}}}, []),  # `*` reads a mapping's values too
        ("text", ["the document is a string, not a mapping"]),
    ],
)
def test_required_keys(data: Any, problems: list[str]) -> None:
    assert shape_problems(data, [rule("a.b.*.c")]) == problems


@pytest.mark.parametrize("absent", [{}, {"a": None}, {"a": {}}, {"a": []}, {"a": 0}])
def test_an_optional_key_may_be_absent_or_empty(absent: dict[str, Any]) -> None:
    assert shape_problems(absent, [rule("a?.b", "mapping")]) == []


def test_what_a_value_must_be() -> None:
    data = {"m": [1], "l": {}, "s": 2.5, "n": None, "b": True, "o": object()}
    rules = [rule("m", "mapping"), rule("l", "list"), rule("s", "string"), rule("n", "mapping")]
    assert shape_problems(data, [*rules, rule("b", "list"), rule("o", "string")]) == [
        "m is a list, not a mapping",
        "l is a mapping, not a list",
        "s is a number, not a string",
        "n is null, not a mapping",
        "b is a boolean, not a list",
        "o is of type object, not a string",
    ]


def test_each_problem_once_and_keys_with_dots() -> None:
    data: dict[str, Any] = {"metrics": {"exact_match,strict-match": {}}}
    rules: list[Rule] = [(("metrics", "exact_match,strict-match", "unit"), "present"), rule("metrics", "mapping")]
    assert shape_problems(data, [*rules, *rules]) == ["metrics.exact_match,strict-match.unit is missing"]
    assert shape_problems([], [rule("", "mapping")]) == ["the document is a list, not a mapping"]
    assert shape_problems(None, [rule("*")]) == ["the document is null, not a list"]
