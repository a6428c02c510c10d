"""Where a catalog is read from: its root folder, the working tree, or the tree of a ref (a
cohort id names its release tag, or, for read-only verbs, the commit that added its ruleset);
and which of its files differ between two trees."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from catalogctl.catalog.cohorts import is_cohort_id
from catalogctl.catalog.layout import Layout
from catalogctl.errors import EntityNotFound, EnvironmentProblem, RefNotFound, RulesetAddedTwice
from catalogctl.io.tree import Tree, WorkingTree

if TYPE_CHECKING:  # pygit2 is imported only when a ref is read: `validate` of a working tree skips it
    from catalogctl.io import gitrepo


@dataclass(frozen=True)
class ResolvedRef:
    """A ref, the commit it names, and how it was found when that is worth saying."""

    name: str
    commit: gitrepo.Commit
    note: str = ""


def resolve_ref(repo: gitrepo.Repository, ref: str, layout: Layout, *, ruleset_fallback: bool = True) -> ResolvedRef:
    """The commit a tag, branch, remote branch, (abbreviated) commit id or cohort names.

    A cohort id names its release tag. Where the tag is missing (a fresh clone without tags),
    read-only verbs may fall back to the commit that added `rulesets/<cohort>.yaml` (in
    `layout`); the result says so in its note.
    """
    from catalogctl.io import gitrepo

    commit = gitrepo.lookup(repo, ref)
    if commit is not None:
        return ResolvedRef(ref, commit)
    if ruleset_fallback and is_cohort_id(ref):
        path = layout.ruleset_path(ref)
        adding = ruleset_commit(repo, path)
        if adding is not None:
            note = f"tag `{ref}` not found: using {str(adding.id)[:12]}, the commit that added {path}"
            return ResolvedRef(ref, adding, note)
        if not gitrepo.tags_not_fetched(repo):  # a clone that fetches tags would have the release's
            raise no_such_cohort(ref, layout)
    raise RefNotFound(f"unknown ref `{ref}`", _fetch_hint(repo, ref))


def ruleset_commit(repo: gitrepo.Repository, path: str, start: gitrepo.Commit | None = None) -> gitrepo.Commit | None:
    """The one commit reachable from `start` (default HEAD) that added the ruleset at `path`. Two
    are an error: a ruleset is added once, by its freeze, and a second copy brought in by a merge
    (that changes no file, so no review sees it) must never be taken for the release."""
    from catalogctl.io import gitrepo

    found = gitrepo.commits_adding(repo, path, start)
    if len(found) > 1:
        shown = ", ".join(str(c.id)[:12] for c in found)
        raise RulesetAddedTwice(
            f"{path} was added by {len(found)} commits ({shown}): a ruleset is added once, by its freeze",
            "one of them is not the release: ask the maintainers which; do not run either",
        )
    return found[0] if found else None


def no_such_cohort(cohort_id: str, layout: Layout) -> EntityNotFound:
    """The error of a cohort id nobody froze: no release tag, no ruleset in HEAD's history (a
    usage error, exit 2: a cohort nobody froze is not a release whose tag is missing)."""
    return EntityNotFound(
        f"no such cohort `{cohort_id}`: no release tag and no {layout.ruleset_path(cohort_id)}",
        "list the frozen cohorts with `catalogctl cohorts`",
    )


def _fetch_hint(repo: gitrepo.Repository, ref: str) -> str:
    """The exact command that brings `ref` into this clone: a remote branch by its own refspec (a
    clone of one branch, as CI makes them, fetches no other), else the tags; a shallow clone
    also needs its full history."""
    from catalogctl.io import gitrepo

    remote, _, branch = ref.partition("/")
    refspec = f" +refs/heads/{branch}:refs/remotes/{ref}" if branch and remote in gitrepo.remote_names(repo) else ""
    if gitrepo.is_shallow(repo):
        fetch = f"git fetch --unshallow --tags {remote if refspec else 'origin'}{refspec}"
        return (
            f"this is a shallow clone, which may lack it: fetch the full history: {fetch} "
            "(in GitHub Actions: actions/checkout with fetch-depth: 0)"
        )
    return f"fetch it first: git fetch {remote}{refspec}" if refspec else "fetch it first: git fetch --tags origin"


def find_root(start: Path, layout: Layout) -> Path:
    """The catalog root at or above `start`: the first folder holding the catalog folder of
    `layout` (`benchmark_suite/`), looking no higher than the top of the git repository."""
    start = start.resolve()
    if not start.is_dir():
        raise EnvironmentProblem(f"{start} is not a folder")
    for folder in (start, *start.parents):
        if (folder / layout.suite_dir).exists() or (folder / layout.suite_dir).is_symlink():
            return folder
        if (folder / ".git").exists():
            break
    raise EnvironmentProblem(
        f"no catalog at or above {start}: `{layout.suite_dir}/` not found",
        "run in the catalog repository, or pass its path",
    )


def open_tree(
    path: Path | None = None,
    ref: str | None = None,
    layout: Layout | None = None,
    repo: gitrepo.Repository | None = None,
) -> Tree:
    """The working tree at `path` (default: the current folder), or the tree of `ref` in the
    repository that contains `path` (`repo`, when the caller opened it already: many trees of
    one repository share its object cache); found in `layout` (default: the one configured
    there)."""
    start = Path.cwd() if path is None else Path(path)
    if layout is None:
        from catalogctl.catalog.config import layout_for

        layout = layout_for(start)
    if ref is None:
        return WorkingTree(find_root(start, layout))
    from catalogctl.io import gitrepo
    from catalogctl.io.gittree import GitTree

    repo = repo if repo is not None else gitrepo.open_repository(start)
    resolved = resolve_ref(repo, ref, layout)
    return GitTree(repo, resolved.commit, ref, resolved.note)


def changed_files(old: Tree, new: Tree, layout: Layout, new_ids: dict[str, str] | None = None) -> set[str]:
    """The entries of the catalog's folders (suite, entities, rulesets) that differ between two
    trees read in `layout`, added and removed ones included: compared by file id, no file is
    parsed. `new_ids`: the file ids of the new tree's folders when already listed (a verdict's)."""
    folders = (layout.suite_dir, *layout.entity_dirs.values(), layout.rulesets_dir)
    listed: dict[str, dict[str, str]] = {folder: {} for folder in folders}
    for path, file_id in (new_ids or {}).items():
        listed.setdefault(path.rpartition("/")[0], {})[path] = file_id
    changed: set[str] = set()
    for folder in folders:
        before, after = old.file_ids(folder), listed[folder] if new_ids is not None else new.file_ids(folder)
        # The entity folders inside SUITE_DIR are compared entry by entry, not as folders.
        changed.update(p for p in before.keys() | after.keys() if before.get(p) != after.get(p) and p not in folders)
    return changed
