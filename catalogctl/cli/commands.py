"""Every command, registered in the order `catalogctl --help` lists them, each inside the one
error boundary (`cli.boundary`). Imported by the entry point (`catalogctl.cli.main`) once Ctrl-C
is made quiet."""

from __future__ import annotations

from collections.abc import Callable

import typer

from catalogctl.cli import catalog, compare, datasets, gate, release, run, site
from catalogctl.cli.boundary import guarded
from catalogctl.cli.common import app
from catalogctl.cli.examples import examples_of
from catalogctl.cli.helptext import Command, Group, summary

Commands = tuple[tuple[str, Callable[..., None]], ...]

COMMANDS: Commands = (
    ("validate", catalog.validate),
    ("ls", catalog.list_entities),
    ("show", catalog.show),
    ("diff", release.diff),
    ("freeze", release.freeze),
    ("tag", release.tag),
    ("cohorts", release.cohorts),
    ("verify", release.verify),
    ("site", site.site),
    ("resolve", run.resolve),
    ("preflight", run.preflight),
    ("check", run.check),
    ("runner-config", run.runner_config),
    ("compare", compare.compare),
    ("gates", run.list_gates),
    ("metrics", run.list_metrics),
    ("ci", gate.ci),
    ("comment", gate.comment),
    ("schema", catalog.schema),
    ("new", catalog.new),
)
DATASETS_COMMANDS: Commands = (
    ("verify", datasets.datasets_verify),
    ("pin", datasets.datasets_pin),
)


def register(group: typer.Typer, prefix: str, commands: Commands) -> None:
    """Each command under its name, with its summary and its examples (`prefix` + name: its path)."""
    for name, command in commands:
        # The summary is given, not cut from the docstring: typer would cut it to the terminal's width.
        group.command(name, cls=Command, short_help=summary(command), epilog=examples_of(f"{prefix}{name}"))(
            guarded(command)
        )


register(app, "", COMMANDS)
register(datasets.datasets_app, "datasets ", DATASETS_COMMANDS)
app.add_typer(datasets.datasets_app, name="datasets", cls=Group, epilog=examples_of("datasets"))
register(release.export_app, "export ", (("mlperf", release.export_mlperf),))
app.add_typer(release.export_app, name="export", cls=Group, epilog=examples_of("export"))

__all__ = ["app"]
