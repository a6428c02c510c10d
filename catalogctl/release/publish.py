"""Publishing a release commit: its tag made (signed, or not) and pushed, with the branch or alone.
`freeze` ends here with the commit it made, or the one an interrupted freeze or a merged release
pull request left; `tag` with the commit a merged pull request brought in.

Both hold the repository-wide lock (`catalogctl-freeze.lock` in the git folder) for the whole
run. The tag is made last, locally, then pushed: the branch first when it goes too, then the tag,
with the remote's refs checked before and after (`push`). A signed tag is signed before anything
is written, so a key that cannot sign leaves the files, the index and every ref as they were. A
rerun finds where the last attempt stopped, and finishes it.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

from catalogctl.catalog.cohorts import Calendar, Cohort
from catalogctl.catalog.config import calendar_for, layout_for
from catalogctl.catalog.layout import CHANGELOG, Layout
from catalogctl.catalog.loader import load_tree
from catalogctl.errors import (
    CatalogError,
    EntityNotFound,
    EnvironmentProblem,
    RemoteProblem,
    RemoteUnreachable,
    UsageError,
)
from catalogctl.io import gitcommit, gitrepo, gittags, gittree, sshsig
from catalogctl.io.files import exclusive_lock
from catalogctl.io.urls import redact_url
from catalogctl.model.reports.release import FreezeResult
from catalogctl.release.plan import rerun_differences
from catalogctl.release.push import Pusher, push_failure
from catalogctl.release.ruleset import parse_ruleset, ruleset_digest, tag_message
from catalogctl.release.signing import Signer, require_signed, signer
from catalogctl.release.statement import state_release
from catalogctl.release.tagging import check_merged
from catalogctl.release.trust import SignatureFlags, check_signature, policy_requires, trust_for

Failpoint = Callable[[str], None]
SIGN_TRAILER = "Release-Tag: signed"  # in the release commit's message when its freeze signs the tag
Finished = Literal["resumed", "tagged", "already-frozen"]


def no_failpoint(step: str) -> None:
    """Production: nothing is injected."""


class Publishing(Protocol):
    """What a request says about the release tag and its push (`FreezeRequest`, `TagRequest`)."""

    @property
    def cohort(self) -> str: ...
    @property
    def push(self) -> str | None: ...
    @property
    def message(self) -> str | None: ...
    @property
    def dry_run(self) -> bool: ...
    @property
    def sign(self) -> bool: ...
    @property
    def signing_key(self) -> str | None: ...
    @property
    def signing_format(self) -> str | None: ...
    @property
    def signature(self) -> SignatureFlags | None: ...
    @property
    def now(self) -> dt.datetime | None: ...


def _unsigned(repo: gitrepo.Repository, name: str) -> bool:
    """Whether the annotated tag `name` carries no signature (a lightweight tag counts as unsigned)."""
    tag = gittags.tag_object(repo, name)
    return tag is None or sshsig.split(tag.raw).kind is None


@dataclass
class Publication:
    """One cohort's release tag and its push. `tag`: make the tag (`freeze --no-tag` makes
    none); `push_branch`: a push may send the branch too (`tag` never does: its commit reached the
    default branch by a pull request); `rerun`: the command that finishes the release; `layout`:
    the folders the repository configures, read once when it is opened."""

    repo: gitrepo.Repository
    cohort: Cohort
    calendar: Calendar
    layout: Layout
    asked: Publishing
    failpoint: Failpoint
    tag: bool
    push_branch: bool
    rerun: str
    notes: list[str] = field(default_factory=list)
    signer: Signer | None = None

    @classmethod
    def open(
        cls, path: Path, asked: Publishing, failpoint: Failpoint, *, tag: bool, push_branch: bool, rerun: str
    ) -> Publication:
        """The release of `asked.cohort` in the repository at `path`; a cohort the calendar does
        not have is refused first."""
        try:
            cohort = Cohort.parse(asked.cohort)
        except ValueError as exc:
            raise EntityNotFound(str(exc)) from None
        repo = gitrepo.open_repository(path)
        root = gitrepo.work_dir(repo)
        calendar = calendar_for(root)
        calendar.submission_date(cohort)
        return cls(repo, cohort, calendar, layout_for(root), asked, failpoint, tag, push_branch, rerun)

    @property
    def ruleset_rel(self) -> str:
        return self.layout.ruleset_path(self.cohort.id)

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """The repository-wide lock, no leftover git lock, and the signer ready (a dry run probes it)."""
        _, common = gitrepo.git_dirs(self.repo)
        with exclusive_lock(common / "catalogctl-freeze.lock", "another freeze"):
            self.check_locks()
            if self.asked.sign and self.tag:
                trust = trust_for(self.repo, self.asked.signature)
                self.signer = signer(self.repo, self.asked.signing_key, trust, self.asked.signing_format)
                if self.asked.dry_run:  # as the real run would check its signature
                    self.signer.probe(self.cohort.id, gitcommit.signature(self.repo, self.asked.now))
            yield

    def check_locks(self) -> None:
        repo = self.repo
        branch = repo.head.name if not repo.head_is_unborn and not repo.head_is_detached else "HEAD"
        names = ["index.lock", "HEAD.lock", f"refs/tags/{self.cohort}.lock", f"{branch}.lock"]
        locks = gitrepo.leftover_locks(repo, names)
        if locks:
            raise EnvironmentProblem(
                f"leftover lock file: {', '.join(locks)}",
                "another git process may be running; if none is, remove the lock yourself (catalogctl never does)",
            )

    def tagged(self, added: gitrepo.Commit | None) -> bool:
        """Whether the release tag exists; refused unless it is the release of `added` (the commit
        that added the ruleset in HEAD's history)."""
        tag = gittags.tag_state(self.repo, self.cohort.id)
        if tag is None:
            return False
        if added is None or tag.commit != str(added.id):
            where = (
                f"{str(added.id)[:12]}, which added {self.ruleset_rel}"
                if added
                else f"no commit (no {self.ruleset_rel} in HEAD's history)"
            )
            raise CatalogError(
                f"tag `{self.cohort}` points at {tag.commit[:12]}, but the release is {where}",
                "a published tag never moves: investigate before anything else",
            )
        release = state_release(self.repo, self.cohort.id, self.layout)
        if not release.ok:  # freeze and preflight agree: a tag that is not a release is not "frozen"
            problem = release.problems[0]
            raise CatalogError(
                f"tag `{self.cohort}` is at the release commit but is not a release: {problem.message}",
                "a published tag never moves: ask the maintainers before replacing it",
            )
        return True

    # -- a release commit that exists: tag it, push it ------------------------------------------

    def finish(
        self, commit: gitrepo.Commit, state: Finished, add: list[str] | None = None, remove: list[str] | None = None
    ) -> FreezeResult:
        """Tag and push a release commit that exists; `add` and `remove`: what the rerun asked,
        refused unless the release holds it already."""
        if state == "tagged":
            self.notes.extend(check_merged(self.repo, self.cohort.id, commit, self.layout))
            self.push_branch = False  # a merged release: its commit reached the branch by a pull request
        text = gitrepo.read_blob(commit, self.ruleset_rel).decode("utf-8")
        digest = ruleset_digest(text.encode())
        self.refuse_another_request(commit, text, state, add or [], remove or [])
        planned_push = self.pusher().check(commit, self.tag) if self.asked.push else []
        signed = self.sign_existing(commit, digest, state)
        if not self.asked.dry_run:
            self.repair_index()
        if state == "already-frozen":
            self.notes.append(f"{self.cohort} is already frozen at {str(commit.id)[:12]}: nothing to do")
        result = FreezeResult(
            cohort=self.cohort.id,
            state=state,
            ruleset_path=self.ruleset_rel,
            ruleset_text=text,
            ruleset_digest=digest,
            changelog_section="",
            commit=str(commit.id),
            tagged=state == "already-frozen",
            notes=self.notes,  # a copy: every note is in by now
            dry_run=self.asked.dry_run,
            push_remote=redact_url(self.asked.push) if self.asked.push else None,
            push_refspecs=planned_push,
        )
        self.record_signer(result)
        if self.asked.dry_run:
            return result
        return self.publish(commit, result, digest, signed)

    def record_signer(self, result: FreezeResult) -> None:
        if self.signer is not None:
            result.signing_key, result.signing_fingerprint = self.signer.key, self.signer.fingerprint
            result.signing_format = self.signer.format

    def sign_existing(self, commit: gitrepo.Commit, digest: str, state: Finished) -> bytes | None:
        """The signed tag a rerun will create (signed before it writes anything), None when it
        creates none or unsigned; a tag that exists unsigned is never replaced."""
        if state == "already-frozen":
            redo = (
                f"a tag never pushed may be deleted (git tag -d {self.cohort}) and frozen again with --sign; "
                "a published one never changes"
            )
            if self.signer is not None and _unsigned(self.repo, self.cohort.id):
                raise CatalogError(
                    f"tag `{self.cohort}` exists and is not signed: --sign cannot sign a tag that exists", redo
                )
            if policy_requires(commit, self.layout) and _unsigned(self.repo, self.cohort.id):  # e.g. tagged by hand
                raise CatalogError(
                    f"tag `{self.cohort}` exists and is not signed, but {self.layout.suite_file} at the release "
                    "requires signed "
                    "releases (policies.releases.require_signature): it is no release, and freeze does not push it",
                    redo,
                )
            self.refuse_untrusted_tag(commit, redo)
            return None
        if not self.tag:
            return None
        if self.signer is None and SIGN_TRAILER in commit.message.splitlines():
            raise UsageError(
                f"the run that committed {str(commit.id)[:12]} asked to sign tag `{self.cohort}` (--sign): "
                "this rerun would tag it unsigned; nothing was written",
                "rerun with --sign (and the same --signing-key)",
            )
        released = load_tree(gittree.GitTree(self.repo, commit, self.cohort.id), layout=self.layout)
        require_signed(released.catalog.suite, self.signer is not None, self.layout)
        if self.signer is None or self.asked.dry_run:
            return None
        return self.sign_tag(str(commit.id), digest, gitcommit.signature(self.repo, self.asked.now))

    def sign_tag(self, commit: str, digest: str, tagger: gitrepo.Signature) -> bytes:
        """The signed tag object of the release."""
        assert self.signer is not None
        message = tag_message(self.cohort.id, self.ruleset_rel, digest, self.asked.message)
        return self.signer.sign_tag(self.cohort.id, commit, message, tagger)

    def refuse_untrusted_tag(self, commit: gitrepo.Commit, redo: str) -> None:
        """An existing signed tag is pushed only if its trust would have let the first run make it:
        checked when --sign, a configured allowed-signers file or the policy asks for a signature."""
        if _unsigned(self.repo, self.cohort.id):
            return
        trust = trust_for(self.repo, self.asked.signature)
        if not (self.asked.sign or trust.allowed_signers is not None or policy_requires(commit, self.layout)):
            return
        checked = check_signature(self.repo, self.cohort.id, trust, True)
        if checked.state not in ("good", "not-checked"):  # not-checked: no allowed signers, as the first run
            raise CatalogError(
                f"tag `{self.cohort}` exists, but its signature is refused, and freeze does not push it: "
                f"{checked.message}",
                redo,
            )

    def refuse_another_request(
        self, commit: gitrepo.Commit, text: str, state: Finished, add: list[str], remove: list[str]
    ) -> None:
        """A rerun finishes the release as it was begun; asking for another is an error."""
        tag = gittags.tag_state(self.repo, self.cohort.id) if state == "already-frozen" else None
        released = parse_ruleset(text.encode(), self.ruleset_rel)
        found = rerun_differences(released, tag.message if tag else None, add, remove, self.asked.message)
        if found:
            done = "released" if state == "already-frozen" else "committed"
            raise CatalogError(
                f"{self.cohort} was {done} at {str(commit.id)[:12]}, not as this rerun asks: {'; '.join(found)}",
                "a release never changes: rerun without those options, "
                f"or freeze the next cohort, {self.calendar.next(self.cohort)}",
            )

    def repair_index(self) -> None:
        """A run stopped between its commit and the index leaves the index behind HEAD: update it."""
        head = gitrepo.head(self.repo)
        repaired = gitcommit.stage_committed(self.repo, head, [self.ruleset_rel, CHANGELOG], only_clean=True)
        if repaired:
            self.notes.append(f"the index did not show the release's {' and '.join(repaired)}: updated it")

    def publish(
        self, commit: gitrepo.Commit, result: FreezeResult, digest: str, signed: bytes | None = None
    ) -> FreezeResult:
        """Make the tag (the signed object when given), then push."""
        if self.tag and gittags.tag_state(self.repo, self.cohort.id) is None:
            if signed is not None:
                gittags.create_tag_object(self.repo, self.cohort.id, signed)
            else:
                message = tag_message(self.cohort.id, self.ruleset_rel, digest, self.asked.message)
                gittags.create_tag(self.repo, self.cohort.id, commit, message, gitcommit.signature(self.repo))
            self.failpoint("tag")
            result.tagged, result.signed = True, signed is not None
        if self.asked.push:
            result.pushed_refs = self.push_or_explain(commit)
            result.pushed = True
        return result

    def pusher(self) -> Pusher:
        assert self.asked.push is not None
        return Pusher(
            self.repo, self.asked.push, self.cohort.id, not self.push_branch, self.failpoint, self.ruleset_rel
        )

    def push_or_explain(self, commit: gitrepo.Commit) -> list[str]:
        """Push; a failure says what exists here and the exact commands that finish the release."""
        try:
            return self.pusher().push(commit, self.tag)
        except (RemoteProblem, RemoteUnreachable) as exc:
            raise push_failure(self.repo, exc, self.cohort.id, self.asked.push or "", commit, self.rerun) from None
