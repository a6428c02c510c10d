"""The catalog's own commands: validate, ls, show, schema, new."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from catalogctl.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    DocFormat,
    EntityKind,
    ListFormat,
    NoCacheOpt,
    PathArg,
    RefOpt,
    RepoOpt,
    ReportFormat,
    one_repository,
    out,
)
from catalogctl.cli.helptext import OUTPUT

CodesOpt = list[str] | None


def validate(
    path: PathArg = None,
    repo: RepoOpt = None,
    ref: RefOpt = None,
    fmt: Annotated[
        ReportFormat,
        typer.Option("--format", "-f", rich_help_panel=OUTPUT, help="text, json or github workflow commands."),
    ] = ReportFormat.text,
    errors_only: Annotated[
        bool,
        typer.Option(
            "--errors-only",
            "--quiet",
            "-q",
            rich_help_panel=OUTPUT,
            help="Print the errors only (and the summary line).",
        ),
    ] = False,
    select: Annotated[
        CodesOpt, typer.Option("--select", metavar="CODE,...", help="Report only these codes (repeatable).")
    ] = None,
    ignore: Annotated[
        CodesOpt, typer.Option("--ignore", metavar="CODE,...", help="Leave these codes out (repeatable).")
    ] = None,
    no_cache: NoCacheOpt = False,
) -> None:
    """Check every catalog file and list the values still pending.

    YAML, schema, references and stated figures are checked.
    Exit 0 when valid (warnings allowed), 1 when there are errors among the codes selected, 2 on
    a usage or environment error (an unknown code included).
    """
    from catalogctl.api import validate_catalog
    from catalogctl.catalog.config import config_for
    from catalogctl.catalog.diagnostics import parse_codes, select_codes
    from catalogctl.model.reports.validation import ValidationReport
    from catalogctl.render import validation as render

    chosen, dropped = parse_codes("--select", select or []), parse_codes("--ignore", ignore or [])
    where = one_repository(path, repo)
    config_for(where)  # a configuration every other verb would refuse fails here, in the hook, first
    verdict = validate_catalog(where, ref, use_cache=not no_cache)
    kept, left_out = select_codes(verdict.diagnostics, chosen, dropped)
    report = ValidationReport.of(verdict.label, kept, left_out)
    if fmt is ReportFormat.text and sys.stdout.isatty():
        render.print_validation_rich(report, errors_only=errors_only)
    else:
        out(render.REPORTERS[fmt](report, errors_only=errors_only))
    raise typer.Exit(EXIT_OK if report.valid else EXIT_PROBLEMS)


def list_entities(
    kind: Annotated[EntityKind, typer.Argument(help="What to list.")] = EntityKind.benchmarks,
    path: RepoOpt = None,
    ref: RefOpt = None,
    fmt: Annotated[
        ListFormat, typer.Option("--format", "-f", rich_help_panel=OUTPUT, help="text or json.")
    ] = ListFormat.text,
) -> None:
    """List benchmarks, models, datasets or metrics.

    Entities that failed validation are left out.
    """
    from catalogctl.api import load_catalog
    from catalogctl.authoring.listing import listing
    from catalogctl.render.listing import LIST_REPORTERS

    result = load_catalog(path, ref)
    out(LIST_REPORTERS[fmt](listing(result.catalog, kind.value)))
    if not result.ok:
        typer.echo("note: the catalog has errors; run `catalogctl validate`", err=True)


def show(
    ident: Annotated[
        str, typer.Argument(metavar="ID", help="An id, or KIND/ID (benchmark/, model/, dataset/, metric/).")
    ],
    path: RepoOpt = None,
    ref: RefOpt = None,
    resolved: Annotated[
        bool, typer.Option("--resolved", help="Inline model, datasets and recipes, merge overrides, add the digest.")
    ] = False,
    fmt: Annotated[
        DocFormat, typer.Option("--format", "-f", rich_help_panel=OUTPUT, help="yaml or json.")
    ] = DocFormat.yaml,
) -> None:
    """Show one entity, or a benchmark's resolved contract.

    An entity as the catalog reads it; with --resolved, a benchmark's full contract and its digest.
    """
    from catalogctl.api import load_catalog
    from catalogctl.authoring.listing import find
    from catalogctl.render.listing import SHOW_REPORTERS

    result = load_catalog(path, ref)
    found = find(result.catalog, ident, resolved=resolved)
    for note in found.notes:
        typer.echo(f"note: {note}", err=True)
    out(SHOW_REPORTERS[fmt](found))


def schema(
    output: Annotated[
        Path, typer.Option("--output", "-o", rich_help_panel=OUTPUT, help="The folder to write into.")
    ] = Path("schemas"),
) -> None:
    """Write a JSON Schema for every document kind.

    For editors: see the catalog files' first line.
    """
    from catalogctl.authoring.schemas import write_schemas

    for written in write_schemas(output):
        typer.echo(f"wrote {written}", err=True)


class NewKind(StrEnum):
    """What `new` scaffolds."""

    model = "model"
    dataset = "dataset"
    benchmark = "benchmark"


def new(
    kind: Annotated[NewKind, typer.Argument(help="model, dataset or benchmark.")],
    ident: Annotated[str, typer.Argument(metavar="ID", help="The new entity's id.")],
    from_: Annotated[
        str | None, typer.Option("--from", metavar="EXISTING", help="Copy this entity of the same kind.")
    ] = None,
    model: Annotated[
        str | None, typer.Option("--model", metavar="ID", help="A new benchmark's model (default: the first).")
    ] = None,
    dataset: Annotated[
        list[str] | None,
        typer.Option(
            "--dataset", metavar="ID", help="A new benchmark's scored dataset (repeatable; default: the first)."
        ),
    ] = None,
    path: RepoOpt = None,
) -> None:
    """Write a new model, dataset or benchmark file.

    The file is benchmark_suite/<kind>s/<ID>.yaml: valid, with `<TBD>` where a person must decide.
    Refuses an existing file or an invalid id (exit 2).
    """
    from catalogctl.authoring.scaffold import References, scaffold

    refs = References(model, tuple(dataset or ()))
    done = scaffold(path or Path.cwd(), kind.value, ident, from_, refs)
    out(f"wrote {done.path}\n")
    for line in done.pending:
        typer.echo(f"  pending: {line}", err=True)
