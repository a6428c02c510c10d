"""Which YAML parser reads: the YAML module says, so nothing else imports ruamel's modules."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from catalogctl.io import yamlbuild


def test_the_c_parser_reads_where_it_built() -> None:
    assert yamlbuild.parser_name() == "C parser"


def test_without_the_c_parser_the_pure_python_one_reads(tmp_path: Path) -> None:
    # A machine where ruamel's C extension did not build: its import fails, as it would there.
    (tmp_path / "_ruamel_yaml.py").write_text("raise ImportError('no C parser here')\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    code = "from catalogctl.io import yamlbuild; print(yamlbuild.parser_name())"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert done.stdout == "pure-Python parser\n"
