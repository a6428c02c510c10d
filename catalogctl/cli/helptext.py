"""How `--help` names values: by what they are (`REF`, `PATH`, `ID`), never by their Python type.

typer shows an argument's Python type beside its name (`ID <str>`, `[ID]... <list[str]>`), an
option's type as its metavar (`--ref <str>`, `--pr <int range>`) and wraps required arguments in
braces (`{ID}`). Commands registered with `Command` name every value with an upper-case word
instead (`--ref REF`; choices stay listed: `--format <text|json>`) and write usage lines as
POSIX does (`ID`, `[ID]...`).

Their options are listed panel by panel (`rich_help_panel`, one of `PANELS`, in that order), and
their epilog is their examples, listed last under Examples, one a line (`epilog`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

CATALOG = "Catalog"  # which catalog the verb reads: -C PATH, --ref
OPTIONS = "Options"  # what the verb does: its own options
SIGNING = "Signing"  # signing a tag, trusting a tag's signature
OUTPUT = "Output"  # what it prints or writes: --format, --output, --force, --quiet
CACHE = "Cache"
DATES = "Dates"  # --today
HELP = "Help"  # --help
PANELS = (CATALOG, OPTIONS, SIGNING, OUTPUT, CACHE, DATES, HELP)
"""The panels of every command's help, in the order they are listed."""


def panel(param: Any, ctx: Any) -> str:
    """The panel an option is listed in: its own; --help in Help; typer's own ones in Options."""
    if param is ctx.command.get_help_option(ctx):
        return HELP
    return getattr(param, "rich_help_panel", None) or OPTIONS


def epilog(*examples: str) -> str:
    """A command's epilog: its examples (`catalogctl ...`), one a line under Examples, as plain text.

    Any renderer shows it so: click keeps the lines of a paragraph that opens with `\\b` as they are
    (and so does sphinx-click, as a line block); typer's rich help keeps single line breaks.
    """
    return "Examples:\n\n\b\n" + "\n".join(f"$ {example}" for example in examples)


def examples(text: str | None) -> list[str]:
    """The examples of an epilog made by `epilog`."""
    return [line.removeprefix("$ ") for line in (text or "").splitlines() if line.startswith("$ ")]


class _Panels:
    """The options panel by panel, the epilog as an Examples section (for commands and groups)."""

    epilog: str | None

    def panel_rows(self, ctx: Any, params: list[Any]) -> list[tuple[str, list[tuple[str, str]]]]:
        """Each panel that has an option, in the order of `PANELS`, with its rows (label, help)."""
        rows: dict[str, list[tuple[str, str]]] = {name: [] for name in PANELS}
        for param in params:
            record = param.get_help_record(ctx)
            if record is not None:
                rows.setdefault(panel(param, ctx), []).append(record)
        return [(title, listed) for title, listed in rows.items() if listed]

    def format_panels(self, ctx: Any, formatter: Any, params: list[Any]) -> None:
        """One section for each panel that has an option, in the order of `PANELS`."""
        self.write_sections(formatter, self.panel_rows(ctx, params))

    @staticmethod
    def write_sections(formatter: Any, sections: list[tuple[str, list[tuple[str, str]]]]) -> None:
        for title, listed in sections:
            with formatter.section(title):
                formatter.write_dl(listed)

    def format_epilog(self, ctx: Any, formatter: Any) -> None:
        """`Examples:` and one example a line, never wrapped (a command line cut in two misleads)."""
        listed = examples(self.epilog)
        if not listed:
            super().format_epilog(ctx, formatter)  # type: ignore[misc]
            return
        with formatter.section("Examples"):
            for line in listed:
                formatter.write(f"{'':>{formatter.current_indent}}$ {line}\n")


def _lists_its_values(param: TyperArgument | TyperOption) -> bool:
    """Whether typer's own label says something a reader needs: the choices."""
    return bool(param.type_descriptor.is_choice)


def _default_metavar(param: TyperArgument | TyperOption) -> str:
    """`REF` for `--ref`, `PATH` for a path, `ID` for an argument named `ident`."""
    if param.type_descriptor.is_path and isinstance(param, TyperOption):
        return "PATH"
    longest = max(param.opts, key=len) if isinstance(param, TyperOption) else param.name or "value"
    return longest.lstrip("-").replace("-", "_").upper()


class Command(_Panels, TyperCommand):
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

    def help_sections(self, ctx: Any) -> list[tuple[str, list[tuple[str, str]]]]:
        """The Arguments rows by name (with the choices, if any), then the options panel by panel,
        each row a label and its help: what `--help` shows, and the documentation's reference."""
        arguments, options = [], []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if isinstance(param, TyperArgument) and record is not None:
                label = param.display_type(ctx) if _lists_its_values(param) else ""
                arguments.append((f"{param.metavar} {label}".rstrip(), record[1]))
            elif not isinstance(param, TyperArgument):
                options.append(param)
        return ([("Arguments", arguments)] if arguments else []) + self.panel_rows(ctx, options)

    def format_options(self, ctx: Any, formatter: Any) -> None:
        """The Arguments section by name (with the choices, if any), then the options panel by panel."""
        self.write_sections(formatter, self.help_sections(ctx))


class Group(_Panels, TyperGroup):
    """typer's group, its options panel by panel and its examples last, as `Command` shows them."""

    def help_sections(self, ctx: Any) -> list[tuple[str, list[tuple[str, str]]]]:
        """The options panel by panel, each row a label and its help (as `Command.help_sections`)."""
        return self.panel_rows(ctx, self.get_params(ctx))

    def format_options(self, ctx: Any, formatter: Any) -> None:
        """The options panel by panel, then the commands."""
        self.write_sections(formatter, self.help_sections(ctx))
        self.format_commands(ctx, formatter)


def summary(command: Callable[..., Any]) -> str:
    """The first line of a command's docstring: its one-sentence summary in `catalogctl --help`."""
    return (command.__doc__ or "").strip().splitlines()[0]
