"""`preflight`: before a run, prove the checkout is the cohort's release, locally and on the
remote, then resolve the submission. It fails closed: the first check that fails stops it with a
specific code (see `errors.CHECK_EXIT_CODES`), and nothing is written.

Unlike read-only verbs, preflight never finds a cohort by its ruleset's commit: the release
tag must exist, be annotated and carry the ruleset's digest.
"""

from __future__ import annotations

import datetime as dt
import shlex
from pathlib import Path

from catalogctl import words
from catalogctl.catalog.config import config_for, layout_for
from catalogctl.catalog.layout import Layout
from catalogctl.catalog.loader import load_tree
from catalogctl.catalog.loadgen_seeds import installed_loadgen
from catalogctl.errors import (
    CatalogError,
    CheckFailed,
    GitHubProblem,
    HistoryIncomplete,
    RemoteTimeout,
    RemoteUnreachable,
)
from catalogctl.io import gitremote, gitrepo, gittags, gittree
from catalogctl.io.http import GitHubClient, github_repository
from catalogctl.io.urls import local_path, redact_url
from catalogctl.model.documents.resolved import RemoteVerification, ResolvedConfig
from catalogctl.release.beacon_naming import released_rulesets
from catalogctl.release.ruleset import parse_ruleset
from catalogctl.release.seed_provenance import derived_seed_results, shipped_seed_results
from catalogctl.release.statement import ReleaseState, require_release
from catalogctl.release.trust import SignatureFlags, Trust, trust_for
from catalogctl.run.resolve import read_submission, resolve_at, signer_of
from catalogctl.run.seal import sealed


def _short(commit: str) -> str:
    return commit[:12]


def check_checkout(
    repo: gitrepo.Repository, cohort: str, layout: Layout, trust: Trust | None = None
) -> tuple[ReleaseState, gitrepo.Commit]:
    """The release and its commit, after checking that it is a release (signed, when `trust` or
    the suite's policy requires it) and that HEAD is exactly it, its catalog (in `layout`) clean."""
    state, release = require_release(repo, cohort, layout, trust)
    head = gitrepo.head(repo)
    if head.id != release.id:
        ahead, behind = gitrepo.ahead_behind(repo, head, release)
        where = (
            f"{words.count(ahead, 'commit')} ahead of"
            if ahead and not behind
            else f"{words.count(behind, 'commit')} behind"
            if behind and not ahead
            else f"elsewhere than ({ahead} ahead, {behind} behind)"
        )
        raise CheckFailed(
            "checkout-mismatch",
            f"HEAD ({_short(str(head.id))}) is {where} {cohort} ({_short(str(release.id))})",
            f"check out the release: git checkout {cohort}",
        )
    dirty = [p for p in gitrepo.dirty_paths(repo) if p.startswith(layout.catalog_paths)]
    if dirty:
        shown = ", ".join(dirty[:5]) + (f" and {len(dirty) - 5} more" if len(dirty) > 5 else "")
        raise CheckFailed(
            "catalog-dirty",
            f"the catalog has uncommitted changes: {shown}",
            "run exactly the release: git stash -u, or a clean checkout",
        )
    return state, release


def check_derived_seeds(repo: gitrepo.Repository, state: ReleaseState, release: gitrepo.Commit, layout: Layout) -> None:
    """Every seed set of the release derived from a beacon round (or due to be: the release
    before named one) follows from the round its ruleset records (`seeds-underived` otherwise):
    checked offline, before anything runs."""
    if state.ruleset_text is None:
        return
    released = released_rulesets(repo, layout)
    ruleset = parse_ruleset(state.ruleset_text, layout.ruleset_path(state.cohort))
    before = released(ruleset.previous) if ruleset.previous is not None else None
    if all(s.derived_from is None for s in ruleset.seed_sets) and (before is None or before.next_seed_round is None):
        return  # no set derived, or due to be: no catalog to load
    loaded = load_tree(gittree.GitTree(repo, release, state.cohort), layout=layout)
    _, problems = derived_seed_results(loaded.catalog, ruleset, released)
    if problems:
        raise CheckFailed(
            "seeds-underived",
            problems[0],
            f"do not run with these seeds; `catalogctl verify {state.cohort}` lists every set, and the README's "
            '"Seeds from a public beacon" says how to re-derive one by hand',
        )


def check_shipped_seeds(state: ReleaseState, layout: Layout) -> None:
    """Every seed set of the release imported from a LoadGen release holds what that release's
    mlperf.conf sets, where that release is installed (`seeds-not-shipped` otherwise); elsewhere
    `catalogctl verify` says it could not compare."""
    if state.ruleset_text is None:
        return
    ruleset = parse_ruleset(state.ruleset_text, layout.ruleset_path(state.cohort))
    problems = shipped_seed_results(ruleset, installed_loadgen).problems
    if problems:
        raise CheckFailed(
            "seeds-not-shipped",
            problems[0],
            f"do not run with these seeds; `catalogctl verify {state.cohort}` lists every set, and "
            "docs/explanation/seeds.md says what a set imported from LoadGen holds",
        )


# What to say after how to fix the remote: the escape that weakens the check comes last.
LAST_RESORT = "as a last resort, --offline skips this check, and the resolved config records it as not verified"


def _names(names: list[str]) -> str:
    """Remote names as a message lists them."""
    return ", ".join(f"`{n}`" for n in names)


def choose_remote(repo: gitrepo.Repository) -> str:
    """The remote to check when none is named: the current branch's upstream, else the only
    remote, else `origin`; several and none of these is a refusal that names them."""
    names = gitrepo.remote_names(repo)
    upstream = gitrepo.upstream_remote(repo)
    if upstream in names:
        return str(upstream)
    if upstream is not None and upstream != "." and any(c in upstream for c in "/:"):
        # git accepts a URL (or a path) as `branch.<name>.remote` and fetches and pushes it: so
        # is it checked (`.`, the clone itself, tracks a local branch and has no release to confirm).
        return upstream
    if len(names) == 1:
        return names[0]
    if "origin" in names:
        return "origin"
    if not names:
        raise CheckFailed(
            "remote-mismatch",
            "this clone has no remote to confirm the release on",
            f"add the catalog's repository (git remote add origin URL), or pass --remote URL; {LAST_RESORT}",
        )
    raise CheckFailed(
        "remote-mismatch",
        f"this clone has {len(names)} remotes ({_names(names)}) and the current branch tracks none of them: "
        "which one has the release?",
        "pass --remote NAME, or set the branch's upstream (git branch --set-upstream-to NAME/main)",
    )


def check_remote_exists(repo: gitrepo.Repository, remote: str, url: str) -> None:
    """A remote that names nothing is said to, before libgit2 calls it an unsupported protocol:
    a name that is not configured, or a path that does not exist."""
    names = gitrepo.remote_names(repo)
    if remote in names and remote == url:  # configured, yet libgit2 refuses to look the name up
        raise CheckFailed(
            "remote-mismatch",
            f"the remote `{remote}` has a name that git does not accept, so it cannot be read",
            f"rename it (git remote rename {shlex.quote(remote)} NEW-NAME), or pass --remote NAME|URL; {LAST_RESORT}",
        )
    path = local_path(url)
    if path is None or path.exists():
        return
    if remote == url and "/" not in remote and not remote.startswith("."):  # a bare word: meant as a name
        raise CheckFailed(
            "remote-mismatch",
            f"this clone has no remote named `{remote}` (its remotes: {_names(names) or 'none'})",
            f"pass --remote with one of them, or add it: git remote add {shlex.quote(remote)} URL",
        )
    fix = f"fix its URL (git remote set-url {shlex.quote(remote)} URL)" if remote in names else "fix the path"
    raise CheckFailed(
        "remote-mismatch",
        f"the remote `{redact_url(remote)}` is the path {path}, which does not exist",
        f"{fix}, or pass --remote NAME|URL; {LAST_RESORT}",
    )


def check_remote_branch(repo: gitrepo.Repository, remote: str, listing: gitremote.RemoteListing, release: str) -> None:
    """The release commit must be on the remote's default branch (its HEAD symref, else main):
    a tag force-pushed to a commit beside the protected branch is no release."""
    branch = listing.default_branch
    name = branch.removeprefix("refs/heads/")
    tip = listing.refs.get(branch)
    if tip is None:
        raise CheckFailed(
            "release-unreachable",
            f"the remote `{remote}` has no default branch `{name}` to find the release on",
            "ask the maintainers which branch is protected",
        )
    if not gitrepo.has_commit(repo, tip):
        raise HistoryIncomplete(
            f"the remote `{remote}`'s `{name}` is at {_short(tip)}, which this clone has not fetched",
            f"fetch it: git fetch {shlex.quote(remote)} {shlex.quote(name)}",
        )
    if not gitrepo.is_ancestor(repo, release, tip):
        raise CheckFailed(
            "release-unreachable",
            f"the release commit {_short(release)} is not on the remote `{remote}`'s default branch "
            f"`{name}` (at {_short(tip)})",
            "a release is a commit of the protected branch: do not run it; ask the maintainers which commit is it",
        )


def check_remote_signed(shown: str, listing: gitremote.RemoteListing, cohort: str, tag_object: str) -> None:
    """The remote's tag must be the very tag object whose signature was verified here: one
    replaced on the remote (unsigned, or signed by another key) at the same commit is refused."""
    there = listing.tag_objects.get(f"refs/tags/{cohort}")
    if there != tag_object:
        raise CheckFailed(
            "signature-invalid",
            f"the remote `{shown}` has tag `{cohort}` as tag object {_short(there or '')}, not the signed tag "
            f"{_short(tag_object)} verified here: its signature is not the one checked",
            f"do not run it; if the maintainers re-signed the release, fetch it (git fetch --force {shown} "
            f"tag {cohort}) and run preflight again",
        )


def check_remote(
    repo: gitrepo.Repository,
    remote: str,
    cohort: str,
    release: str,
    github: str | None = None,
    signed_tag: str | None = None,
) -> RemoteVerification:
    """The remote's tag must point at the release commit (and be the tag object `signed_tag`,
    when a signature was verified): by listing the remote's refs, and for a GitHub repository
    also through the REST API."""
    url = gitrepo.remote_url(repo, remote)
    shown = redact_url(remote)  # the name in messages: a URL given may carry a token
    check_remote_exists(repo, remote, url)
    try:
        listing = gitremote.remote_listing(repo, remote)
    except RemoteTimeout as exc:
        raise CheckFailed("remote-mismatch", f"the remote {exc}", f"{exc.hint}; {LAST_RESORT}") from None
    except CatalogError as exc:
        raise CheckFailed(
            "remote-mismatch",
            f"the remote `{shown}` is unreachable: {exc}",
            f"check its URL and your network or access (git ls-remote {shown}); {LAST_RESORT}",
        ) from None
    there = listing.refs.get(f"refs/tags/{cohort}")
    if there is None:
        raise CheckFailed(
            "remote-mismatch", f"the remote `{shown}` has no tag `{cohort}`", "push the release tag first"
        )
    if there != release:
        raise CheckFailed(
            "remote-mismatch",
            f"the remote `{shown}` has tag `{cohort}` at {_short(there)}, but the local tag is at {_short(release)}",
            "the tag moved on one side: do not run until the two agree",
        )
    if signed_tag is not None:
        check_remote_signed(shown, listing, cohort, signed_tag)
    check_remote_branch(repo, shown, listing, release)
    methods = ["git"]
    repository = github or github_repository(url)
    if repository is not None:
        try:
            on_github = GitHubClient.from_environment().tag_commit(repository, cohort)
        except (GitHubProblem, RemoteUnreachable) as exc:
            raise CheckFailed("remote-mismatch", f"GitHub could not confirm tag `{cohort}`: {exc}", exc.hint) from None
        if on_github != release:
            raise CheckFailed(
                "remote-mismatch",
                f"on GitHub ({repository}) tag `{cohort}` points at {_short(on_github)}, not {_short(release)}",
            )
        methods.append("github")
    return RemoteVerification(verified=True, remote=redact_url(url), methods=methods, note="")


def preflight(
    path: Path,
    submission_file: Path,
    *,
    remote: str | None = None,
    offline: bool = False,
    github: str | None = None,
    now: dt.datetime | None = None,
    signature: SignatureFlags | None = None,
) -> ResolvedConfig:
    """Every check a runner needs before it starts, then the resolved config (not written); in
    the layout the repository at `path` configures."""
    submission = read_submission(submission_file)
    layout, repo = layout_for(path), gitrepo.open_repository(path)
    cohort = submission.submission_ref.cohort
    state, release = check_checkout(repo, cohort, layout, trust_for(repo, signature))
    check_derived_seeds(repo, state, release, layout)
    check_shipped_seeds(state, layout)
    signed = state.signature if state.signature and state.signature.state == "good" else None
    tag = gittags.tag_object(repo, cohort) if signed else None
    unverified = RemoteVerification(verified=False, note="--offline: the remote was not contacted")
    # Local checks first: they are cheap and need no network.
    config = resolve_at(
        repo,
        release,
        submission,
        layout=layout,
        label=f"{cohort} ({_short(str(release.id))})",
        tag=cohort,
        remote=unverified,
        now=now,
    )
    provenance = config.provenance.model_copy(update={"signer": signer_of(state)})
    if not offline:
        # --remote, else the configuration's default-remote, else the one the clone implies.
        chosen = remote or config_for(gitrepo.work_dir(repo)).config.default_remote or choose_remote(repo)
        verification = check_remote(repo, chosen, cohort, str(release.id), github, tag.id if tag else None)
        provenance = provenance.model_copy(update={"remote": verification})
    return sealed(config.model_copy(update={"provenance": provenance}))
