"""The YAML fuzzer, kept as a property: the shipped catalog's files mutated with YAML's own tokens
(`=`, `<<`, anchors, aliases, tags, explicit keys), tabs, a BOM and control characters give the
tool's own diagnostics, from the reader and from the loader behind `validate`, and nothing else."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalogctl.catalog.diagnostics import CODES
from catalogctl.catalog.loader import load_tree
from catalogctl.io.tree import WorkingTree
from catalogctl.io.yamlio import YamlProblem, parse_document, read_foreign_yaml

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
SHIPPED = REPO_ROOT / "benchmark_suite"
FILES = sorted(str(p.relative_to(REPO_ROOT)) for p in SHIPPED.rglob("*.yaml"))
ORIGINALS = {path: (REPO_ROOT / path).read_text(encoding="utf-8") for path in FILES}

CONTROLS = [chr(c) for c in [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F, 0x80, 0x85, 0x9F]]
TOKENS = [
    "=",
    "<<",
    "&a ",
    "*a",
    "!!tag ",
    "!!str ",
    "!x ",
    "? ",
    ": ",
    "- ",
    "\t",
    "\ufeff",
    "\u2028",
    "\u2029",
    "\r",
    "\r\n",
    "%YAML 1.1\n",
    "---\n",
    "...\n",
    "[",
    "{",
    "'",
    '"',
    "#",
    "|",
    ">",
    "\\",
    *CONTROLS,
]
# A key or a plain value: what a token replaces whole, so that `=` and `<<` stand alone as scalars.
_WORD = re.compile(r"[^\s:#\[\]{},'\"]+")

# Each example rewrites one file of one shared copy of the catalog and puts it back afterwards.
SETTINGS = settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def mutation(draw: st.DrawFn, text: str) -> str:
    """`text` with one token inserted, a character or a word replaced, or a span deleted."""
    kind = draw(st.sampled_from(["insert", "replace-char", "replace-word", "delete"]))
    token = draw(st.sampled_from(TOKENS))
    if kind == "replace-word":
        words = list(_WORD.finditer(text))
        word = words[draw(st.integers(0, len(words) - 1))]
        return text[: word.start()] + token + text[word.end() :]
    at = draw(st.integers(0, len(text)))
    if kind == "insert":
        return text[:at] + token + text[at:]
    if kind == "replace-char":
        return text[:at] + token + text[at + 1 :]
    return text[:at] + text[at + draw(st.integers(1, 12)) :]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of the shipped catalog for the module."""
    root = tmp_path_factory.mktemp("fuzz")
    shutil.copytree(SHIPPED, root / "benchmark_suite")
    return root


def check_reader(data: bytes) -> None:
    """Both readers either read `data` or raise a `YamlProblem` with a known code and a position."""
    for read in (lambda raw: parse_document("f.yaml", raw), read_foreign_yaml):
        problem = None
        try:
            read(data)
        except YamlProblem as raised:
            problem = raised
        if problem is not None:
            assert problem.code in CODES, problem
            assert min(problem.line, problem.column) >= 1, problem


def check_loader(root: Path, path: str, data: bytes) -> list[str]:
    """The catalog with `path` replaced by `data` loads to diagnostics with known codes only;
    returns their codes."""
    target = root / path
    target.write_bytes(data)
    try:
        diagnostics = load_tree(WorkingTree(root)).diagnostics
    finally:
        target.write_text(ORIGINALS[path], encoding="utf-8")
    for d in diagnostics:
        assert d.code in CODES, d
        assert d.path.startswith("benchmark_suite/"), d
    return [d.code for d in diagnostics]


@pytest.mark.fuzz
@pytest.mark.cache_check  # every mutated catalog is also loaded uncached, cold and warm
@SETTINGS
@given(path=st.sampled_from(FILES), data=st.data())
def test_token_mutations_give_only_diagnostics(scratch: Path, path: str, data: st.DataObject) -> None:
    text = ORIGINALS[path]
    for _ in range(data.draw(st.integers(1, 3))):
        text = data.draw(mutation(text))
    mutated = text.encode("utf-8", "surrogatepass")
    check_reader(mutated)
    check_loader(scratch, path, mutated)


@pytest.mark.parametrize("token", ["=", "<<"])
@pytest.mark.parametrize("path", FILES)
def test_a_value_or_merge_key_in_every_file_is_a_diagnostic(scratch: Path, path: str, token: str) -> None:
    # The one crash the fuzzer found, made certain: each file's first top-level key is the token.
    mutated = re.sub(r"^[a-z_]+:", f"{token}:", ORIGINALS[path], count=1, flags=re.MULTILINE).encode("utf-8")
    check_reader(mutated)
    assert "yaml-reserved-scalar" in check_loader(scratch, path, mutated)
