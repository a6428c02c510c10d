"""The one error boundary: every command runs inside it, applied where commands are registered.

A `CatalogError` is a message (with its hint, and the diagnostics of a `CatalogInvalid`) and
exits with the error's `exit_code`; any other exception is a bug in catalogctl: one line, exit
70; Ctrl-C is `interrupted`, exit 130 (before and after a command too: `cli.interrupt`). With
`--traceback` (or CATALOGCTL_TRACEBACK=1) the last two also print the traceback. typer's own
exits and usage errors pass through untouched. A `CacheKeyWarning` (the cache is off for the
run: its key cannot be trusted) is printed once per invocation as `warning: ...` and `hint: ...`.
"""

from __future__ import annotations

import contextlib
import functools
import traceback
import warnings
from collections.abc import Callable, Iterator
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
from catalogctl.io.cachekey import CacheKeyWarning

F = TypeVar("F", bound=Callable[..., Any])
TRACEBACK_ENV = "CATALOGCTL_TRACEBACK"


class _Options:
    """What the app's callback decided for this invocation (it runs before every command)."""

    traceback = False


options = _Options()


def show_tracebacks(enabled: bool) -> None:
    """Whether internal errors and interrupts print their traceback (set by `--traceback`)."""
    options.traceback = enabled


def guarded(command: F) -> F:
    """`command` inside the boundary: what it raises becomes a message and an exit code."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            with interrupt.in_command(), _cache_warnings():
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


@contextlib.contextmanager
def _cache_warnings() -> Iterator[None]:
    """A `CacheKeyWarning` on stderr, once per invocation (`ci` opens the cache twice); any
    other warning as Python shows it."""
    shown: set[str] = set()
    with warnings.catch_warnings():
        warnings.simplefilter("always", CacheKeyWarning)
        python_shows = warnings.showwarning

        def show(message: Warning | str, category: type[Warning], *args: Any, **kwargs: Any) -> None:
            if not isinstance(message, CacheKeyWarning):
                python_shows(message, category, *args, **kwargs)
            elif str(message) not in shown:
                shown.add(str(message))
                typer.echo(f"warning: {message}", err=True)
                typer.echo(f"hint: {message.hint}", err=True)

        warnings.showwarning = show
        yield


def report_error(exc: CatalogError) -> None:
    """An error the library raised on purpose, on stderr: message, diagnostics, hint. Each keeps
    its one line, control characters shown as escapes (`\\n`): a CI runner reads a workflow
    command (`::set-output ...`) from any line, and a name quoted here may be a pull request's."""
    from catalogctl.io.markdown import visible

    if isinstance(exc, CheckFailed):
        typer.echo(visible(f"error [{exc.code}]: {exc}"), err=True)
    else:
        typer.echo(visible(f"error: {exc}"), err=True)
    if isinstance(exc, (CatalogInvalid, InputsUnusable, ConfigInvalid)):
        from catalogctl.render.common import diagnostic_line

        for diagnostic in exc.diagnostics:
            typer.echo(f"  {visible(diagnostic_line(diagnostic))}", err=True)
    if exc.hint:
        typer.echo(visible(f"hint: {exc.hint}"), err=True)


def internal_error_line(exc: BaseException) -> str:
    """The one line that reports a bug: the exception's type and message."""
    message = " ".join(str(exc).split())  # one line, whatever the message holds
    what = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return f"internal error: {what}; rerun with --traceback and report it"


def _traceback(exc: BaseException) -> None:
    if options.traceback:
        typer.echo("".join(traceback.format_exception(exc)), err=True, nl=False)
