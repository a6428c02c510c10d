"""catalogctl installed as its users install it, offline: from a clean copy of this repository's
source, into a fresh Python environment that reaches this test environment's packages (its
dependencies, setuptools, pip) through a path file, so that nothing is downloaded.
tests/test_action.py installs the composite action this way; tests/test_wheel.py the built wheel."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from tests.helpers import REPO_ROOT, git


def clean_copy(target: Path) -> Path:
    """This repository's source as a checkout of it holds it (what `git ls-files` lists), so the
    build's leftovers never land in this working tree."""
    listed = git(REPO_ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    for name in filter(None, listed.split("\0")):
        source = REPO_ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def fresh_python(folder: Path) -> Path:
    """A new virtual environment in `folder`, which reaches this test environment's packages
    through a path file (`actions/setup-python`'s Python, in the action's tests). Returns its
    bin folder.

    Only the site-packages folders are added: the `.pth` files there are not run from a folder a
    path file adds, so the editable install of this checkout (a `.pth` and its import hook) is
    not reachable from the new environment."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (Path(purelib) / "test-environment.pth").write_text("".join(f"{p}\n" for p in sorted(ours)))
    return folder / "bin"
