"""The pull-request gate: ci and comment."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from catalogctl.cli.common import EXIT_OK, EXIT_PROBLEMS, NoCacheOpt, RepoOpt, out
from catalogctl.cli.helptext import CATALOG, DATES, OUTPUT


class GateFormat(StrEnum):
    """Output of the PR gate."""

    text = "text"
    github = "github"
    markdown = "markdown"
    json = "json"


def ci(
    base: Annotated[
        str, typer.Option("--base", rich_help_panel=CATALOG, help="The pull request's base: a branch, tag or commit.")
    ],
    head: Annotated[
        str | None,
        typer.Option("--head", rich_help_panel=CATALOG, help="The head to check (default: the working tree)."),
    ] = None,
    path: RepoOpt = None,
    fmt: Annotated[
        GateFormat,
        typer.Option(
            "--format", "-f", rich_help_panel=OUTPUT, help="text, github (annotations + summary), markdown or json."
        ),
    ] = GateFormat.text,
    comment_file: Annotated[
        Path | None,
        typer.Option(
            "--comment-file",
            rich_help_panel=OUTPUT,
            help="Write the PR comment body here (github format: catalogctl-comment.md).",
        ),
    ] = None,
    write_accepted: Annotated[
        bool, typer.Option("--write-accepted", help="Draft accepted.yaml entries for the findings not accepted yet.")
    ] = False,
    today: Annotated[
        str | None,
        typer.Option(
            "--today", rich_help_panel=DATES, metavar="YYYY-MM-DD", help="Judge expiry and seed sets as of this date."
        ),
    ] = None,
    no_cache: NoCacheOpt = False,
) -> None:
    """Run the pull request gate on a base and a head.

    It validates the head, diffs it against the base and applies the release policy.
    Findings listed in .catalogctl/accepted.yaml (unexpired, with a reason and an approver) do not
    fail the gate. Exit 0 when it passes, 1 on an error not accepted, 2 on a usage or ref error.
    """
    import datetime as dt
    import os

    from catalogctl.errors import UsageError
    from catalogctl.render.review import REPORTERS, drafts_text, publish_github
    from catalogctl.review.accepted import draft_accepted
    from catalogctl.review.ci import ReviewRequest, run_review

    try:
        day = dt.date.fromisoformat(today) if today else None
    except ValueError:
        raise UsageError(f"--today {today!r} is not a date: write YYYY-MM-DD") from None
    result, unaccepted = run_review(path, ReviewRequest(base=base, head=head, today=day, use_cache=not no_cache))
    out(REPORTERS[fmt](result))
    if fmt is GateFormat.github or comment_file is not None:
        summary = os.environ.get("GITHUB_STEP_SUMMARY") if fmt is GateFormat.github else None
        target = comment_file or Path("catalogctl-comment.md")
        for line in publish_github(result, summary, target):
            typer.echo(line, err=True)
    if write_accepted:
        typer.echo(drafts_text(draft_accepted(path, unaccepted, day)), err=True)
    raise typer.Exit(EXIT_OK if result.passed else EXIT_PROBLEMS)


def comment(
    repo: Annotated[str, typer.Option("--repo", metavar="OWNER/NAME", help="The GitHub repository.")],
    pr: Annotated[int, typer.Option("--pr", metavar="N", min=1, help="The pull request number.")],
    body: Annotated[Path, typer.Option("--body", help="The comment body (written by `catalogctl ci`).")],
    head_sha: Annotated[
        str | None,
        typer.Option("--head-sha", metavar="SHA", help="Refuse unless the pull request's head is this commit."),
    ] = None,
) -> None:
    """Create or update the pull request's one gate comment.

    The comment is found by its hidden marker.
    GITHUB_API_URL and GITHUB_TOKEN (or GH_TOKEN) come from the environment. Exit 1 when GitHub refuses.
    """
    from catalogctl.errors import UsageError
    from catalogctl.io.http import CommentClient, upsert_comment
    from catalogctl.render.review import COMMENT_MARKER, fit_comment

    if "/" not in repo or repo.count("/") != 1:
        raise UsageError(f"--repo {repo!r} is not OWNER/NAME")
    try:
        text = body.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read {body}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {body}: not UTF-8 text", "write it with `catalogctl ci`") from None
    # GitHub refuses a body over its limit: send the part that fits, saying where the rest is.
    done = upsert_comment(CommentClient.from_environment(), repo, pr, fit_comment(text), COMMENT_MARKER, head_sha)
    out(f"{done.action} comment {done.id} on {repo}#{pr}{' ' + done.url if done.url else ''}\n")
