"""The import contracts of pyproject.toml bite: each third-party library may be imported only by the
module that wraps it, and an import of it anywhere else, in a copy of the package, breaks the
contract that names it (the real package keeping them is the test command's `lint-imports`)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.helpers import REPO_ROOT, write

LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"  # the test extra's, venv not activated

# contract id -> a module outside the library's home, and the import it must not make. Each module
# is new, so the cases hold whatever the package's modules are called; the io/ and render/ ones
# show that a rule is finer than the layer: a sibling of the wrapper may not import it either.
BAD_IMPORTS = {
    "typer-in-cli": ("catalogctl/model/_stray_typer.py", "import typer"),
    "rich-in-cli-and-render": ("catalogctl/release/_stray_rich.py", "from rich.console import Console"),
    "pygit2-in-the-git-wrapper": ("catalogctl/io/_stray_pygit2.py", "import pygit2"),
    "httpx-in-the-http-modules": ("catalogctl/io/_stray_httpx.py", "import httpx"),
    "ruamel-in-the-yaml-modules": ("catalogctl/catalog/_stray_ruamel.py", "from ruamel.yaml import YAML"),
    "jinja2-in-the-site-renderer": ("catalogctl/render/_stray_jinja2.py", "import jinja2"),
    "deepdiff-in-the-field-diff": ("catalogctl/diff/_stray_deepdiff.py", "import deepdiff"),
    "py-ecc-in-the-beacon-check": ("catalogctl/catalog/_stray_py_ecc.py", "from py_ecc import optimized_bls12_381"),
    "packaging-in-the-pep440-module": ("catalogctl/model/_stray_packaging.py", "from packaging.version import Version"),
}


def contracts() -> dict[str, dict[str, object]]:
    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["id"]: c for c in config["tool"]["importlinter"]["contracts"] if "id" in c}


def lint(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # From `root`, whose folder lint-imports puts first on sys.path: the copy is analysed, not the
    # package the venv has installed.
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo", *args], cwd=root, capture_output=True, text=True, check=False
    )


@pytest.fixture
def package_copy(tmp_path: Path) -> Path:
    """The package and its contracts, copied: a scratch tree to break."""
    shutil.copytree(REPO_ROOT / "catalogctl", tmp_path / "catalogctl", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO_ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_every_library_contract_has_a_case() -> None:
    protected = {cid for cid, c in contracts().items() if c["type"] == "protected"}
    assert protected == set(BAD_IMPORTS)


def test_an_import_outside_the_wrapper_breaks_its_contract(package_copy: Path) -> None:
    for relative, statement in BAD_IMPORTS.values():
        write(package_copy, relative, f'"""Scratch."""\n\n{statement}\n')
    done = lint(package_copy)
    assert done.returncode == 1, done.stdout + done.stderr
    # Each stray breaks its own contract, and only that one (the layers and cycles still hold).
    others = sum(
        1
        for c in tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"][
            "contracts"
        ]
        if c["type"] != "protected"
    )
    assert f"Contracts: {others} kept, {len(BAD_IMPORTS)} broken." in done.stdout
    for contract, (relative, statement) in BAD_IMPORTS.items():
        assert f"{contracts()[contract]['name']} BROKEN" in done.stdout
        module = relative.removesuffix(".py").replace("/", ".")
        library = statement.split()[1].split(".")[0]
        assert f"- {module} -> {library} (l.3)" in done.stdout


def test_a_document_that_reads_a_report_breaks_the_model_rooms(package_copy: Path) -> None:
    # `model/documents` are what files hold; a verb's report is built on them, never the reverse.
    write(
        package_copy,
        "catalogctl/model/documents/_stray.py",
        '"""Scratch."""\n\nimport catalogctl.model.reports.check\n',
    )
    done = lint(package_copy)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"{contracts()['model-rooms']['name']} BROKEN" in done.stdout
    assert "catalogctl.model.documents._stray -> catalogctl.model.reports.check" in done.stdout
