"""Frozen cohorts as releases: the changelog section of a freeze, the list of cohorts with the
state of their tags, and the verification of one release."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Literal

from . import gitrepo
from .catalog import Catalog, load_tree
from .cohorts import Cohort
from .contract import contract_digest
from .errors import CatalogError, UsageError
from .schema import Ruleset

TagStatus = Literal["matches", "present", "moved", "missing"]


def changelog_section(
    repo: gitrepo.Repository, catalog: Catalog, ruleset: Ruleset, previous: Ruleset | None, digest: str
) -> str:
    """The CHANGELOG.md section of a cohort: its benchmarks and digests, its seed sets, and the
    semantic diff of the catalog since the previous cohort."""
    lines = [
        f"## {ruleset.cohort}",
        "",
        f"Submissions on {ruleset.submission_date:%A %Y-%m-%d}"
        + (f" · previous cohort {ruleset.previous}" if ruleset.previous else " · the first cohort")
        + f" · ruleset digest `{digest}`",
        "",
        "| benchmark | contract digest | since the previous cohort |",
        "| --- | --- | --- |",
    ]
    before = {b.id: b.digest for b in previous.benchmarks} if previous else {}
    for entry in ruleset.benchmarks:
        if previous is None:
            since = "–"
        elif entry.id not in before:
            since = "added"
        else:
            since = "identical" if before[entry.id] == entry.digest else "contract changed"
        lines.append(f"| `{entry.id}` | `{entry.digest}` | {since} |")
    for ident in sorted(before.keys() - {b.id for b in ruleset.benchmarks}):
        lines.append(f"| `{ident}` | – | removed |")
    sets = []
    for seed_set in ruleset.seed_sets:
        new = "new, " if seed_set.introduced_in == ruleset.cohort else ""
        sets.append(f"**{seed_set.id}** ({new}{seed_set.introduced_in} to {seed_set.valid_through})")
    lines += ["", "Seed sets: " + ", ".join(sets) + "."]
    if previous is not None:
        lines += ["", _catalog_diff(repo, previous.cohort)]
    return "\n".join(lines).rstrip() + "\n"


def _catalog_diff(repo: gitrepo.Repository, previous: str) -> str:
    from .diff import diff_trees
    from .render_diff import diff_markdown

    old = gitrepo.resolve_ref(repo, previous)
    head = gitrepo.head(repo)
    report = diff_trees(
        gitrepo.GitTree(repo, old.commit, previous, old.note), gitrepo.GitTree(repo, head, "HEAD"), previous, "HEAD"
    )
    return diff_markdown(report, heading="###").rstrip()


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
    """The state of a cohort's tag: matches (annotated, at the commit that added the ruleset,
    carrying its digest), present (there, but lightweight or without the digest), moved (at
    another commit), missing. Also the tag's commit and the ruleset's commit."""
    from .freeze import digest_in_tag, ruleset_digest

    tag = gitrepo.tag_state(repo, cohort)
    added = gitrepo.commit_adding(repo, f"rulesets/{cohort}.yaml")
    ruleset_commit = str(added.id) if added else None
    if tag is None:
        return "missing", None, ruleset_commit
    if tag.commit != ruleset_commit:
        return "moved", tag.commit, ruleset_commit
    if not tag.annotated or ruleset_text is None or digest_in_tag(tag.message) != ruleset_digest(ruleset_text):
        return "present", tag.commit, ruleset_commit
    return "matches", tag.commit, ruleset_commit


def list_cohorts(repo: gitrepo.Repository, catalog: Catalog) -> list[CohortInfo]:
    """Every frozen cohort of the catalog, oldest first."""
    out: list[CohortInfo] = []
    for cohort_id in sorted(catalog.rulesets, key=Cohort.parse):
        ruleset = catalog.rulesets[cohort_id]
        cohort = Cohort.parse(cohort_id)
        text = catalog.locate("ruleset", cohort_id).document.text.encode("utf-8")
        status, tag_commit, ruleset_commit = tag_status(repo, cohort_id, text)
        valid = [
            s.id for s in ruleset.seed_sets if Cohort.parse(s.introduced_in) <= cohort <= Cohort.parse(s.valid_through)
        ]
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
    """Check a release: its tag exists, is annotated, points at the commit that added the
    ruleset and carries its digest, and every contract digest in the ruleset matches the
    contracts at the tag (or at `ref`)."""
    from .freeze import digest_in_tag, ruleset_digest

    try:
        Cohort.parse(cohort_id)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    result = Verification(cohort_id)
    tag = gitrepo.tag_state(repo, cohort_id)
    if tag is None:
        result.problems.append(f"tag `{cohort_id}` is missing")
        return result
    result.tag_commit = tag.commit
    tag_commit = gitrepo.commit_by_id(repo, tag.commit)
    path = f"rulesets/{cohort_id}.yaml"
    if not tag.annotated:
        result.problems.append(f"tag `{cohort_id}` is lightweight: a release tag is annotated")
    else:
        result.passed.append("the tag is annotated")
    added = gitrepo.commit_adding(repo, path, tag_commit)
    if added is None:
        result.problems.append(f"{tag.commit[:12]} (the tag) has no {path} in its history")
        return result
    if str(added.id) != tag.commit:
        result.problems.append(
            f"tag `{cohort_id}` points at {tag.commit[:12]}, but {path} was added by {str(added.id)[:12]}: "
            "the tag moved"
        )
    else:
        result.passed.append(f"the tag points at {tag.commit[:12]}, the commit that added {path}")
    ruleset_text = gitrepo.read_blob(tag_commit, path)
    digest = ruleset_digest(ruleset_text)
    carried = digest_in_tag(tag.message) if tag.annotated else None
    if tag.annotated and carried != digest:
        result.problems.append(f"the tag carries ruleset digest {carried or 'none'}, but the ruleset's is {digest}")
    elif tag.annotated:
        result.passed.append(f"the tag carries the ruleset's digest {digest}")
    target = ref or cohort_id
    resolved = gitrepo.resolve_ref(repo, target, ruleset_fallback=False)
    result.checked_against = f"{target} ({str(resolved.commit.id)[:12]})"
    loaded = load_tree(gitrepo.GitTree(repo, resolved.commit, target))
    ruleset = loaded.catalog.rulesets.get(cohort_id) or Ruleset.model_validate(_ruleset_data(ruleset_text, path))
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


def _ruleset_data(text: bytes, path: str) -> object:
    from .yamlio import parse_document

    return parse_document(path, text).data
