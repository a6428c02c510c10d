"""`freeze`: publish a cohort as a ruleset, a changelog section, a commit and an annotated tag.

The transaction holds a repository-wide lock (`catalogctl-freeze.lock` in the git folder) and is
ordered so that whatever stops it, a rerun finishes the job and nothing is published twice:

1. files (ruleset, changelog) are written to temporary files and renamed;
2. one commit records both, on top of the HEAD we read (libgit2 refuses if HEAD moved); its tree
   is HEAD's plus the bytes freeze wrote, never what the index or the disk holds meanwhile; then
   the index is told;
3. the tag is created last, locally; with --push the branch goes first, then the tag, with the
   remote's refs checked before and after (pygit2 would silently move an existing remote tag).
   These steps are `publish`'s, which `tag` shares.

With --sign, the tag is signed before step 1: the commit's id is known before HEAD moves (it is
written as an object no ref names, then committed again with the same author and time), so a
key that cannot sign leaves the files, the index and every ref as they were.

A rerun finds where the last attempt stopped: an uncommitted ruleset is reused with its seeds,
a committed ruleset without its tag gets the tag, a finished freeze is a no-op that says so.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from catalogctl.catalog.cohorts import Cohort
from catalogctl.catalog.contract import contract_digest
from catalogctl.catalog.diagnostics import errors_only
from catalogctl.catalog.index import Catalog
from catalogctl.catalog.layout import CHANGELOG
from catalogctl.catalog.loader import load_tree
from catalogctl.catalog.source import ruleset_commit
from catalogctl.errors import (
    CatalogError,
    CatalogInvalid,
    DirtyTree,
    EnvironmentProblem,
    UsageError,
)
from catalogctl.io import gitcommit, gitrepo, gittree
from catalogctl.io.files import leftover_temporaries, write_atomic
from catalogctl.io.tree import WorkingTree
from catalogctl.model import Ruleset
from catalogctl.model.reports.release import FreezeResult
from catalogctl.release.beacon_naming import check_naming_release
from catalogctl.release.beacon_plan import BeaconRequest, next_round
from catalogctl.release.calendar import freeze_warnings
from catalogctl.release.changelog import changelog_section, unreleased_notes, upsert_section
from catalogctl.release.plan import (
    carried_over,
    check_resumed_loadgen,
    check_resumed_seeds,
    members,
    previous_ruleset,
    refuse_links,
    refuse_pending,
    seed_sets,
)
from catalogctl.release.publish import SIGN_TRAILER, Failpoint, Publication, no_failpoint
from catalogctl.release.ruleset import parse_ruleset, render_ruleset, ruleset_digest
from catalogctl.release.signing import require_signed
from catalogctl.release.trust import SignatureFlags


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
    signing_format: str | None = None  # ssh or openpgp; default: git config gpg.format, else ssh
    signature: SignatureFlags | None = None  # the trust a signed tag must pass (default: environment, git config)
    beacon: BeaconRequest = field(default_factory=BeaconRequest)  # round data, under a beacon seed policy
    loadgen_seeds: bool = False  # import the new set from the installed LoadGen release's mlperf.conf


class _Freeze:
    def __init__(self, path: Path, request: FreezeRequest, failpoint: Failpoint) -> None:
        rerun = f"catalogctl freeze {request.cohort}" + ("" if request.tag else " --no-tag")
        self.release = Publication.open(path, request, failpoint, tag=request.tag, push_branch=True, rerun=rerun)
        self.request = request
        self.failpoint = failpoint
        self.repo, self.cohort, self.calendar = self.release.repo, self.release.cohort, self.release.calendar
        self.root, self.layout = gitrepo.work_dir(self.repo), self.release.layout  # the repository's own
        self.ruleset_rel = self.release.ruleset_rel
        self.notes = self.release.notes
        self.new_folder = False  # whether this run created rulesets/ (put back on a failure)
        self.warnings: list[str] = []  # the calendar's (see `release.calendar`)

    def run(self) -> FreezeResult:
        """Find where the last attempt stopped, and go on from there."""
        with self.release.locked():
            head = gitrepo.head(self.repo)
            added = ruleset_commit(self.repo, self.ruleset_rel)
            add, remove = self.request.add, self.request.remove
            if self.release.tagged(added):
                assert added is not None
                return self.release.finish(added, "already-frozen", add, remove)
            if added is not None and added.id != head.id:
                return self.release.finish(added, "tagged", add, remove)  # a merged release pull request
            if added is not None:
                self.notes.append(
                    f"{self.ruleset_rel} was committed in {str(added.id)[:12]} without its tag: finishing"
                )
                return self.release.finish(added, "resumed", add, remove)
            return self.fresh(head)

    # -- a new freeze (or one whose files were written but not committed) ---------------------

    def fresh(self, head: gitrepo.Commit) -> FreezeResult:
        # Freeze reads and writes regular files only, as the catalog is read.
        refuse_links([gittree.GitTree(self.repo, head, "HEAD"), WorkingTree(self.root)], [self.ruleset_rel, CHANGELOG])
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
            self.release.pusher().check_new_commit(head)
        written = self.contents(head, planned)
        who = gitcommit.signature(self.repo, self.request.now)  # the caller's clock, when given
        signed = None
        if self.release.signer is not None:  # signed before anything is written: see the module docstring
            commit_id = gitcommit.commit_id(self.repo, written, self.commit_message(), head, who)
            signed = self.release.sign_tag(commit_id, planned.ruleset_digest, who)
        commit = self.write_and_commit(head, written, resumed_text, who)
        planned.commit = str(commit.id)
        planned.state = "resumed" if resumed is not None else "frozen"
        return self.release.publish(commit, planned, planned.ruleset_digest, signed)

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
        result = load_tree(gittree.GitTree(self.repo, head, "HEAD"), layout=self.layout)
        errors = errors_only(result.diagnostics)
        if errors:
            raise CatalogInvalid("the catalog is invalid: nothing was frozen", errors)
        catalog = result.catalog
        previous = previous_ruleset(catalog, self.cohort, self.request.skip_cohorts, self.calendar)
        if previous is not None and previous.next_seed_round is not None and resumed_text is None:
            check_naming_release(self.repo, self.layout, previous.cohort, head)  # the round is the tag's
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
        self.release.record_signer(planned)
        return planned, resumed

    def record_signer(self, result: FreezeResult) -> None:
        if self.release.signer is not None:
            result.signing_key, result.signing_fingerprint = self.release.signer.key, self.release.signer.fingerprint
            result.signing_format = self.release.signer.format

    def committed_changelog(self, head: gitrepo.Commit) -> str:
        """HEAD's CHANGELOG.md: the section goes into it, never into what the disk holds meanwhile."""
        committed = gittree.GitTree(self.repo, head, "HEAD")
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
            commit = gitcommit.commit_files(self.repo, written, self.commit_message(), head, who)
        except CatalogError:
            self.restore(before, written)  # a failure we know of leaves everything as it was
            raise
        self.failpoint("commit")
        gitcommit.stage_committed(self.repo, commit, list(written))
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
            if self.request.loadgen_seeds:
                check_resumed_loadgen(resumed, self.cohort, self.ruleset_rel)
            self.check_resumed_against_published(catalog, resumed)
            sets, frozen_at = list(resumed.seed_sets), resumed.frozen_at
            named = resumed.next_seed_round
        else:
            sets, note = seed_sets(
                catalog,
                self.cohort,
                previous,
                self.request.seeds_file,
                self.request.seed_set,
                self.request.beacon,
                self.request.loadgen_seeds,
            )
            if note:
                self.notes.append(note)
            frozen_at = (self.request.now or dt.datetime.now(dt.UTC)).replace(microsecond=0)
            assert catalog.suite is not None  # a valid catalog has one
            named = next_round(catalog.suite, frozen_at, self.request.beacon)
            if named is not None:
                self.notes.append(
                    f"names beacon round {named.round} (due {named.due:%Y-%m-%d %H:%M:%S} UTC) for the next seed set"
                )
        return Ruleset(
            cohort=self.cohort.id,
            submission_date=self.calendar.submission_date(self.cohort),
            previous=previous.cohort if previous else None,
            frozen_at=frozen_at,
            catalog_tree=gitrepo.subtree_id(head, self.layout.suite_dir),
            benchmarks=[{"id": ident, "digest": digest} for ident, digest in digests.items()],  # type: ignore[misc]
            seed_sets=sets,
            next_seed_round=named,
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
        signs = f"\n{SIGN_TRAILER}\n" if self.release.signer is not None else ""
        return f"Freeze cohort {self.cohort}\n\nAdds {self.ruleset_rel} and its CHANGELOG.md section.\n{signs}"


def freeze(path: Path, request: FreezeRequest, failpoint: Failpoint = no_failpoint) -> FreezeResult:
    """Freeze a cohort in the repository at `path` (see the module docstring for the order of
    steps). `failpoint(step)` is called after each step; tests use it to inject crashes."""
    return _Freeze(path, request, failpoint).run()
