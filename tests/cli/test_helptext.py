"""Every verb's help groups its options in panels named from one list, in that list's order."""

from __future__ import annotations

import re
from typing import Any

import pytest
import typer
from typer.core import TyperOption

from catalogctl.cli import app
from catalogctl.cli.helptext import OPTIONS, PANELS
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
    }


def test_the_panels_the_shared_options_sit_in() -> None:
    by_name = {path: {p.name: p.rich_help_panel for p in _options(c)} for path, c in COMMANDS}
    assert by_name[("validate",)]["repo"] == by_name[("ls",)]["ref"] == "Catalog"
    assert by_name[("validate",)]["no_cache"] == by_name[("ci",)]["no_cache"] == "Cache"
    assert by_name[("ci",)]["today"] == by_name[("freeze",)]["today"] == "Dates"
    assert by_name[("verify",)]["require_signature"] == by_name[("tag",)]["gpg_keyring"] == "Signing"
    assert by_name[("ls",)]["fmt"] == by_name[("site",)]["output"] == "Output"
