"""The options every command shares, declared once: the signature options reach a command as one
`SignatureFlags`, built by keyword."""

from __future__ import annotations

from pathlib import Path

import typer
from typer.testing import CliRunner

from catalogctl.cli.common import RepoOpt, signature_options
from catalogctl.release.trust import SignatureFlags


def _app(require: bool) -> tuple[typer.Typer, list[object]]:
    seen: list[object] = []
    app = typer.Typer()

    @app.command()
    @signature_options(require=require)
    def verb(cohort: str, signature: SignatureFlags | None = None, path: RepoOpt = None) -> None:
        seen.append((cohort, signature, path))

    return app, seen


def test_the_signature_options_reach_the_command_as_one_object() -> None:
    app, seen = _app(require=True)
    args = ["C0", "--require-signature", "--allowed-signers", "a", "--revocation-list", "r", "--gpg-keyring", "k"]
    done = CliRunner().invoke(app, [*args, "-C", "."])
    assert done.exit_code == 0, done.output
    flags = SignatureFlags(require=True, allowed_signers="a", revocation_list="r", gpg_keyring="k")
    assert seen == [("C0", flags, Path("."))]
    CliRunner().invoke(app, ["C1"])
    assert seen[-1] == ("C1", SignatureFlags(), None)


def test_a_verb_that_signs_takes_no_require_signature() -> None:
    app, seen = _app(require=False)
    refused = CliRunner().invoke(app, ["C0", "--require-signature"])
    assert refused.exit_code == 2
    assert "No such option: --require-signature" in refused.output
    CliRunner().invoke(app, ["C0", "--gpg-keyring", "k"])
    assert seen == [("C0", SignatureFlags(gpg_keyring="k"), None)]
