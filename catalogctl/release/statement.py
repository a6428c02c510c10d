"""What a release is, stated once. Freeze, cohorts, verify, resolve and preflight all ask here.

A cohort is released when its tag exists, is annotated, points at the commit that added
`rulesets/<cohort>.yaml` (in the tag's own history), that commit is on the default branch (the
branch `origin/HEAD` names, else `main`: local or remote-tracking), and the tag carries that
ruleset's digest. The checks are made in that order; one that fails makes the later ones
meaningless, except that a lightweight tag is still placed. A tag on a sibling commit that
re-adds an edited ruleset holds every clause but the branch one.

When the suite at the release commit requires it (`policies.releases.require_signature`), or the
caller asks, a last clause holds: the tag carries a good SSH signature by a signer of an
allowed-signers file that is not in the tree under check (see `signers`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from catalogctl.catalog.layout import Layout
from catalogctl.catalog.source import ruleset_commit
from catalogctl.errors import CatalogInvalid, CheckFailed, HistoryIncomplete
from catalogctl.io import gitrepo, gittags
from catalogctl.release.ruleset import digest_in_tag, ruleset_digest
from catalogctl.release.trust import SignatureCheck, Trust, check_signature, policy_requires

CheckName = Literal["tag", "annotated", "at-ruleset-commit", "on-default-branch", "digest", "signature"]

# The exit code (see `errors.CHECK_EXIT_CODES`) of a release whose first failing clause is this one.
_CHECK_CODE: dict[CheckName, str] = {"on-default-branch": "release-unreachable", "signature": "signature-invalid"}


@dataclass(frozen=True)
class ReleaseCheck:
    """One clause of the statement, held or not, in words."""

    name: CheckName
    ok: bool
    message: str
    hint: str = ""


@dataclass(frozen=True)
class ReleaseState:
    """A cohort's release as the repository shows it."""

    cohort: str
    tag: gittags.TagState | None
    checks: tuple[ReleaseCheck, ...]
    ruleset_commit: str | None = None  # the commit that added the ruleset, in the tag's history
    ruleset_text: bytes | None = None  # the ruleset at the tag
    digest: str | None = None  # the ruleset's digest
    signature: SignatureCheck | None = None  # when asked with a `Trust`, and the tag exists

    @property
    def ok(self) -> bool:
        """Whether the cohort is released: every clause holds."""
        return all(c.ok for c in self.checks)

    @property
    def problems(self) -> list[ReleaseCheck]:
        """The clauses that fail, in the statement's order."""
        return [c for c in self.checks if not c.ok]

    def failed(self, name: CheckName) -> bool:
        """Whether the clause `name` was checked and fails."""
        return any(c.name == name and not c.ok for c in self.checks)


def _short(commit: str) -> str:
    return commit[:12]


def _branch_name(ref: str) -> str:
    return ref.removeprefix("refs/heads/").removeprefix("refs/remotes/")


def _on_default_branch(repo: gitrepo.Repository, cohort: str, commit: str, path: str) -> ReleaseCheck:
    """Whether the tag's commit is on the default branch; a clone without it cannot tell."""
    tips = gitrepo.default_branch_tips(repo)
    if not tips:
        raise HistoryIncomplete(
            f"cannot tell whether tag `{cohort}` is on the default branch: this clone has neither `main` "
            "nor `origin/main`",
            "fetch it: git fetch origin main",
        )
    on = [ref for ref, tip in tips.items() if gitrepo.is_ancestor(repo, commit, tip)]
    for ref in on:  # on the branch, and its only copy there: a merge may bring in a second one
        adders = gitrepo.commits_adding(repo, path, gitrepo.commit_by_id(repo, tips[ref]))
        if len(adders) > 1:  # one adder that is not the tag's commit is "the tag moved", said above
            shown = ", ".join(_short(str(c.id)) for c in adders)
            return ReleaseCheck(
                "on-default-branch",
                False,
                f"{path} was added by {len(adders)} commits on `{_branch_name(ref)}` ({shown}): "
                "a ruleset is added once, by its freeze",
                "one of them is not the release (a merge can bring in a second copy unseen): ask the maintainers",
            )
    if on:
        return ReleaseCheck(
            "on-default-branch", True, f"the tag's commit is on the default branch `{_branch_name(on[0])}`"
        )
    where = ", ".join(f"`{_branch_name(ref)}` at {_short(tip)}" for ref, tip in tips.items())
    return ReleaseCheck(
        "on-default-branch",
        False,
        f"tag `{cohort}` points at {_short(commit)}, which is not on the default branch ({where})",
        "a release is a commit of the protected branch: do not run it; ask the maintainers which commit is it",
    )


def state_release(repo: gitrepo.Repository, cohort: str, layout: Layout, trust: Trust | None = None) -> ReleaseState:
    """Check the statement for `cohort` (its ruleset where `layout` puts it), every clause that
    can be checked; with `trust`, also read the tag's signature, a clause when the caller or the
    release's suite policy requires it."""
    state = _unsigned_state(repo, cohort, layout.ruleset_path(cohort))
    if trust is None or state.tag is None:
        return state
    required = trust.required or policy_requires(gitrepo.commit_by_id(repo, state.tag.commit), layout)
    signature = check_signature(repo, cohort, trust, required)
    checks = state.checks
    if required:
        checks += (ReleaseCheck("signature", signature.state == "good", signature.message, signature.hint),)
    return dataclasses.replace(state, checks=checks, signature=signature)


def _annotated(cohort: str, tag: gittags.TagState) -> ReleaseCheck:
    """The "annotated" clause: a tag object as git makes them, tagger date included."""
    if tag.malformed is not None:
        return ReleaseCheck("annotated", False, f"tag `{cohort}` is not a tag git makes: {tag.malformed}")
    if tag.annotated:
        return ReleaseCheck("annotated", True, "the tag is annotated")
    return ReleaseCheck("annotated", False, f"tag `{cohort}` is lightweight: a release tag is annotated")


def _unsigned_state(repo: gitrepo.Repository, cohort: str, path: str) -> ReleaseState:
    """Every clause of the statement but the signature's (`path`: the cohort's ruleset)."""
    tag = gittags.tag_state(repo, cohort)
    if tag is None:
        gitrepo.require_full_history(repo, path)  # a shallow clone fetches few tags
        if gitrepo.tags_not_fetched(repo):  # every release would read "missing": say why instead
            raise HistoryIncomplete(
                f"the release tag `{cohort}` is not here: this clone does not fetch tags (remote.origin.tagopt "
                "is --no-tags)",
                "fetch them: git fetch --tags origin",
            )
        missing = ReleaseCheck(
            "tag", False, f"the release tag `{cohort}` is missing", "fetch it: git fetch --tags origin"
        )
        return ReleaseState(cohort, None, (missing,))
    checks = [ReleaseCheck("tag", True, f"tag `{cohort}` exists")]
    checks.append(_annotated(cohort, tag))
    tagged = gitrepo.commit_by_id(repo, tag.commit)
    added = ruleset_commit(repo, path, tagged)
    if added is None:
        checks.append(
            ReleaseCheck(
                "at-ruleset-commit", False, f"tag `{cohort}` points at {_short(tag.commit)}, which has no {path}"
            )
        )
        return ReleaseState(cohort, tag, tuple(checks))
    if str(added.id) != tag.commit:
        checks.append(
            ReleaseCheck(
                "at-ruleset-commit",
                False,
                f"tag `{cohort}` points at {_short(tag.commit)}, but {path} was added by {_short(str(added.id))}: "
                "the tag moved",
                "a release tag never moves: ask the maintainers which commit is the release",
            )
        )
    else:
        checks.append(
            ReleaseCheck(
                "at-ruleset-commit", True, f"the tag points at {_short(tag.commit)}, the commit that added {path}"
            )
        )
    checks.append(_on_default_branch(repo, cohort, tag.commit, path))
    text = gitrepo.read_blob_or_none(tagged, path)
    if text is None:
        checks.append(ReleaseCheck("digest", False, f"{path} was deleted at the tag's commit {_short(tag.commit)}"))
        return ReleaseState(cohort, tag, tuple(checks), str(added.id))
    try:
        digest = ruleset_digest(text, path)
    except CatalogInvalid as exc:
        first = exc.diagnostics[0].message if exc.diagnostics else ""
        checks.append(ReleaseCheck("digest", False, f"{exc} at the tag: {first}".rstrip(": ")))
        return ReleaseState(cohort, tag, tuple(checks), str(added.id), text)
    if tag.annotated:
        carried = digest_in_tag(tag.message)
        if carried != digest:
            message = f"tag `{cohort}` carries ruleset digest {carried or 'none'}, but the ruleset's is {digest}"
            checks.append(ReleaseCheck("digest", False, message))
        else:
            checks.append(ReleaseCheck("digest", True, f"the tag carries the ruleset's digest {digest}"))
    return ReleaseState(cohort, tag, tuple(checks), str(added.id), text, digest)


def require_release(
    repo: gitrepo.Repository, cohort: str, layout: Layout, trust: Trust | None = None
) -> tuple[ReleaseState, gitrepo.Commit]:
    """The release commit of `cohort`; the first clause that fails is `CheckFailed`: "tag-invalid",
    "release-unreachable" for a commit off the default branch, "signature-invalid"."""
    state = state_release(repo, cohort, layout, trust)
    if not state.ok:
        problem = state.problems[0]
        raise CheckFailed(_CHECK_CODE.get(problem.name, "tag-invalid"), problem.message, problem.hint)
    assert state.tag is not None
    return state, gitrepo.commit_by_id(repo, state.tag.commit)
