"""The command line: parse arguments, call the library, render. No logic lives here.

One module per group of verbs; this module registers their commands, in the order
`catalogctl --help` lists them.
"""

from __future__ import annotations

from catalogctl.cli import catalog, datasets, gate, release, run
from catalogctl.cli.common import app

COMMANDS = (
    ("validate", catalog.validate),
    ("ls", catalog.list_entities),
    ("show", catalog.show),
    ("diff", release.diff),
    ("freeze", release.freeze),
    ("cohorts", release.cohorts),
    ("verify", release.verify),
    ("resolve", run.resolve),
    ("preflight", run.preflight),
    ("check", run.check),
    ("gates", run.list_gates),
    ("metrics", run.list_metrics),
    ("ci", gate.ci),
    ("comment", gate.comment),
    ("schema", catalog.schema),
    ("new", catalog.new),
)
for name, command in COMMANDS:
    app.command(name)(command)
app.add_typer(datasets.datasets_app, name="datasets")


def main() -> None:
    """Console entry point."""
    app()


__all__ = ["app", "main"]
