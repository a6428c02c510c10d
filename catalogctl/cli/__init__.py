"""The command line: parse arguments, call the library, render. No logic lives here.

One module per group of verbs; `cli.commands` registers their commands, each inside the one
error boundary (`cli.boundary`). This module is the console entry point: importing it costs
nothing the interpreter has not loaded already, so that `main` makes Ctrl-C quiet
(`cli.interrupt`) before anything else is imported.

`catalogctl.cli.command` is the same command line as a click object (`typer.main.get_command`
of `app`), nested groups included, for documentation tools: the documentation's command
reference is built from it (`docs/_ext`). typer 0.26 and later carry a click of their own
(`typer._click`): this is no `click.Command`, and sphinx-click refuses it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from catalogctl.cli import interrupt

if TYPE_CHECKING:
    from typer.core import TyperGroup

    from catalogctl.cli.commands import app

    command: TyperGroup


def main() -> None:
    """Console entry point."""
    interrupt.install()  # first: from here on, Ctrl-C is the one line `interrupted` and exit 130
    import atexit
    import gc

    from catalogctl.cli.commands import app

    # A command's process is short: what is alive now (modules, classes) lives until it exits.
    # Kept out of the collector's full passes, which otherwise walk it again and again while a
    # large catalog is loaded (measured: about 0.07 s of a 0.9 s `ci` at 5,000 benchmarks).
    gc.freeze()
    # And at exit: what a command leaves (`site`'s catalog, unfrozen after the build, with the
    # cycles its parsers left) is freed by the exit, not walked by the collector's last passes
    # (about 0.2 s after a site of 5,000 benchmarks).
    atexit.register(gc.freeze)
    app()


def __getattr__(name: str) -> Any:
    """`app`, imported on first use (tests and benchmarks drive it in process); `command`, its
    click object, built on each use."""
    if name == "app":
        from catalogctl.cli.commands import app

        return app
    if name == "command":
        import typer.main

        from catalogctl.cli.commands import app

        return typer.main.get_command(app)
    raise AttributeError(f"module 'catalogctl.cli' has no attribute {name!r}")


__all__ = ["app", "command", "main"]
