"""catalogctl as a package others install: its metadata (license, links, classifiers, the groups of
optional dependencies), the typed marker, and the one version every file that names a release
agrees on. The built wheel and sdist themselves are tested in tests/test_wheel.py."""

from __future__ import annotations

import os
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

import catalogctl
from catalogctl.io.yamlio import parse_document
from catalogctl.version import __version__
from tests.helpers import REPO_ROOT

REPOSITORY = "https://github.com/mlcommons-catalog/catalogctl"
# Every group the full test command (README, `.ci/run`) needs; `test` installs them all.
TEST_GROUPS = {"dev", "conformance", "browser", "release"}
# The files that tell users which release to pin or install: these and the docs, but for the
# changelog (every release's) and the releasing page (X.Y.Z).
PINNED = ("action.yml", ".pre-commit-hooks.yaml", "README.md")
UNPINNED_DOCS = ("docs/development/changelog.md", "docs/development/releasing.md")


def load(relative: str) -> Any:
    return parse_document(relative, (REPO_ROOT / relative).read_bytes()).data


def pyproject() -> dict[str, Any]:
    return tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_license_file_is_the_one_the_metadata_names() -> None:
    project = pyproject()["project"]
    # PEP 639: an SPDX expression and the files that hold the text (setuptools 77 and later).
    assert project["license"] == "Apache-2.0"
    assert project["license-files"] == ["LICENSE"]
    text = (REPO_ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.lstrip().startswith("Apache License\n")
    assert "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text
    # An SPDX expression replaces the license classifiers: setuptools refuses both at once.
    assert not [c for c in project["classifiers"] if c.startswith("License ::")]
    assert 'requires = ["setuptools>=77"]' in (REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_the_project_links_name_this_repository() -> None:
    urls = pyproject()["project"]["urls"]
    assert set(urls) == {"Homepage", "Documentation", "Source", "Issues", "Changelog"}
    assert all(url.startswith(REPOSITORY) for url in urls.values()), urls
    assert urls["Issues"] == f"{REPOSITORY}/issues"
    assert urls["Changelog"].endswith("/docs/development/changelog.md")


def test_the_classifiers_say_what_the_tests_run_on() -> None:
    project = pyproject()["project"]
    classifiers = project["classifiers"]
    assert "Typing :: Typed" in classifiers
    assert "Environment :: Console" in classifiers
    assert any(c.startswith("Development Status :: ") for c in classifiers)
    # The Python versions are the tests workflow's matrix, from the floor requires-python names.
    matrix = load(".github/workflows/tests.yml")["jobs"]["tests"]["strategy"]["matrix"]["python"]
    pythons = [c for c in classifiers if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    versions = [c.rsplit(" :: ", 1)[1] for c in pythons]
    assert versions == matrix
    assert project["requires-python"] == f">={matrix[0]}"


def test_the_package_ships_its_typed_marker() -> None:
    assert (REPO_ROOT / "catalogctl" / "py.typed").is_file()
    assert "py.typed" in pyproject()["tool"]["setuptools"]["package-data"]["catalogctl"]


def test_the_optional_dependencies_are_grouped_and_test_installs_every_group_the_tests_need() -> None:
    extras = pyproject()["project"]["optional-dependencies"]
    assert set(extras) >= TEST_GROUPS
    [aggregate] = extras["test"]
    match = re.fullmatch(r"catalogctl\[([a-z,]+)\]", aggregate)
    assert match, aggregate
    named = set(match.group(1).split(","))
    assert named >= TEST_GROUPS
    assert named <= set(extras) - {"test"}
    # Each requirement in one group only: a version is asked in one place.
    names = [re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0].lower() for g in named for r in extras[g]]
    assert len(names) == len(set(names)), names
    by_group = {g: {re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0].lower() for r in extras[g]} for g in named}
    assert {"pytest", "ruff", "mypy", "import-linter", "towncrier", "setuptools"} <= by_group["dev"]
    assert {"endpoints-submission-cli", "mlcommons-loadgen", "mlperf-logging", "lm-eval"} == by_group["conformance"]
    assert by_group["browser"] == {"playwright"}
    assert {"build", "twine"} == by_group["release"]


def test_every_file_that_names_a_release_names_this_version() -> None:
    tag = f"v{__version__}"
    found = []
    docs = sorted(str(p.relative_to(REPO_ROOT)) for p in (REPO_ROOT / "docs").rglob("*.md"))
    for relative in [*PINNED, *(d for d in docs if d not in UNPINNED_DOCS)]:
        text = (REPO_ROOT / relative).read_text(encoding="utf-8")
        assert "<org>/catalogctl" not in text, relative  # the repository is named, not a placeholder
        for match in re.finditer(r"(?:catalogctl@|rev: |catalogctl==)v?(\d+\.\d+\.\d+\w*)", text):
            found.append((relative, match.group(1)))
    assert found
    assert {version for _, version in found} == {__version__}, found
    assert f"mlcommons-catalog/catalogctl@{tag}" in (REPO_ROOT / "action.yml").read_text(encoding="utf-8")


def test_the_tool_changelog_has_a_section_for_this_version() -> None:
    # A version bumped without `towncrier build` would be released with no notes.
    changelog = (REPO_ROOT / "docs" / "development" / "changelog.md").read_text(encoding="utf-8")
    assert re.search(rf"^## {re.escape(__version__)} \(\d{{4}}-\d\d-\d\d\)$", changelog, re.MULTILINE)


def test_the_version_is_read_from_one_place() -> None:
    data = pyproject()
    assert data["project"]["dynamic"] == ["version"]
    assert data["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "catalogctl.version.__version__"}
    assert __version__ == "0.2.0"
    assert Path(REPO_ROOT / "catalogctl" / "version.py").read_text(encoding="utf-8").count(__version__) == 1


def test_the_tests_import_the_catalogctl_they_are_meant_to_test() -> None:
    # release.yml runs this suite against the wheel it built, installed in a fresh environment,
    # with CATALOGCTL_TEST_INSTALLED=1: the package must come from there, never from the
    # checkout's catalogctl/ beside the tests (which `python -m` or pytest's rootdir would put first).
    where = Path(catalogctl.__file__).resolve()
    if os.environ.get("CATALOGCTL_TEST_INSTALLED") == "1":
        assert not where.is_relative_to(REPO_ROOT), where
        assert where.is_relative_to(Path(sys.prefix).resolve()), where
    else:
        assert where.is_relative_to(REPO_ROOT), where  # the development venv's editable install


def test_the_readme_links_work_on_pypi_and_name_files_that_exist() -> None:
    # The README is the PyPI description, where a relative link leads nowhere: each link into
    # the repository is absolute, on the default branch, and names a file this checkout has.

    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)]+)\)", readme)
    assert links
    base = "https://github.com/mlcommons-catalog/catalogctl/blob/main/"
    assert [link for link in links if not link.startswith("https://")] == []
    inside = [link.removeprefix(base) for link in links if link.startswith(base)]
    assert inside
    assert [path for path in inside if not (REPO_ROOT / path.split("#")[0]).is_file()] == []
