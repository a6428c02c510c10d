"""The documentation builds with warnings as errors (every internal reference resolved, nothing
fetched), and its generated reference covers each registry of the code: every command and
option, every diagnostic code, every exit code, every schema, every export of the Python API."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest

from tests.docs.conftest import Built

pytestmark = pytest.mark.slow


def _text(page: str) -> str:
    """A page's words: tags dropped, entities decoded, whitespace collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def _ids(page: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', page))


def test_the_documentation_builds_without_a_warning(docs_build: Built) -> None:
    assert docs_build.returncode == 0, docs_build.output[-4000:]
    assert "WARNING" not in docs_build.output


def test_every_command_option_and_example_has_its_place(docs_site: Path, docs_build: Built) -> None:
    import catalogctl.cli
    from catalogctl.cli.helptext import examples

    root = catalogctl.cli.command
    missing: list[str] = []
    for name, command in root.commands.items():
        page = docs_build.page(f"reference/generated/commands/{name}")
        ids, squeezed = _ids(page), "".join(_text(page).split())  # highlighting splits a line in spans
        stack: list[tuple[str, Any]] = [(f"catalogctl-{name}", command)]
        while stack:
            path, current = stack.pop()
            missing += [path] if path not in ids else []
            shown = ["".join(example.split()) for example in examples(current.epilog)]
            missing += [f"{path}: {example}" for example in shown if example not in squeezed]
            for param in current.params:
                for option in (*param.opts, *param.secondary_opts) if param.param_type_name == "option" else ():
                    anchor = f"cmdoption-{path}-{option.lstrip('-')}"
                    missing += [anchor] if anchor not in ids else []
            stack += [(f"{path}-{sub}", child) for sub, child in getattr(current, "commands", {}).items()]
    index = _ids(docs_build.page("reference/generated/commands/index"))
    missing += [f"--{p.name}" for p in root.params if f"cmdoption-catalogctl-{p.opts[-1].lstrip('-')}" not in index]
    assert missing == []


def test_every_diagnostic_code_has_its_entry_with_an_example(docs_site: Path, docs_build: Built) -> None:
    from catalogctl.catalog.diagnostics import CODES

    page = docs_build.page("reference/diagnostics")
    assert [code for code in CODES if f'id="{code}"' not in page] == []
    words = _text(page)
    # Each code with its meaning, as the registry states it (the README's table used to).
    # Compared without spaces: dropping a code span's tags leaves one before the next punctuation.
    bare = "".join(words.split()).lower()
    assert [code for code in CODES if "".join(CODES[code].replace("`", "").split()).lower() not in bare] == []
    assert "as validate prints it: benchmark_suite/benchmarks/gpt-oss-120b.yaml:10:8: error ref-unknown-model:" in words
    examples = words.count("as validate prints it:")
    assert examples == len(CODES) - 1  # file-unreadable: no edit makes the system refuse a read


def test_every_exit_code_is_in_the_table(docs_site: Path, docs_build: Built) -> None:
    from catalogctl import errors

    words = _text(docs_build.page("reference/exit-codes"))
    squeezed = "".join(words.split())  # a code span's tags leave spaces the source does not have
    rows = re.findall(r"^\| (\d+) \| (.+) \|$", errors.__doc__ or "", re.M)
    assert len(rows) == 15
    assert [
        code for code, meaning in rows if "".join(f"{code}{meaning}".replace("`", "").split()) not in squeezed
    ] == []
    assert [c for c, n in errors.CHECK_EXIT_CODES.items() if f"{c} {n}" not in words] == []
    assert "CATALOGCTL_TRACEBACK=1" in words


def test_every_schema_has_its_page(docs_site: Path) -> None:
    from tests.helpers import REPO_ROOT

    schemas = sorted(path.name.removesuffix(".schema.json") for path in (REPO_ROOT / "schemas").glob("*.json"))
    pages = sorted(
        path.stem
        for folder in ("documents", "outputs")
        for path in (docs_site / "reference/generated" / folder).glob("*.html")
    )
    assert pages == schemas
    check = _text((docs_site / "reference/generated/outputs/check.html").read_text(encoding="utf-8"))
    assert "schema : catalogctl/check/v1" in check or "schema: catalogctl/check/v1" in check


def test_every_export_of_the_python_api_is_documented(docs_site: Path, docs_build: Built) -> None:
    import catalogctl

    ids = _ids(docs_build.page("reference/python-api"))
    wanted = [getattr(catalogctl, name) for name in catalogctl.__all__ if name != "__version__"]
    assert [
        f"{obj.__module__}.{obj.__qualname__}" for obj in wanted if f"{obj.__module__}.{obj.__qualname__}" not in ids
    ] == []
    assert "catalogctl.api.freeze" in ids
    assert "catalogctl.api.verify_release" in ids
