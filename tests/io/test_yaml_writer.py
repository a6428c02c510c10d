"""Every string the tool writes reads back identical: through its own reader and through
ruamel's safe loaders, from `dump_yaml` and from `update_document`, as keys and as values."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from catalogctl.errors import CatalogError
from catalogctl.io.yamlio import dump_yaml, parse_document, read_foreign_yaml, update_document

# What YAML treats specially: C0 and C1 controls, DEL, the line breaks it normalises (CR, NEL,
# LS, PS), the BOM, the non-characters at the end of the BMP, and text it would type.
SPECIAL = [chr(c) for c in [*range(0x00, 0x20), *range(0x7F, 0xA1)]] + [
    "\u2028",
    "\u2029",
    "\ufeff",
    "\ufffe",
    "\uffff",
    "\U0001f600",
    "\U0010ffff",
    "\r\n",
    " ",
    "#",
    ": ",
    "- ",
    "'",
    '"',
    "\\",
    "=",
    "<<",
    "no",
]
TEXT = st.lists(st.sampled_from(SPECIAL) | st.text(max_size=3), max_size=6).map("".join) | st.text(max_size=12)
KEY = TEXT.filter(lambda key: key != "")  # an empty key is no catalog key: the reader refuses it
SAFE_LOADERS = [YAML(typ="safe"), YAML(typ="safe", pure=True)]
DOCUMENT = "# kept\nname: old\nlist:\n  - one\n"


def assert_reads_back(text: str, expected: Any) -> None:
    """`text` reads back as `expected` through every reader."""
    data = text.encode("utf-8")
    assert read_foreign_yaml(data) == expected
    assert parse_document("f.yaml", data).data == expected
    for loader in SAFE_LOADERS:
        assert loader.load(text) == expected


@pytest.mark.parametrize(
    "value",
    [
        "a\x85b",
        "a\u2028b",
        "a\u2029b",
        "\t\n",
        "x\n\u2028\xa0",
        "\ufeffa",
        "a\rb",
        "a\x01b",
        "a\x7fb",
        "a\x9fb",
        "\ufffe",
        "x\n\x85\ny\n",
    ],
)
def test_dump_escapes_what_yaml_reads_otherwise(value: str) -> None:
    assert_reads_back(dump_yaml({"k": value, value: 1}), {"k": value, value: 1})


def test_dump_writes_nel_as_an_escape() -> None:
    assert dump_yaml({"k": "a\x85b"}) == 'k: "a\\Nb"\n'


@pytest.mark.fuzz
@settings(max_examples=300, deadline=None, database=None)
@given(st.dictionaries(KEY, TEXT | st.lists(TEXT, max_size=2), min_size=1, max_size=3))
def test_dump_round_trips_every_string(data: dict[str, Any]) -> None:
    assert_reads_back(dump_yaml(data), data)


@pytest.mark.fuzz
@settings(max_examples=300, deadline=None, database=None)
@given(key=KEY.filter(lambda key: key not in ("name", "list")), value=TEXT)
def test_update_document_round_trips_every_string(key: str, value: str) -> None:
    text = update_document(DOCUMENT, {("name",): value, (key,): value, ("list", 0): value})
    expected = {"name": value, "list": [value]}
    expected[key] = value
    assert_reads_back(text, expected)
    assert text.startswith("# kept\n")


def refusal(write: Any) -> str:
    """The message and hint of the error `write()` raises."""
    with pytest.raises(CatalogError) as info:
        write()
    return f"{info.value} ({info.value.hint})"


@pytest.mark.fuzz
@settings(max_examples=100, deadline=None, database=None)
@given(before=TEXT, surrogate=st.characters(categories=["Cs"]), after=TEXT)
def test_a_lone_surrogate_is_refused_clearly(before: str, surrogate: str, after: str) -> None:
    # No YAML escape carries one that libyaml (the tool's reader) accepts, and UTF-8 cannot.
    value = before + surrogate + after
    first = next(c for c in value if "\ud800" <= c <= "\udfff")
    message = (
        f"cannot write {value!r} as YAML: it holds a lone surrogate (U+{ord(first):04X}) "
        "(fix the input it came from: neither YAML nor UTF-8 can hold a lone surrogate)"
    )
    assert refusal(lambda: dump_yaml({"k": [value]})) == message
    assert refusal(lambda: dump_yaml({value: 1})) == message
    assert refusal(lambda: update_document(DOCUMENT, {("name",): value})) == message
    assert refusal(lambda: update_document(DOCUMENT, {(value,): 1})) == message


REMOVABLE = """\
# the file's own comment
id: a  # the id
nested:
  inner: 1  # inner's own
# about the name, above it
# on two lines
name: x  # the name's own
tail:
  - 1
# about the rename
renamed_from: b
"""


def test_a_removed_key_takes_the_comment_lines_above_it() -> None:
    text = update_document(REMOVABLE, {("id",): "c"}, remove=[("name",), ("renamed_from",), ("absent",)])
    assert text == ("# the file's own comment\nid: c  # the id\nnested:\n  inner: 1  # inner's own\ntail:\n  - 1\n")
    first = update_document("# top\nid: a\nname: x\n", {}, remove=[("id",)])
    assert first == "# top\nname: x\n"
