"""Whatever a catalog file is mutated into, loading gives the tool's own diagnostics and never an
exception."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalogctl.catalog.diagnostics import CODES
from catalogctl.catalog.loader import load_tree
from catalogctl.errors import Diagnostic
from catalogctl.io.tree import WorkingTree
from catalogctl.io.yamlio import PathKey, dump_yaml, parse_document

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
SHIPPED = REPO_ROOT / "benchmark_suite"
FILES = sorted(str(p.relative_to(REPO_ROOT)) for p in SHIPPED.rglob("*.yaml"))
SPECIAL = [b"&", b"*", b"!", b"%", b"[", b"]", b"{", b"}", b":", b"-", b"#", b"|", b">", b"'", b'"', b"? ", b"---\n"]

# Each example copies the catalog into a fresh folder of its own, so no fixture is shared.
SETTINGS = settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

# Every mutated catalog is also a case of "the cache never changes a verdict" (tests/cache_corpus.py).
pytestmark = [pytest.mark.fuzz, pytest.mark.cache_check]


def load_mutated(path: str, data: bytes) -> list[Diagnostic]:
    """Load a fresh copy of the shipped catalog with `path` replaced by `data`; check every
    diagnostic is one of the tool's own, located in the catalog."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        shutil.copytree(SHIPPED, root / "benchmark_suite")
        (root / path).write_bytes(data)
        diagnostics = load_tree(WorkingTree(root)).diagnostics
    lines = len(data.splitlines()) + 1
    for d in diagnostics:
        assert d.code in CODES, d
        assert d.path.startswith("benchmark_suite/"), d
        assert d.line >= 0, d
        assert d.column >= 0, d
        if d.path == path:
            assert d.line <= lines, d
    return diagnostics


@st.composite
def byte_mutation(draw: st.DrawFn, data: bytes) -> bytes:
    """`data` with one byte- or line-level change."""
    lines = data.splitlines(keepends=True)
    kind = draw(
        st.sampled_from(
            ["delete", "insert", "replace", "special", "delete-line", "duplicate-line", "indent", "truncate"]
        )
    )
    at = draw(st.integers(0, len(data)))
    line = draw(st.integers(0, max(len(lines) - 1, 0)))
    if kind == "delete":
        return data[:at] + data[at + draw(st.integers(1, 8)) :]
    if kind == "insert":
        return data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
    if kind == "replace":
        return data[:at] + draw(st.binary(min_size=1, max_size=4)) + data[at + 1 :]
    if kind == "special":
        return data[:at] + draw(st.sampled_from(SPECIAL)) + data[at:]
    if kind == "delete-line":
        return b"".join(lines[:line] + lines[line + 1 :])
    if kind == "duplicate-line":
        return b"".join(lines[: line + 1] + lines[line:])
    if kind == "indent":  # swap one line's indentation with another's
        other = draw(st.integers(0, max(len(lines) - 1, 0)))
        if not lines:
            return data
        a, b = lines[line], lines[other]
        lines[line] = b[: len(b) - len(b.lstrip(b" "))] + a.lstrip(b" ")
        lines[other] = a[: len(a) - len(a.lstrip(b" "))] + b.lstrip(b" ")
        return b"".join(lines)
    return data[:at]


def node_paths(data: Any, path: PathKey = ()) -> list[PathKey]:
    """Every path in a document, the root included."""
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found.extend(node_paths(value, (*path, key)))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found.extend(node_paths(value, (*path, index)))
    return found


def replaced(data: Any, path: PathKey, value: Any) -> Any:
    """`data` with the node at `path` replaced by `value`."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(data, dict):
        return {k: replaced(v, rest, value) if k == head else v for k, v in data.items()}
    return [replaced(v, rest, value) if i == head else v for i, v in enumerate(data)]


_TEXT = st.text(st.characters(categories=["L", "N", "P", "S", "Zs"]), max_size=10) | st.sampled_from(
    ["<TBD>", "gsm8k", "inference", "training", "no", "0042", "", "../x", "a/b", "MMLU"]
)
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _TEXT
)
RANDOM_DATA = st.recursive(
    _SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3), max_leaves=8
)


def type_name(value: Any) -> str:
    """The kind of a YAML node: mapping, sequence or the scalar's type."""
    return "mapping" if isinstance(value, dict) else "sequence" if isinstance(value, list) else type(value).__name__


@SETTINGS
@given(path=st.sampled_from(FILES), data=st.data())
def test_byte_mutations_give_only_diagnostics(path: str, data: st.DataObject) -> None:
    original = (REPO_ROOT / path).read_bytes()
    mutated = data.draw(byte_mutation(original))
    load_mutated(path, mutated)


@SETTINGS
@given(path=st.sampled_from(FILES), data=st.data())
def test_several_byte_mutations_give_only_diagnostics(path: str, data: st.DataObject) -> None:
    mutated = (REPO_ROOT / path).read_bytes()
    for _ in range(data.draw(st.integers(2, 6))):
        mutated = data.draw(byte_mutation(mutated))
    load_mutated(path, mutated)


@SETTINGS
@given(path=st.sampled_from(FILES), data=st.data())
def test_structure_mutations_give_only_diagnostics(path: str, data: st.DataObject) -> None:
    document = parse_document(path, (REPO_ROOT / path).read_bytes()).data
    where = data.draw(st.sampled_from(node_paths(document)))
    old = document
    for part in where:
        old = old[part]
    new = data.draw(RANDOM_DATA.filter(lambda v: type_name(v) != type_name(old)))
    load_mutated(path, dump_yaml(replaced(document, where, new)).encode("utf-8"))
