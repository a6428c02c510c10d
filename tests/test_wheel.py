"""The sdist and the wheel as release.yml builds them (`python -m build`, `twine check --strict`),
built offline from a clean copy of the source; the wheel installed into a fresh virtual environment
outside the checkout, without an index, and run there on a catalog of its own: what a user gets
from `pip install catalogctl`, package data included."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from catalogctl.version import __version__
from tests.helpers import REPO_ROOT, commit_all, copy_catalog, git, init_repo
from tests.offline_install import clean_copy, fresh_python

pytestmark = pytest.mark.slow  # builds and installs catalogctl

WHEEL = f"catalogctl-{__version__}-py3-none-any.whl"
SDIST = f"catalogctl-{__version__}.tar.gz"


def offline(home: Path) -> dict[str, str]:
    """An environment that reaches no network: no pip configuration or index, every proxy a
    closed loopback port, a home of its own."""
    env = {key: value for key, value in os.environ.items() if key.startswith(("GIT_", "XDG_", "CATALOGCTL_"))}
    env |= {
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), "/usr/bin", "/bin"]),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_NO_INDEX": "1",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    for proxy in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        env[proxy] = "http://127.0.0.1:9"
    return env


def run(argv: list[str | Path], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{argv} exited {done.returncode}\n{done.stdout}{done.stderr}"
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel, built as release.yml builds them, with this environment's
    setuptools (no build isolation: nothing is downloaded), and checked by twine."""
    source = clean_copy(tmp_path_factory.mktemp("source"))
    out = tmp_path_factory.mktemp("dist")
    env = offline(tmp_path_factory.mktemp("home"))
    run([sys.executable, "-m", "build", "--no-isolation", "--outdir", out, source], source, env)
    assert sorted(p.name for p in out.iterdir()) == [WHEEL, SDIST]
    checked = run([sys.executable, "-m", "twine", "check", "--strict", *sorted(out.iterdir())], out, env)
    assert checked.stdout.count("PASSED") == 2, checked.stdout
    return out


def test_the_wheel_ships_every_file_of_the_package_and_the_license(dist: Path) -> None:
    with zipfile.ZipFile(dist / WHEEL) as wheel:
        record = wheel.read(f"catalogctl-{__version__}.dist-info/RECORD").decode()
        metadata = wheel.read(f"catalogctl-{__version__}.dist-info/METADATA").decode()
    shipped = {line.split(",", 1)[0] for line in record.splitlines()}
    # Package data: every file of catalogctl/ that is not a module (templates, scripts, py.typed).
    data = {name for name in git(REPO_ROOT, "ls-files", "catalogctl").splitlines() if not name.endswith(".py")}
    assert {"catalogctl/py.typed", "catalogctl/render/site/templates/base.html"} <= data
    assert data <= shipped, sorted(data - shipped)
    assert f"catalogctl-{__version__}.dist-info/licenses/LICENSE" in shipped
    assert "License-Expression: Apache-2.0\n" in metadata
    assert "License-File: LICENSE\n" in metadata
    assert "Classifier: Typing :: Typed\n" in metadata
    assert "Provides-Extra: test\n" in metadata


def test_the_sdist_holds_the_license_and_no_part_of_the_tests(dist: Path) -> None:
    with tarfile.open(dist / SDIST) as sdist:
        names = sdist.getnames()
        pkg_info = sdist.extractfile(f"catalogctl-{__version__}/PKG-INFO")
        assert pkg_info is not None
        metadata = pkg_info.read().decode()
    root = f"catalogctl-{__version__}"
    assert f"{root}/LICENSE" in names
    assert "License-Expression: Apache-2.0\n" in metadata
    assert "License-File: LICENSE\n" in metadata
    # The tests need the whole repository (its catalog, workflows and history): a few of their
    # files alone, which setuptools takes by default, run nothing.
    assert not [name for name in names if name.startswith(f"{root}/tests")]


def test_the_installed_wheel_validates_builds_the_site_and_writes_the_schemas(dist: Path, tmp_path: Path) -> None:
    env = offline(tmp_path / "home")
    env["CATALOGCTL_CACHE_DIR"] = str(tmp_path / "cache")
    bin_folder = fresh_python(tmp_path / "venv")
    python = bin_folder / "python"
    run([python, "-I", "-m", "pip", "install", "-q", "--no-deps", "--no-index", dist / WHEEL], tmp_path, env)
    # The package is the wheel's, in the new environment: never this checkout's catalogctl/.
    where = run([python, "-I", "-c", "import catalogctl; print(catalogctl.__file__)"], tmp_path, env)
    assert Path(where.stdout.strip()).is_relative_to(tmp_path / "venv")
    catalogctl = bin_folder / "catalogctl"
    assert run([catalogctl, "--version"], tmp_path, env).stdout == f"catalogctl {__version__}\n"
    catalog = init_repo(tmp_path / "catalog")
    copy_catalog(catalog)
    commit_all(catalog, "The catalog")
    validated = run([catalogctl, "validate"], catalog, env)
    assert validated.stdout.splitlines()[-1] == "working tree: valid (0 errors, 20 warnings, 20 pending values)"
    # The site's templates, styles and scripts are package data.
    run([catalogctl, "site", "-o", tmp_path / "site"], catalog, env)
    site = tmp_path / "site"
    assert (site / "index.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>\n")
    assert {"site.css", "site.js", "search.js"} <= {p.name for p in site.rglob("*")}
    # The schemas it writes are the committed ones.
    run([catalogctl, "schema", "-o", tmp_path / "schemas"], catalog, env)
    written = sorted(p.name for p in (tmp_path / "schemas").iterdir())
    assert written == sorted(p.name for p in (REPO_ROOT / "schemas").iterdir())
    for name in written:
        assert (tmp_path / "schemas" / name).read_bytes() == (REPO_ROOT / "schemas" / name).read_bytes(), name
