"""Finishing a release on a protected default branch: what `catalogctl tag`, and `freeze` run
again after the release pull request was merged, check before they tag.

Nobody commits to a protected branch: the freeze commit (`freeze --no-tag`) goes on a release
branch, the pull request is merged, and the tag is made on the default branch at the commit that
added `rulesets/<cohort>.yaml` there, the release statement's commit. A merge commit brings the
release branch's freeze commit itself in, so that commit is tagged; a squash writes a new commit
with the same files, and the squash commit is the one that added the ruleset. Before the tag is
made, that commit must be on the default branch, the ruleset must still be the one it added, and
the contracts it holds must have the digests the ruleset froze: a squash of a release branch cut
before another change to a benchmark holds both, and the tag would name contracts nobody froze.
"""

from __future__ import annotations

from catalogctl.catalog.contract import contract_digest
from catalogctl.catalog.diagnostics import errors_only
from catalogctl.catalog.layout import Layout
from catalogctl.catalog.loader import load_tree
from catalogctl.errors import (
    CatalogError,
    CatalogInvalid,
    HistoryIncomplete,
    UsageError,
)
from catalogctl.io import gitrepo, gittree
from catalogctl.release.ruleset import parse_ruleset, render_ruleset


def _short(commit: gitrepo.Commit | str) -> str:
    return (commit if isinstance(commit, str) else str(commit.id))[:12]


def _require_on_default_branch(repo: gitrepo.Repository, cohort: str, added: gitrepo.Commit, path: str) -> str:
    """The default branch `added` is on; refused when it is not on it (yet)."""
    tips = gitrepo.default_branch_tips(repo)
    for ref, tip in tips.items():
        if gitrepo.is_ancestor(repo, str(added.id), tip):
            return ref.removeprefix("refs/heads/").removeprefix("refs/remotes/")
    name = gitrepo.DEFAULT_BRANCH.removeprefix("refs/heads/")
    if tips:
        name = next(iter(tips)).removeprefix("refs/heads/").removeprefix("refs/remotes/origin/")
    raise UsageError(
        f"{_short(added)}, which added {path}, is not on the default branch `{name}`: "
        "a release is tagged on the default branch; nothing was tagged",
        f"merge the release pull request first, then on `{name}` (git switch {name} && git pull): "
        f"catalogctl tag {cohort}",
    )


def _require_unchanged(path: str, added: gitrepo.Commit, head: gitrepo.Commit) -> bytes:
    """The ruleset `added` added at `path`, which HEAD must still hold byte for byte."""
    text = gitrepo.read_blob(added, path)
    now = gitrepo.read_blob_or_none(head, path)
    if now != text:
        state = "deleted" if now is None else "edited"
        raise CatalogError(
            f"{path} was {state} after {_short(added)} added it (HEAD is {_short(head)}): a frozen ruleset never "
            "changes; nothing was tagged",
            f"restore the ruleset {_short(added)} added (git checkout {_short(added)} -- {path}) in a pull request",
        )
    return text


def _require_frozen_contracts(
    repo: gitrepo.Repository, cohort: str, added: gitrepo.Commit, text: bytes, layout: Layout
) -> str:
    """Refuse a commit whose contracts are not the ones the ruleset froze; a note when its catalog
    tree is another than the one frozen (files that change no contract, e.g. a squash over display
    edits)."""
    path = layout.ruleset_path(cohort)
    ruleset = parse_ruleset(text, path)
    if render_ruleset(ruleset, path).encode() != text:
        raise CatalogError(
            f"{path} at {_short(added)} is not byte for byte what freeze writes: nothing was tagged",
            "a ruleset is written by catalogctl freeze, never by hand: freeze the cohort again on a release branch",
        )
    result = load_tree(gittree.GitTree(repo, added, cohort), layout=layout)
    errors = errors_only(result.diagnostics)
    if errors:
        raise CatalogInvalid(f"the catalog at {_short(added)} is invalid: nothing was tagged", errors)
    found = []
    for entry in ruleset.benchmarks:
        if entry.id not in result.catalog.benchmarks:
            found.append(f"`{entry.id}` is not in the catalog there")
            continue
        digest = contract_digest(result.catalog, entry.id)
        if digest != entry.digest:
            found.append(f"`{entry.id}` has contract digest {digest[:19]}…, the ruleset froze {entry.digest[:19]}…")
    if found:
        raise CatalogError(
            f"the contracts at {_short(added)} are not the ones {path} froze: {'; '.join(found)}; nothing was tagged",
            "the merge brought another change to these contracts in with the ruleset (a squash of a branch cut "
            "before it?): ask the maintainers; a tag there would name contracts nobody froze",
        )
    suite_dir = layout.suite_dir
    tree = gitrepo.subtree_id(added, suite_dir)
    if tree != ruleset.catalog_tree:
        return (
            f"{suite_dir}/ at {_short(added)} is tree {tree[:12]}, not {ruleset.catalog_tree[:12]} as frozen: "
            "files that change no contract differ"
        )
    return ""


def check_merged(repo: gitrepo.Repository, cohort: str, added: gitrepo.Commit, layout: Layout) -> list[str]:
    """Refuse to tag `added` (the commit that added the cohort's ruleset, where `layout` puts it, on
    HEAD's branch) unless it is a release in all but its tag; the notes say what is tagged."""
    if gitrepo.tags_not_fetched(repo):  # the release tag may exist on the remote: never make a second one
        raise HistoryIncomplete(
            f"this clone does not fetch tags (remote.origin.tagopt is --no-tags): tag `{cohort}` may exist on the "
            "remote already; nothing was tagged",
            "fetch them first: git fetch --tags origin",
        )
    path = layout.ruleset_path(cohort)
    branch = _require_on_default_branch(repo, cohort, added, path)
    text = _require_unchanged(path, added, gitrepo.head(repo))
    notes = [f"{path} was added by {_short(added)} on `{branch}`: tagging that commit"]
    tree_note = _require_frozen_contracts(repo, cohort, added, text, layout)
    return notes + ([tree_note] if tree_note else [])
