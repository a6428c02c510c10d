"""The YAML reader: what it refuses (code, message, position), what it accepts, positions, canonical
JSON and the dumper."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from catalogctl.catalog.contract import canonical_json
from catalogctl.io.yamlio import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_INT_DIGITS,
    Position,
    YamlProblem,
    dump_yaml,
    parse_document,
    read_foreign_yaml,
)

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
SHIPPED_FILES = sorted(str(p.relative_to(REPO_ROOT)) for p in (REPO_ROOT / "benchmark_suite").rglob("*.yaml"))

ANCHOR_HINT = "remove the anchor; write repeated values out in full"
ALIAS_HINT = "write the value out in full"
TAG_HINT = "remove the tag; quote the value if it must be a string"
DIRECTIVE_HINT = "remove the directive: catalog files are always read as YAML 1.2"


def problem(source: str | bytes) -> YamlProblem:
    """The problem the reader raises for `source`."""
    data = source.encode("utf-8") if isinstance(source, str) else source
    with pytest.raises(YamlProblem) as info:
        parse_document("f.yaml", data)
    return info.value


def read(source: str | bytes) -> Any:
    """The data the reader builds from `source`."""
    return parse_document("f.yaml", source.encode("utf-8") if isinstance(source, str) else source).data


def typed(data: Any) -> Any:
    """`data` with the type of every scalar beside it, so 1 and True, or 1.0 and 1, compare unequal."""
    if isinstance(data, dict):
        return {key: typed(value) for key, value in data.items()}
    if isinstance(data, list):
        return [typed(value) for value in data]
    return (type(data).__name__, data)


def nested_flow(depth: int) -> str:
    """A value of `depth` nested flow sequences under key `a` (the mapping is one more level)."""
    return "a: " + "[" * depth + "]" * depth + "\n"


# -- what is refused ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(
            "a: 1\nb: 2\na: 3\n",
            YamlProblem(
                "yaml-duplicate-key",
                "duplicate key `a` (first defined at line 1)",
                3,
                1,
                "remove one of the two entries",
            ),
            id="duplicate-key-top",
        ),
        pytest.param(
            "x:\n  - k: 1\n    j: 2\n    k: 3\n",
            YamlProblem(
                "yaml-duplicate-key",
                "duplicate key `k` (first defined at line 2)",
                4,
                5,
                "remove one of the two entries",
            ),
            id="duplicate-key-nested",
        ),
        pytest.param(
            "a: &x 1\n", YamlProblem("yaml-anchor", "anchor &x is not allowed in a catalog file", 1, 4, ANCHOR_HINT)
        ),
        pytest.param(
            "base: &defaults {t: 1}\nother: *defaults\n",
            # The anchor on the parent comes first in the stream, so it is what is reported.
            YamlProblem("yaml-anchor", "anchor &defaults is not allowed in a catalog file", 1, 7, ANCHOR_HINT),
            id="alias-of-an-anchored-parent-reports-the-anchor",
        ),
        pytest.param(
            "a: &x [*x]\n",
            YamlProblem("yaml-anchor", "anchor &x is not allowed in a catalog file", 1, 4, ANCHOR_HINT),
            id="self-reference-reports-the-anchor",
        ),
        pytest.param(
            # An alias met before any anchor: the stream is not composed, so an alias to an anchor
            # that comes later (or never) is reported as the alias, where it stands.
            "a: *x\nb: &x 1\n",
            YamlProblem("yaml-alias", "alias *x is not allowed in a catalog file", 1, 4, ALIAS_HINT),
            id="alias-before-its-anchor",
        ),
        pytest.param(
            "list:\n  - *nowhere\n",
            YamlProblem("yaml-alias", "alias *nowhere is not allowed in a catalog file", 2, 5, ALIAS_HINT),
            id="alias-without-anchor",
        ),
        pytest.param(
            "a: !!str 1\n",
            YamlProblem("yaml-tag", "explicit tag !!str is not allowed in a catalog file", 1, 4, TAG_HINT),
        ),
        pytest.param(
            "a: !custom x\n",
            YamlProblem("yaml-tag", "explicit tag !custom is not allowed in a catalog file", 1, 4, TAG_HINT),
        ),
        pytest.param(
            "%YAML 1.1\n---\na: no\n",
            YamlProblem("yaml-directive", "%YAML and %TAG directives are not allowed", 1, 1, DIRECTIVE_HINT),
            id="yaml-1.1-directive",
        ),
        pytest.param(
            "%TAG !e! tag:example.com,2000:\n---\na: 1\n",
            YamlProblem("yaml-directive", "%YAML and %TAG directives are not allowed", 1, 1, DIRECTIVE_HINT),
            id="tag-directive",
        ),
        pytest.param(
            "a: 1\n---\nb: 2\n",
            YamlProblem(
                "yaml-multiple-documents",
                "a catalog file holds exactly one YAML document",
                2,
                1,
                "split the documents into files of their own",
            ),
            id="two-documents",
        ),
        pytest.param(
            "---\na: 1\n...\n---\n",
            YamlProblem(
                "yaml-multiple-documents",
                "a catalog file holds exactly one YAML document",
                4,
                1,
                "split the documents into files of their own",
            ),
            id="second-document-empty",
        ),
        pytest.param(
            "id: x\n1: a\n",
            YamlProblem("yaml-non-string-key", "key `1` is read as int, not a string", 2, 1, 'quote it: "1"'),
            id="int-key",
        ),
        pytest.param(
            "true: a\n",
            YamlProblem("yaml-non-string-key", "key `true` is read as bool, not a string", 1, 1, 'quote it: "true"'),
            id="bool-key",
        ),
        pytest.param(
            "a:\n  null: x\n",
            YamlProblem(
                "yaml-non-string-key", "key `null` is read as NoneType, not a string", 2, 3, 'quote it: "null"'
            ),
            id="null-key",
        ),
        pytest.param(
            "~: x\n",
            YamlProblem("yaml-non-string-key", "key `~` is read as NoneType, not a string", 1, 1, 'quote it: "~"'),
            id="tilde-key",
        ),
        pytest.param(
            "? [a]\n: b\n",
            YamlProblem("yaml-non-string-key", "a mapping key must be a plain string, not a collection", 1, 3),
            id="complex-key",
        ),
        pytest.param(
            "{a: 1}: b\n",
            YamlProblem("yaml-non-string-key", "a mapping key must be a plain string, not a collection", 1, 1),
            id="flow-mapping-key",
        ),
        pytest.param(
            "a: " + "1" * (MAX_INT_DIGITS + 1) + "\n",
            YamlProblem(
                "yaml-integer-too-long",
                "integer of 41 characters (at most 40)",
                1,
                4,
                "quote it if it is not a number",
            ),
            id="integer-too-long",
        ),
        pytest.param(
            "a: -" + "9" * MAX_INT_DIGITS + "\n",
            YamlProblem(
                "yaml-integer-too-long",
                "integer of 41 characters (at most 40)",
                1,
                4,
                "quote it if it is not a number",
            ),
            id="negative-integer-too-long",
        ),
        pytest.param(
            "a: 2026-13-45\n",
            YamlProblem(
                "yaml-invalid-scalar",
                "`2026-13-45` is not a valid timestamp: month must be in 1..12",
                1,
                4,
                "quote it if it is meant as a string",
            ),
            id="impossible-date",
        ),
        pytest.param(
            "a: b: c\n",
            YamlProblem("yaml-syntax", "mapping values are not allowed in this context", 1, 5),
            id="syntax-mapping-in-plain",
        ),
        pytest.param(
            "a: [1, 2\nb: 3\n",
            YamlProblem("yaml-syntax", "did not find expected ',' or ']'", 2, 2),
            id="syntax-unclosed-flow",
        ),
        pytest.param(
            "a:\n\t- 1\n",
            YamlProblem("yaml-syntax", "found character that cannot start any token", 2, 1),
            id="syntax-tab-indent",
        ),
        pytest.param(
            "a: 1\nbb: x\x07y\n",
            YamlProblem("yaml-syntax", "unacceptable character #x0007: control characters are not allowed", 2, 6),
            id="control-character",
        ),
        pytest.param(
            "中文: 1\nb: x\x00\n",
            YamlProblem("yaml-syntax", "unacceptable character #x0000: control characters are not allowed", 2, 5),
            id="control-character-after-non-ascii",
        ),
        pytest.param("", YamlProblem("yaml-empty", "the file holds no YAML content", 1, 1), id="empty"),
        pytest.param(
            "# only a comment\n\n",
            YamlProblem("yaml-empty", "the file holds no YAML content", 1, 1),
            id="comment-only",
        ),
        pytest.param("---\n", YamlProblem("yaml-empty", "the file holds no YAML content", 1, 1), id="empty-document"),
        pytest.param("~\n", YamlProblem("yaml-empty", "the file holds no YAML content", 1, 1), id="null-document"),
    ],
)
def test_refused(source: str, expected: YamlProblem) -> None:
    assert problem(source) == expected


@pytest.mark.parametrize(
    ("source", "word", "column"),
    [
        ("a: no\n", "no", 4),
        ("a: on\n", "on", 4),
        ("a: Y\n", "Y", 4),
        ("x: [1, Off]\n", "Off", 8),
        ("on: push\n", "on", 1),
    ],
)
def test_yaml11_boolean_word_is_ambiguous(source: str, word: str, column: int) -> None:
    assert problem(source) == YamlProblem(
        "yaml-ambiguous-scalar",
        f"plain `{word}` is a string in YAML 1.2 but a boolean in YAML 1.1",
        1,
        column,
        f'write "{word}" in quotes for a string, or true/false for a boolean',
    )


@pytest.mark.parametrize(
    ("data", "line", "column"),
    [
        (b"a: 1\nb: \xff\xfe\n", 2, 4),
        (b"\xc3\xa9: \xff\n", 1, 4),  # the column counts characters, not bytes
        (b"\xef\xbb\xbfa: 1\nb: \xc3\n", 2, 4),  # after a BOM
    ],
)
def test_invalid_utf8(data: bytes, line: int, column: int) -> None:
    assert problem(data) == YamlProblem("yaml-encoding", "the file is not valid UTF-8", line, column)


def test_file_over_the_size_cap() -> None:
    data = b"a: " + b"x" * (MAX_FILE_BYTES - 4) + b"\n"
    assert len(data) == MAX_FILE_BYTES
    assert read(data) == {"a": "x" * (MAX_FILE_BYTES - 4)}
    assert problem(data + b"\n") == YamlProblem(
        "yaml-too-large", "file of 1,048,577 bytes is over the 1,048,576-byte limit", 1, 1
    )


def test_nesting_at_the_cap_is_read() -> None:
    assert MAX_DEPTH == 64
    value: Any = read(nested_flow(MAX_DEPTH - 1))["a"]
    for _ in range(MAX_DEPTH - 2):
        value = value[0]
    assert value == []


def test_nesting_too_deep_flow() -> None:
    # The mapping is level 1, so the 64th `[` (column 3 + 64) opens level 65.
    assert problem(nested_flow(MAX_DEPTH)) == YamlProblem("yaml-too-deep", "nesting deeper than 64 levels", 1, 67)


def test_nesting_too_deep_block() -> None:
    source = "".join("  " * i + "k:\n" for i in range(MAX_DEPTH + 5)) + "  " * (MAX_DEPTH + 5) + "v\n"
    # Mapping number 65 is the value of the key on line 64; it starts on line 65, indented 2 x 64.
    assert problem(source) == YamlProblem("yaml-too-deep", "nesting deeper than 64 levels", 65, 129)


def test_100k_deep_flow_nesting_is_an_error_not_a_crash() -> None:
    # libyaml's composer recurses and segfaults on this; run it in a child so a crash fails this
    # test instead of killing the run.
    code = (
        "from catalogctl.io.yamlio import YamlProblem, parse_document\n"
        "try:\n"
        "    parse_document('f.yaml', b'[' * 100_000 + b']' * 100_000)\n"
        "except YamlProblem as p:\n"
        "    print(p, end='')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60, check=False
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "1:65: yaml-too-deep nesting deeper than 64 levels"


def test_problem_passes_through_a_context_manager() -> None:
    @contextlib.contextmanager
    def nothing() -> Iterator[None]:
        yield

    with pytest.raises(YamlProblem) as info, nothing():
        parse_document("f.yaml", b"a: &x 1\n")
    assert str(info.value) == "1:4: yaml-anchor anchor &x is not allowed in a catalog file"


# -- what is accepted, exactly ------------------------------------------------------------------


@pytest.mark.parametrize("seed", [16159082839903944936, 2**64 - 1, 0])
def test_64_bit_seeds_are_exact_ints(seed: int) -> None:
    value = read(f"seed: {seed}\n")["seed"]
    assert type(value) is int
    assert value == seed


def test_integer_at_the_digit_cap_is_read() -> None:
    assert read("a: " + "7" * MAX_INT_DIGITS + "\n") == {"a": int("7" * MAX_INT_DIGITS)}


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("id: '0042'\n", {"id": "0042"}, id="quoted-leading-zeros"),
        pytest.param("id: 0042\n", {"id": 42}, id="plain-leading-zeros-is-an-int"),
        pytest.param('a: "no"\n', {"a": "no"}, id="quoted-no"),
        pytest.param("a: 'on'\n", {"a": "on"}, id="quoted-on"),
        pytest.param("a: yes please\n", {"a": "yes please"}, id="boolean-word-inside-text"),
        pytest.param("v: 1.10\n", {"v": 1.1}, id="version-like-is-a-float"),
        pytest.param("a: true\nb: false\nc: null\n", {"a": True, "b": False, "c": None}, id="yaml-1.2-literals"),
        pytest.param("d: 2026-01-07\n", {"d": dt.date(2026, 1, 7)}, id="date"),
        pytest.param("t: <TBD>\n", {"t": "<TBD>"}, id="pending"),
        pytest.param(
            "a: |\n  line one\n  line two\nb: >\n  folded\n  text\nc: |-\n  kept\n",
            {"a": "line one\nline two\n", "b": "folded text\n", "c": "kept"},
            id="block-scalars",
        ),
        pytest.param("a:\n  - 1\n  - x: [w, 'z']\n", {"a": [1, {"x": ["w", "z"]}]}, id="nested"),
        pytest.param("[1, 2]\n", [1, 2], id="sequence-document"),
        pytest.param("---\na: 1\n...\n", {"a": 1}, id="explicit-document-markers"),
    ],
)
def test_accepted(source: str, expected: Any) -> None:
    assert typed(read(source)) == typed(expected)


def test_float_stays_a_float() -> None:
    assert type(read("v: 1.10\n")["v"]) is float


def test_utf8_bom_is_skipped() -> None:
    doc = parse_document("f.yaml", b"\xef\xbb\xbfid: gsm8k\n")
    assert doc.data == {"id": "gsm8k"}
    assert doc.positions.by_path[("id",)] == Position(1, 1, 1, 5)


# -- positions ----------------------------------------------------------------------------------

POSITIONS_SOURCE = """\
# a comment
id: x
accuracy:
  datasets:
    - dataset: gsm8k
      num_repeats: 4
  tags: [a, 0042]
title: >
  folded
"""


def test_positions_by_path() -> None:
    positions = parse_document("f.yaml", POSITIONS_SOURCE.encode()).positions
    assert positions.by_path == {
        (): Position(2, 1, 2, 1),
        ("id",): Position(2, 1, 2, 5),
        ("accuracy",): Position(3, 1, 4, 3),
        ("accuracy", "datasets"): Position(4, 3, 5, 5),
        ("accuracy", "datasets", 0): Position(5, 7, 5, 7),  # an item's "key" is the item itself
        ("accuracy", "datasets", 0, "dataset"): Position(5, 7, 5, 16),
        ("accuracy", "datasets", 0, "num_repeats"): Position(6, 7, 6, 20),
        ("accuracy", "tags"): Position(7, 3, 7, 9),
        ("accuracy", "tags", 0): Position(7, 10, 7, 10),
        ("accuracy", "tags", 1): Position(7, 13, 7, 13),
        ("title",): Position(8, 1, 8, 8),
    }


def test_plain_text_records_plain_non_strings_only() -> None:
    positions = parse_document("f.yaml", POSITIONS_SOURCE.encode()).positions
    assert positions.plain_text == {
        ("accuracy", "datasets", 0, "num_repeats"): "4",
        ("accuracy", "tags", 1): "0042",
    }


def test_nearest_falls_back_to_the_closest_ancestor() -> None:
    positions = parse_document("f.yaml", POSITIONS_SOURCE.encode()).positions
    assert positions.nearest(("accuracy", "datasets", 0, "num_repeats")) == (
        Position(6, 7, 6, 20),
        ("accuracy", "datasets", 0, "num_repeats"),
    )
    assert positions.nearest(("accuracy", "datasets", 0, "generation", "top_p")) == (
        Position(5, 7, 5, 7),
        ("accuracy", "datasets", 0),
    )
    assert positions.nearest(("accuracy", "datasets", 7)) == (Position(4, 3, 5, 5), ("accuracy", "datasets"))
    assert positions.nearest(("missing",)) == (Position(2, 1, 2, 1), ())


# -- canonical JSON and the dumper --------------------------------------------------------------


def test_canonical_json_ignores_key_order() -> None:
    one = read("b: 1\na: {q: [1, 2], p: é}\n")
    two = read("a:\n  p: é\n  q: [1, 2]\nb: 1\n")
    assert canonical_json(one) == canonical_json(two) == '{"a":{"p":"é","q":[1,2]},"b":1}'.encode()


def test_canonical_json_keeps_big_ints_exact() -> None:
    data = read("seed: 16159082839903944936\nmax: 18446744073709551615\n")
    assert canonical_json(data) == b'{"max":18446744073709551615,"seed":16159082839903944936}'


def test_canonical_json_refuses_nan() -> None:
    with pytest.raises(ValueError, match="Out of range float values are not JSON compliant"):
        canonical_json({"a": read("a: .nan\n")["a"]})


@pytest.mark.parametrize("path", SHIPPED_FILES)
def test_dump_round_trips_every_shipped_file(path: str) -> None:
    data = read((REPO_ROOT / path).read_bytes())
    assert typed(read(dump_yaml(data))) == typed(data)


@pytest.mark.parametrize(
    "value",
    [
        " padded ",
        "mmlu\n",
        "folded paragraph\n",
        "trailing\n\n",
        "two\nlines",
        "  indented first\nline\n",
        "no",
        "Off",
        "y",
        "0042",
        "1.10",
        "2026-01-07",
        "true",
        "null",
        "",
        "<TBD>",
        "key: value",
        "# not a comment",
        16159082839903944936,
        2**64 - 1,
        1.1,
        0.0,
        True,
        None,
        dt.date(2026, 1, 7),
    ],
)
def test_dump_round_trips_tricky_values(value: Any) -> None:
    data = {"value": value, "list": [value], str(value): 1}
    assert typed(read(dump_yaml(data))) == typed(data)


def test_dump_writes_shared_objects_out_in_full() -> None:
    day, block = dt.date(2026, 1, 7), {"t": 1}
    assert (
        dump_yaml({"a": day, "b": day, "c": block, "d": block})
        == "a: 2026-01-07\nb: 2026-01-07\nc:\n  t: 1\nd:\n  t: 1\n"
    )


def test_dump_writes_block_yaml_in_key_order() -> None:
    data = {"z": 1, "a": {"items": ["x", "no"], "text": "line one\nline two\n"}}
    assert dump_yaml(data) == "z: 1\na:\n  items:\n  - x\n  - 'no'\n  text: |\n    line one\n    line two\n"


# Text a catalog holds: printable characters, spaces and line breaks (not C0/C1 controls or the
# Unicode line separators, which YAML itself treats specially).
_TEXT = st.text(
    st.characters(categories=["L", "N", "P", "S", "Zs"], exclude_characters="\x85\u2028\u2029\ufeff")
    | st.sampled_from(["\n", " ", "0", ":", "#", "-", "'", '"']),
    max_size=12,
) | st.sampled_from(["no", "Y", "off", "0042", "1.10", "<TBD>", "2026-01-07"])
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=0, max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _TEXT
)
_DATA = st.recursive(
    _SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4), max_leaves=12
)


@pytest.mark.fuzz
@settings(max_examples=30, deadline=None, database=None)
@given(st.dictionaries(_TEXT, _DATA, min_size=1, max_size=4))
def test_dump_round_trips_random_data(data: dict[str, Any]) -> None:
    assert typed(read(dump_yaml(data))) == typed(data)


# -- files other tools wrote --------------------------------------------------------------------

ENDPOINTS_CONFIGS = sorted((REPO_ROOT / "tests/fixtures/endpoints").glob("*.config.yaml"))


def foreign_problem(source: str) -> YamlProblem:
    """The problem `read_foreign_yaml` raises for `source`."""
    with pytest.raises(YamlProblem) as info:
        read_foreign_yaml(source.encode("utf-8"))
    return info.value


def test_deeply_nested_foreign_yaml_is_an_error_not_a_crash() -> None:
    # A 200 KB run config nested 100,000 deep: libyaml's recursive composer, which the foreign
    # reader once used, segfaults on it (exit -11). Run in a child so a crash fails this test.
    code = (
        "from catalogctl.io.yamlio import YamlProblem, read_foreign_yaml\n"
        "try:\n"
        "    read_foreign_yaml(b'a: ' + b'[' * 100_000 + b']' * 100_000 + b'\\n')\n"
        "except YamlProblem as p:\n"
        "    print(p, end='')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60, check=False
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "1:67: yaml-too-deep nesting deeper than 64 levels"


@pytest.mark.parametrize("path", ENDPOINTS_CONFIGS, ids=lambda p: p.name)
def test_real_run_configs_read_as_the_safe_loader_reads_them(path: Path) -> None:
    data = path.read_bytes()
    assert typed(read_foreign_yaml(data)) == typed(YAML(typ="safe").load(data))


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("", None, id="empty"),
        pytest.param("# nothing\n", None, id="comment-only"),
        pytest.param(
            "2: a\ntrue: b\n~: c\n2026-09-02: d\n",
            {2: "a", True: "b", None: "c", dt.date(2026, 9, 2): "d"},
            id="scalar-keys",
        ),
        pytest.param("streaming: on\nwarmup: no\n", {"streaming": "on", "warmup": "no"}, id="yaml-1.2-words"),
        pytest.param("seed: 16159082839903944936\n", {"seed": 16159082839903944936}, id="64-bit-int"),
    ],
)
def test_foreign_yaml_is_read_without_the_catalogs_rules(source: str, expected: Any) -> None:
    assert typed(read_foreign_yaml(source.encode("utf-8"))) == typed(expected)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("a: &x 1\n", YamlProblem("yaml-anchor", "anchor &x is not allowed", 1, 4, ANCHOR_HINT)),
        pytest.param("a: *x\n", YamlProblem("yaml-alias", "alias *x is not allowed", 1, 4, ALIAS_HINT)),
        pytest.param("a: !!str 1\n", YamlProblem("yaml-tag", "explicit tag !!str is not allowed", 1, 4, TAG_HINT)),
        pytest.param(
            "%YAML 1.1\n---\na: no\n",
            YamlProblem(
                "yaml-directive",
                "%YAML and %TAG directives are not allowed",
                1,
                1,
                "remove the directive: the file is read as YAML 1.2",
            ),
            id="directive",
        ),
        pytest.param(
            "a: 1\n---\nb: 2\n",
            YamlProblem(
                "yaml-multiple-documents",
                "the file must hold exactly one YAML document",
                2,
                1,
                "split the documents into files of their own",
            ),
            id="two-documents",
        ),
        pytest.param(
            "a: 1\na: 2\n",
            YamlProblem(
                "yaml-duplicate-key",
                "duplicate key `a` (first defined at line 1)",
                2,
                1,
                "remove one of the two entries",
            ),
            id="duplicate-key",
        ),
        pytest.param(
            "1: a\n1: b\n",
            YamlProblem(
                "yaml-duplicate-key",
                "duplicate key `1` (first defined at line 1)",
                2,
                1,
                "remove one of the two entries",
            ),
            id="duplicate-int-key",
        ),
        pytest.param(
            "? [a]\n: b\n",
            YamlProblem("yaml-non-string-key", "a mapping key must be a scalar, not a collection", 1, 3),
            id="collection-key",
        ),
        pytest.param(
            "a: " + "1" * (MAX_INT_DIGITS + 1) + "\n",
            YamlProblem(
                "yaml-integer-too-long", "integer of 41 characters (at most 40)", 1, 4, "quote it if it is not a number"
            ),
            id="integer-too-long",
        ),
        pytest.param("a: [1, 2\n", YamlProblem("yaml-syntax", "did not find expected ',' or ']'", 2, 1), id="syntax"),
    ],
)
def test_foreign_yaml_keeps_the_limits(source: str, expected: YamlProblem) -> None:
    assert foreign_problem(source) == expected


def test_foreign_yaml_keeps_the_size_and_encoding_limits() -> None:
    with pytest.raises(YamlProblem) as info:
        read_foreign_yaml(b"a: " + b"x" * MAX_FILE_BYTES + b"\n")
    assert info.value.code == "yaml-too-large"
    with pytest.raises(YamlProblem) as info:
        read_foreign_yaml(b"a: \xff\n")
    assert info.value == YamlProblem("yaml-encoding", "the file is not valid UTF-8", 1, 4)


# -- parses reused within a block (the site's rulesets) --------------------------------------------

RULESET_TEXT = b"# a comment first\n\ncohort: 2026-09-C0\nbenchmarks:\n  - id: a\n    digest: x\n"


def test_reusing_parses_shares_the_data_and_positions_of_kept_paths_only() -> None:
    from catalogctl.io.yamlio import reusing_parses

    with reusing_parses(keep=lambda path: path.startswith("rulesets/")):
        first = parse_document("rulesets/a.yaml", RULESET_TEXT)
        again = parse_document("rulesets/b.yaml", RULESET_TEXT)  # another tree's copy of the blob
        other = parse_document("models/a.yaml", RULESET_TEXT)
        assert again.data is first.data
        assert again.path == "rulesets/b.yaml"
        assert other.data is not first.data
        assert other.data == first.data
        first.release()
        assert first.positions is again.positions  # built once, for both
        assert first.data is again.data
        again.release()
        assert again.data is first.data
        assert again.positions is first.positions
    assert parse_document("rulesets/a.yaml", RULESET_TEXT).data is not first.data  # the block ended


def test_root_position_is_what_the_positions_hold_for_the_root() -> None:
    for text in (RULESET_TEXT, b"- 1\n- 2\n", b"  plain\n"):
        doc = parse_document("x.yaml", text)
        quick = doc.root_position()
        pos, _ = doc.positions.nearest(())
        assert quick == (pos.line, pos.column) == doc.root_position()
    assert parse_document("x.yaml", RULESET_TEXT).root_position() == (3, 1)
