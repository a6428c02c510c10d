"""Publishing the catalog for submitters: site."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from catalogctl.cli.common import RefOpt, RepoOpt, out


def site(
    output: Annotated[
        Path, typer.Option("--output", "-o", metavar="DIR", help="The folder to build the site in (replaced whole).")
    ],
    ref: RefOpt = None,
    path: RepoOpt = None,
) -> None:
    """Build the static site for submitters.

    Self-contained HTML (no server, no external resources; works from file:// and GitHub Pages),
    built beside DIR and then put in its place: a failed build leaves DIR as it was. Exit 0; 1 when
    the catalog is invalid; 2 on a usage or environment error.
    """
    from catalogctl.authoring.site import gather_site
    from catalogctl.render.site import write_site

    data = gather_site(path, ref)
    count = write_site(data, output)
    cohorts = f"{len(data.cohorts)} cohort{'' if len(data.cohorts) == 1 else 's'}"
    out(f"wrote {count} pages ({cohorts}, {len(data.benchmarks)} benchmarks) to {output}\n")
