"""A `console` block of the docs, run as a reader runs it: each `$ ` line in bash, in a scratch clone.

The convention (shared by every page): a line that begins `$ ` is a command; the lines after it,
up to the next command, are what it prints (stdout and stderr together). A line `...` matches any
lines, none included; `...` inside a line matches any text. A page's blocks run in order in one
scratch clone, so what a command leaves (files, commits, the current folder, exported variables)
is there for the next one, as it is for a reader who pastes the page from top to bottom.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from sybil import Example

# Where the test venv's `catalogctl` is: the reader's is the one the README's first command installs.
VENV_BIN = Path(sys.executable).parent
# A command the docs show takes seconds; one that hangs fails the page instead of the run.
COMMAND_TIMEOUT = 300
ELLIPSIS = "..."


@dataclass(frozen=True)
class Command:
    """One `$ ` line of a block, with the output the page shows for it."""

    line: int
    text: str
    expected: list[str]


def commands(block: str, first_line: int) -> list[Command]:
    """The commands of a block's source, each with the lines shown after it."""
    found: list[Command] = []
    for number, line in enumerate(block.splitlines(), start=first_line):
        if line.startswith("$ "):
            found.append(Command(number, line[2:], []))
        elif found:
            found[-1].expected.append(line.rstrip())
        elif line.strip():
            raise ValueError(f"line {number}: output before any `$ ` command: {line!r}")
    return found


def pattern(expected: list[str]) -> re.Pattern[str]:
    """A regular expression of the shown output: `...` lines and `...` in a line are wildcards."""
    parts = []
    for line in expected:
        if line == ELLIPSIS:
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append("[^\n]*?".join(re.escape(piece) for piece in line.split(ELLIPSIS)) + r"\n")
    return re.compile("".join(parts))


def matches(expected: list[str], actual: str) -> bool:
    """Whether what a command printed is what the page shows (trailing blanks aside)."""
    lines = [line.rstrip() for line in actual.splitlines()]
    while expected and not expected[-1]:
        expected = expected[:-1]
    while lines and not lines[-1]:
        lines.pop()
    text = "".join(line + "\n" for line in lines)
    return pattern(expected).fullmatch(text) is not None


class Session:
    """One page's scratch world: a home, a GnuPG home, a fresh clone to start in, and bash."""

    def __init__(self, root: Path, upstream: Path) -> None:
        self.home = root / "home"
        self.home.mkdir(parents=True)
        gnupg = self.home / ".gnupg"
        gnupg.mkdir(mode=0o700)
        (self.home / ".gitconfig").write_text(
            "[user]\n\tname = Docs Reader\n\temail = reader@example.org\n[init]\n\tdefaultBranch = main\n",
            encoding="utf-8",
        )
        self.state = root / "state"
        self.state.mkdir()
        self.env_file = self.state / "env.sh"
        self.env_file.write_text("", encoding="utf-8")
        self.cwd_file = self.state / "cwd"
        self.env = {
            "PATH": f"{VENV_BIN}:/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.home),
            "GNUPGHOME": str(gnupg),
            "GIT_CONFIG_NOSYSTEM": "1",
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "TERM": "dumb",
            "NO_COLOR": "1",
            "TZ": "UTC",
        }
        # The run's bytecode folder (tests/conftest.py): the reader's catalogctl compiles once for
        # the whole run, and never into this checkout (an editable install's package).
        if "PYTHONPYCACHEPREFIX" in os.environ:
            self.env["PYTHONPYCACHEPREFIX"] = os.environ["PYTHONPYCACHEPREFIX"]
        # A fresh clone of this checkout's HEAD as the reader's clone of `main`: the repository root.
        self.cwd = root / "catalogctl"
        self._run(f"git clone -q {shlex.quote(str(upstream))} {shlex.quote(str(self.cwd))}", root)

    def _run(self, command: str, cwd: Path) -> str:
        script = (
            f". {shlex.quote(str(self.env_file))}\n"
            f"{command}\n"
            "__status=$?\n"
            f"pwd > {shlex.quote(str(self.cwd_file))}\n"
            # PWD and its kin are the shell's own: the next command starts in the folder saved above.
            f"export -p | grep -Ev '^declare -x (PWD|OLDPWD|SHLVL|_)=' > {shlex.quote(str(self.env_file))}\n"
            "exit $__status\n"
        )
        done = subprocess.run(
            ["bash", "-c", script],
            cwd=cwd,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=COMMAND_TIMEOUT,
            check=False,
        )
        return done.stdout

    def run(self, command: str) -> str:
        """Run one command where the last one left the reader; return what it printed."""
        output = self._run(command, self.cwd)
        self.cwd = Path(self.cwd_file.read_text(encoding="utf-8").strip())
        return output

    def evaluate(self, example: Example) -> str | None:
        """Sybil's evaluator of a `console` block: None when every command printed what is shown."""
        for command in commands(example.parsed, example.line + 1):
            actual = self.run(command.text)
            if not matches(command.expected, actual):
                shown = "\n".join(command.expected)
                return (
                    f"line {command.line}: $ {command.text}\n--- the page shows:\n{shown}\n"
                    f"--- it printed:\n{actual.rstrip()}"
                )
        return None
