"""The documentation site built once per test run (for every worker: `tests.once`), for every test of it."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers import REPO_ROOT
from tests.once import once

DOCS = REPO_ROOT / "docs"
# CONTRIBUTING.md's lanes table names the same command.
BUILD = ["-m", "sphinx", "-W", "--keep-going", "-n", "-b", "html", str(DOCS)]


class Built:
    """A finished build: its exit code, what it printed, and its HTML folder."""

    def __init__(self, returncode: int, output: str, html: Path) -> None:
        self.returncode = returncode
        self.output = output
        self.html = html

    def page(self, name: str) -> str:
        """The HTML of a page (`reference/diagnostics`)."""
        return (self.html / f"{name}.html").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def docs_build(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """`sphinx-build -W --keep-going -n -b html docs OUT` into a temporary folder (the generated
    reference is written into docs/reference/generated/, which git ignores). One build serves
    every worker: two at once would also write the generated reference into docs/ together."""

    def build(folder: Path) -> None:
        done = subprocess.run(
            [sys.executable, *BUILD, str(folder / "html")], cwd=REPO_ROOT, capture_output=True, text=True, check=False
        )
        (folder / "returncode").write_text(str(done.returncode), encoding="utf-8")
        (folder / "output").write_text(done.stdout + done.stderr, encoding="utf-8")

    folder = once(tmp_path_factory, "docs", build)
    returncode = int((folder / "returncode").read_text(encoding="utf-8"))
    return Built(returncode, (folder / "output").read_text(encoding="utf-8"), folder / "html")


@pytest.fixture(scope="session")
def docs_site(docs_build: Built) -> Path:
    """The HTML folder of a build that passed (the build test says why one did not)."""
    if docs_build.returncode != 0:
        pytest.fail(f"the documentation does not build:\n{docs_build.output[-4000:]}")
    return docs_build.html


def docs_extension(module: str) -> ModuleType:
    """A module of docs/_ext/catalogctl_docs, the generator of the reference (`exits`), imported as
    Sphinx imports it."""
    if str(DOCS / "_ext") not in sys.path:
        sys.path.insert(0, str(DOCS / "_ext"))
    return importlib.import_module(f"catalogctl_docs.{module}")
