"""The documentation site built once per test session (per worker), for every test of it."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers import REPO_ROOT

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
    reference is written into docs/reference/generated/, which git ignores)."""
    html = tmp_path_factory.mktemp("docs") / "html"
    done = subprocess.run(
        [sys.executable, *BUILD, str(html)], cwd=REPO_ROOT, capture_output=True, text=True, check=False
    )
    return Built(done.returncode, done.stdout + done.stderr, html)


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
