"""Publishing the catalog for submitters: site."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from catalogctl.cli.common import RefOpt, RepoOpt, out
from catalogctl.cli.helptext import OUTPUT


def site(
    output: Annotated[
        Path,
        typer.Option(
            "--output",
            "-o",
            rich_help_panel=OUTPUT,
            metavar="DIR",
            help="The folder to build the site in: created when missing, or empty, or one a previous build "
            "wrote (its .catalogctl-site.json); a rebuild replaces only the files of that build.",
        ),
    ],
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            rich_help_panel=OUTPUT,
            help="Also write into a folder that is not empty and holds no build of the site, overwriting the "
            "files at the paths the site writes (and those the last build did not write); it deletes nothing.",
        ),
    ] = False,
    ref: RefOpt = None,
    path: RepoOpt = None,
) -> None:
    """Build the static site for submitters.

    Self-contained HTML (no server, no external resources; works from file:// and GitHub Pages).
    DIR is created when missing; a folder that is not empty is written into only when a previous
    build wrote it (DIR/.catalogctl-site.json lists its files) or with --force. No build deletes
    a file it did not write: a rebuild removes only the stale files of the last build, and only
    while unchanged. Refused even with --force: the root, home, current or catalog folder or a
    parent of one, and a folder that is or holds a git repository. A failed build leaves DIR as
    it was. Exit 0; 1 when the catalog is invalid; 2 on a usage or environment error (a refused
    folder included).
    """
    from catalogctl.authoring.site import site_source
    from catalogctl.render.site import write_into
    from catalogctl.render.site.output import LISTED, open_destination

    destination = open_destination(output, force=force, catalog=path)  # refused before the catalog is read
    with site_source(path, ref) as source:  # the pages are built one at a time, those whose inputs changed
        written = write_into(source, destination)
    cohorts = f"{len(source.cohorts)} cohort{'' if len(source.cohorts) == 1 else 's'}"
    removed = f"; removed {len(written.removed)} stale file{'' if len(written.removed) == 1 else 's'}"
    out(f"wrote {written.pages} pages ({cohorts}, {len(source.benchmarks)} benchmarks) to {output}")
    out(f"{removed if written.removed else ''}\n")
    for rel in written.kept[:LISTED]:
        typer.echo(f"note: kept {rel}: the last build wrote it, and it has changed since", err=True)
    if len(written.kept) > LISTED:
        typer.echo(f"note: kept {len(written.kept) - LISTED} more such files", err=True)
