"""The one error boundary: every command runs inside it, applied where commands are registered.

A `CatalogError` is a message (with its hint, and the diagnostics of a `CatalogInvalid`) and
exits with the error's `exit_code`; any other exception is a bug in catalogctl: one line, exit
70; Ctrl-C is `interrupted`, exit 130 (before and after a command too: `cli.interrupt`). With
`--traceback` (or CATALOGCTL_TRACEBACK=1) the last two also print the traceback. typer's own
exits and usage errors pass through untouched.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import typer
from typer.exceptions import TyperException

from catalogctl.cli import interrupt
from catalogctl.errors import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    CatalogError,
    CatalogInvalid,
    CheckFailed,
    ConfigInvalid,
    InputsUnusable,
)

F = TypeVar("F", bound=Callable[..., Any])
TRACEBACK_ENV = "CATALOGCTL_TRACEBACK"
_REPOSITORY = ("path", "repo")  # the parameters that name the catalog repository (default: here)


class _Options:
    """What the app's callback decided for this invocation (it runs before every command)."""

    traceback = False


options = _Options()


def show_tracebacks(enabled: bool) -> None:
    """Whether internal errors and interrupts print their traceback (set by `--traceback`)."""
    options.traceback = enabled


def guarded(command: F) -> F:
    """`command` inside the boundary: what it raises becomes a message and an exit code; a command
    on a catalog repository runs with the folders its configuration names."""
    takes_repository = "path" in inspect.signature(command).parameters

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            with interrupt.in_command(), _configured_layout(kwargs, takes_repository):
                return command(*args, **kwargs)
        except (typer.Exit, typer.Abort, TyperException):
            raise
        except CatalogError as exc:
            report_error(exc)
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt as exc:
            _traceback(exc)
            typer.echo("interrupted", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except Exception as exc:
            _traceback(exc)
            typer.echo(internal_error_line(exc), err=True)
            raise typer.Exit(EXIT_INTERNAL) from None

    wrapper.__catalogctl_boundary__ = True  # type: ignore[attr-defined]  # tests find unguarded commands
    return wrapper  # type: ignore[return-value]


def _configured_layout(kwargs: dict[str, Any], takes_repository: bool) -> contextlib.AbstractContextManager[Any]:
    """The layout of the repository a command works on: its PATH or -C, `check --catalog`, else here."""
    from catalogctl.catalog.config import layout_for  # here: `--help` imports no pydantic
    from catalogctl.catalog.layout import using

    given = [kwargs.get(name) for name in (*_REPOSITORY, "catalog")]
    start = next((value for value in given if isinstance(value, Path)), None)
    if start is None and not takes_repository:
        return contextlib.nullcontext()
    return using(layout_for(start))


def report_error(exc: CatalogError) -> None:
    """An error the library raised on purpose, on stderr: message, diagnostics, hint."""
    if isinstance(exc, CheckFailed):
        typer.echo(f"error [{exc.code}]: {exc}", err=True)
    else:
        typer.echo(f"error: {exc}", err=True)
    if isinstance(exc, (CatalogInvalid, InputsUnusable, ConfigInvalid)):
        from catalogctl.render.common import diagnostic_line

        for diagnostic in exc.diagnostics:
            typer.echo(f"  {diagnostic_line(diagnostic)}", err=True)
    if exc.hint:
        typer.echo(f"hint: {exc.hint}", err=True)


def internal_error_line(exc: BaseException) -> str:
    """The one line that reports a bug: the exception's type and message."""
    message = " ".join(str(exc).split())  # one line, whatever the message holds
    what = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return f"internal error: {what}; rerun with --traceback and report it"


def _traceback(exc: BaseException) -> None:
    if options.traceback:
        typer.echo("".join(traceback.format_exception(exc)), err=True, nl=False)
