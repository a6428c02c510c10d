"""Dataset integrity at the source: datasets verify and datasets pin (registered, inside the error
boundary, by `cli/__init__.py`)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from catalogctl.cli.common import EXIT_OK, EXIT_PROBLEMS, ListFormat, RefOpt, RepoOpt, out
from catalogctl.cli.helptext import OUTPUT
from catalogctl.errors import UsageError
from catalogctl.io.transport import DOWNLOAD_DEADLINE_S

if TYPE_CHECKING:  # the download module (and what it imports) is loaded only by the commands
    from catalogctl.io.download import Limits

TimeoutOpt = Annotated[
    float,
    typer.Option(
        "--timeout",
        metavar="SECONDS",
        envvar="CATALOGCTL_TIMEOUT",
        help="Seconds one download may take in all, retries included (env CATALOGCTL_TIMEOUT).",
    ),
]
MaxBytesOpt = Annotated[
    str, typer.Option("--max-bytes", metavar="SIZE", help="Largest file downloaded: bytes, or with K, M or G (1024s).")
]
_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}


def _limits(timeout: float, max_bytes: str) -> Limits:
    """The download limits of the flags; a value that is no size or no positive time is a usage error."""
    from catalogctl.io.download import Limits

    text = max_bytes.strip().upper().removesuffix("B").removesuffix("I")
    unit = text[-1:] if text[-1:] in _UNITS else ""
    number = text[: len(text) - len(unit)]
    if not number.isdigit() or int(number) == 0:
        raise UsageError(f"--max-bytes {max_bytes}: not a size", "a number of bytes, or one with K, M or G: 500M")
    if not 0 < timeout < float("inf"):
        raise UsageError(f"--timeout {timeout:g}: not a number of seconds above 0")
    return Limits(timeout, int(number) * _UNITS[unit])


datasets_app = typer.Typer(help="Dataset integrity at the source: verify and pin sha256.", no_args_is_help=True)


@contextlib.contextmanager
def _progress() -> Iterator[Callable[[str, int, int | None], None] | None]:
    """A rich progress bar on a terminal (a callback for the library), nothing otherwise."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TaskID, TransferSpeedColumn

    # On stderr, where the isatty above looked: stdout carries the report (JSON, say).
    console = Console(file=sys.stderr)
    with Progress(BarColumn(), DownloadColumn(), TransferSpeedColumn(), transient=True, console=console) as bar:
        tasks: dict[str, TaskID] = {}

        def update(name: str, done: int, total: int | None) -> None:
            if name not in tasks:
                tasks[name] = bar.add_task(name.rsplit("/", 1)[-1], total=total)
            bar.update(tasks[name], completed=done, total=total)

        yield update


def datasets_verify(
    ids: Annotated[list[str] | None, typer.Argument(metavar="ID", help="Datasets to verify (default: all).")] = None,
    path: RepoOpt = None,
    ref: RefOpt = None,
    local: Annotated[
        Path | None, typer.Option("--local", help="Read files from this folder (by the URL's file name, or the id).")
    ] = None,
    fmt: Annotated[
        ListFormat, typer.Option("--format", "-f", rich_help_panel=OUTPUT, help="text or json.")
    ] = ListFormat.text,
    timeout: TimeoutOpt = DOWNLOAD_DEADLINE_S,
    max_bytes: MaxBytesOpt = "8G",
) -> None:
    """Compare each dataset's source with its pinned sha256.

    Each source is downloaded (or read from --local).
    Exit 1 when one differs or cannot be fetched (over --timeout or --max-bytes included);
    pending sha256 values are listed, not failed.
    """
    from catalogctl.authoring.datasets import verify_datasets
    from catalogctl.catalog.source import open_tree
    from catalogctl.render.datasets import REPORTERS

    with _progress() as update:
        report = verify_datasets(open_tree(path, ref), ids or [], local, update, _limits(timeout, max_bytes))
    out(REPORTERS[fmt](report))
    raise typer.Exit(EXIT_PROBLEMS if report.failed else EXIT_OK)


def datasets_pin(
    ident: Annotated[str, typer.Argument(metavar="ID", help="The dataset to pin.")],
    source: Annotated[str, typer.Argument(metavar="FILE|URL", help="A local file, or an http(s) URL to download.")],
    path: RepoOpt = None,
    update_samples: Annotated[
        bool, typer.Option("--update-samples", help="Write the counted sample count when it differs from `samples`.")
    ] = False,
    update_format: Annotated[
        bool, typer.Option("--update-format", help="Write the file name's format when it differs from `source.format`.")
    ] = False,
    timeout: TimeoutOpt = DOWNLOAD_DEADLINE_S,
    max_bytes: MaxBytesOpt = "8G",
) -> None:
    """Pin a dataset's source: write its sha256 and sample count.

    The sha256 (and the sample count, for jsonl, json and csv) go into the dataset's YAML, keeping
    its comments, layout, line ends and BOM.

    A sample count or format other than the file states is refused (exit 1, nothing written)
    unless --update-samples or --update-format allows it; so is a pin the catalog would refuse.
    """
    from catalogctl.authoring.datasets import pin_dataset

    with _progress() as update:
        pinned = pin_dataset(
            path or Path.cwd(),
            ident,
            source,
            update,
            _limits(timeout, max_bytes),
            update_samples=update_samples,
            update_format=update_format,
        )
    out("".join(f"{pinned.path}: {change}\n" for change in pinned.changes))
