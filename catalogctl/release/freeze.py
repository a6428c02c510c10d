"""`freeze`: publish a cohort as a ruleset, a changelog section, a commit and an annotated tag.

The transaction is ordered so that whatever stops it, a rerun finishes the job and nothing is
published twice:

1. files (ruleset, changelog) are written to temporary files and renamed;
2. one commit records both, on top of the HEAD we read (libgit2 refuses if HEAD moved);
3. the tag is created last, locally; with --push the branch goes first, then the tag, with the
   remote's refs checked before and after (pygit2 would silently move an existing remote tag).

A rerun finds where the last attempt stopped: an uncommitted ruleset is reused with its seeds,
a committed ruleset without its tag gets the tag, a finished freeze is a no-op that says so.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from catalogctl.catalog.cohorts import Cohort
from catalogctl.catalog.contract import contract_digest
from catalogctl.catalog.diagnostics import did_you_mean, errors_only
from catalogctl.catalog.index import Catalog
from catalogctl.catalog.layout import CHANGELOG, SUITE_DIR, ruleset_path
from catalogctl.catalog.loader import load_tree
from catalogctl.catalog.seeds import next_seed_sets, read_seed_file, unique_sets
from catalogctl.errors import (
    CatalogError,
    CatalogInvalid,
    Diagnostic,
    DirtyTree,
    EntityNotFound,
    EnvironmentProblem,
    RemoteProblem,
    UsageError,
    error,
)
from catalogctl.io import gitrepo
from catalogctl.io.files import write_atomic
from catalogctl.model import Ruleset, SeedSet
from catalogctl.release.changelog import changelog_section, upsert_section
from catalogctl.release.ruleset import parse_ruleset, render_ruleset, ruleset_digest, tag_message
from catalogctl.release.statement import state_release

Failpoint = Callable[[str], None]


def _no_failpoint(step: str) -> None:
    """Production: nothing is injected."""


@dataclass
class FreezeResult:
    """What a freeze did (or, with dry_run, would do)."""

    cohort: str
    state: Literal["frozen", "resumed", "already-frozen", "planned"]
    ruleset_path: str
    ruleset_text: str
    ruleset_digest: str
    changelog_section: str
    commit: str | None = None
    tagged: bool = False
    pushed: bool = False
    notes: list[str] = field(default_factory=list)


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
    now: dt.datetime | None = None


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
        self.ruleset_rel = ruleset_path(self.cohort.id)
        self.notes: list[str] = []

    # -- where did the last attempt stop? -----------------------------------------------------

    def run(self) -> FreezeResult:
        self.check_locks()
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
            release = state_release(self.repo, self.cohort.id)
            if not release.ok:  # freeze and preflight agree: a tag that is not a release is not "frozen"
                problem = release.problems[0]
                raise CatalogError(
                    f"tag `{self.cohort}` is at the release commit but is not a release: {problem.message}",
                    "a published tag never moves: ask the maintainers before replacing it",
                )
            return self.finish(added, "already-frozen")
        if added is not None:
            self.notes.append(f"{self.ruleset_rel} was committed in {str(added.id)[:12]} without its tag: finishing")
            return self.finish(added, "resumed")
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
        resumed_text = self.uncommitted_ruleset()
        allowed = {self.ruleset_rel, CHANGELOG} if resumed_text is not None else set()
        dirty = [p for p in gitrepo.dirty_paths(self.repo) if p not in allowed]
        if dirty:
            shown = ", ".join(dirty[:5]) + (f" and {len(dirty) - 5} more" if len(dirty) > 5 else "")
            raise DirtyTree(f"the working tree has uncommitted changes: {shown}", "commit or stash them first")
        # The release is HEAD's tree: files git ignores are on disk but never in the commit.
        result = load_tree(gitrepo.GitTree(self.repo, head, "HEAD"))
        errors = errors_only(result.diagnostics)
        if errors:
            raise CatalogInvalid("the catalog is invalid: nothing was frozen", errors)
        catalog = result.catalog
        previous = self.previous(catalog)
        members = self.members(catalog, previous)
        self.refuse_pending(catalog, members)
        digests = {ident: contract_digest(catalog, ident) for ident in sorted(members)}
        resumed = None
        if resumed_text is not None:
            resumed = self.parse_resumed(resumed_text)
            self.notes.append(f"{self.ruleset_rel} was written but not committed: reusing its seeds")
        ruleset = self.build(catalog, previous, digests, head, resumed)
        text = render_ruleset(ruleset)
        digest = ruleset_digest(text.encode())
        section = self.changelog_section(catalog, ruleset, previous, digest)
        result_ = FreezeResult(self.cohort.id, "planned", self.ruleset_rel, text, digest, section, notes=self.notes)
        if self.request.dry_run:
            return result_
        if self.request.push:
            self.check_remote_before(None)
        changelog_path = self.root / CHANGELOG
        old_changelog = changelog_path.read_bytes() if changelog_path.exists() else None
        try:
            current = (old_changelog or b"# Catalog release notes\n").decode("utf-8")
        except UnicodeDecodeError as exc:
            raise EnvironmentProblem(
                f"{CHANGELOG} is not UTF-8 (byte {exc.start}): nothing was frozen", "save it as UTF-8 and commit it"
            ) from None
        new_changelog = upsert_section(current, self.cohort.id, section)
        write_atomic(self.root / self.ruleset_rel, text.encode())
        write_atomic(changelog_path, new_changelog.encode())
        self.failpoint("files")
        try:
            commit = gitrepo.commit_paths(self.repo, [self.ruleset_rel, CHANGELOG], self.commit_message(), head)
        except CatalogError:
            self.restore(old_changelog, resumed_text)  # a failure we know of leaves everything as it was
            raise
        self.failpoint("commit")
        result_.commit = str(commit.id)
        result_.state = "resumed" if resumed is not None else "frozen"
        return self.publish(commit, result_, digest)

    def uncommitted_ruleset(self) -> bytes | None:
        """The ruleset an interrupted freeze wrote (HEAD's history has none: see `run`)."""
        path = self.root / self.ruleset_rel
        return path.read_bytes() if path.is_file() else None

    def parse_resumed(self, text: bytes) -> Ruleset:
        try:
            return parse_ruleset(text, self.ruleset_rel)
        except CatalogInvalid as exc:
            raise CatalogInvalid(
                f"{self.ruleset_rel} is left from an interrupted freeze but does not validate", exc.diagnostics
            ) from None

    def restore(self, old_changelog: bytes | None, resumed_text: bytes | None) -> None:
        ruleset_path = self.root / self.ruleset_rel
        if resumed_text is None:
            ruleset_path.unlink(missing_ok=True)
        else:
            write_atomic(ruleset_path, resumed_text)
        if old_changelog is None:
            (self.root / CHANGELOG).unlink(missing_ok=True)
        else:
            write_atomic(self.root / CHANGELOG, old_changelog)

    def previous(self, catalog: Catalog) -> Ruleset | None:
        frozen = {Cohort.parse(c): r for c, r in catalog.rulesets.items() if c != self.cohort.id}
        if not frozen:
            return None
        last = max(frozen)
        if last >= self.cohort:
            raise UsageError(
                f"{self.cohort} is not later than {last}, the last frozen cohort",
                f"the next cohort is {last.next()} ({last.next().submission_date})",
            )
        return frozen[last]

    def members(self, catalog: Catalog, previous: Ruleset | None) -> set[str]:
        members = {b.id for b in previous.benchmarks} if previous else set()
        problems: list[str] = []
        for ident in self.request.add:
            if ident not in catalog.benchmarks:
                hint = did_you_mean(ident, catalog.benchmarks)
                problems.append(f"unknown benchmark `{ident}`" + (f" ({hint})" if hint else ""))
            elif ident in members:
                problems.append(f"`{ident}` is already in {previous.cohort if previous else 'the cohort'}")
        for ident in self.request.remove:
            if ident not in members:
                problems.append(f"`{ident}` is not in the previous cohort, so it cannot be removed")
        members = (members | set(self.request.add)) - set(self.request.remove)
        for ident in sorted(members - catalog.benchmarks.keys()):
            if ident not in self.request.add:
                problems.append(f"`{ident}` of the previous cohort is no longer in the catalog: --remove it")
        if problems:
            raise UsageError("; ".join(problems))
        if not members:
            raise UsageError("a cohort needs at least one benchmark", "name them with --add ID")
        return members

    def refuse_pending(self, catalog: Catalog, members: set[str]) -> None:
        pending = catalog.pending_by_entity()
        found: list[Diagnostic] = []
        for ident in sorted(members):
            for kind, entity in catalog.sources_of(ident):
                for value in pending.get((kind, entity), []):
                    line, column = catalog.locate(kind, entity, *value.path).position()
                    dotted = ".".join(str(p) for p in value.path)
                    found.append(
                        error(
                            "pending-value",
                            f"{kind} `{entity}`: {dotted} is pending ({value.value}); blocks freezing {ident}",
                            catalog.locate(kind, entity).document.path,
                            line,
                            column,
                        )
                    )
        if found:
            blocked = sorted({d.message.rsplit(" ", 1)[-1] for d in found})
            raise CatalogInvalid(
                f"pending values block freezing {', '.join(blocked)}: decide them, or --remove those benchmarks",
                sorted(set(found)),
            )

    def build(
        self,
        catalog: Catalog,
        previous: Ruleset | None,
        digests: dict[str, str],
        head: gitrepo.Commit,
        resumed: Ruleset | None,
    ) -> Ruleset:
        suite = catalog.suite
        assert suite is not None  # a valid catalog has one
        if resumed is not None:
            seed_sets: list[SeedSet] = list(resumed.seed_sets)
            frozen_at = resumed.frozen_at
            if self.request.seeds_file is not None:
                self.check_resumed_seeds(resumed)
        else:
            published = [s for r in catalog.rulesets.values() if r.cohort != self.cohort.id for s in r.seed_sets]
            imported = read_seed_file(self.request.seeds_file) if self.request.seeds_file is not None else None
            seed_sets, new_set = next_seed_sets(
                suite.policies.seed_rotation,
                self.cohort,
                list(previous.seed_sets) if previous else [],
                unique_sets(published),
                imported,
                imported.id if imported else None,
            )
            if new_set is not None:
                origin = "imported" if imported else "generated"
                self.notes.append(f"seed set {new_set.id} {origin}, valid through {new_set.valid_through}")
            frozen_at = (self.request.now or dt.datetime.now(dt.UTC)).replace(microsecond=0)
        return Ruleset(
            cohort=self.cohort.id,
            submission_date=self.cohort.submission_date,
            previous=previous.cohort if previous else None,
            frozen_at=frozen_at,
            catalog_tree=gitrepo.subtree_id(head, SUITE_DIR),
            benchmarks=[{"id": ident, "digest": digest} for ident, digest in digests.items()],  # type: ignore[misc]
            seed_sets=seed_sets,
        )

    def check_resumed_seeds(self, resumed: Ruleset) -> None:
        """A rerun with --seeds must ask for the seeds the interrupted freeze already wrote."""
        assert self.request.seeds_file is not None
        imported = read_seed_file(self.request.seeds_file)
        new = [s for s in resumed.seed_sets if s.introduced_in == self.cohort.id]
        values = [s.seed_values() for s in new]
        if values != [imported.seed_values()] or (imported.id is not None and new[0].id != imported.id):
            shown = f"{new[0].scheduler_rng_seed} / {new[0].sample_index_rng_seed} / {new[0].model_seed}" if new else ""
            written = f"seed set {new[0].id} = {shown}" if new else "no new seed set"
            raise UsageError(
                f"the interrupted freeze left {self.ruleset_rel} with {written}, "
                f"not the seeds of {self.request.seeds_file}",
                f"remove {self.ruleset_rel} to start this freeze over, or rerun without --seeds",
            )

    def changelog_section(self, catalog: Catalog, ruleset: Ruleset, previous: Ruleset | None, digest: str) -> str:
        return changelog_section(self.repo, catalog, ruleset, previous, digest)

    def commit_message(self) -> str:
        return f"Freeze cohort {self.cohort}\n\nAdds {self.ruleset_rel} and its CHANGELOG.md section.\n"

    # -- tag and push ---------------------------------------------------------------------------

    def finish(self, commit: gitrepo.Commit, state: Literal["resumed", "already-frozen"]) -> FreezeResult:
        text = gitrepo.read_blob(commit, self.ruleset_rel).decode("utf-8")
        digest = ruleset_digest(text.encode())
        result = FreezeResult(
            self.cohort.id, state, self.ruleset_rel, text, digest, "", str(commit.id), notes=self.notes
        )
        if state == "already-frozen":
            result.tagged = True
            self.notes.append(f"{self.cohort} is already frozen at {str(commit.id)[:12]}: nothing to do")
        if self.request.dry_run:
            return result
        return self.publish(commit, result, digest)

    def publish(self, commit: gitrepo.Commit, result: FreezeResult, digest: str) -> FreezeResult:
        if self.request.tag and gitrepo.tag_state(self.repo, self.cohort.id) is None:
            gitrepo.create_tag(
                self.repo, self.cohort.id, commit, tag_message(self.cohort.id, digest, self.request.message)
            )
            self.failpoint("tag")
            result.tagged = True
        if self.request.push:
            self.push(commit)
            result.pushed = True
        return result

    def check_remote_before(self, commit: gitrepo.Commit | None) -> dict[str, str]:
        remote = self.request.push
        assert remote is not None
        refs = gitrepo.remote_refs(self.repo, remote)
        there = refs.get(f"refs/tags/{self.cohort}")
        if there is not None and (commit is None or there != str(commit.id)):
            ours = str(commit.id)[:12] if commit is not None else "none yet"
            raise RemoteProblem(
                f"`{remote}` already has tag `{self.cohort}` at {there[:12]} (ours: {ours})",
                "someone else froze this cohort: fetch it (git fetch --tags) and compare before anything else",
            )
        return refs

    def push(self, commit: gitrepo.Commit) -> None:
        remote = self.request.push
        assert remote is not None
        branch = gitrepo.branch_name(self.repo)
        release, tag_ref = str(commit.id), f"refs/tags/{self.cohort}"
        refs = self.check_remote_before(commit)
        if refs.get(tag_ref) == release:
            return  # already published: a rerun after success pushes nothing
        if refs.get(branch) != release:
            # The release commit, not whatever the branch holds now (a rerun may come later).
            gitrepo.push(self.repo, remote, [f"{release}:{branch}"])
        self.failpoint("push")
        if gitrepo.tag_state(self.repo, self.cohort.id) is not None:
            self.check_remote_before(commit)  # again, right before: pygit2 would move a remote tag
            gitrepo.push(self.repo, remote, [f"{tag_ref}:{tag_ref}"])
        after = gitrepo.remote_refs(self.repo, remote)
        tag_there = after.get(tag_ref)
        if self.request.tag and tag_there != release:
            raise RemoteProblem(
                f"after the push, `{remote}` has tag `{self.cohort}` at {(tag_there or 'nothing')[:12]}, "
                f"not {release[:12]}"
            )
        if not self.request.tag and after.get(branch) != release:
            raise RemoteProblem(f"after the push, `{remote}` does not show {release[:12]} on {branch}")


def freeze(path: Path, request: FreezeRequest, failpoint: Failpoint = _no_failpoint) -> FreezeResult:
    """Freeze a cohort in the repository at `path` (see the module docstring for the order of
    steps). `failpoint(step)` is called after each step; tests use it to inject crashes."""
    return _Freeze(path, request, failpoint).run()
