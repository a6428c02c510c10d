"""How `--help` names values: by what they are (`REF`, `PATH`, `ID`), never by their Python type.

typer shows an argument's Python type beside its name (`ID <str>`, `[ID]... <list[str]>`), an
option's type as its metavar (`--ref <str>`, `--pr <int range>`) and wraps required arguments in
braces (`{ID}`). Commands registered with `Command` name every value with an upper-case word
instead (`--ref REF`; choices stay listed: `--format <text|json>`) and write usage lines as
POSIX does (`ID`, `[ID]...`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from typer.core import TyperArgument, TyperCommand, TyperOption


def _lists_its_values(param: TyperArgument | TyperOption) -> bool:
    """Whether typer's own label says something a reader needs: the choices."""
    return bool(param.type_descriptor.is_choice)


def _default_metavar(param: TyperArgument | TyperOption) -> str:
    """`REF` for `--ref`, `PATH` for a path, `ID` for an argument named `ident`."""
    if param.type_descriptor.is_path and isinstance(param, TyperOption):
        return "PATH"
    longest = max(param.opts, key=len) if isinstance(param, TyperOption) else param.name or "value"
    return longest.lstrip("-").replace("-", "_").upper()


class Command(TyperCommand):
    """typer's command, with every value in its help named by an upper-case word."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if not isinstance(param, (TyperArgument, TyperOption)) or param.metavar is not None:
                continue
            if isinstance(param, TyperOption) and (param.is_flag or _lists_its_values(param)):
                continue
            param.metavar = _default_metavar(param)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """`[OPTIONS] COHORT [NEW]`, `[ID]...`: required bare, optional in brackets, repeatable dotted."""
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                name = param.metavar or (param.name or "").upper()
                name = name if param.required else f"[{name}]"
                pieces.append(name + ("..." if param.nargs != 1 else ""))
        return pieces

    def format_options(self, ctx: Any, formatter: Any) -> None:
        """The Arguments section by name (with the choices, if any), then the Options section."""
        arguments, options = [], []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if isinstance(param, TyperArgument):
                label = param.display_type(ctx) if _lists_its_values(param) else ""
                arguments.append((f"{param.metavar} {label}".rstrip(), record[1]))
            else:
                options.append(record)
        for title, rows in (("Arguments", arguments), ("Options", options)):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


def summary(command: Callable[..., Any]) -> str:
    """The first line of a command's docstring: its one-sentence summary in `catalogctl --help`."""
    return (command.__doc__ or "").strip().splitlines()[0]
