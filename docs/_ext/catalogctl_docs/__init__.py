"""catalogctl's reference, generated from the code at each build.

Before Sphinx reads a page, `generate` writes Markdown into `reference/generated/` (git ignores
it): a page per command, per document kind and per JSON output, and the fragments that written
pages include (`fragments/`: the exit codes, the diagnostic codes, the exports of the Python
API). Each is made from the registry that the code itself uses, so the reference cannot drift
from it; a test builds the site and checks that each covers its registry (tests/docs).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

GENERATED = Path("reference") / "generated"
REPOSITORY = Path(__file__).resolve().parents[3]  # docs/_ext/catalogctl_docs/ -> the repository


def pages() -> dict[str, str]:
    """Every generated file: path under `reference/generated/` -> Markdown."""
    import catalogctl.cli
    from catalogctl_docs import codes, commands, exits, pyapi, schemas

    out: dict[str, str] = {}
    out.update(commands.pages(catalogctl.cli.command))
    out.update(codes.pages(REPOSITORY))
    out.update(exits.pages())
    out.update(schemas.pages(REPOSITORY))
    out.update(pyapi.pages())
    return out


def generate(app: Any) -> None:
    """Write the generated pages into the source folder, before Sphinx lists its documents."""
    from catalogctl_docs.output import sync

    sync(Path(app.srcdir) / GENERATED, pages())


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", generate)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
