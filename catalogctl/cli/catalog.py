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
    out,
)


def validate(
    path: PathArg = None,
    ref: RefOpt = None,
    fmt: Annotated[
        ReportFormat, typer.Option("--format", "-f", help="text, json or github workflow commands.")
    ] = ReportFormat.text,
    no_cache: NoCacheOpt = False,
) -> None:
    """Check every catalog file: YAML, schema, references, stated figures; list pending values.

    Exit 0 when valid (warnings allowed), 1 when there are errors, 2 on a usage or environment error.
    """
    from catalogctl.api import load_catalog
    from catalogctl.model.validation import ValidationReport
    from catalogctl.render import validation as render

    result = load_catalog(path, ref, use_cache=not no_cache)
    report = ValidationReport.of(result.catalog.label, result.diagnostics)
    if fmt is ReportFormat.text and sys.stdout.isatty():
        render.print_validation_rich(report)
    else:
        out(render.REPORTERS[fmt](report))
    raise typer.Exit(EXIT_OK if result.ok else EXIT_PROBLEMS)


def list_entities(
    kind: Annotated[EntityKind, typer.Argument(help="What to list.")] = EntityKind.benchmarks,
    path: RepoOpt = None,
    ref: RefOpt = None,
    fmt: Annotated[ListFormat, typer.Option("--format", "-f", help="text or json.")] = ListFormat.text,
) -> None:
    """List benchmarks, models, datasets or metrics (entities that failed validation are left out)."""
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
    fmt: Annotated[DocFormat, typer.Option("--format", "-f", help="yaml or json.")] = DocFormat.yaml,
) -> None:
    """Show one entity as the catalog reads it, or a benchmark's fully resolved contract."""
    from catalogctl.api import load_catalog
    from catalogctl.authoring.listing import find
    from catalogctl.render.listing import SHOW_REPORTERS

    result = load_catalog(path, ref)
    found = find(result.catalog, ident, resolved=resolved)
    for note in found.notes:
        typer.echo(f"note: {note}", err=True)
    out(SHOW_REPORTERS[fmt](found))


def schema(
    output: Annotated[Path, typer.Option("--output", "-o", help="The folder to write into.")] = Path("schemas"),
) -> None:
    """Write a JSON Schema for every document kind (for editors: see the catalog files' first line)."""
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
    path: RepoOpt = None,
) -> None:
    """Write benchmark_suite/<kind>s/<ID>.yaml: valid, with `<TBD>` where a person must decide.

    Refuses an existing file or an invalid id (exit 2).
    """
    from catalogctl.authoring.scaffold import scaffold

    done = scaffold(path or Path.cwd(), kind.value, ident, from_)
    out(f"wrote {done.path}\n")
    for line in done.pending:
        typer.echo(f"  pending: {line}", err=True)
