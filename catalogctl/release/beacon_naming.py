"""The release that named a beacon round, as its tag carries it (README, "Seeds from a public
beacon"). The round a set is derived from, and when it was named, are what the naming release
published: a copy of its ruleset in a later tree is anyone's to edit (a round already public,
named "before" it was due), so `freeze`, `verify` and `preflight` read the tag's."""

from __future__ import annotations

from collections.abc import Callable

from catalogctl.catalog.layout import Layout
from catalogctl.errors import BeaconRoundRefused, CatalogError
from catalogctl.io import gitrepo, gittags
from catalogctl.model import Ruleset
from catalogctl.release.ruleset import parse_ruleset


def tagged_ruleset_text(repo: gitrepo.Repository, cohort: str, layout: Layout) -> bytes | None:
    """The bytes of `cohort`'s ruleset at its release tag; None without the tag or the file."""
    try:
        tag = gittags.tag_state(repo, cohort)
    except CatalogError:  # a tag that names no commit is no release
        return None
    commit = gitrepo.commit_by_id(repo, tag.commit) if tag is not None else None
    return gitrepo.read_blob_or_none(commit, layout.ruleset_path(cohort)) if commit is not None else None


def released_rulesets(repo: gitrepo.Repository, layout: Layout) -> Callable[[str], Ruleset | None]:
    """A cohort's ruleset as its release tag carries it (None without one), each read once."""
    seen: dict[str, Ruleset | None] = {}

    def released(cohort: str) -> Ruleset | None:
        if cohort not in seen:
            text = tagged_ruleset_text(repo, cohort, layout)
            try:
                seen[cohort] = parse_ruleset(text, layout.ruleset_path(cohort)) if text is not None else None
            except CatalogError:
                seen[cohort] = None
        return seen[cohort]

    return released


def check_naming_release(repo: gitrepo.Repository, layout: Layout, cohort: str, head: gitrepo.Commit) -> None:
    """Before a freeze derives from the round `cohort`'s release named: that release is tagged
    here, and HEAD holds its ruleset byte for byte as the tag does."""
    path = layout.ruleset_path(cohort)
    tagged = tagged_ruleset_text(repo, cohort, layout)
    if tagged is None:
        raise BeaconRoundRefused(
            f"the release of {cohort} names the beacon round of this set, but this repository has no release tag "
            f"`{cohort}` holding {path}: nothing was frozen",
            f"fetch the tags (git fetch --tags), or finish that release first (catalogctl tag {cohort})",
        )
    if gitrepo.read_blob_or_none(head, path) != tagged:
        raise BeaconRoundRefused(
            f"{path} is not the ruleset its release tag {cohort} carries: the round it names, and when, are the "
            "tag's; nothing was frozen",
            f"a frozen ruleset never changes: restore it (git checkout {cohort} -- {path}) and commit",
        )
