"""The command line says things one way: every verb's help names values by what they are, the
top-level list shows whole summaries, -C PATH and -V work everywhere, shell completion works."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from catalogctl.cli import app
from catalogctl.cli.helptext import summary
from catalogctl.version import __version__
from tests.helpers import run_cli


def _commands() -> list[tuple[str, ...]]:
    """Every command path of the app, groups included (`("datasets", "verify")`)."""
    found: list[tuple[str, ...]] = []

    def walk(command: object, path: tuple[str, ...]) -> None:
        found.append(path)
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            walk(sub, (*path, name))

    walk(typer.main.get_command(app), ())
    return found


COMMANDS = _commands()
# A Python type in the help (`<str>`, `<list[str]>`, `<int range>`), braces around a required
# argument (`{ID}`), a doubled repetition (`[[ID]...]...`).
LEAKS = re.compile(
    r"<(str|int|float|bool|list|tuple|dict)\b[^>]*>|\brange>|\{[A-Za-z_]+\}|\[\[|\]\.\.\.\]|\.\.\.\]\.\.\."
)


def test_every_command_is_walked() -> None:
    registered: set[tuple[str, ...]] = {(str(info.name),) for info in app.registered_commands}
    for group in app.registered_groups:
        assert group.typer_instance is not None
        registered.add((str(group.name),))
        registered |= {(str(group.name), str(info.name)) for info in group.typer_instance.registered_commands}
    assert set(COMMANDS) == {(), *registered}
    assert {("validate",), ("datasets", "verify"), ("export", "mlperf")} <= set(COMMANDS)


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "catalogctl")
def test_help_names_values_without_python_types(path: tuple[str, ...]) -> None:
    text = run_cli(*path, "--help").stdout
    assert text.startswith(f"Usage: {' '.join(('catalogctl', *path))} ")
    assert LEAKS.findall(text) == [], text


def test_help_of_a_repeatable_argument_and_option() -> None:
    text = run_cli("datasets", "verify", "--help").stdout
    assert text.splitlines()[0] == "Usage: catalogctl datasets verify [OPTIONS] [ID]..."
    assert "  ID  Datasets to verify (default: all).\n" in text
    text = run_cli("freeze", "--help").stdout
    assert text.splitlines()[0] == "Usage: catalogctl freeze [OPTIONS] COHORT"
    assert "  --add ID " in text
    assert "  --pr N " in run_cli("comment", "--help").stdout
    assert "  -f, --format <text|json>  " in run_cli("ls", "--help").stdout


@pytest.mark.parametrize("columns", ["80", "50"])
def test_top_level_summaries_are_whole_sentences(columns: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", columns)  # typer cuts default summaries to the terminal's width
    text = run_cli("--help").stdout
    listed = text.split("Commands:\n", 1)[1]
    assert "..." not in listed, listed
    assert "  validate       Check every catalog file and list the values still pending.\n" in text


def test_every_summary_is_one_short_sentence() -> None:
    for group in [app, *(g.typer_instance for g in app.registered_groups)]:
        assert group is not None
        for info in group.registered_commands:
            assert info.callback is not None
            doc = (info.callback.__doc__ or "").strip().splitlines()
            line = summary(info.callback)
            assert line.endswith("."), (info.name, line)
            assert len(line) <= 60, (info.name, line)
            assert len(doc) == 1 or doc[1] == "", f"{info.name}: the summary goes on into a second line"


def test_validate_takes_the_repository_as_c_or_as_path(catalog_dir: Path, tmp_path: Path) -> None:
    last = "working tree: valid (0 errors, 20 warnings, 20 pending values)"
    assert run_cli("validate", "-C", catalog_dir).stdout.splitlines()[-1] == last
    assert run_cli("validate", catalog_dir).stdout.splitlines()[-1] == last
    assert run_cli("validate", catalog_dir, "-C", catalog_dir).stdout.splitlines()[-1] == last
    err = run_cli("validate", tmp_path, "-C", catalog_dir, code=2).stderr
    assert (
        err
        == f"error: two repositories given: {tmp_path} and -C {catalog_dir}\nhint: give the repository once: -C PATH\n"
    )


def test_every_verb_that_reads_a_repository_takes_c() -> None:
    without = [
        " ".join(path)
        for path in COMMANDS
        if path and path[-1] not in {"datasets", "export"} and "-C, --path PATH" not in run_cli(*path, "--help").stdout
    ]
    # These read files and folders they are given, never a catalog repository (check's --catalog is a clone).
    assert without == ["check", "comment", "gates", "runner-config", "schema"]


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_version_short_and_long(flag: str) -> None:
    assert run_cli(flag).stdout == f"catalogctl {__version__}\n"


def _complete(env: dict[str, str]) -> str:
    done = CliRunner().invoke(app, [], env=env, prog_name="catalogctl")
    assert done.exit_code == 0, done.output
    return done.stdout


def test_shell_completion_is_offered() -> None:
    text = run_cli("--help").stdout
    assert "  --install-completion  Install completion for the current shell.\n" in text
    assert "  --show-completion     Show completion for the current shell" in text


def test_the_completion_script_is_produced() -> None:
    script = _complete({"_CATALOGCTL_COMPLETE": "source_bash"})
    assert "_CATALOGCTL_COMPLETE=complete_bash $1" in script
    assert script.rstrip().endswith("complete -o default -F _catalogctl_completion catalogctl")


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("catalogctl va", ["validate"]),
        ("catalogctl datasets ", ["verify", "pin"]),
        ("catalogctl ls --format ", ["text", "json"]),
        ("catalogctl ls ", ["benchmarks", "models", "datasets", "metrics"]),
    ],
)
def test_completion_completes_verbs_and_choices(words: str, expected: list[str]) -> None:
    cword = str(len(words.split()) - (0 if words.endswith(" ") else 1))
    env = {"_CATALOGCTL_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": cword}
    assert _complete(env).split() == expected


def test_the_cli_is_exposed_as_a_click_object_for_documentation_tools() -> None:
    import typer.core

    import catalogctl.cli
    from catalogctl.cli.commands import COMMANDS as REGISTERED

    command = catalogctl.cli.command  # what docs/_ext documents (typer's own click, not click's)
    assert isinstance(command, typer.core.TyperGroup)
    assert command.name == "catalogctl"
    # In the order `catalogctl --help` lists them, the groups last.
    assert list(command.commands) == [name for name, _ in REGISTERED] + ["datasets", "export"]
    walked: list[tuple[str, ...]] = []

    def walk(sub: typer.core.TyperCommand | typer.core.TyperGroup, path: tuple[str, ...]) -> None:
        walked.append(path)
        for name, child in getattr(sub, "commands", {}).items():
            walk(child, (*path, name))

    walk(command, ())
    assert sorted(walked) == sorted(COMMANDS)
