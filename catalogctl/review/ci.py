"""`catalogctl ci`: the review a pull request passes before it changes the catalog.

It validates the head, diffs it against the base, applies the release policy (`policy`), then
the accepted findings of the head's `.catalogctl/accepted.yaml` (`accepted`). The result is a
`ReviewResult` (`model.review`); the caller renders it (`render.review`) and exits 1 when an
error is not accepted.

The policy is the base's: a pull request is never judged by a configuration it changes itself
(its own calendar could expire the seed sets that protect a frozen cohort, or hide a gap).
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from catalogctl import words
from catalogctl.model.reports.review import Finding, ReviewResult, ReviewSide, ReviewSummary
from catalogctl.review.findings import order

if TYPE_CHECKING:
    from catalogctl.catalog.cohorts import Calendar
    from catalogctl.catalog.documentcache import DocumentCache
    from catalogctl.catalog.layout import Layout
    from catalogctl.diff.trees import DiffReport
    from catalogctl.io.tree import Tree
    from catalogctl.model.documents.config import Config
    from catalogctl.review.sides import Side


@dataclass
class ReviewRequest:
    """What the review compares."""

    base: str
    head: str | None = None  # None: the working tree
    today: dt.date | None = None
    use_cache: bool = True  # False: check every file from scratch (`--no-cache`)


def run_review(path: Path | None, request: ReviewRequest) -> tuple[ReviewResult, list[Finding]]:
    """Run the review; returns the result and the findings nobody accepted yet (for drafts).

    The head's configuration is the working tree's, or the head ref's with `--head`. The review
    reads both sides with the head's folders (a head whose folders differ from the base's is
    `layout-changed`), judges by the base's calendar and never accepts a code either side's
    never-accept lists."""
    from catalogctl.catalog.config import config_for
    from catalogctl.catalog.layout import Layout
    from catalogctl.catalog.source import open_tree

    here = config_for(path).config
    found_in = Layout(here.catalog, here.rulesets)  # refs are found in the working tree's layout, as every verb does
    base = open_tree(path, request.base, found_in)
    base_config = _configuration(base, f"the base {request.base}")
    head = open_tree(path, request.head, found_in)
    config = here if request.head is None else _configuration(head, f"the head {request.head}")
    return _review(request, base, head, base_config, config)


def _configuration(tree: Tree, side: str) -> Config:
    """The configuration a side of the review holds; one it cannot use names that side."""
    from catalogctl.catalog.config import config_in_tree
    from catalogctl.errors import ConfigInvalid

    try:
        return config_in_tree(tree).config
    except ConfigInvalid as exc:
        raise ConfigInvalid(f"the configuration at {side}: {exc}", exc.diagnostics) from None


def _review(
    request: ReviewRequest, base: Tree, head: Tree, base_config: Config, config: Config
) -> tuple[ReviewResult, list[Finding]]:
    from catalogctl.catalog.diagnostics import has_errors
    from catalogctl.catalog.documentcache import cache_for
    from catalogctl.catalog.layout import Layout
    from catalogctl.catalog.loader import load_tree
    from catalogctl.catalog.source import changed_files
    from catalogctl.catalog.verdict import check_tree
    from catalogctl.review.accepted import apply_accepted, read_accepted
    from catalogctl.review.findings import from_diagnostic
    from catalogctl.review.policy import PolicyInput, check_policy

    today = request.today or dt.datetime.now(dt.UTC).date()
    layout = Layout(config.catalog, config.rulesets)  # both sides are read in the head's folders
    # The codes never accepted are the base's too: a pull request cannot drop a code from the
    # list and accept it at once.
    never = frozenset(config.never_accept) | frozenset(base_config.never_accept)
    moved = _moved_folders(base_config, config)
    # One cache for both sides: a file the base holds unchanged is checked once, for the head.
    # The head's verdict is remembered by its files' ids (`catalog.verdict`); the whole catalogs
    # are loaded only if a policy rule needs them. The base's own diagnostics are never
    # reported, so it skips the cross-document checks.
    cache = cache_for(head, enabled=request.use_cache)
    verdict = check_tree(head, cache, layout=layout)
    head_result = verdict.loaded or functools.partial(load_tree, head, cache, layout=layout)
    notes: list[str] = []
    base_empty = bool(moved) or base.kind(layout.suite_dir) is None
    if base_empty and not moved:
        # A consortium's first pull request adds the catalog: against nothing, all of it is new.
        notes.append(f"base: no catalog in {request.base}: read as an empty catalog")
    base_result = _base_side(base, cache, layout, empty=base_empty)
    calendar, calendar_notes = _calendar(base_config, config, base_empty=base_empty)
    notes += calendar_notes
    notes += [f"{side}: {tree.note}" for side, tree in (("base", base), ("head", head)) if tree.note]
    changed = changed_files(base, head, layout, verdict.file_ids)  # the head's folders as the verdict listed them
    findings = _numbered(
        [
            from_diagnostic(d)
            for d in verdict.diagnostics
            # warnings only where the PR edits (a move, which edits every path, reported alone)
            if d.severity.value == "error" or (d.path in changed and not moved)
        ]
    )
    findings += moved
    diff = (
        None
        if base_empty
        else _diff(base, head, layout, request, changed, cache, has_errors(verdict.diagnostics), findings, notes)
    )
    if head.kind(layout.suite_dir) is not None and not moved:
        given = PolicyInput(base, head, base_result, head_result, diff, today, layout, calendar, changed, cache)
        findings += check_policy(given)
    accepted = read_accepted(head)
    findings += accepted.problems
    findings, stale = apply_accepted(findings, accepted, today, never)
    findings.sort(key=order)
    notes += _stale_note(stale)
    result = ReviewResult(
        base=ReviewSide(ref=request.base, label=base.label),
        head=ReviewSide(ref=request.head or "working tree", label=head.label),
        passed=not any(f.failing for f in findings),
        summary=ReviewSummary.of(findings),
        findings=findings,
        stale_acceptances=stale,
        notes=notes,
    )
    unaccepted = [f for f in findings if f.status in ("open", "expired")]
    return result, unaccepted


def _diff(
    base: Tree,
    head: Tree,
    layout: Layout,
    request: ReviewRequest,
    changed: set[str],
    cache: DocumentCache,
    head_invalid: bool,
    findings: list[Finding],
    notes: list[str],
) -> DiffReport | None:
    """The semantic diff between the sides; None (and a finding or a note) when the base or the
    head does not validate."""
    from catalogctl.diff.trees import diff_trees
    from catalogctl.errors import CatalogInvalid
    from catalogctl.review.findings import subject_fingerprint

    try:
        return diff_trees(base, head, request.base, request.head or "working tree", changed, cache, layout=layout)
    except CatalogInvalid as exc:
        if not head_invalid:
            findings.append(
                Finding(
                    severity="warning",
                    code="base-invalid",
                    message=f"{exc}: contract changes were not classified",
                    fingerprint=subject_fingerprint("base-invalid", request.base),
                )
            )
        else:
            notes.append("the head does not validate: contract changes were not classified")
    return None


def _calendar(base: Config, head: Config, *, base_empty: bool) -> tuple[Calendar, list[str]]:
    """The calendar the review judges by: the base's, so that a pull request cannot expire the
    seed sets of a frozen cohort (or hide a skipped cohort) with a calendar of its own; the
    head's when the base has no catalog, which has no cohort to protect."""
    from catalogctl.catalog.cohorts import Calendar

    if base_empty or head.calendar == base.calendar:
        return Calendar(head.calendar), []
    note = "head: changes the cohort calendar: the review keeps the base's until the change is merged"
    return Calendar(base.calendar), [note]


def _moved_folders(base: Config, head: Config) -> list[Finding]:
    """A pull request that moves the catalog or rulesets folder: both sides are read with the
    head's folders, where the base would look empty (and every frozen thing new)."""
    from catalogctl.review.findings import subject_fingerprint

    out: list[Finding] = []
    for what, before, after in (("catalog", base.catalog, head.catalog), ("rulesets", base.rulesets, head.rulesets)):
        if before == after:
            continue
        out.append(
            Finding(
                severity="error",
                code="layout-changed",
                message=f"the pull request moves the {what} folder from {before} to {after}: the gate compares "
                "both sides folder by folder and cannot review a move",
                hint=f"move it in a pull request that changes nothing else (`{what}` in the configuration), "
                "merged by a maintainer past the gate",
                fingerprint=subject_fingerprint("layout-changed", what, before, after),
            )
        )
    return out


def _stale_note(stale: list[str]) -> list[str]:
    if not stale:
        return []
    return [
        f"{words.count(len(stale), 'accepted finding')} matched nothing: remove "
        f"{words.noun(len(stale), 'it', 'them')} from .catalogctl/accepted.yaml"
    ]


def _base_side(base: Tree, cache: DocumentCache, layout: Layout, *, empty: bool) -> Side:
    """The base as the policy reads it: loaded when a rule asks (single files only)."""
    from catalogctl.catalog.index import Catalog, LoadResult
    from catalogctl.catalog.loader import load_documents

    if empty:
        return LoadResult(Catalog(label=base.label), [])
    return functools.partial(load_documents, base, cache, layout=layout)


def _numbered(findings: list[Finding]) -> list[Finding]:
    """The same problem twice in one file (same code, same message) gets distinct fingerprints."""
    from catalogctl.review.findings import subject_fingerprint

    seen: dict[str, int] = {}
    out = []
    for finding in findings:
        count = seen.get(finding.fingerprint, 0)
        seen[finding.fingerprint] = count + 1
        if count:
            fingerprint = subject_fingerprint(finding.code, finding.file, finding.message, count)
            finding = finding.model_copy(update={"fingerprint": fingerprint})
        out.append(finding)
    return out
