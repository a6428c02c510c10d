"""`tag`: the release tag of a cohort whose freeze commit reached the default branch by a pull
request (`freeze --no-tag` on a release branch, then the merge). The commit tagged is the one of
HEAD's history that added the cohort's ruleset, after `tagging.check_merged`; with `push`, the tag
is pushed alone, never a branch. Tagging and pushing are `publish`'s steps, shared with `freeze`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from catalogctl.catalog.source import ruleset_commit
from catalogctl.errors import UsageError
from catalogctl.io import gitrepo
from catalogctl.model.reports.release import FreezeResult
from catalogctl.release.publish import Failpoint, Publication, no_failpoint
from catalogctl.release.trust import SignatureFlags


@dataclass
class TagRequest:
    """What the maintainer asked of `tag`."""

    cohort: str
    push: str | None = None  # the remote the tag is pushed to
    message: str | None = None  # the tag's message
    dry_run: bool = False
    sign: bool = False
    signing_key: str | None = None  # default: git config user.signingKey
    signing_format: str | None = None  # ssh or openpgp; default: git config gpg.format, else ssh
    signature: SignatureFlags | None = None  # the trust a signed tag must pass (default: environment, git config)
    now: dt.datetime | None = None  # when the tag is signed (default: now)


def tag(path: Path, request: TagRequest, failpoint: Failpoint = no_failpoint) -> FreezeResult:
    """Tag the commit that added the cohort's ruleset in the history of HEAD in the repository at
    `path`, and push the tag (`request.push`); a tag that is there already is a no-op that says
    so. `failpoint(step)` is called after each step; tests use it to inject crashes."""
    release = Publication.open(
        path, request, failpoint, tag=True, push_branch=False, rerun=f"catalogctl tag {request.cohort}"
    )
    with release.locked():
        head = gitrepo.head(release.repo)
        added = ruleset_commit(release.repo, release.ruleset_rel)
        if release.tagged(added):
            assert added is not None
            return release.finish(added, "already-frozen")
        if added is None:
            raise UsageError(
                f"no commit in the history of HEAD ({str(head.id)[:12]}) added {release.ruleset_rel}: nothing to tag",
                f"freeze it first (catalogctl freeze {release.cohort} --no-tag on a release branch), merge the pull "
                "request, then tag on the default branch",
            )
        return release.finish(added, "tagged")
