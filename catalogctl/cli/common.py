"""What every command shares: the typer app, the mapping of errors to exit codes, options.

Exit codes (the same for every verb): 0 success; 1 the verb ran and found problems; 2 usage or
environment error (no repository, unknown ref, unknown id); `resolve`/`preflight` add 3-8, one
per failed check.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from catalogctl.version import __version__

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2

app = typer.Typer(
    name="catalogctl",
    help="Validate, browse, diff and release a git-versioned benchmark catalog.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

F = TypeVar("F", bound=Callable[..., Any])


def handle_errors(func: F) -> F:
    """Map the library's exceptions to a message on stderr and the documented exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from catalogctl.errors import CatalogError, CatalogInvalid, CheckFailed, EnvironmentProblem, UsageError

        try:
            return func(*args, **kwargs)
        except CheckFailed as exc:
            typer.echo(f"error [{exc.code}]: {exc}", err=True)
            if exc.hint:
                typer.echo(f"hint: {exc.hint}", err=True)
            raise typer.Exit(exc.exit_code) from None
        except CatalogError as exc:
            typer.echo(f"error: {exc}", err=True)
            if isinstance(exc, CatalogInvalid):
                from catalogctl.render.common import diagnostic_line

                for diagnostic in exc.diagnostics:
                    typer.echo(f"  {diagnostic_line(diagnostic)}", err=True)
            if exc.hint:
                typer.echo(f"hint: {exc.hint}", err=True)
            code = EXIT_USAGE if isinstance(exc, (EnvironmentProblem, UsageError)) else EXIT_PROBLEMS
            raise typer.Exit(code) from None

    return wrapper  # type: ignore[return-value]


class ReportFormat(StrEnum):
    """Output of a report."""

    text = "text"
    json = "json"
    github = "github"


class ListFormat(StrEnum):
    """Output of a listing."""

    text = "text"
    json = "json"


class DocFormat(StrEnum):
    """Output of a document."""

    yaml = "yaml"
    json = "json"


class EntityKind(StrEnum):
    """What `ls` lists."""

    benchmarks = "benchmarks"
    models = "models"
    datasets = "datasets"
    metrics = "metrics"


PathArg = Annotated[
    Path | None,
    typer.Argument(help="The catalog repository (default: found from the current folder).", show_default=False),
]
RefOpt = Annotated[
    str | None,
    typer.Option("--ref", help="Read the catalog at this tag, branch, commit or cohort instead of the working tree."),
]
RepoOpt = Annotated[Path | None, typer.Option("--path", "-C", help="The catalog repository (default: current folder).")]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"catalogctl {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
) -> None:
    """Validate, browse, diff and release a git-versioned benchmark catalog."""


def out(text: str) -> None:
    """Write a result to stdout."""
    sys.stdout.write(text)
    sys.stdout.flush()
