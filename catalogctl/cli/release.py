"""Comparing, releasing and exporting cohorts: diff, freeze, cohorts, verify, export mlperf."""

from __future__ import annotations

import datetime as dt
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from catalogctl.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    ListFormat,
    RepoOpt,
    out,
    signature_options,
)
from catalogctl.cli.helptext import CATALOG, DATES, OUTPUT, SIGNING

if TYPE_CHECKING:
    from catalogctl.release.trust import SignatureFlags

export_app = typer.Typer(help="Write what other tools read, from a frozen cohort.", no_args_is_help=True)


class DiffFormat(StrEnum):
    """Output of a diff."""

    text = "text"
    markdown = "markdown"
    json = "json"
    github = "github"


class SigningFormatChoice(StrEnum):
    """How freeze --sign signs."""

    ssh = "ssh"
    openpgp = "openpgp"


SigningFormatOpt = Annotated[
    SigningFormatChoice | None,
    typer.Option(
        "--signing-format",
        rich_help_panel=SIGNING,
        help="ssh (ssh-keygen) or openpgp (gpg) [default: git config gpg.format, else ssh].",
        show_default=False,
    ),
]
SignOpt = Annotated[
    bool,
    typer.Option(
        "--sign",
        rich_help_panel=SIGNING,
        help="Sign the tag as git tag -s does: with an SSH key, or with gpg when gpg.format=openpgp.",
    ),
]
SigningKeyOpt = Annotated[
    str | None,
    typer.Option(
        "--signing-key",
        rich_help_panel=SIGNING,
        metavar="KEY",
        help="The key to sign with: for SSH a private key, a public key whose private key is in ssh-agent, "
        "or key::LITERAL; for OpenPGP a gpg key id; default: git config user.signingKey.",
    ),
]


class FailOn(StrEnum):
    """When a diff exits 1."""

    contract = "contract"
    any = "any"
    never = "never"


def diff(
    old: Annotated[str, typer.Argument(help="A cohort id, tag, branch or commit.")],
    new: Annotated[str | None, typer.Argument(help="The same kinds of ref; default: the working tree.")] = None,
    path: RepoOpt = None,
    fmt: Annotated[
        DiffFormat, typer.Option("--format", "-f", rich_help_panel=OUTPUT, help="text, markdown, json or github.")
    ] = DiffFormat.text,
    fail_on: Annotated[
        FailOn, typer.Option("--fail-on", help="Exit 1 on any contract change, on any change, or never.")
    ] = FailOn.never,
) -> None:
    """Show what really changed between two cohorts or refs.

    Each change is classified, located, and listed with its impact.
    A cohort id resolves to its release tag, or, in a clone without tags, to the commit that added
    its ruleset (the output says so). Exit 0, or 1 when --fail-on is met; 2 on a usage or ref error.
    """
    from catalogctl.api import diff_refs
    from catalogctl.render.diff import REPORTERS

    report = diff_refs(path, old, new)
    out(REPORTERS[fmt](report))
    failed = (fail_on is FailOn.contract and report.contracts_changed) or (fail_on is FailOn.any and report.semantic)
    raise typer.Exit(EXIT_PROBLEMS if failed else EXIT_OK)


@signature_options(require=False)
def freeze(
    cohort: Annotated[str, typer.Argument(help="The cohort to freeze, e.g. 2026-10-C0.")],
    path: RepoOpt = None,
    add: Annotated[list[str] | None, typer.Option("--add", metavar="ID", help="Add a benchmark (repeatable).")] = None,
    remove: Annotated[
        list[str] | None, typer.Option("--remove", metavar="ID", help="Remove a benchmark (repeatable).")
    ] = None,
    seeds: Annotated[
        Path | None,
        typer.Option(
            "--seeds",
            help="Import already-published seeds: a flat seed file, or endpoints_policies' seedset.yaml as "
            "published (its cohort-id must be this cohort).",
        ),
    ] = None,
    seed_set: Annotated[
        str | None,
        typer.Option("--seed-set", metavar="ID", help="The set of a seedset.yaml to import, when it has several."),
    ] = None,
    loadgen_seeds: Annotated[
        bool,
        typer.Option(
            "--loadgen-seeds",
            help="Adopt the seeds the installed LoadGen release ships (mlcommons-loadgen's mlperf.conf: its "
            "schedule, sample index and QSL seeds) for the new seed set; its model_seed is drawn.",
        ),
    ] = False,
    beacon_round: Annotated[
        Path | None,
        typer.Option(
            "--beacon-round",
            metavar="FILE",
            help="The beacon round the previous release named, as a relay serves it (JSON): the new seed set is "
            "derived from it.",
        ),
    ] = None,
    fetch_beacon: Annotated[
        str | None,
        typer.Option("--fetch-beacon", metavar="URL", help="Fetch that round from this beacon relay instead."),
    ] = None,
    name_round: Annotated[
        int | None,
        typer.Option(
            "--name-round",
            metavar="ROUND",
            min=1,
            help="The beacon round this release names for the next seed set (default: the first due lead_hours "
            "after the freeze).",
        ),
    ] = None,
    skip_cohorts: Annotated[
        int,
        typer.Option("--skip-cohorts", metavar="N", min=0, help="Skip exactly N cohorts after the last frozen one."),
    ] = 0,
    message: Annotated[str | None, typer.Option("--message", "-m", metavar="TEXT", help="The tag's message.")] = None,
    no_tag: Annotated[
        bool,
        typer.Option(
            "--no-tag", help="Commit, but create no tag (a release branch: `catalogctl tag` after the merge)."
        ),
    ] = False,
    push: Annotated[str | None, typer.Option("--push", metavar="REMOTE", help="Push the branch, then the tag.")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the ruleset and changelog; write nothing.")] = False,
    sign: SignOpt = False,
    signing_key: SigningKeyOpt = None,
    signing_format: SigningFormatOpt = None,
    signature: SignatureFlags | None = None,
    today: Annotated[
        str | None,
        typer.Option(
            "--today",
            rich_help_panel=DATES,
            metavar="YYYY-MM-DD",
            help="Warn of passed or skipped cohorts as of this date.",
        ),
    ] = None,
) -> None:
    """Publish a cohort: its ruleset, changelog, commit and tag.

    The ruleset with its seed sets, a changelog section, one commit, an annotated tag.
    The benchmarks of the previous cohort carry over unless added or removed. A rerun finishes
    an interrupted freeze; after success it is a no-op. Exit 0; 1 when the catalog refuses (invalid,
    pending values) or the remote does; 2 on a usage or environment error (dirty tree, lock file);
    6 when the remote gives no complete answer within CATALOGCTL_TIMEOUT seconds (60).
    A submission date that has passed, or cohorts skipped, are warnings (stderr), --dry-run too.
    """
    from catalogctl.errors import UsageError
    from catalogctl.release.beacon_plan import BeaconRequest
    from catalogctl.release.freeze import FreezeRequest
    from catalogctl.release.freeze import freeze as run_freeze
    from catalogctl.render import release as render_release

    request = FreezeRequest(
        cohort=cohort,
        add=add or [],
        remove=remove or [],
        dry_run=dry_run,
        tag=not no_tag,
        push=push,
        message=message,
        seeds_file=seeds,
        seed_set=seed_set,
        skip_cohorts=skip_cohorts,
        sign=sign or signing_key is not None,
        signing_key=signing_key,
        signing_format=signing_format.value if signing_format else None,
        signature=signature,
        beacon=BeaconRequest(round_file=beacon_round, relay=fetch_beacon, name_round=name_round),
        loadgen_seeds=loadgen_seeds,
    )
    if beacon_round is not None and fetch_beacon is not None:
        raise UsageError("--beacon-round and --fetch-beacon both supply the round", "pass one of them")
    try:
        request.today = dt.date.fromisoformat(today) if today else None
    except ValueError:
        raise UsageError(f"--today {today!r} is not a date: write YYYY-MM-DD") from None
    result = run_freeze(path or Path.cwd(), request)
    sys.stderr.write(render_release.freeze_warnings_text(result))
    out(render_release.freeze_text(result))


@signature_options(require=False)
def tag(
    cohort: Annotated[str, typer.Argument(help="The cohort whose merged ruleset to tag, e.g. 2026-10-C0.")],
    push: Annotated[
        str | None,
        typer.Option(
            "--push",
            metavar="REMOTE",
            help="Push the tag, never a branch: the remote's default branch must have the commit.",
        ),
    ] = None,
    message: Annotated[str | None, typer.Option("--message", "-m", help="The tag's message.")] = None,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run",
            help="Say which commit it would tag (and, with --push, the refspecs it would push); write nothing.",
        ),
    ] = False,
    sign: SignOpt = False,
    signing_key: SigningKeyOpt = None,
    signing_format: SigningFormatOpt = None,
    signature: SignatureFlags | None = None,
    path: RepoOpt = None,
) -> None:
    """Tag a release merged by a pull request (freeze --no-tag).

    Finds the commit of HEAD's history that added rulesets/COHORT.yaml (a merge brings in the
    freeze commit itself; a squash is a new commit), checks it is on the default branch, holds the
    ruleset unchanged and the contracts it froze, and makes the annotated release tag there.
    Exit 0; 1 when the release refuses (contracts or ruleset changed) or the remote does; 2 on a
    usage or environment error (nothing to tag, not on the default branch, lock file); 6 when the
    remote gives no complete answer within CATALOGCTL_TIMEOUT seconds (60).
    """
    from catalogctl import api
    from catalogctl.render import release as render_release

    result = api.tag(
        path,
        cohort,
        push=push,
        message=message,
        dry_run=dry_run,
        sign=sign,
        signing_key=signing_key,
        signing_format=signing_format.value if signing_format else None,
        signature=signature,
    )
    out(render_release.freeze_text(result))


@signature_options()
def cohorts(
    path: RepoOpt = None,
    fmt: Annotated[
        ListFormat, typer.Option("--format", "-f", rich_help_panel=OUTPUT, help="text or json.")
    ] = ListFormat.text,
    signature: SignatureFlags | None = None,
) -> None:
    """List the frozen cohorts and the next one.

    Each with its date, benchmarks, valid seed sets, tag state and signer.
    Exit 1 when a tag has moved or is missing, or a signature required is not good.
    """
    from catalogctl.api import list_releases
    from catalogctl.render.release import COHORTS_REPORTERS, cohorts_problems_text

    releases = list_releases(path, signature)
    out(COHORTS_REPORTERS[fmt](releases))
    sys.stderr.write(
        cohorts_problems_text(releases, bool(signature and signature.require))
    )  # the table says what, this why and how
    raise typer.Exit(EXIT_OK if releases.ok else EXIT_PROBLEMS)


@signature_options()
def verify(
    cohort: Annotated[str, typer.Argument(help="The cohort whose release to check.")],
    path: RepoOpt = None,
    ref: Annotated[
        str | None,
        typer.Option("--ref", rich_help_panel=CATALOG, help="Check the digests against the contracts at this ref."),
    ] = None,
    fmt: Annotated[
        ListFormat, typer.Option("--format", "-f", rich_help_panel=OUTPUT, help="text or json.")
    ] = ListFormat.text,
    signature: SignatureFlags | None = None,
) -> None:
    """Check a cohort's release: its tag, digests and signature.

    The tag exists, is annotated, points at the commit that added the ruleset, carries its digest,
    every contract digest matches, every seed set derived from a beacon round follows from it, every
    set imported from a LoadGen release holds what its mlperf.conf sets (where that release is
    installed; a note says so where it is not), and (when required) a trusted signer signed it.
    Exit 1 with the differences; 11 when a derived seed set does not follow from its recorded round
    (seeds-underived); 12 when a set imported from LoadGen does not hold its seeds (seeds-not-shipped).
    """
    from catalogctl.api import verify_release
    from catalogctl.errors import CHECK_EXIT_CODES
    from catalogctl.render.release import VERIFY_REPORTERS

    result = verify_release(path, cohort, ref, signature)
    out(VERIFY_REPORTERS[fmt](result))
    if result.failed_check:  # a check with its own code: a derived seed set that does not follow
        raise typer.Exit(CHECK_EXIT_CODES[result.failed_check])
    raise typer.Exit(EXIT_OK if result.ok else EXIT_PROBLEMS)


@signature_options()
def export_mlperf(
    cohort: Annotated[str, typer.Argument(help="The frozen cohort to export, e.g. 2026-10-C1.")],
    output: Annotated[
        Path, typer.Option("--output", "-o", rich_help_panel=OUTPUT, help="The folder to write the files into.")
    ],
    ref: Annotated[
        str | None,
        typer.Option(
            "--ref", rich_help_panel=CATALOG, help="Export the catalog at this ref instead of the release commit."
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", rich_help_panel=OUTPUT, help="Replace files that hold other content.")
    ] = False,
    path: RepoOpt = None,
    fmt: Annotated[
        ListFormat, typer.Option("--format", "-f", rich_help_panel=OUTPUT, help="text or json.")
    ] = ListFormat.text,
    signature: SignatureFlags | None = None,
) -> None:
    """Write the official MLCommons checker's files for a cohort.

    They are seed_sets.yaml, approved_drafters.yaml and models.yaml, in the checker's own formats.

    The cohort must be a release (as `resolve` checks it); the files are written atomically, and
    one that holds other content is replaced only with --force. Exit 0; 1 when the catalog refuses;
    2 on a usage error (an existing different file, no such cohort); a failed release check exits
    with its code, as in `resolve` (5 tag-invalid, 8 contract-mismatch, 9 release-unreachable,
    10 signature-invalid).
    """
    from catalogctl.authoring.mlperf import export_mlperf as run_export
    from catalogctl.render.release import EXPORT_REPORTERS

    result = run_export(path or Path.cwd(), cohort, output, ref=ref, force=force, signature=signature)
    out(EXPORT_REPORTERS[fmt](result))
