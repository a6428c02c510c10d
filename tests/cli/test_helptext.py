"""Every verb's help ends with one or two examples that are real invocations, and groups its
options in panels named from one list, in that list's order."""

from __future__ import annotations

import re
import shlex
from typing import Any

import pytest
import typer
from typer.core import TyperCommand, TyperGroup, TyperOption

from catalogctl.cli import app
from catalogctl.cli.helptext import OPTIONS, PANELS, Command
from tests.helpers import run_cli


def _walk() -> list[tuple[tuple[str, ...], Any]]:
    """Every command of the app with its path, groups included: `(("datasets", "verify"), command)`."""
    found: list[tuple[tuple[str, ...], Any]] = []

    def walk(command: Any, path: tuple[str, ...]) -> None:
        found.append((path, command))
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*path, name))

    walk(typer.main.get_command(app), ())
    return found


COMMANDS = _walk()
IDS = [" ".join(path) or "catalogctl" for path, _ in COMMANDS]
HEADING = re.compile(r"^([A-Z][A-Za-z ]*):$")


def _examples(text: str) -> list[str]:
    """The lines of the help's last section, which must be its Examples."""
    _, sep, section = text.rpartition("\nExamples:\n")
    assert sep, f"no Examples section:\n{text}"
    lines = section.rstrip("\n").split("\n")
    assert all(line.startswith("  $ catalogctl ") for line in lines), section
    return [line.removeprefix("  $ ") for line in lines]


def _parse(words: list[str]) -> Any:
    """The context the command line `words` makes, parsed strictly: unknown commands and options,
    missing arguments and bad values raise as they would when run."""
    assert words[0] == "catalogctl"
    command: Any = typer.main.get_command(app)
    name: str | None = "catalogctl"
    args, parent = words[1:], None
    while True:
        ctx = command.make_context(name, list(args), parent=parent, resilient_parsing=False)
        if not isinstance(command, TyperGroup):
            return ctx
        rest = [*ctx._protected_args, *ctx.args]
        assert rest, f"{shlex.join(words)}: names no command of {ctx.command_path}"
        name, command, args = command.resolve_command(ctx, rest)
        parent = ctx


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_every_help_ends_with_one_or_two_examples(
    path: tuple[str, ...], command: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    for columns in ("80", "50"):
        monkeypatch.setenv("COLUMNS", columns)  # one example a line, never wrapped
        examples = _examples(run_cli(*path, "--help").stdout)
        assert 1 <= len(examples) <= 2, examples
        assert max(len(f"  $ {example}") for example in examples) <= 80, examples  # no renderer wraps them
        assert len(set(examples)) == len(examples), examples


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_every_example_is_a_real_invocation_of_its_command(path: tuple[str, ...], command: Any) -> None:
    for example in _examples(run_cli(*path, "--help").stdout):
        ctx = _parse(shlex.split(example))
        assert ctx.command_path.split()[1 : 1 + len(path)] == list(path), (example, ctx.command_path)


def test_a_right_example_parses() -> None:
    ctx = _parse(["catalogctl", "freeze", "2026-10-C0", "--seeds", "seeds.yaml"])
    assert ctx.command_path == "catalogctl freeze"
    assert ctx.params["cohort"] == "2026-10-C0"


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ("catalogctl freeze 2026-10-C0 --seed seeds.yaml", "No such option: --seed"),
        ("catalogctl freez 2026-10-C0", "No such command 'freez'"),
        ("catalogctl freeze", "Missing parameter: cohort"),
        ("catalogctl comment --repo o/n --pr 0 --body b.md", "greater than or equal to 1"),
        ("catalogctl datasets verfy", "No such command 'verfy'"),
    ],
)
def test_a_wrong_example_fails_to_parse(words: str, message: str) -> None:
    with pytest.raises(typer.TyperException) as raised:
        _parse(words.split())
    assert message in str(raised.value)


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_examples_are_one_a_line_in_plain_and_rich_renderings(
    path: tuple[str, ...], command: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What other renderers make of the epilog: click's own (as sphinx-click reads it, `\\b` keeping
    the lines) and typer's rich help, which the app does not use but a reader of it may."""
    from typer import rich_utils

    monkeypatch.setenv("COLUMNS", "80")
    examples = _examples(run_cli(*path, "--help").stdout)
    assert command.epilog, path
    plain = TyperCommand("x", epilog=command.epilog, rich_markup_mode=None)
    lines = [line.strip() for line in plain.get_help(typer.Context(plain, info_name="x")).splitlines()]
    assert "Examples:" in lines
    assert [line for line in lines if line.startswith("$ ")] == [f"$ {e}" for e in examples]
    fancy = TyperCommand("x", epilog=command.epilog, rich_markup_mode="rich")
    rich_utils.rich_format_help(obj=fancy, ctx=typer.Context(fancy, info_name="x"), markup_mode="rich")
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert "Examples:" in lines
    assert [line for line in lines if line.startswith("$ ")] == [f"$ {e}" for e in examples]


def test_an_epilog_without_examples_is_shown_as_click_shows_it() -> None:
    command = Command("x", epilog="See the README.", rich_markup_mode=None)
    assert command.get_help(typer.Context(command, info_name="x")).endswith("exit.\n\n  See the README.")


def _options(command: Any) -> list[TyperOption]:
    return [p for p in command.params if isinstance(p, TyperOption)]


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_every_option_sits_in_a_panel_of_the_one_list(path: tuple[str, ...], command: Any) -> None:
    # An option without a panel of its own is one of the verb's own: Options, as typer's rich help has it.
    assert {p.name: p.rich_help_panel for p in _options(command) if (p.rich_help_panel or OPTIONS) not in PANELS} == {}
    headings = [m.group(1) for line in run_cli(*path, "--help").stdout.splitlines() if (m := HEADING.match(line))]
    panels = [h for h in headings if h not in {"Arguments", "Commands", "Examples"}]
    assert set(panels) <= set(PANELS), headings
    assert panels == sorted(panels, key=PANELS.index), headings
    assert headings[-1] == "Examples", headings


def test_freeze_help_lists_its_options_panel_by_panel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    text = run_cli("freeze", "--help").stdout
    sections: dict[str, list[str]] = {}
    current = ""
    for line in text.splitlines():
        if m := HEADING.match(line):
            current = m.group(1)
            sections[current] = []
        elif current and line.startswith("  -"):
            sections[current].append(line.split()[0].rstrip(","))
    assert sections == {
        "Arguments": [],
        "Catalog": ["-C"],
        "Options": [
            "--add",
            "--remove",
            "--seeds",
            "--seed-set",
            "--loadgen-seeds",
            "--beacon-round",
            "--fetch-beacon",
            "--name-round",
            "--skip-cohorts",
            "-m",
            "--no-tag",
            "--push",
            "--dry-run",
        ],
        "Signing": [
            "--sign",
            "--signing-key",
            "--signing-format",
            "--allowed-signers",
            "--revocation-list",
            "--gpg-keyring",
        ],
        "Dates": ["--today"],
        "Help": ["--help"],
        "Examples": [],
    }


def test_the_panels_the_shared_options_sit_in() -> None:
    by_name = {path: {p.name: p.rich_help_panel for p in _options(c)} for path, c in COMMANDS}
    assert by_name[("validate",)]["repo"] == by_name[("ls",)]["ref"] == "Catalog"
    assert by_name[("validate",)]["no_cache"] == by_name[("ci",)]["no_cache"] == "Cache"
    assert by_name[("ci",)]["today"] == by_name[("freeze",)]["today"] == "Dates"
    assert by_name[("verify",)]["require_signature"] == by_name[("tag",)]["gpg_keyring"] == "Signing"
    assert by_name[("ls",)]["fmt"] == by_name[("site",)]["output"] == "Output"
