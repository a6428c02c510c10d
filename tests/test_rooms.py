"""The package's rooms: every module small enough to read in one sitting, the git wrapper
stating facts and leaving every release rule to `release/`, and the signature options declared
once for every command that takes them."""

from __future__ import annotations

import re
from pathlib import Path

import catalogctl

PACKAGE = Path(catalogctl.__file__).parent
LONGEST = 400  # lines: a module read in one sitting


def _modules(folder: Path = PACKAGE) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def test_no_module_is_over_400_lines() -> None:
    found = {
        p.relative_to(PACKAGE).as_posix(): n
        for p in _modules()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > LONGEST
    }
    assert found == {}


def test_the_git_wrapper_states_facts_and_decides_no_release() -> None:
    # A release rule: an error code of the release checks, a ruleset added twice, a hint of what to ask.
    rules = re.compile(r"CheckFailed|RulesetAddedTwice|tag-invalid|ask the maintainers")
    found = {
        p.relative_to(PACKAGE).as_posix(): sorted(set(rules.findall(p.read_text(encoding="utf-8"))))
        for p in _modules(PACKAGE / "io")
        if rules.search(p.read_text(encoding="utf-8"))
    }
    assert found == {}


def test_the_signature_options_are_declared_once() -> None:
    cli = "".join(p.read_text(encoding="utf-8") for p in _modules(PACKAGE / "cli"))
    for option in ("--require-signature", "--allowed-signers", "--revocation-list", "--gpg-keyring"):
        assert cli.count(f'"{option}"') == 1, option
    assert re.findall(r"SignatureFlags\((?!\s*\)|\s*\w+=)", cli) == []  # never built positionally
