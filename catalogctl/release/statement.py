"""What a release is, stated once. Freeze, cohorts, verify, resolve and preflight all ask here.

A cohort is released when its tag exists, is annotated, points at the commit that added
`rulesets/<cohort>.yaml` (in the tag's own history), and carries that ruleset's digest. The
checks are made in that order; one that fails makes the later ones meaningless, except that a
lightweight tag is still placed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from catalogctl.catalog.layout import ruleset_path
from catalogctl.errors import CatalogInvalid, CheckFailed
from catalogctl.io import gitrepo
from catalogctl.release.ruleset import digest_in_tag, ruleset_digest

CheckName = Literal["tag", "annotated", "at-ruleset-commit", "digest"]


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
    tag: gitrepo.TagState | None
    checks: tuple[ReleaseCheck, ...]
    ruleset_commit: str | None = None  # the commit that added the ruleset, in the tag's history
    ruleset_text: bytes | None = None  # the ruleset at the tag
    digest: str | None = None  # the ruleset's digest

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


def state_release(repo: gitrepo.Repository, cohort: str) -> ReleaseState:
    """Check the statement for `cohort`, every clause that can be checked."""
    tag = gitrepo.tag_state(repo, cohort)
    if tag is None:
        missing = ReleaseCheck(
            "tag", False, f"the release tag `{cohort}` is missing", "fetch it: git fetch --tags origin"
        )
        return ReleaseState(cohort, None, (missing,))
    checks = [ReleaseCheck("tag", True, f"tag `{cohort}` exists")]
    if tag.annotated:
        checks.append(ReleaseCheck("annotated", True, "the tag is annotated"))
    else:
        checks.append(ReleaseCheck("annotated", False, f"tag `{cohort}` is lightweight: a release tag is annotated"))
    path = ruleset_path(cohort)
    tagged = gitrepo.commit_by_id(repo, tag.commit)
    added = gitrepo.commit_adding(repo, path, tagged)
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


def require_release(repo: gitrepo.Repository, cohort: str) -> tuple[ReleaseState, gitrepo.Commit]:
    """The release commit of `cohort`; the first clause that fails is `CheckFailed("tag-invalid")`."""
    state = state_release(repo, cohort)
    if not state.ok:
        problem = state.problems[0]
        raise CheckFailed("tag-invalid", problem.message, problem.hint)
    assert state.tag is not None
    return state, gitrepo.commit_by_id(repo, state.tag.commit)
