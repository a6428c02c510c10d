"""What every command shares: the typer app, its global options, the output formats, options.

Exit codes are those of `catalogctl.errors` (the same for every verb); the error boundary
(`cli.boundary`) maps exceptions to them.
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, get_type_hints

import typer

from catalogctl.cli.boundary import TRACEBACK_ENV, show_tracebacks
from catalogctl.cli.examples import examples_of
from catalogctl.cli.helptext import CACHE, CATALOG, SIGNING, Group
from catalogctl.errors import EXIT_OK as EXIT_OK
from catalogctl.errors import EXIT_PROBLEMS as EXIT_PROBLEMS
from catalogctl.errors import EXIT_USAGE as EXIT_USAGE
from catalogctl.errors import UsageError
from catalogctl.version import __version__

app = typer.Typer(
    name="catalogctl",
    help="Validate, browse, diff and release a git-versioned benchmark catalog.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    cls=Group,
    epilog=examples_of(""),
)


class ReportFormat(StrEnum):
    """Output of a report."""

    text = "text"
    json = "json"
    github = "github"


class ListFormat(StrEnum):
    """Output of a listing."""

    text = "text"
    json = "json"


class DocFormat(StrEnum):
    """Output of a document."""

    yaml = "yaml"
    json = "json"


class EntityKind(StrEnum):
    """What `ls` lists."""

    benchmarks = "benchmarks"
    models = "models"
    datasets = "datasets"
    metrics = "metrics"


PathArg = Annotated[
    Path | None,
    typer.Argument(help="The catalog repository (default: found from the current folder).", show_default=False),
]
RefOpt = Annotated[
    str | None,
    typer.Option(
        "--ref",
        rich_help_panel=CATALOG,
        help="Read the catalog at this tag, branch, commit or cohort instead of the working tree.",
    ),
]
RepoOpt = Annotated[
    Path | None,
    typer.Option("--path", "-C", rich_help_panel=CATALOG, help="The catalog repository (default: current folder)."),
]
NoCacheOpt = Annotated[
    bool,
    typer.Option(
        "--no-cache",
        rich_help_panel=CACHE,
        help="Check every file from scratch; neither read nor write the document cache (also CATALOGCTL_NO_CACHE=1).",
    ),
]
_RequireSignatureOpt = Annotated[
    bool,
    typer.Option(
        "--require-signature",
        rich_help_panel=SIGNING,
        help="Require a good signature on the release tag: SSH, by a signer of the allowed-signers file; "
        "OpenPGP, by a key of the GPG keyring (the suite's policy may require it anyway).",
    ),
]
_AllowedSignersOpt = Annotated[
    str | None,
    typer.Option(
        "--allowed-signers",
        rich_help_panel=SIGNING,
        metavar="FILE",
        help="The allowed-signers file (ssh-keygen's format), outside the repository [default: "
        "$CATALOGCTL_ALLOWED_SIGNERS, else git config gpg.ssh.allowedSignersFile].",
        show_default=False,
    ),
]
_RevocationListOpt = Annotated[
    str | None,
    typer.Option(
        "--revocation-list",
        rich_help_panel=SIGNING,
        metavar="FILE",
        help="Revoked keys (a KRL or public keys), outside the repository [default: $CATALOGCTL_SSH_REVOKED, "
        "else git config gpg.ssh.revocationKeyring].",
        show_default=False,
    ),
]
_GpgKeyringOpt = Annotated[
    str | None,
    typer.Option(
        "--gpg-keyring",
        rich_help_panel=SIGNING,
        metavar="FILE",
        help="The public keys OpenPGP-signed tags are checked against (gpg --export), outside the repository "
        "[default: $CATALOGCTL_GPG_KEYRING].",
        show_default=False,
    ),
]


Command = Callable[..., None]


def signature_options(*, require: bool = True) -> Callable[[Command], Command]:
    """Give a command the signature options, declared here once, in place of its parameter
    `signature: SignatureFlags | None`: --allowed-signers, --revocation-list, --gpg-keyring, and
    with `require` --require-signature (freeze and tag sign; they never require). The command is
    called with the flags built from them (`SignatureFlags`, by keyword)."""
    options = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)
        for name, default, annotation in (
            ("require_signature", False, _RequireSignatureOpt),
            ("allowed_signers", None, _AllowedSignersOpt),
            ("revocation_list", None, _RevocationListOpt),
            ("gpg_keyring", None, _GpgKeyringOpt),
        )
        if require or name != "require_signature"
    ]

    def decorate(command: Command) -> Command:
        declared = list(inspect.signature(command, eval_str=False).parameters.values())
        at = [p.name for p in declared].index("signature")

        @functools.wraps(command, assigned=("__module__", "__name__", "__qualname__", "__doc__"))
        def with_flags(*args: Any, **kwargs: Any) -> None:
            from catalogctl.release.trust import SignatureFlags

            flags = SignatureFlags(
                require=kwargs.pop("require_signature", False),
                allowed_signers=kwargs.pop("allowed_signers"),
                revocation_list=kwargs.pop("revocation_list"),
                gpg_keyring=kwargs.pop("gpg_keyring"),
            )
            command(*args, signature=flags, **kwargs)

        # typer reads the parameters from the signature, their types from the annotations.
        hints = get_type_hints(command, include_extras=True, localns={"SignatureFlags": object})
        shown = [p.replace(annotation=hints[p.name], kind=inspect.Parameter.KEYWORD_ONLY) for p in declared]
        parameters = [*shown[:at], *options, *shown[at + 1 :]]
        with_flags.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
        with_flags.__annotations__ = {p.name: p.annotation for p in parameters}
        return with_flags

    return decorate


def _version(value: bool) -> None:
    if value:
        typer.echo(f"catalogctl {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", "-V", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
    traceback: Annotated[
        bool,
        typer.Option(
            "--traceback",
            envvar=TRACEBACK_ENV,
            help="On an internal error or Ctrl-C, also print the traceback (for a bug report).",
        ),
    ] = False,
) -> None:
    """Validate, browse, diff and release a git-versioned benchmark catalog."""
    show_tracebacks(traceback)


def one_repository(path: Path | None, repo: Path | None) -> Path | None:
    """The repository of a verb that takes it as PATH or as -C PATH: given once, or the same twice."""
    if path is not None and repo is not None and path != repo:
        raise UsageError(f"two repositories given: {path} and -C {repo}", "give the repository once: -C PATH")
    return path if path is not None else repo


def out(text: str) -> None:
    """Write a result to stdout."""
    sys.stdout.write(text)
    sys.stdout.flush()
