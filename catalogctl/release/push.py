"""Pushing a release: what `freeze --push` and `tag --push` may push, checked before anything is
written; the push itself; and what a failed push says (what exists here, the commands that
finish the release).

A freeze that makes its own commit pushes the branch (when the remote's lacks the release
commit), then the tag. A release tagged on a merged ruleset (`catalogctl tag`, or `freeze` run
again after the merge) pushes the tag and never a branch: its commit reached the default branch
by a pull request, and a push of the branch would be a release without one (or, on a protected
branch, a refusal that comes after the tag was made). Every precondition is checked on the
remote's refs before the first write, so a refusal leaves refs, index and files as they were.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from catalogctl.errors import RemoteProblem, RemoteTimeout, RemoteUnreachable, UsageError
from catalogctl.io import gitremote, gitrepo, gittags
from catalogctl.io.urls import redact_url


def _short(ref: str) -> str:
    return ref.removeprefix("refs/heads/")


def _commit12(commit: gitrepo.Commit) -> str:
    return str(commit.id)[:12]


def on_remote_branch(repo: gitrepo.Repository, commit: str, tip: str | None) -> bool:
    """Whether the remote's branch tip `tip` is `commit` or has it in its history (a merged pull
    request): then only the tag needs pushing."""
    return tip is not None and gitrepo.has_commit(repo, tip) and gitrepo.is_ancestor(repo, commit, tip)


def _pushed_to(repo: gitrepo.Repository, remote: str) -> str:
    """The repository a push to `remote` changes, whose refs every check reads: a named remote's
    pushurl when it has one, since libgit2 lists a named remote's refs at its url."""
    try:
        pushurl = repo.remotes[remote].push_url
    except (KeyError, ValueError):
        return remote
    return str(pushurl) if pushurl else remote


@dataclass
class Pusher:
    """The pushes of one release to `remote`; `tag_only`: the tag, never a branch; `ruleset`:
    the path of the cohort's ruleset."""

    repo: gitrepo.Repository
    remote: str
    cohort: str
    tag_only: bool
    failpoint: Callable[[str], None]
    ruleset: str

    @property
    def shown(self) -> str:
        return redact_url(self.remote)

    @property
    def tag_ref(self) -> str:
        return f"refs/tags/{self.cohort}"

    def listing(self, commit: str | None) -> gitremote.RemoteListing:
        """The remote's refs; refused when it has the tag at another commit than `commit` (None: a
        commit not made yet), since pygit2 would silently move it."""
        listing = gitremote.remote_listing(self.repo, _pushed_to(self.repo, self.remote))
        there = listing.refs.get(self.tag_ref)
        if there is not None and there != commit:
            ours = commit[:12] if commit is not None else "none yet"
            raise RemoteProblem(
                f"`{self.shown}` already has tag `{self.cohort}` at {there[:12]} (ours: {ours})",
                "a published tag never moves: do not delete it or force-fetch it; ask the maintainers which "
                "commit is the release",
            )
        return listing

    def check_new_commit(self, head: gitrepo.Commit) -> None:
        """Before a freeze commits on `head`: the remote's branch must be `head` or in its history.
        A clone behind the remote (its branch has `head` and more) would commit, tag, then be refused."""
        refs = self.listing(None).refs
        branch = gitrepo.branch_name(self.repo)
        there = refs.get(branch)
        if there is not None and not gitrepo.contains(self.repo, head, there):
            raise self._behind(branch, there, str(head.id))

    def check(self, commit: gitrepo.Commit, will_tag: bool) -> list[str]:
        """Before anything is written: refuse a push that cannot succeed or that a tag-only
        release must not make; returns the refspecs the push will send, in order."""
        release = str(commit.id)
        listing = self.listing(release)
        if listing.refs.get(self.tag_ref) == release:
            self._require_ours(listing, release)
            return []  # published: a rerun after success pushes nothing
        tagged = will_tag or gittags.tag_state(self.repo, self.cohort) is not None
        if self.tag_only:
            self._require_default_branch_has(release, listing)
            return [f"{self.tag_ref}:{self.tag_ref}"] if tagged else []
        branch = gitrepo.branch_name(self.repo)
        there = listing.refs.get(branch)
        specs = [f"{self.tag_ref}:{self.tag_ref}"] if tagged else []
        if on_remote_branch(self.repo, release, there):
            return specs  # the remote's branch has the release (a merged pull request): only the tag goes
        if there is not None and not gitrepo.contains(self.repo, commit, there):
            raise self._behind(branch, there, release)
        return [f"{release}:{branch}", *specs]  # the release commit, not whatever the branch holds now

    def push(self, commit: gitrepo.Commit, will_tag: bool) -> list[str]:
        """Push what `check` plans, the branch before the tag; returns the refs pushed."""
        release = str(commit.id)
        specs = self.check(commit, will_tag)
        pushed: list[str] = []
        for spec in [s for s in specs if not s.startswith(f"{self.tag_ref}:")]:
            gitremote.push(self.repo, self.remote, [spec])
            pushed.append(spec.split(":", 1)[1])
        self.failpoint("push")
        for spec in [s for s in specs if s.startswith(f"{self.tag_ref}:")]:
            listing = self.listing(release)  # again, right before: pygit2 would move a remote tag
            if self.tag_only:  # and the default branch may have lost the commit since the check
                self._require_default_branch_has(release, listing)
            gitremote.push(self.repo, self.remote, [spec])
            pushed.append(self.tag_ref)
        if not pushed:
            return pushed
        after = gitremote.remote_refs(self.repo, _pushed_to(self.repo, self.remote))
        tag_there = after.get(self.tag_ref)
        if will_tag and tag_there != release:
            raise RemoteProblem(
                f"after the push, `{self.shown}` has tag `{self.cohort}` at {(tag_there or 'nothing')[:12]}, "
                f"not {release[:12]}"
            )
        branch = pushed[0] if pushed[0].startswith("refs/heads/") else None
        if branch is not None and not on_remote_branch(self.repo, release, after.get(branch)):
            raise RemoteProblem(f"after the push, `{self.shown}` does not show {release[:12]} on {branch}")
        return pushed

    def _require_ours(self, listing: gitremote.RemoteListing, release: str) -> None:
        """The remote's tag at the release commit is published only if it is the tag object here:
        another (lightweight, unsigned, someone else's) is no release this run may call its own."""
        there = listing.tag_objects.get(self.tag_ref, "")
        made = gittags.tag_object(self.repo, self.cohort)
        state = gittags.tag_state(self.repo, self.cohort)
        ours = made.id if made is not None else state.commit if state is not None else None
        if there == ours:
            return
        never = "a published tag never moves: ask the maintainers if it is not the release"
        if ours is None:
            raise RemoteProblem(
                f"`{self.shown}` already has tag `{self.cohort}` at {release[:12]} (as {there[:12]}), which this clone "
                "does not have: nothing was tagged",
                f"fetch it (git fetch {self.shown} tag {self.cohort}) and check it (catalogctl verify {self.cohort}); "
                + never,
            )
        raise RemoteProblem(
            f"`{self.shown}` has tag `{self.cohort}` as {there[:12]}, not as the tag {ours[:12]} here, both at "
            f"{release[:12]}: nothing was pushed",
            never,
        )

    def _behind(self, branch: str, there: str, ours: str) -> RemoteProblem:
        name = _short(branch)
        return RemoteProblem(
            f"`{self.shown}` has {name} at {there[:12]}, which {ours[:12]} does not contain: "
            "the push would be refused; nothing was written",
            f"bring {name} up to date (git pull --rebase {self.shown} {name}), then rerun freeze",
        )

    def _require_default_branch_has(self, release: str, listing: gitremote.RemoteListing) -> None:
        """A tag-only release: the remote's default branch must have the commit already."""
        default = listing.default_branch
        name, there = _short(default), listing.refs.get(default)
        known = there is not None and gitrepo.has_commit(self.repo, there)
        if known and there is not None and gitrepo.is_ancestor(self.repo, release, there):
            return
        what = f"{release[:12]} (the commit that added {self.ruleset})"
        done = "nothing was pushed" if gittags.tag_state(self.repo, self.cohort) is not None else "nothing was tagged"
        rerun = f"catalogctl tag {self.cohort} --push {self.shown}"
        if there is not None and not known:
            raise UsageError(
                f"`{self.shown}` has {name} at {there[:12]}, which this clone has not fetched: it may or may not "
                f"contain {what}; `tag` pushes the tag, never a branch; {done}",
                f"fetch it first (git pull {self.shown} {name}), then rerun: {rerun}",
            )
        state = f"has no branch {name} to hold" if there is None else f"has {name} at {there[:12]}, which lacks"
        holders = [
            _short(ref)
            for ref, tip in sorted(listing.refs.items())
            if ref.startswith("refs/heads/")
            and ref != default
            and gitrepo.has_commit(self.repo, tip)
            and gitrepo.is_ancestor(self.repo, release, tip)
        ]
        if holders:
            merge = f"merge `{holders[0]}` into {name} on `{self.shown}` (its pull request) first"
        else:
            merge = (
                f"push it on a release branch (git push {self.shown} {release[:12]}:refs/heads/release/{self.cohort}) "
                f"and merge its pull request into {name} first"
            )
        raise UsageError(
            f"`{self.shown}` {state} {what}: `tag` pushes the tag, never a branch; {done}",
            f"{merge}, or, if {name} takes direct pushes, push it yourself (git push {self.shown} {name}); "
            f"then: git pull && {rerun}",
        )


def push_failure(
    repo: gitrepo.Repository,
    exc: RemoteProblem | RemoteUnreachable,
    cohort: str,
    remote: str,
    commit: gitrepo.Commit,
    rerun: str,
) -> RemoteProblem | RemoteUnreachable:
    """`exc` (the same class, so the same exit code) saying what exists locally and the exact
    commands that finish the release: `git push`, or `rerun` (the catalogctl command) with --push."""
    shown, branch = redact_url(remote), gitrepo.branch_name(repo)
    try:  # a remote that did not answer in time is not asked again: that would wait a second deadline
        there = None if isinstance(exc, RemoteTimeout) else gitremote.remote_refs(repo, remote).get(branch)
    except (RemoteProblem, RemoteUnreachable):
        there = None  # unknown: the command below pushes the branch too, which is harmless when it is there
    tagged = gittags.tag_state(repo, cohort) is not None
    name = branch.removeprefix("refs/heads/")
    here = f"commit {_commit12(commit)} on {name}" + (f", tagged `{cohort}`" if tagged else "")
    refs = [] if on_remote_branch(repo, str(commit.id), there) else [f"{_commit12(commit)}:{branch}"]
    refs += [f"refs/tags/{cohort}"] if tagged else []
    finish = f"git push {shown} {' '.join(refs)}, or rerun: {rerun} --push {shown}"
    hint = f"finish it: {finish}"
    if "non-bare" in str(exc):
        hint = (
            f"`{shown}` is a clone with a working tree: libgit2 pushes only to bare repositories (and git refuses "
            "to update a branch checked out there); push to the bare repository or server the team shares "
            f"instead: {finish.replace(shown, 'REMOTE')}"
        )
    elif isinstance(exc, RemoteProblem) and refs and refs[0].endswith(f":{branch}"):
        # A refused branch is often a protected one: the release then goes through a pull request.
        untag = f"git tag -d {cohort}, " if tagged else ""
        hint += (
            f"; if `{name}` is protected: {untag}git push {shown} {_commit12(commit)}:refs/heads/release/{cohort}, "
            f"merge that pull request, then on `{name}`: catalogctl tag {cohort} --push {shown}"
        )
    if isinstance(exc, RemoteTimeout):
        hint += f"; {exc.hint}"
    return type(exc)(f"{exc}; locally nothing is lost: {here}", hint)
