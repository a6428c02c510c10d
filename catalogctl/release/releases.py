"""Frozen cohorts as releases: the list of cohorts with the state of their tags, and the
verification of one release."""

from __future__ import annotations

import datetime as dt

from catalogctl.catalog.cohorts import MLCOMMONS, Calendar, Cohort
from catalogctl.catalog.contract import contract_digest
from catalogctl.catalog.index import Catalog
from catalogctl.catalog.layout import Layout
from catalogctl.catalog.loader import load_tree
from catalogctl.catalog.loadgen_seeds import installed_loadgen
from catalogctl.catalog.seed_origin import set_provenance
from catalogctl.catalog.seeds import valid_sets
from catalogctl.catalog.source import no_such_cohort, resolve_ref, ruleset_commit
from catalogctl.errors import CatalogError, UsageError
from catalogctl.io import gitrepo, gittags, gittree
from catalogctl.model.reports.release import CohortInfo, NextCohort, Releases, Signature, TagStatus, Verification
from catalogctl.release.beacon_naming import released_rulesets
from catalogctl.release.ruleset import parse_ruleset, remember_ruleset, ruleset_digest
from catalogctl.release.seed_provenance import derived_seed_results, shipped_seed_results
from catalogctl.release.statement import ReleaseState, state_release
from catalogctl.release.trust import SignatureCheck, Trust

# -- the list of cohorts ---------------------------------------------------------------------------


def signature_report(check: SignatureCheck | None) -> Signature | None:
    """The signature clause as the result models show it."""
    if check is None:
        return None
    return Signature(
        state=check.state,
        required=check.required,
        principal=check.principal,
        fingerprint=check.fingerprint,
        message=check.message,
        hint=check.hint,
    )


def tag_status(
    repo: gitrepo.Repository, cohort: str, layout: Layout, ruleset_text: bytes | None, state: ReleaseState | None = None
) -> tuple[TagStatus, str | None, str | None]:
    """The state of a cohort's tag, by the release statement: matches (it is the release),
    present (there, but lightweight or without the digest of the ruleset HEAD holds), moved (not
    at the commit that added the ruleset in HEAD's history, or not on the default branch),
    missing. Also the tag's commit and the ruleset's commit."""
    added = ruleset_commit(repo, layout.ruleset_path(cohort))
    added_at = str(added.id) if added else None
    state = state or state_release(repo, cohort, layout)
    if state.tag is None:
        return "missing", None, added_at
    off_branch = state.failed("on-default-branch")  # a tag pushed to a sibling commit is not where the release is
    if state.tag.commit != added_at or state.failed("at-ruleset-commit") or off_branch:
        return "moved", state.tag.commit, added_at
    if not all(c.ok for c in state.checks if c.name != "signature"):
        return "present", state.tag.commit, added_at
    if ruleset_text is None or ruleset_digest(ruleset_text) != state.digest:
        return "present", state.tag.commit, added_at
    return "matches", state.tag.commit, added_at


def list_cohorts(
    repo: gitrepo.Repository, catalog: Catalog, layout: Layout, trust: Trust | None = None
) -> list[CohortInfo]:
    """Every frozen cohort of the catalog (read in `layout`), oldest first, each with its signer
    (see `signers`)."""
    trust = trust or Trust()
    chain = catalog.suite.policies.seed_beacon if catalog.suite is not None else None
    out: list[CohortInfo] = []
    for cohort_id in sorted(catalog.rulesets, key=Cohort.parse):
        ruleset = catalog.rulesets[cohort_id]
        cohort = Cohort.parse(cohort_id)
        text = catalog.locate("ruleset", cohort_id).document.text.encode("utf-8")
        remember_ruleset(text, ruleset)  # parsed already: the tag's blob is usually this one
        state = state_release(repo, cohort_id, layout, trust)
        status, tag_commit, added_at = tag_status(repo, cohort_id, layout, text, state)
        valid = valid_sets(ruleset.seed_sets, cohort)
        out.append(
            CohortInfo(
                cohort=cohort_id,
                submission_date=ruleset.submission_date,
                benchmarks=[b.id for b in ruleset.benchmarks],
                seed_sets=[s.id for s in valid],
                provenance=set_provenance(valid, chain),
                tag=status,
                tag_commit=tag_commit,
                ruleset_commit=added_at,
                signature=signature_report(state.signature),
            )
        )
    return out


def next_cohort(frozen: list[CohortInfo], today: dt.date, calendar: Calendar = MLCOMMONS) -> Cohort:
    """The cohort after the last frozen one, or the first whose submission date is not past."""
    if frozen:
        return calendar.next(Cohort.parse(frozen[-1].cohort))
    return calendar.first_on_or_after(today)


def releases(frozen: list[CohortInfo], today: dt.date, calendar: Calendar = MLCOMMONS) -> Releases:
    """The frozen cohorts and the one to freeze next (by the repository's `calendar`)."""
    upcoming = next_cohort(frozen, today, calendar)
    day = calendar.submission_date(upcoming)
    return Releases(cohorts=frozen, next=NextCohort(cohort=upcoming.id, submission_date=day))


# -- verifying one release -------------------------------------------------------------------------


def require_cohort(repo: gitrepo.Repository, cohort_id: str, layout: Layout, at: gitrepo.Commit | None = None) -> None:
    """`cohort_id` names a cohort this repository knows: by its release tag, or by a ruleset in
    HEAD's history (or at the commit `at`). Otherwise "no such cohort", a usage error (exit 2):
    a cohort nobody froze is not a release whose tag is missing."""
    try:
        Cohort.parse(cohort_id)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    path = layout.ruleset_path(cohort_id)
    if gittags.tag_state(repo, cohort_id) is not None:
        return
    if at is not None and gitrepo.read_blob_or_none(at, path) is not None:
        return
    if ruleset_commit(repo, path) is not None:
        return
    # (A shallow clone never gets here: ruleset_commit refuses to walk a history it lacks.)
    raise no_such_cohort(cohort_id, layout)


def verify_cohort(
    repo: gitrepo.Repository, cohort_id: str, layout: Layout, ref: str | None = None, trust: Trust | None = None
) -> Verification:
    """Check a release: the release statement (see `statement`; its signature clause by `trust`),
    then that every contract digest in the ruleset matches the contracts at the tag (or at `ref`),
    read in `layout`."""
    require_cohort(repo, cohort_id, layout)
    state = state_release(repo, cohort_id, layout, trust or Trust())
    result = Verification(
        cohort=cohort_id,
        tag_commit=state.tag.commit if state.tag else None,
        signature=signature_report(state.signature),
    )
    for check in state.checks:
        if check.name == "tag" and check.ok:
            continue  # "exists" says nothing the tag commit does not
        (result.passed if check.ok else result.problems).append(check.message)
    if state.digest is None or state.ruleset_text is None:  # no ruleset to read the contracts of
        return result
    target = ref or cohort_id
    resolved = resolve_ref(repo, target, layout, ruleset_fallback=False)
    result.checked_against = f"{target} ({str(resolved.commit.id)[:12]})"
    loaded = load_tree(gittree.GitTree(repo, resolved.commit, target), layout=layout)
    path = layout.ruleset_path(cohort_id)
    ruleset = loaded.catalog.rulesets.get(cohort_id) or parse_ruleset(state.ruleset_text, path)
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
    chain = loaded.catalog.suite.policies.seed_beacon if loaded.catalog.suite is not None else None
    result.provenance = set_provenance(ruleset.seed_sets, chain)
    passed, problems = derived_seed_results(loaded.catalog, ruleset, released_rulesets(repo, layout))
    result.passed.extend(passed)
    result.problems.extend(problems)
    if problems and not result.failed_check:
        result.failed_check = "seeds-underived"
    shipped = shipped_seed_results(ruleset, installed_loadgen)
    result.passed.extend(shipped.passed)
    result.problems.extend(shipped.problems)
    result.unchecked.extend(shipped.unchecked)
    if shipped.problems and not result.failed_check:
        result.failed_check = "seeds-not-shipped"
    return result
