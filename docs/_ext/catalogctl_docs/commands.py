"""One page per command of the typer app (`catalogctl.cli.command`), groups with their
subcommands, made of what `--help` says: usage, help, arguments and options.

sphinx-click cannot read typer 0.26+'s commands (typer carries its own click, so they are no
`click.Command`); the pages are written here from the same objects `--help` formats.
"""

from __future__ import annotations

from typing import Any

from catalogctl_docs import markdown as md

FOLDER = "commands"


def _context(command: Any, name: str, parent: Any = None) -> Any:
    return command.context_class(command, info_name=name, parent=parent)


def _sections(command: Any, ctx: Any) -> list[tuple[str, list[tuple[str, str]]]]:
    """The rows `--help` shows: catalogctl's commands say them (`help_sections`); a group's
    options are click's own help records."""
    if hasattr(command, "help_sections"):
        sections: list[tuple[str, list[tuple[str, str]]]] = command.help_sections(ctx)
        return sections
    rows = [record for param in command.get_params(ctx) if (record := param.get_help_record(ctx))]
    return [("Options", rows)] if rows else []


def _examples(command: Any, heading: str) -> list[str]:
    """The command's examples (its epilog, `helptext.epilog`), as a block that is shown, not run."""
    from catalogctl.cli.helptext import examples

    listed = examples(command.epilog)
    return [f"{heading} Examples", "", "```sh", *listed, "```", ""] if listed else []


def _option_block(program: str, label: str, help_text: str, title: str) -> str:
    """An option as Sphinx's `option` directive (indexed, and linkable as `{option}`); an
    argument as a definition."""
    if title == "Arguments":
        return f"{md.code(label)}\n: {md.paragraphs(help_text) or ' '}\n"
    return f"```{{option}} {label}\n{md.paragraphs(help_text)}\n```\n"


def _body(command: Any, ctx: Any, level: int) -> list[str]:
    path = ctx.command_path
    heading = "#" * level
    out = [f"({_anchor(path)})=", f"{heading} {path}", ""]
    if command.help:
        out += [md.paragraphs(command.help), ""]
    out += ["```text", command.get_usage(ctx), "```", ""]
    sections = _sections(command, ctx)
    if sections:
        out += [f"```{{program}} {path}", "```", ""]
    for title, rows in sections:
        out += [f"{heading}# {title}" if level < 6 else f"**{title}**", ""]
        out += [_option_block(path, label, help_text, title) for label, help_text in rows]
    out += _examples(command, heading + "#")
    subcommands = getattr(command, "commands", {})
    if subcommands:
        out += [f"{heading}# Commands", ""]
        out += [
            f"- [{md.text(f'{path} {name}')}](#{_anchor(f'{path} {name}')}): {md.text(sub.short_help or '')}"
            for name, sub in subcommands.items()
        ]
        out.append("")
        for name, sub in subcommands.items():
            out += _body(sub, _context(sub, name, ctx), level + 1)
    return out


def _anchor(path: str) -> str:
    """The label of a command's section: `catalogctl-datasets-verify`."""
    return path.replace(" ", "-")


def pages(root: Any) -> dict[str, str]:
    """`commands/<name>.md` for each command, in the order `catalogctl --help` lists them, and
    `commands/index.md`: the global options and the list."""
    ctx = _context(root, "catalogctl")
    out: dict[str, str] = {}
    for name, command in root.commands.items():
        out[f"{FOLDER}/{name}.md"] = "\n".join(_body(command, _context(command, name, ctx), 1)) + "\n"
    rows = [
        (f"[{md.code('catalogctl ' + name)}]({name}.md)", md.text(command.short_help or ""))
        for name, command in root.commands.items()
    ]
    toc = md.toctree([f"/reference/generated/{FOLDER}/{name}" for name in root.commands], hidden=True)
    index = [*_body_without_commands(root, ctx), "## Commands", "", md.table(["command", "what it does"], rows), toc]
    out[f"{FOLDER}/index.md"] = "\n".join(index) + "\n"
    return out


def _body_without_commands(root: Any, ctx: Any) -> list[str]:
    out = ["(catalogctl)=", "# Commands", "", md.paragraphs(root.help or ""), ""]
    out += ["```text", root.get_usage(ctx), "```", "", "```{program} catalogctl", "```", ""]
    for title, rows in _sections(root, ctx):
        out += [f"## {'Global options' if title == 'Options' else title}", ""]
        out += [_option_block("catalogctl", label, help_text, title) for label, help_text in rows]
    return out + _examples(root, "##")
