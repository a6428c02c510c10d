"""Frozen cohorts as releases: the list of cohorts with the state of their tags, and the
verification of one release."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Literal

from catalogctl.catalog.cohorts import Cohort
from catalogctl.catalog.contract import contract_digest
from catalogctl.catalog.index import Catalog
from catalogctl.catalog.layout import ruleset_path
from catalogctl.catalog.loader import load_tree
from catalogctl.catalog.seeds import valid_sets
from catalogctl.catalog.source import resolve_ref
from catalogctl.errors import CatalogError, EntityNotFound, UsageError
from catalogctl.io import gitrepo
from catalogctl.release.ruleset import parse_ruleset, ruleset_digest
from catalogctl.release.statement import state_release

TagStatus = Literal["matches", "present", "moved", "missing"]


# -- the list of cohorts ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CohortInfo:
    """One frozen cohort as `catalogctl cohorts` shows it."""

    cohort: str
    submission_date: dt.date
    benchmarks: list[str]
    seed_sets: list[str]
    tag: TagStatus
    tag_commit: str | None
    ruleset_commit: str | None


def tag_status(
    repo: gitrepo.Repository, cohort: str, ruleset_text: bytes | None
) -> tuple[TagStatus, str | None, str | None]:
    """The state of a cohort's tag, by the release statement: matches (it is the release),
    present (there, but lightweight or without the digest of the ruleset HEAD holds), moved (not
    at the commit that added the ruleset in HEAD's history), missing. Also the tag's commit and
    the ruleset's commit."""
    added = gitrepo.commit_adding(repo, ruleset_path(cohort))
    ruleset_commit = str(added.id) if added else None
    state = state_release(repo, cohort)
    if state.tag is None:
        return "missing", None, ruleset_commit
    if state.tag.commit != ruleset_commit or state.failed("at-ruleset-commit"):
        return "moved", state.tag.commit, ruleset_commit
    if not state.ok or ruleset_text is None or ruleset_digest(ruleset_text) != state.digest:
        return "present", state.tag.commit, ruleset_commit
    return "matches", state.tag.commit, ruleset_commit


def list_cohorts(repo: gitrepo.Repository, catalog: Catalog) -> list[CohortInfo]:
    """Every frozen cohort of the catalog, oldest first."""
    out: list[CohortInfo] = []
    for cohort_id in sorted(catalog.rulesets, key=Cohort.parse):
        ruleset = catalog.rulesets[cohort_id]
        cohort = Cohort.parse(cohort_id)
        text = catalog.locate("ruleset", cohort_id).document.text.encode("utf-8")
        status, tag_commit, ruleset_commit = tag_status(repo, cohort_id, text)
        valid = [s.id for s in valid_sets(ruleset.seed_sets, cohort)]
        out.append(
            CohortInfo(
                cohort_id,
                ruleset.submission_date,
                [b.id for b in ruleset.benchmarks],
                valid,
                status,
                tag_commit,
                ruleset_commit,
            )
        )
    return out


@dataclass(frozen=True)
class Releases:
    """The frozen cohorts and the one to freeze next."""

    cohorts: list[CohortInfo]
    next: Cohort


def next_cohort(frozen: list[CohortInfo], today: dt.date) -> Cohort:
    """The cohort after the last frozen one, or the first whose submission date is not past."""
    if frozen:
        return Cohort.parse(frozen[-1].cohort).next()
    cohort = Cohort(today.year, today.month, 0)
    while cohort.submission_date < today:
        cohort = cohort.next()
    return cohort


# -- verifying one release -------------------------------------------------------------------------


@dataclass
class Verification:
    """The checks of one release and what failed."""

    cohort: str
    tag_commit: str | None = None
    checked_against: str = ""
    problems: list[str] = field(default_factory=list)
    passed: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every check passed."""
        return not self.problems


def verify_cohort(repo: gitrepo.Repository, cohort_id: str, ref: str | None = None) -> Verification:
    """Check a release: the release statement (see `statement`), then that every contract digest
    in the ruleset matches the contracts at the tag (or at `ref`)."""
    try:
        Cohort.parse(cohort_id)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    state = state_release(repo, cohort_id)
    if state.tag is None and gitrepo.commit_adding(repo, ruleset_path(cohort_id)) is None:
        raise EntityNotFound(f"no such cohort `{cohort_id}`: no release tag and no {ruleset_path(cohort_id)}")
    result = Verification(cohort_id, tag_commit=state.tag.commit if state.tag else None)
    for check in state.checks:
        if check.name == "tag" and check.ok:
            continue  # "exists" says nothing the tag commit does not
        (result.passed if check.ok else result.problems).append(check.message)
    if state.digest is None or state.ruleset_text is None:  # no ruleset to read the contracts of
        return result
    target = ref or cohort_id
    resolved = resolve_ref(repo, target, ruleset_fallback=False)
    result.checked_against = f"{target} ({str(resolved.commit.id)[:12]})"
    loaded = load_tree(gitrepo.GitTree(repo, resolved.commit, target))
    ruleset = loaded.catalog.rulesets.get(cohort_id) or parse_ruleset(state.ruleset_text, ruleset_path(cohort_id))
    for entry in ruleset.benchmarks:
        try:
            actual = contract_digest(loaded.catalog, entry.id)
        except CatalogError as exc:
            result.problems.append(f"{entry.id}: {exc}")
            continue
        if actual != entry.digest:
            result.problems.append(f"{entry.id}: the ruleset says {entry.digest}, the contract at {target} is {actual}")
        else:
            result.passed.append(f"{entry.id}: contract digest matches")
    return result
