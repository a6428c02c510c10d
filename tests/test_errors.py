"""The exit codes: one table, the same in the README and in errors.py, and the classes that carry them."""

from __future__ import annotations

import re

import pytest

from catalogctl import errors
from tests.helpers import REPO_ROOT

ROW = re.compile(r"^\| (\d+) \| (.+) \|$", re.M)


def _rows(text: str) -> list[tuple[int, str]]:
    return [(int(code), meaning) for code, meaning in ROW.findall(text)]


def test_the_readme_and_errors_py_state_the_same_exit_codes() -> None:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Exit codes\n") :]
    section = section[: section.index("\n## ")]
    documented = _rows(errors.__doc__ or "")
    assert _rows(section) == documented
    codes = [errors.EXIT_OK, errors.EXIT_PROBLEMS, errors.EXIT_USAGE, *errors.CHECK_EXIT_CODES.values()]
    assert [code for code, _ in documented] == [*codes, errors.EXIT_INTERNAL, errors.EXIT_INTERRUPTED]
    for check, code in errors.CHECK_EXIT_CODES.items():
        assert dict(documented)[code].endswith(f"(`{check}`)")
    assert "CATALOGCTL_TRACEBACK=1" in section
    assert "--traceback" in section


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
