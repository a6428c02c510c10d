"""`freeze`: publish a cohort as a ruleset, a changelog section, a commit and an annotated tag.

The transaction holds a repository-wide lock (`catalogctl-freeze.lock` in the git folder) and is
ordered so that whatever stops it, a rerun finishes the job and nothing is published twice:

1. files (ruleset, changelog) are written to temporary files and renamed;
2. one commit records both, on top of the HEAD we read (libgit2 refuses if HEAD moved); its tree
   is HEAD's plus the bytes freeze wrote, never what the index or the disk holds meanwhile; then
   the index is told;
3. the tag is created last, locally; with --push the branch goes first, then the tag, with the
   remote's refs checked before and after (pygit2 would silently move an existing remote tag).

With --sign, the tag is signed before step 1: the commit's id is known before HEAD moves (it is
written as an object no ref names, then committed again with the same author and time), so a
key that cannot sign leaves the files, the index and every ref as they were.

A rerun finds where the last attempt stopped: an uncommitted ruleset is reused with its seeds,
a committed ruleset without its tag gets the tag, a finished freeze is a no-op that says so.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from catalogctl.catalog.cohorts import Cohort
from catalogctl.catalog.config import calendar_for, layout_for
from catalogctl.catalog.contract import contract_digest
from catalogctl.catalog.diagnostics import errors_only
from catalogctl.catalog.index import Catalog
from catalogctl.catalog.layout import CHANGELOG
from catalogctl.catalog.loader import load_tree
from catalogctl.errors import (
    CatalogError,
    CatalogInvalid,
    DirtyTree,
    EntityNotFound,
    EnvironmentProblem,
    RemoteProblem,
    RemoteUnreachable,
    UsageError,
)
from catalogctl.io import gitrepo, sshsig
from catalogctl.io.files import exclusive_lock, leftover_temporaries, write_atomic
from catalogctl.io.tree import WorkingTree
from catalogctl.io.urls import redact_url
from catalogctl.model import Ruleset
from catalogctl.model.release import FreezeResult
from catalogctl.release.calendar import freeze_warnings
from catalogctl.release.changelog import changelog_section, unreleased_notes, upsert_section
from catalogctl.release.plan import (
    carried_over,
    check_resumed_seeds,
    members,
    previous_ruleset,
    refuse_links,
    refuse_pending,
    rerun_differences,
    seed_sets,
)
from catalogctl.release.push import Pusher
from catalogctl.release.ruleset import parse_ruleset, render_ruleset, ruleset_digest, tag_message
from catalogctl.release.signers import SignatureFlags, check_signature, policy_requires, trust_for
from catalogctl.release.signing import Signer, require_signed, signer
from catalogctl.release.statement import state_release
from catalogctl.release.tagging import check_merged, push_failure

Failpoint = Callable[[str], None]
SIGN_TRAILER = "Release-Tag: signed"  # in the release commit's message when its freeze signs the tag


def _no_failpoint(step: str) -> None:
    """Production: nothing is injected."""


def _unsigned(repo: gitrepo.Repository, name: str) -> bool:
    """Whether the annotated tag `name` carries no signature (a lightweight tag counts as unsigned)."""
    tag = gitrepo.tag_object(repo, name)
    return tag is None or sshsig.split(tag.raw).kind is None


@dataclass
class FreezeRequest:
    """What the maintainer asked for."""

    cohort: str
    add: list[str] = field(default_factory=list)
    remove: list[str] = field(default_factory=list)
    dry_run: bool = False
    tag: bool = True
    push: str | None = None
    message: str | None = None
    seeds_file: Path | None = None
    seed_set: str | None = None  # which set of a published seedset.yaml
    now: dt.datetime | None = None
    skip_cohorts: int = 0
    sign: bool = False
    signing_key: str | None = None  # default: git config user.signingKey
    today: dt.date | None = None  # the day the calendar's warnings count from (default: the day of `now`)
    tag_only: bool = False  # `catalogctl tag`: tag the commit that added the ruleset, never freeze anew
    signing_format: str | None = None  # ssh or openpgp; default: git config gpg.format, else ssh
    signature: SignatureFlags | None = None  # the trust a signed tag must pass (default: environment, git config)


class _Freeze:
    def __init__(self, path: Path, request: FreezeRequest, failpoint: Failpoint) -> None:
        try:
            self.cohort = Cohort.parse(request.cohort)
        except ValueError as exc:
            raise EntityNotFound(str(exc)) from None
        self.request = request
        self.failpoint = failpoint
        self.repo = gitrepo.open_repository(path)
        self.root = gitrepo.work_dir(self.repo)
        self.calendar, self.layout = calendar_for(self.root), layout_for(self.root)  # the repository's own
        self.calendar.submission_date(self.cohort)  # a cohort the calendar does not have: refused first
        self.ruleset_rel = self.layout.ruleset_path(self.cohort.id)
        self.notes: list[str] = []
        self.new_folder = False  # whether this run created rulesets/ (put back on a failure)
        self.signer: Signer | None = None
        self.warnings: list[str] = []  # the calendar's (see `release.calendar`)
        self.tag_only_push = request.tag_only  # a merged ruleset's release pushes its tag, never a branch

    # -- where did the last attempt stop? -----------------------------------------------------

    def run(self) -> FreezeResult:
        _, common = gitrepo.git_dirs(self.repo)
        with exclusive_lock(common / "catalogctl-freeze.lock", "another freeze"):
            return self.locked()

    def locked(self) -> FreezeResult:
        self.check_locks()
        if self.request.sign and self.request.tag:
            trust = trust_for(self.repo, self.request.signature)
            self.signer = signer(self.repo, self.request.signing_key, trust, self.request.signing_format)
            if self.request.dry_run:  # as the real run would check its signature
                self.signer.probe(self.cohort.id, gitrepo.signature(self.repo, self.request.now))
        head = gitrepo.head(self.repo)
        added = gitrepo.commit_adding(self.repo, self.ruleset_rel)
        tag = gitrepo.tag_state(self.repo, self.cohort.id)
        if tag is not None:
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
            return self.finish(added, "already-frozen")
        if added is not None and (self.request.tag_only or added.id != head.id):
            return self.finish(added, "tagged")  # a merged release pull request, or `catalogctl tag`
        if added is not None:
            self.notes.append(f"{self.ruleset_rel} was committed in {str(added.id)[:12]} without its tag: finishing")
            return self.finish(added, "resumed")
        if self.request.tag_only:
            raise UsageError(
                f"no commit in the history of HEAD ({str(head.id)[:12]}) added {self.ruleset_rel}: nothing to tag",
                f"freeze it first (catalogctl freeze {self.cohort} --no-tag on a release branch), merge the pull "
                "request, then tag on the default branch",
            )
        return self.fresh(head)

    def check_locks(self) -> None:
        branch = self.repo.head.name if not self.repo.head_is_unborn and not self.repo.head_is_detached else "HEAD"
        names = ["index.lock", "HEAD.lock", f"refs/tags/{self.cohort}.lock", f"{branch}.lock"]
        locks = gitrepo.leftover_locks(self.repo, names)
        if locks:
            raise EnvironmentProblem(
                f"leftover lock file: {', '.join(locks)}",
                "another git process may be running; if none is, remove the lock yourself (catalogctl never does)",
            )

    # -- a new freeze (or one whose files were written but not committed) ---------------------

    def fresh(self, head: gitrepo.Commit) -> FreezeResult:
        # Freeze reads and writes regular files only, as the catalog is read.
        refuse_links([gitrepo.GitTree(self.repo, head, "HEAD"), WorkingTree(self.root)], [self.ruleset_rel, CHANGELOG])
        resumed_text = self.uncommitted_ruleset()
        leftover = [p for rel in (self.ruleset_rel, CHANGELOG) for p in leftover_temporaries(self.root / rel)]
        try:
            self.refuse_dirty(resumed_text, {p.relative_to(self.root).as_posix() for p in leftover})
        except DirtyTree as exc:
            if not self.request.dry_run:
                raise
            # A preview writes nothing, and reads HEAD's tree as the freeze would: say, don't refuse.
            self.notes.append(f"{exc}: a real freeze would refuse ({exc.hint}); this preview reads HEAD's tree")
        self.clear_temporaries(leftover)
        planned, resumed = self.plan(head, resumed_text)
        if self.request.dry_run:
            return planned
        if self.request.push:
            self.pusher().check_new_commit(head)
        written = self.contents(head, planned)
        who = gitrepo.signature(self.repo, self.request.now)  # the caller's clock, when given
        signed = None
        if self.signer is not None:  # signed before anything is written: see the module docstring
            commit_id = gitrepo.commit_id(self.repo, written, self.commit_message(), head, who)
            signed = self.sign_tag(commit_id, planned.ruleset_digest, who)
        commit = self.write_and_commit(head, written, resumed_text, who)
        planned.commit = str(commit.id)
        planned.state = "resumed" if resumed is not None else "frozen"
        return self.publish(commit, planned, planned.ruleset_digest, signed)

    def clear_temporaries(self, found: list[Path]) -> None:
        """Remove the temporary files a killed freeze left beside the files it writes (we hold the
        freeze lock: no freeze is writing them); a dry run only ignores them."""
        if found and not self.request.dry_run:
            for path in found:
                path.unlink(missing_ok=True)
            names = sorted(p.relative_to(self.root).as_posix() for p in found)
            self.notes.append(f"removed {', '.join(names)}, left by an interrupted freeze")

    def refuse_dirty(self, resumed_text: bytes | None, temporaries: set[str]) -> None:
        """Nothing uncommitted but what an interrupted freeze wrote."""
        allowed = temporaries | ({self.ruleset_rel, CHANGELOG} if resumed_text is not None else set())
        dirty = [p for p in gitrepo.dirty_paths(self.repo) if p not in allowed]
        if dirty:
            shown = ", ".join(dirty[:5]) + (f" and {len(dirty) - 5} more" if len(dirty) > 5 else "")
            raise DirtyTree(f"the working tree has uncommitted changes: {shown}", "commit or stash them first")

    def plan(self, head: gitrepo.Commit, resumed_text: bytes | None) -> tuple[FreezeResult, Ruleset | None]:
        """The ruleset and changelog section to write (reusing an interrupted freeze's seeds)."""
        # The release is HEAD's tree: files git ignores are on disk but never in the commit.
        result = load_tree(gitrepo.GitTree(self.repo, head, "HEAD"), layout=self.layout)
        errors = errors_only(result.diagnostics)
        if errors:
            raise CatalogInvalid("the catalog is invalid: nothing was frozen", errors)
        catalog = result.catalog
        previous = previous_ruleset(catalog, self.cohort, self.request.skip_cohorts, self.calendar)
        last = Cohort.parse(previous.cohort) if previous is not None else None
        today = self.request.today or (self.request.now or dt.datetime.now(dt.UTC)).date()
        self.warnings = freeze_warnings(self.cohort, last, today, self.calendar)
        if self.request.tag:
            require_signed(catalog.suite, self.request.sign, self.layout)
        add, carried = carried_over(previous, self.request.add)
        self.notes.extend(carried)
        benchmarks = members(catalog, previous, add, self.request.remove)
        refuse_pending(catalog, benchmarks)
        digests = {ident: contract_digest(catalog, ident) for ident in sorted(benchmarks)}
        resumed = None
        if resumed_text is not None:
            resumed = self.parse_resumed(resumed_text)
            self.notes.append(f"{self.ruleset_rel} was written but not committed: reusing its seeds")
        ruleset = self.build(catalog, previous, digests, head, resumed)
        text = render_ruleset(ruleset, self.ruleset_rel)
        digest = ruleset_digest(text.encode())
        notes = unreleased_notes(self.committed_changelog(head))
        if notes:
            self.notes.append(f"the notes under Unreleased in {CHANGELOG} are released with {self.cohort}")
        section = changelog_section(self.repo, catalog, ruleset, previous, digest, notes, layout=self.layout)
        planned = FreezeResult(
            cohort=self.cohort.id,
            state="planned",
            ruleset_path=self.ruleset_rel,
            ruleset_text=text,
            ruleset_digest=digest,
            changelog_section=section,
            notes=self.notes,
            warnings=self.warnings,
        )
        self.record_signer(planned)
        return planned, resumed

    def record_signer(self, result: FreezeResult) -> None:
        if self.signer is not None:
            result.signing_key, result.signing_fingerprint = self.signer.key, self.signer.fingerprint
            result.signing_format = self.signer.format

    def committed_changelog(self, head: gitrepo.Commit) -> str:
        """HEAD's CHANGELOG.md: the section goes into it, never into what the disk holds meanwhile."""
        committed = gitrepo.GitTree(self.repo, head, "HEAD")
        base = committed.read(CHANGELOG) if committed.kind(CHANGELOG) else None
        try:
            return (base or b"# Catalog release notes\n").decode("utf-8")
        except UnicodeDecodeError as exc:
            raise EnvironmentProblem(
                f"{CHANGELOG} is not UTF-8 (byte {exc.start}): nothing was frozen", "save it as UTF-8 and commit it"
            ) from None

    def contents(self, head: gitrepo.Commit, planned: FreezeResult) -> dict[str, bytes]:
        """The bytes of the ruleset and of the changelog that the commit will hold."""
        current = self.committed_changelog(head)
        new_changelog = upsert_section(current, self.cohort.id, planned.changelog_section)
        return {self.ruleset_rel: planned.ruleset_text.encode(), CHANGELOG: new_changelog.encode()}

    def write_and_commit(
        self, head: gitrepo.Commit, written: dict[str, bytes], resumed_text: bytes | None, who: gitrepo.Signature
    ) -> gitrepo.Commit:
        """Write the ruleset and the changelog, and commit both on top of `head` as `who`."""
        disk = WorkingTree(self.root)  # `refuse_links` made sure no path freeze writes is a link
        old_changelog = disk.read(CHANGELOG) if disk.kind(CHANGELOG) else None
        before = {self.ruleset_rel: resumed_text, CHANGELOG: old_changelog}
        self.new_folder = not (self.root / self.ruleset_rel).parent.exists()
        for rel, data in written.items():
            write_atomic(self.root / rel, data)
        self.failpoint("files")
        try:
            commit = gitrepo.commit_files(self.repo, written, self.commit_message(), head, who)
        except CatalogError:
            self.restore(before, written)  # a failure we know of leaves everything as it was
            raise
        self.failpoint("commit")
        gitrepo.stage_committed(self.repo, commit, list(written))
        return commit

    def uncommitted_ruleset(self) -> bytes | None:
        """The ruleset an interrupted freeze wrote (HEAD's history has none: see `run`)."""
        disk = WorkingTree(self.root)
        return disk.read(self.ruleset_rel) if disk.kind(self.ruleset_rel) == "file" else None

    def parse_resumed(self, text: bytes) -> Ruleset:
        try:
            return parse_ruleset(text, self.ruleset_rel)
        except CatalogInvalid as exc:
            raise CatalogInvalid(
                f"{self.ruleset_rel} is left from an interrupted freeze but does not validate", exc.diagnostics
            ) from None

    def restore(self, before: dict[str, bytes | None], written: dict[str, bytes]) -> None:
        """Put back what the files held before this run, where they still hold what it wrote:
        anything else there is not this run's to delete."""
        for rel, data in written.items():
            path = self.root / rel
            try:
                ours = not path.is_symlink() and path.read_bytes() == data
            except OSError:
                ours = False
            if not ours:
                continue
            old = before[rel]
            if old is None:
                path.unlink(missing_ok=True)
            else:
                write_atomic(path, old)
        if self.new_folder:
            with contextlib.suppress(OSError):  # only when empty: then it held nothing but ours
                (self.root / self.ruleset_rel).parent.rmdir()

    def build(
        self,
        catalog: Catalog,
        previous: Ruleset | None,
        digests: dict[str, str],
        head: gitrepo.Commit,
        resumed: Ruleset | None,
    ) -> Ruleset:
        if resumed is not None:
            if self.request.seeds_file is not None:
                check_resumed_seeds(
                    resumed, self.cohort, self.request.seeds_file, self.ruleset_rel, self.request.seed_set
                )
            self.check_resumed_against_published(catalog, resumed)
            sets, frozen_at = list(resumed.seed_sets), resumed.frozen_at
        else:
            sets, note = seed_sets(catalog, self.cohort, previous, self.request.seeds_file, self.request.seed_set)
            if note:
                self.notes.append(note)
            frozen_at = (self.request.now or dt.datetime.now(dt.UTC)).replace(microsecond=0)
        return Ruleset(
            cohort=self.cohort.id,
            submission_date=self.calendar.submission_date(self.cohort),
            previous=previous.cohort if previous else None,
            frozen_at=frozen_at,
            catalog_tree=gitrepo.subtree_id(head, self.layout.suite_dir),
            benchmarks=[{"id": ident, "digest": digest} for ident, digest in digests.items()],  # type: ignore[misc]
            seed_sets=sets,
        )

    def check_resumed_against_published(self, catalog: Catalog, resumed: Ruleset) -> None:
        """A ruleset left on disk is reused only if its seed sets that were published before are
        exactly the published ones (it may have been edited, or written by hand)."""
        published = {s.id: s for r in catalog.rulesets.values() if r.cohort != self.cohort.id for s in r.seed_sets}
        for seed_set in resumed.seed_sets:
            if seed_set.id in published and seed_set != published[seed_set.id]:
                raise UsageError(
                    f"{self.ruleset_rel}, left from an interrupted freeze, has a seed set {seed_set.id} other than the "
                    "one already published: nothing was frozen",
                    f"remove {self.ruleset_rel} to start this freeze over",
                )

    def commit_message(self) -> str:
        # The trailer records that this run signs its tag, so that a rerun after a crash does not
        # tag unsigned what was meant to be signed.
        signs = f"\n{SIGN_TRAILER}\n" if self.signer is not None else ""
        return f"Freeze cohort {self.cohort}\n\nAdds {self.ruleset_rel} and its CHANGELOG.md section.\n{signs}"

    # -- tag and push ---------------------------------------------------------------------------

    def finish(self, commit: gitrepo.Commit, state: Literal["resumed", "tagged", "already-frozen"]) -> FreezeResult:
        if state == "tagged":
            self.notes.extend(check_merged(self.repo, self.cohort.id, commit, self.layout))
        text = gitrepo.read_blob(commit, self.ruleset_rel).decode("utf-8")
        digest = ruleset_digest(text.encode())
        self.refuse_another_request(commit, text, state)
        self.tag_only_push = self.request.tag_only or state == "tagged"
        planned_push = self.pusher().check(commit, self.request.tag) if self.request.push else []
        signed = self.sign_resumed(commit, digest, state)
        if not self.request.dry_run:
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
            dry_run=self.request.dry_run,
            push_remote=redact_url(self.request.push) if self.request.push else None,
            push_refspecs=planned_push,
        )
        self.record_signer(result)
        if self.request.dry_run:
            return result
        return self.publish(commit, result, digest, signed)

    def sign_resumed(self, commit: gitrepo.Commit, digest: str, state: str) -> bytes | None:
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
        if not self.request.tag:
            return None
        if self.signer is None and SIGN_TRAILER in commit.message.splitlines():
            raise UsageError(
                f"the run that committed {str(commit.id)[:12]} asked to sign tag `{self.cohort}` (--sign): "
                "this rerun would tag it unsigned; nothing was written",
                "rerun with --sign (and the same --signing-key)",
            )
        released = load_tree(gitrepo.GitTree(self.repo, commit, self.cohort.id), layout=self.layout)
        require_signed(released.catalog.suite, self.signer is not None, self.layout)
        if self.signer is None or self.request.dry_run:
            return None
        return self.sign_tag(str(commit.id), digest, gitrepo.signature(self.repo, self.request.now))

    def sign_tag(self, commit: str, digest: str, tagger: gitrepo.Signature) -> bytes:
        """The signed tag object of the release."""
        assert self.signer is not None
        message = tag_message(self.cohort.id, self.ruleset_rel, digest, self.request.message)
        return self.signer.sign_tag(self.cohort.id, commit, message, tagger)

    def refuse_untrusted_tag(self, commit: gitrepo.Commit, redo: str) -> None:
        """An existing signed tag is pushed only if its trust would have let the first run make it:
        checked when --sign, a configured allowed-signers file or the policy asks for a signature."""
        if _unsigned(self.repo, self.cohort.id):
            return
        trust = trust_for(self.repo, self.request.signature)
        if not (self.request.sign or trust.allowed_signers is not None or policy_requires(commit, self.layout)):
            return
        checked = check_signature(self.repo, self.cohort.id, trust, True)
        if checked.state not in ("good", "not-checked"):  # not-checked: no allowed signers, as the first run
            raise CatalogError(
                f"tag `{self.cohort}` exists, but its signature is refused, and freeze does not push it: "
                f"{checked.message}",
                redo,
            )

    def refuse_another_request(self, commit: gitrepo.Commit, text: str, state: str) -> None:
        """A rerun finishes the release as it was begun; asking for another is an error."""
        tag = gitrepo.tag_state(self.repo, self.cohort.id) if state == "already-frozen" else None
        released = parse_ruleset(text.encode(), self.ruleset_rel)
        asked = self.request
        found = rerun_differences(released, tag.message if tag else None, asked.add, asked.remove, asked.message)
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
        repaired = gitrepo.stage_committed(self.repo, head, [self.ruleset_rel, CHANGELOG], only_clean=True)
        if repaired:
            self.notes.append(f"the index did not show the release's {' and '.join(repaired)}: updated it")

    def publish(
        self, commit: gitrepo.Commit, result: FreezeResult, digest: str, signed: bytes | None = None
    ) -> FreezeResult:
        if self.request.tag and gitrepo.tag_state(self.repo, self.cohort.id) is None:
            if signed is not None:
                gitrepo.create_tag_object(self.repo, self.cohort.id, signed)
            else:
                message = tag_message(self.cohort.id, self.ruleset_rel, digest, self.request.message)
                gitrepo.create_tag(self.repo, self.cohort.id, commit, message)
            self.failpoint("tag")
            result.tagged, result.signed = True, signed is not None
        if self.request.push:
            result.pushed_refs = self.push_or_explain(commit)
            result.pushed = True
        return result

    def pusher(self) -> Pusher:
        assert self.request.push is not None
        return Pusher(
            self.repo, self.request.push, self.cohort.id, self.tag_only_push, self.failpoint, self.ruleset_rel
        )

    def push_or_explain(self, commit: gitrepo.Commit) -> list[str]:
        """Push; a failure says what exists here and the exact commands that finish the release."""
        try:
            return self.pusher().push(commit, self.request.tag)
        except (RemoteProblem, RemoteUnreachable) as exc:
            verb = "tag" if self.request.tag_only else "freeze"
            rerun = f"catalogctl {verb} {self.cohort}" + ("" if self.request.tag else " --no-tag")
            raise push_failure(self.repo, exc, self.cohort.id, self.request.push or "", commit, rerun) from None


def freeze(path: Path, request: FreezeRequest, failpoint: Failpoint = _no_failpoint) -> FreezeResult:
    """Freeze a cohort in the repository at `path` (see the module docstring for the order of
    steps). `failpoint(step)` is called after each step; tests use it to inject crashes."""
    return _Freeze(path, request, failpoint).run()
