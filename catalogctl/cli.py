"""The command line: parse arguments, call the library, render. No logic lives here.

Exit codes (the same for every verb): 0 success; 1 the verb ran and found problems; 2 usage or
environment error (no repository, unknown ref, unknown id).
"""

from __future__ import annotations

import contextlib
import functools
import json
import sys
from collections.abc import Callable, Iterator
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from . import __version__

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2

app = typer.Typer(
    name="catalogctl",
    help="Validate, browse, diff and release a git-versioned benchmark catalog.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

F = TypeVar("F", bound=Callable[..., Any])


def handle_errors(func: F) -> F:
    """Map the library's exceptions to a message on stderr and the documented exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from .errors import CatalogError, CatalogInvalid, CheckFailed, EnvironmentProblem, UsageError

        try:
            return func(*args, **kwargs)
        except CheckFailed as exc:
            typer.echo(f"error [{exc.code}]: {exc}", err=True)
            if exc.hint:
                typer.echo(f"hint: {exc.hint}", err=True)
            raise typer.Exit(exc.exit_code) from None
        except CatalogError as exc:
            typer.echo(f"error: {exc}", err=True)
            if isinstance(exc, CatalogInvalid):
                from .render import diagnostic_line

                for diagnostic in exc.diagnostics:
                    typer.echo(f"  {diagnostic_line(diagnostic)}", err=True)
            if exc.hint:
                typer.echo(f"hint: {exc.hint}", err=True)
            code = EXIT_USAGE if isinstance(exc, (EnvironmentProblem, UsageError)) else EXIT_PROBLEMS
            raise typer.Exit(code) from None

    return wrapper  # type: ignore[return-value]


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
    typer.Option("--ref", help="Read the catalog at this tag, branch, commit or cohort instead of the working tree."),
]
RepoOpt = Annotated[Path | None, typer.Option("--path", "-C", help="The catalog repository (default: current folder).")]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"catalogctl {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
) -> None:
    """Validate, browse, diff and release a git-versioned benchmark catalog."""


def _out(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


@app.command()
@handle_errors
def validate(
    path: PathArg = None,
    ref: RefOpt = None,
    fmt: Annotated[
        ReportFormat, typer.Option("--format", "-f", help="text, json or github workflow commands.")
    ] = ReportFormat.text,
) -> None:
    """Check every catalog file: YAML, schema, references, stated figures; list pending values.

    Exit 0 when valid (warnings allowed), 1 when there are errors, 2 on a usage or environment error.
    """
    from . import render
    from .api import load_catalog

    result = load_catalog(path, ref)
    label = result.catalog.label
    if fmt is ReportFormat.json:
        _out(render.diagnostics_json(result.diagnostics, label))
    elif fmt is ReportFormat.github:
        _out(render.diagnostics_github(result.diagnostics, label))
    elif sys.stdout.isatty():
        render.print_diagnostics_rich(result.diagnostics, label)
    else:
        _out(render.diagnostics_text(result.diagnostics, label))
    raise typer.Exit(EXIT_OK if result.ok else EXIT_PROBLEMS)


@app.command("ls")
@handle_errors
def list_entities(
    kind: Annotated[EntityKind, typer.Argument(help="What to list.")] = EntityKind.benchmarks,
    path: RepoOpt = None,
    ref: RefOpt = None,
    fmt: Annotated[ListFormat, typer.Option("--format", "-f", help="text or json.")] = ListFormat.text,
) -> None:
    """List benchmarks, models, datasets or metrics (entities that failed validation are left out)."""
    from . import listing, render
    from .api import load_catalog

    result = load_catalog(path, ref)
    rows = listing.rows(result.catalog, kind.value)
    if fmt is ListFormat.json:
        _out(
            json.dumps(
                {"schema": "catalogctl/ls/v1", "tree": result.catalog.label, kind.value: rows},
                indent=2,
                ensure_ascii=False,
            )
            + "\n"
        )
    else:
        columns = listing.COLUMNS[kind.value]
        _out(render.table(columns, [[listing.cell(r[c]) for c in columns] for r in rows]))
    if not result.ok:
        typer.echo("note: the catalog has errors; run `catalogctl validate`", err=True)


@app.command()
@handle_errors
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
    from . import listing
    from .api import load_catalog
    from .yamlio import dump_yaml

    result = load_catalog(path, ref)
    found = listing.find(result.catalog, ident, resolved=resolved)
    for note in found.notes:
        typer.echo(f"note: {note}", err=True)
    if fmt is DocFormat.json:
        _out(json.dumps(found.data, indent=2, ensure_ascii=False) + "\n")
    else:
        _out(dump_yaml(found.data))


class DiffFormat(StrEnum):
    """Output of a diff."""

    text = "text"
    markdown = "markdown"
    json = "json"
    github = "github"


class FailOn(StrEnum):
    """When a diff exits 1."""

    contract = "contract"
    any = "any"
    never = "never"


@app.command()
@handle_errors
def diff(
    old: Annotated[str, typer.Argument(help="A cohort id, tag, branch or commit.")],
    new: Annotated[str | None, typer.Argument(help="The same kinds of ref; default: the working tree.")] = None,
    path: RepoOpt = None,
    fmt: Annotated[
        DiffFormat, typer.Option("--format", "-f", help="text, markdown, json or github.")
    ] = DiffFormat.text,
    fail_on: Annotated[
        FailOn, typer.Option("--fail-on", help="Exit 1 on any contract change, on any change, or never.")
    ] = FailOn.never,
) -> None:
    """What really changed between two cohorts or refs: classified, located, with its impact.

    A cohort id resolves to its release tag, or, in a clone without tags, to the commit that added
    its ruleset (the output says so). Exit 0, or 1 when --fail-on is met; 2 on a usage or ref error.
    """
    from . import render_diff
    from .api import diff_refs

    report = diff_refs(path, old, new)
    renderers = {
        DiffFormat.text: render_diff.diff_text,
        DiffFormat.markdown: render_diff.diff_markdown,
        DiffFormat.json: render_diff.diff_json,
        DiffFormat.github: render_diff.diff_github,
    }
    _out(renderers[fmt](report))
    failed = (fail_on is FailOn.contract and report.summary["contract"] > 0) or (
        fail_on is FailOn.any and report.semantic
    )
    raise typer.Exit(EXIT_PROBLEMS if failed else EXIT_OK)


@app.command()
@handle_errors
def freeze(
    cohort: Annotated[str, typer.Argument(help="The cohort to freeze, e.g. 2026-10-C0.")],
    add: Annotated[list[str] | None, typer.Option("--add", help="Add a benchmark (repeatable).")] = None,
    remove: Annotated[list[str] | None, typer.Option("--remove", help="Remove a benchmark (repeatable).")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the ruleset and changelog; write nothing.")] = False,
    no_tag: Annotated[bool, typer.Option("--no-tag", help="Commit, but create no tag.")] = False,
    push: Annotated[str | None, typer.Option("--push", metavar="REMOTE", help="Push the branch, then the tag.")] = None,
    message: Annotated[str | None, typer.Option("--message", "-m", help="The tag's message.")] = None,
    seeds: Annotated[Path | None, typer.Option("--seeds", help="Import already-published seeds (YAML).")] = None,
    path: RepoOpt = None,
) -> None:
    """Publish a cohort: ruleset, seed sets, changelog section, one commit, an annotated tag.

    The benchmarks of the previous cohort carry over unless added or removed. A rerun finishes
    an interrupted freeze; after success it is a no-op. Exit 0; 1 when the catalog refuses (invalid,
    pending values) or the remote does; 2 on a usage or environment error (dirty tree, lock file).
    """
    from . import render_release
    from .freeze import FreezeRequest
    from .freeze import freeze as run_freeze

    request = FreezeRequest(
        cohort=cohort,
        add=add or [],
        remove=remove or [],
        dry_run=dry_run,
        tag=not no_tag,
        push=push,
        message=message,
        seeds_file=seeds,
    )
    result = run_freeze(path or Path.cwd(), request)
    _out(render_release.freeze_text(result))


@app.command()
@handle_errors
def cohorts(
    path: RepoOpt = None,
    fmt: Annotated[ListFormat, typer.Option("--format", "-f", help="text or json.")] = ListFormat.text,
) -> None:
    """List frozen cohorts (date, benchmarks, valid seed sets, tag state) and the next cohort.

    Exit 1 when a tag has moved or is missing.
    """
    from . import render_release
    from .api import list_releases

    listing = list_releases(path)
    text = render_release.cohorts_json(listing) if fmt is ListFormat.json else render_release.cohorts_text(listing)
    _out(text)
    raise typer.Exit(EXIT_PROBLEMS if any(c.tag in ("moved", "missing") for c in listing.cohorts) else EXIT_OK)


@app.command()
@handle_errors
def verify(
    cohort: Annotated[str, typer.Argument(help="The cohort whose release to check.")],
    path: RepoOpt = None,
    ref: Annotated[
        str | None, typer.Option("--ref", help="Check the digests against the contracts at this ref.")
    ] = None,
    fmt: Annotated[ListFormat, typer.Option("--format", "-f", help="text or json.")] = ListFormat.text,
) -> None:
    """Check a release: the tag exists, is annotated, points at the commit that added the ruleset,
    carries its digest, and every contract digest matches. Exit 1 with the differences."""
    from . import render_release
    from .api import verify_release

    result = verify_release(path, cohort, ref)
    _out(render_release.verify_json(result) if fmt is ListFormat.json else render_release.verify_text(result))
    raise typer.Exit(EXIT_OK if result.ok else EXIT_PROBLEMS)


SubmissionArg = Annotated[Path, typer.Argument(help="The submission file (YAML).", show_default=False)]
OutputOpt = Annotated[
    Path | None, typer.Option("--output", "-o", help="Write the resolved config here (.yaml or .json), atomically.")
]
ConfigFormatOpt = Annotated[DocFormat, typer.Option("--format", "-f", help="yaml or json, when printed.")]


def _emit_resolved(config: object, output: Path | None, fmt: DocFormat) -> None:
    from .resolve import ResolvedConfig, render_resolved, write_resolved

    assert isinstance(config, ResolvedConfig)
    if output is None:
        _out(render_resolved(config, "json" if fmt is DocFormat.json else "yaml"))
    else:
        write_resolved(config, output)
        typer.echo(f"wrote {output}", err=True)


@app.command()
@handle_errors
def resolve(
    submission: SubmissionArg,
    output: OutputOpt = None,
    ref: Annotated[
        str | None, typer.Option("--ref", help="Resolve against this ref instead of the cohort's tag.")
    ] = None,
    path: RepoOpt = None,
    fmt: ConfigFormatOpt = DocFormat.yaml,
) -> None:
    """Turn a submission into the resolved config of its cohort's frozen contract.

    The contract comes from the cohort's release tag (never the working tree). Exit codes: see
    `preflight`.
    """
    from .resolve import output_format
    from .resolve import resolve as run_resolve

    if output is not None:
        output_format(output)
    config = run_resolve(path or Path.cwd(), submission, ref)
    _emit_resolved(config, output, fmt)


@app.command()
@handle_errors
def preflight(
    submission: SubmissionArg,
    remote: Annotated[str, typer.Option("--remote", help="The remote (name or URL) whose tag must agree.")] = "origin",
    offline: Annotated[bool, typer.Option("--offline", help="Do not contact the remote; record that.")] = False,
    github: Annotated[
        str | None, typer.Option("--github", metavar="OWNER/REPO", help="Also confirm the tag through GitHub's API.")
    ] = None,
    output: OutputOpt = None,
    path: RepoOpt = None,
    fmt: ConfigFormatOpt = DocFormat.yaml,
) -> None:
    """Check the checkout is exactly the cohort's release, locally and on the remote, then resolve.

    Fails closed. Exit codes: 3 HEAD is not the release commit; 4 uncommitted changes in the
    catalog; 5 the release tag is missing, lightweight or wrong; 6 the remote disagrees or is
    unreachable; 7 the submission does not fit the cohort; 8 the contract changed since the freeze;
    1 an invalid submission or catalog; 2 a usage or environment error.
    """
    from .preflight import preflight as run_preflight
    from .resolve import output_format

    if output is not None:
        output_format(output)
    config = run_preflight(path or Path.cwd(), submission, remote=remote, offline=offline, github=github)
    _emit_resolved(config, output, fmt)


class CheckFormat(StrEnum):
    """Output of a check."""

    text = "text"
    json = "json"
    markdown = "markdown"


@app.command()
@handle_errors
def check(
    resolved: Annotated[Path, typer.Argument(help="The resolved config of the run (from resolve or preflight).")],
    results: Annotated[
        Path, typer.Argument(help="The run's results: a catalogctl/results/v1 JSON file, or an endpoints run folder.")
    ],
    fmt: Annotated[CheckFormat, typer.Option("--format", "-f", help="text, json or markdown.")] = CheckFormat.text,
) -> None:
    """Apply every gate the contract names to what the run reported.

    A gate whose facts the run did not report is "not evaluable" and does not pass. Exit 0 when
    every hard gate passes, 1 when one fails or cannot be evaluated, 2 on a usage error.
    """
    from . import render_check
    from .checks.run import check_run, load_resolved, load_results

    config = load_resolved(resolved)
    report = check_run(config, load_results(results, config))
    renderers = {
        CheckFormat.text: render_check.check_text,
        CheckFormat.json: render_check.check_json,
        CheckFormat.markdown: render_check.check_markdown,
    }
    _out(renderers[fmt](report))
    raise typer.Exit(EXIT_OK if report.passed else EXIT_PROBLEMS)


@app.command("gates")
def list_gates(
    fmt: Annotated[ListFormat, typer.Option("--format", "-f", help="text or json.")] = ListFormat.text,
) -> None:
    """List the gate registry: the gates a contract may name."""
    from .checks.gates import GATES
    from .render import table

    if fmt is ListFormat.json:
        rows = [
            {"name": g.name, "severity": g.severity, "kinds": sorted(g.kinds), "description": g.description}
            for g in GATES.values()
        ]
        _out(json.dumps({"schema": "catalogctl/gates/v1", "gates": rows}, indent=2) + "\n")
    else:
        cells = [[g.name, g.severity, ", ".join(sorted(g.kinds)), g.description] for g in GATES.values()]
        _out(table(["gate", "severity", "kinds", "description"], cells))


@app.command("metrics")
@handle_errors
def list_metrics(
    path: RepoOpt = None,
    ref: RefOpt = None,
    fmt: Annotated[ListFormat, typer.Option("--format", "-f", help="text or json.")] = ListFormat.text,
) -> None:
    """List the metric registry (benchmark_suite/metrics.yaml): key, label, unit, direction."""
    list_entities(EntityKind.metrics, path, ref, fmt)


datasets_app = typer.Typer(help="Dataset integrity at the source: verify and pin sha256.", no_args_is_help=True)
app.add_typer(datasets_app, name="datasets")


@contextlib.contextmanager
def _progress() -> Iterator[Callable[[str, int, int | None], None] | None]:
    """A rich progress bar on a terminal (a callback for the library), nothing otherwise."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.progress import BarColumn, DownloadColumn, Progress, TaskID, TransferSpeedColumn

    with Progress(BarColumn(), DownloadColumn(), TransferSpeedColumn(), transient=True) as bar:
        tasks: dict[str, TaskID] = {}

        def update(name: str, done: int, total: int | None) -> None:
            if name not in tasks:
                tasks[name] = bar.add_task(name.rsplit("/", 1)[-1], total=total)
            bar.update(tasks[name], completed=done, total=total)

        yield update


@datasets_app.command("verify")
@handle_errors
def datasets_verify(
    ids: Annotated[
        list[str] | None, typer.Argument(metavar="[ID]...", help="Datasets to verify (default: all).")
    ] = None,
    path: RepoOpt = None,
    ref: RefOpt = None,
    local: Annotated[
        Path | None, typer.Option("--local", help="Read files from this folder (by the URL's file name, or the id).")
    ] = None,
    fmt: Annotated[ListFormat, typer.Option("--format", "-f", help="text or json.")] = ListFormat.text,
) -> None:
    """Download (or read) each dataset's source and compare its sha256 with the pinned one.

    Exit 1 when one differs or cannot be fetched; pending sha256 values are listed, not failed.
    """
    from .datasets import verify_datasets
    from .render import table
    from .tree import open_tree

    with _progress() as update:
        results = verify_datasets(open_tree(path, ref), ids or [], local, update)
    if fmt is ListFormat.json:
        rows = [vars(r) for r in results]
        _out(json.dumps({"schema": "catalogctl/datasets-verify/v1", "datasets": rows}, indent=2) + "\n")
    else:
        _out(
            table(
                ["dataset", "status", "expected", "observed", "detail"],
                [[r.dataset, r.status, r.expected, r.observed, r.detail] for r in results],
            )
        )
    raise typer.Exit(EXIT_PROBLEMS if any(r.status in ("mismatch", "error") for r in results) else EXIT_OK)


@datasets_app.command("pin")
@handle_errors
def datasets_pin(
    ident: Annotated[str, typer.Argument(metavar="ID", help="The dataset to pin.")],
    source: Annotated[str, typer.Argument(metavar="FILE|URL", help="A local file, or an http(s) URL to download.")],
    path: RepoOpt = None,
) -> None:
    """Compute the source's sha256 (and sample count, for jsonl, json and csv) and write them into
    the dataset's YAML, keeping its comments and layout."""
    from .datasets import pin_dataset

    with _progress() as update:
        pinned = pin_dataset(path or Path.cwd(), ident, source, update)
    _out("".join(f"{pinned.path}: {change}\n" for change in pinned.changes))


class GateFormat(StrEnum):
    """Output of the PR gate."""

    text = "text"
    github = "github"
    markdown = "markdown"
    json = "json"


@app.command()
@handle_errors
def ci(
    base: Annotated[str, typer.Option("--base", help="The pull request's base: a branch, tag or commit.")],
    head: Annotated[str | None, typer.Option("--head", help="The head to check (default: the working tree).")] = None,
    path: RepoOpt = None,
    fmt: Annotated[
        GateFormat, typer.Option("--format", "-f", help="text, github (annotations + summary), markdown or json.")
    ] = GateFormat.text,
    comment_file: Annotated[
        Path | None,
        typer.Option("--comment-file", help="Write the PR comment body here (github format: catalogctl-comment.md)."),
    ] = None,
    write_accepted: Annotated[
        bool, typer.Option("--write-accepted", help="Draft accepted.yaml entries for the findings not accepted yet.")
    ] = False,
    today: Annotated[
        str | None, typer.Option("--today", metavar="YYYY-MM-DD", help="Judge expiry and seed sets as of this date.")
    ] = None,
) -> None:
    """The pull request gate: validate the head, diff it against the base, apply the release policy.

    Findings listed in .catalogctl/accepted.yaml (unexpired, with a reason and an approver) do not
    fail the gate. Exit 0 when it passes, 1 on an error not accepted, 2 on a usage or ref error.
    """
    import datetime as dt
    import os

    from . import render_ci
    from .ci import GateRequest, publish_github, run_gate
    from .errors import UsageError

    try:
        day = dt.date.fromisoformat(today) if today else None
    except ValueError:
        raise UsageError(f"--today {today!r} is not a date: write YYYY-MM-DD") from None
    result, unaccepted = run_gate(path, GateRequest(base=base, head=head, today=day))
    renderers = {
        GateFormat.text: render_ci.gate_text,
        GateFormat.github: render_ci.gate_github,
        GateFormat.markdown: render_ci.gate_markdown,
        GateFormat.json: render_ci.gate_json,
    }
    _out(renderers[fmt](result))
    if fmt is GateFormat.github or comment_file is not None:
        summary = os.environ.get("GITHUB_STEP_SUMMARY") if fmt is GateFormat.github else None
        target = comment_file or Path("catalogctl-comment.md")
        for line in publish_github(result, summary, target):
            typer.echo(line, err=True)
    if write_accepted:
        _draft_accepted(path, unaccepted, day)
    raise typer.Exit(EXIT_OK if result.passed else EXIT_PROBLEMS)


def _draft_accepted(path: Path | None, unaccepted: list[Any], day: Any) -> None:
    import datetime as dt

    from .accepted import ACCEPTED_FILE, draft_entries, read_accepted, write_drafts
    from .tree import WorkingTree, find_root

    root = find_root(path or Path.cwd())
    accepted = read_accepted(WorkingTree(root))
    drafts, count = draft_entries(unaccepted, accepted, day or dt.datetime.now(dt.UTC).date())
    if not count:
        typer.echo(f"{ACCEPTED_FILE}: nothing to draft", err=True)
        return
    write_drafts(root, accepted, drafts)
    typer.echo(
        f"drafted {count} entries in {ACCEPTED_FILE}: fill in reason and approver (until then they accept nothing)",
        err=True,
    )


@app.command()
@handle_errors
def comment(
    repo: Annotated[str, typer.Option("--repo", metavar="OWNER/NAME", help="The GitHub repository.")],
    pr: Annotated[int, typer.Option("--pr", min=1, help="The pull request number.")],
    body: Annotated[Path, typer.Option("--body", help="The comment body (written by `catalogctl ci`).")],
    head_sha: Annotated[
        str | None, typer.Option("--head-sha", help="Refuse unless the pull request's head is this commit.")
    ] = None,
) -> None:
    """Create or update the pull request's one gate comment (found by its hidden marker).

    GITHUB_API_URL and GITHUB_TOKEN (or GH_TOKEN) come from the environment. Exit 1 when GitHub refuses.
    """
    from .errors import UsageError
    from .remote import CommentClient, upsert_comment
    from .render_ci import COMMENT_MARKER

    if "/" not in repo or repo.count("/") != 1:
        raise UsageError(f"--repo {repo!r} is not OWNER/NAME")
    try:
        text = body.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read {body}: {exc.strerror or exc}") from None
    done = upsert_comment(CommentClient.from_environment(), repo, pr, text, COMMENT_MARKER, head_sha)
    _out(f"{done.action} comment {done.id} on {repo}#{pr}{' ' + done.url if done.url else ''}\n")


@app.command()
@handle_errors
def schema(
    output: Annotated[Path, typer.Option("--output", "-o", help="The folder to write into.")] = Path("schemas"),
) -> None:
    """Write a JSON Schema for every document kind (for editors: see the catalog files' first line)."""
    from .schemas import write_schemas

    for written in write_schemas(output):
        typer.echo(f"wrote {written}", err=True)


class NewKind(StrEnum):
    """What `new` scaffolds."""

    model = "model"
    dataset = "dataset"
    benchmark = "benchmark"


@app.command()
@handle_errors
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
    from .scaffold import scaffold

    done = scaffold(path or Path.cwd(), kind.value, ident, from_)
    _out(f"wrote {done.path}\n")
    for line in done.pending:
        typer.echo(f"  pending: {line}", err=True)


def main() -> None:
    """Console entry point."""
    app()
