"""The exit codes: one table, stated in errors.py and shown by the documentation, and the classes
that carry them."""

from __future__ import annotations

import re

import pytest

from catalogctl import errors
from tests.docs.conftest import DOCS, docs_extension

ROW = re.compile(r"^\| (\d+) \| (.+) \|$", re.M)


def _rows(text: str) -> list[tuple[int, str]]:
    return [(int(code), meaning) for code, meaning in ROW.findall(text)]


def test_errors_py_states_every_exit_code_and_the_documentation_shows_its_table() -> None:
    documented = _rows(errors.__doc__ or "")
    codes = [errors.EXIT_OK, errors.EXIT_PROBLEMS, errors.EXIT_USAGE, *errors.CHECK_EXIT_CODES.values()]
    assert [code for code, _ in documented] == [*codes, errors.EXIT_INTERNAL, errors.EXIT_INTERRUPTED]
    for check, code in errors.CHECK_EXIT_CODES.items():
        assert dict(documented)[code].endswith(f"(`{check}`)")
    # The page includes the table the docs build generates from errors.py (tests/docs builds it).
    generated = docs_extension("exits").fragment()
    assert _rows(generated) == documented
    page = (DOCS / "reference/exit-codes.md").read_text(encoding="utf-8")
    assert "```{include} generated/fragments/exit-codes.md\n```" in page
    assert _rows(page) == []  # no copy of the table to drift
    assert "CATALOGCTL_TRACEBACK=1" in page
    assert "--traceback" in page


@pytest.mark.parametrize(
    ("exc", "code"),
    [
        (errors.CatalogError("x"), 1),
        (errors.CatalogInvalid("x", []), 1),
        (errors.RemoteProblem("x"), 1),
        (errors.GitHubProblem("x"), 1),
        (errors.DownloadProblem("x"), 1),
        (errors.EnvironmentProblem("x"), 2),
        (errors.RefNotFound("x"), 2),
        (errors.DirtyTree("x"), 2),
        (errors.ConcurrentUpdate("x"), 2),
        (errors.RemoteUnreachable("x"), 2),
        (errors.UsageError("x"), 2),
        (errors.EntityNotFound("x"), 2),
        (errors.TagNamesNoCommit("v1", "names a tree"), 5),
        *((errors.CheckFailed(check, "x"), code) for check, code in errors.CHECK_EXIT_CODES.items()),
    ],
)
def test_each_error_carries_its_exit_code(exc: errors.CatalogError, code: int) -> None:
    assert exc.exit_code == code
