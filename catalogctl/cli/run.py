"""A run's commands: resolve and preflight before it, check, gates and metrics after it."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from catalogctl.cli.catalog import list_entities
from catalogctl.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    DocFormat,
    EntityKind,
    ListFormat,
    RefOpt,
    RepoOpt,
    out,
    signature_options,
)
from catalogctl.cli.helptext import CATALOG, OUTPUT

if TYPE_CHECKING:
    from catalogctl.release.trust import SignatureFlags

SubmissionArg = Annotated[Path, typer.Argument(help="The submission file (YAML).", show_default=False)]
OutputOpt = Annotated[
    Path | None,
    typer.Option(
        "--output", "-o", rich_help_panel=OUTPUT, help="Write the resolved config here (.yaml or .json), atomically."
    ),
]
ConfigFormatOpt = Annotated[
    DocFormat, typer.Option("--format", "-f", rich_help_panel=OUTPUT, help="yaml or json, when printed.")
]


def _emit_resolved(config: object, output: Path | None, fmt: DocFormat) -> None:
    from catalogctl.model.documents.resolved import ResolvedConfig
    from catalogctl.run.resolve import render_resolved, write_resolved

    assert isinstance(config, ResolvedConfig)
    if output is None:
        out(render_resolved(config, "json" if fmt is DocFormat.json else "yaml"))
    else:
        write_resolved(config, output)
        typer.echo(f"wrote {output}", err=True)


@signature_options()
def resolve(
    submission: SubmissionArg,
    output: OutputOpt = None,
    ref: Annotated[
        str | None,
        typer.Option("--ref", rich_help_panel=CATALOG, help="Resolve against this ref instead of the cohort's tag."),
    ] = None,
    path: RepoOpt = None,
    fmt: ConfigFormatOpt = DocFormat.yaml,
    signature: SignatureFlags | None = None,
) -> None:
    """Turn a submission into its cohort's resolved config.

    The resolved config of the cohort's frozen contract.
    The contract comes from the cohort's release tag (never the working tree), whose signature is
    checked as preflight checks it. Exit codes: see `preflight`.
    """
    from catalogctl.run.resolve import output_format
    from catalogctl.run.resolve import resolve as run_resolve

    if output is not None:
        output_format(output)
    config = run_resolve(path or Path.cwd(), submission, ref, signature)
    _emit_resolved(config, output, fmt)


@signature_options()
def preflight(
    submission: SubmissionArg,
    remote: Annotated[
        str | None,
        typer.Option(
            "--remote",
            metavar="NAME|URL",
            help="The remote whose tag must agree [default: the current branch's upstream remote, else the only "
            "remote, else origin].",
            show_default=False,
        ),
    ] = None,
    offline: Annotated[bool, typer.Option("--offline", help="Do not contact the remote; record that.")] = False,
    github: Annotated[
        str | None, typer.Option("--github", metavar="OWNER/REPO", help="Also confirm the tag through GitHub's API.")
    ] = None,
    output: OutputOpt = None,
    path: RepoOpt = None,
    fmt: ConfigFormatOpt = DocFormat.yaml,
    signature: SignatureFlags | None = None,
) -> None:
    """Check the checkout is the cohort's release, then resolve.

    The checkout must be exactly the release, locally and on the remote.
    Fails closed. Exit codes: 3 HEAD is not the release commit; 4 uncommitted changes in the
    catalog; 5 the release tag is missing, lightweight or wrong; 6 the remote disagrees, is
    unreachable or gives no complete answer within CATALOGCTL_TIMEOUT seconds (60); 7 the
    submission does not fit the cohort; 8 the contract changed since the freeze; 10 the tag's
    signature is missing, bad, unknown, revoked or expired (when the suite's policy or
    --require-signature asks); 1 an invalid submission or catalog; 2 a usage or environment error.
    """
    from catalogctl.run.preflight import preflight as run_preflight
    from catalogctl.run.resolve import output_format

    if output is not None:
        output_format(output)
    config = run_preflight(
        path or Path.cwd(), submission, remote=remote, offline=offline, github=github, signature=signature
    )
    _emit_resolved(config, output, fmt)


class CheckFormat(StrEnum):
    """Output of a check."""

    text = "text"
    json = "json"
    markdown = "markdown"


@signature_options()
def check(
    resolved: Annotated[Path, typer.Argument(help="The resolved config of the run (from resolve or preflight).")],
    results: Annotated[
        Path,
        typer.Argument(
            help="The run's results: a catalogctl/results/v1 JSON file, an endpoints run folder, a submission "
            "point folder r<N>/ (point.yaml, config.yaml, result_summary.json, ...), or a submission tree "
            "(<org>/, <submission_id>/, results/, or a results/<system>/<model>/ folder)."
            " Or a harness's own output: an evalscope output folder or report JSON, an inspect_ai JSON log."
        ),
    ],
    fmt: Annotated[
        CheckFormat, typer.Option("--format", "-f", rich_help_panel=OUTPUT, help="text, json or markdown.")
    ] = CheckFormat.text,
    catalog: Annotated[
        Path | None,
        typer.Option(
            "--catalog",
            rich_help_panel=CATALOG,
            help="A clone of the catalog: re-resolve the contract at the cohort's tag and require it.",
        ),
    ] = None,
    signature: SignatureFlags | None = None,
) -> None:
    """Apply the contract's gates to what a run reported.

    The inputs are proven first, then every gate the contract names is applied.
    The resolved config must be as resolve wrote it (its contract's digest and its seal) and, with
    --catalog, the release's (its tag's signature checked as preflight checks it, and the signer the
    config records the tag's); the run must be a run of its contract. A gate whose facts the run
    did not report is "not evaluable" and does not pass. A point folder also checks what its
    point.yaml declares (seeds, seed set, cohort) against what ran; a submission tree gets a verdict
    per point and one for the submission (valid when every point is). Exit 0 when every hard gate passes, 1
    when one fails or cannot be evaluated, 2 when the inputs are not usable (unreadable, invalid,
    edited, or of another run) or on a usage error.
    """
    from catalogctl.render.check import REPORTERS
    from catalogctl.run.check import check_files

    report = check_files(resolved, results, catalog, signature)
    out(REPORTERS[fmt](report))
    raise typer.Exit(EXIT_OK if report.passed else EXIT_PROBLEMS)


def runner_config(
    resolved: Annotated[Path, typer.Argument(help="The resolved config of the run (from resolve or preflight).")],
    output: Annotated[
        Path,
        typer.Option("--output", "-o", rich_help_panel=OUTPUT, help="The folder to write the runner's files into."),
    ],
    force: Annotated[
        bool, typer.Option("--force", rich_help_panel=OUTPUT, help="Replace existing files of other content.")
    ] = False,
    fmt: Annotated[
        ListFormat, typer.Option("--format", "-f", rich_help_panel=OUTPUT, help="text or json.")
    ] = ListFormat.text,
) -> None:
    """Write what runs the contract, for the harness it names.

    The files of the contract's runner, from a resolved config.
    The resolved config is read and proven as check reads it. The endpoints client (a contract
    without runner) gets its config.yaml and a point.yaml skeleton: model, datasets, generation,
    streaming, seeds, minimum duration and sample count from the contract, endpoints and load from
    the submission, and what only the submitter knows left as a placeholder (<TBD: ...> in
    config.yaml, null with a <TBD: ...> comment in point.yaml) that the client, the official
    checker and check refuse. lm-eval, evalscope and inspect get run-<runner>.sh, the harness's
    command line (printed too) with the tasks, few-shot count, generation, seed, concurrency and an
    output folder for check. Exit 0 when written; 2 when the resolved config is not usable, its
    runner is external (nothing to configure) or cannot take a setting the contract fixes, or a
    file of other content is in the way (without --force).
    """
    from catalogctl.render.runner import REPORTERS, runner_notes
    from catalogctl.run.runner_config import write_runner_config

    report = write_runner_config(resolved, output, force=force)
    if fmt is ListFormat.text:
        for note in runner_notes(report):
            typer.echo(note, err=True)
    out(REPORTERS[fmt](report))


def list_gates(
    fmt: Annotated[
        ListFormat, typer.Option("--format", "-f", rich_help_panel=OUTPUT, help="text or json.")
    ] = ListFormat.text,
) -> None:
    """List the gate registry: the gates a contract may name."""
    from catalogctl.render.gates import REPORTERS
    from catalogctl.run.gates import listing

    out(REPORTERS[fmt](listing()))


def list_metrics(
    path: RepoOpt = None,
    ref: RefOpt = None,
    fmt: Annotated[
        ListFormat, typer.Option("--format", "-f", rich_help_panel=OUTPUT, help="text or json.")
    ] = ListFormat.text,
) -> None:
    """List the metric registry: key, label, unit, direction.

    The registry is benchmark_suite/metrics.yaml.
    """
    list_entities(EntityKind.metrics, path, ref, fmt)
