"""Sphinx configuration of catalogctl's documentation.

Build it (warnings are errors, every internal reference must resolve, nothing is fetched):

    sphinx-build -W --keep-going -n -b html docs docs/_build/html

The reference is generated from the code at each build (`_ext/catalogctl_docs`): the commands
from the typer app, the diagnostic codes, exit codes, document kinds and JSON outputs from their
registries and committed schemas, the Python API from its docstrings. What it generates goes to
`reference/generated/`, which git ignores.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

from catalogctl.version import __version__  # noqa: E402  (after the path is set)

project = "catalogctl"
author = "catalogctl contributors"
copyright = "catalogctl contributors"
release = __version__
version = __version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "catalogctl_docs",
]

# Text from the code is shown as the tool prints it: `--dry-run` keeps two hyphens, `','` straight quotes.
smartquotes = False

source_suffix = {".md": "markdown"}
root_doc = "index"
# Fragments that generated pages include are not pages of their own.
exclude_patterns = ["_build", "reference/generated/fragments"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3  # `[x](#a-heading)` links inside a page

# Docstrings write code in single backticks, as Markdown does: in reST that is the default role,
# rendered as code and never a cross-reference that could fail to resolve.
default_role = "literal"

# Every internal reference must resolve (-n). Types of the standard library and of third-party
# libraries are not documented here and intersphinx is never used (the build is offline): their
# names are plain text, as are private names of catalogctl (`_Parse`) that a signature shows.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(?!catalogctl\b).*"),
    (r"py:.*", r"catalogctl\..*\._\w+"),
]

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_class_signature = "mixed"
autodoc_default_options = {"exclude-members": "model_config, model_fields, model_computed_fields"}

html_theme = "furo"
html_title = f"catalogctl {release}"
html_static_path = ["_static"]
html_css_files = ["catalogctl.css"]
html_copy_source = False
html_show_sourcelink = False
