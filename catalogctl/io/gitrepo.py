"""A git repository, as facts: where it is, its configuration, its refs, HEAD and the history of
its commits, the files a commit holds. pygit2 is imported only by the git modules of `io`: this
one, `gittree` (a commit's tree as a `Tree`), `gitcommit` (making commits), `gittags` (reading and
making tags) and `gitremote` (a remote's refs and pushes). Which commit or tag is a release is
`release.statement`'s to say.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pygit2

from catalogctl.errors import EnvironmentProblem, HistoryIncomplete
from catalogctl.io.gittags import tag_state

# The branch a release is on when the remote does not say (its HEAD symref) which one is.
DEFAULT_BRANCH = "refs/heads/main"

# The command that fetches what a shallow or tagless clone lacks.
FETCH_HISTORY = "git fetch --unshallow --tags origin"

# The types other modules name; they never import pygit2 themselves.
Repository = pygit2.Repository
Commit = pygit2.Commit
Signature = pygit2.Signature


def open_repository(path: Path) -> pygit2.Repository:
    """The git repository containing `path`."""
    found = pygit2.discover_repository(str(path))
    if found is None:
        raise EnvironmentProblem(
            f"no git repository at {path}", "run inside a clone of the catalog repository, or pass its path"
        )
    return pygit2.Repository(found)


def work_dir(repo: pygit2.Repository) -> Path:
    """The top folder of the repository's working tree."""
    if repo.workdir is None:
        raise EnvironmentProblem(f"{repo.path} is a bare repository", "run in a clone with a working tree")
    return Path(repo.workdir)


def lookup(repo: pygit2.Repository, ref: str) -> pygit2.Commit | None:
    """The commit a tag, branch, remote branch or (abbreviated) commit id names; None if none.
    A tag that names a tree or a blob is an error, never skipped for another candidate. HEAD, a
    full ref name and a full commit id name exactly that: a tag pushed under such a name never
    stands in for it (the gate reads `refs/remotes/origin/<base>` and HEAD)."""
    full_id = len(ref) in (40, 64) and set(ref) <= set("0123456789abcdef")
    exact = ref == "HEAD" or ref.startswith("refs/") or full_id
    tag = None if exact else tag_state(repo, ref)
    if tag is not None:
        return commit_by_id(repo, tag.commit)
    for candidate in (ref,) if exact else (f"refs/tags/{ref}", f"refs/heads/{ref}", f"refs/remotes/{ref}", ref):
        try:
            return repo.revparse_single(candidate).peel(pygit2.Commit)
        except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError):
            continue
    return None


def has_path(commit: pygit2.Commit, path: str) -> bool:
    """Whether `path` is in the commit's tree."""
    try:
        commit.tree[path]
    except KeyError:
        return False
    return True


def require_full_history(repo: pygit2.Repository, path: str) -> None:
    """Refuse a shallow clone: the commit that added `path` (and its tag) may be in the part cut off."""
    if is_shallow(repo):
        raise HistoryIncomplete(
            f"this clone is shallow: its history is cut off, so the commit that added {path} cannot be found",
            f"fetch the full history: {FETCH_HISTORY} (in GitHub Actions: fetch-depth: 0)",
        )


def commits_adding(repo: pygit2.Repository, path: str, start: pygit2.Commit | None = None) -> list[pygit2.Commit]:
    """Every commit reachable from `start` (default HEAD) that added `path` (its parents lack
    it), newest first. A shallow clone cannot tell (its oldest commit seems to add everything):
    an error. How many may add a file is the caller's rule (a ruleset: `catalog.source`)."""
    require_full_history(repo, path)
    if start is None:
        if repo.head_is_unborn:
            return []
        start = head(repo)
    walk = repo.walk(start.id, pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.TIME)
    return [c for c in walk if has_path(c, path) and not any(has_path(p, path) for p in c.parents)]


def dirty_paths(repo: pygit2.Repository) -> list[str]:
    """Modified, staged and untracked paths (ignored files left out)."""
    return sorted(path for path, flags in repo.status().items() if flags != pygit2.enums.FileStatus.IGNORED)


def head(repo: pygit2.Repository) -> pygit2.Commit:
    """The commit HEAD points at."""
    if repo.head_is_unborn:
        raise EnvironmentProblem("the repository has no commit yet", "commit the catalog first")
    return repo.head.peel(pygit2.Commit)


def branch_name(repo: pygit2.Repository) -> str:
    """The branch HEAD is on (an error on a detached HEAD)."""
    if repo.head_is_detached:
        raise EnvironmentProblem("HEAD is detached", "check out the release branch first")
    return str(repo.head.name)


def commit_by_id(repo: pygit2.Repository, ident: str) -> pygit2.Commit:
    """The commit with this id."""
    return repo[ident].peel(pygit2.Commit)


def committed_at(commit: pygit2.Commit) -> dt.datetime:
    """The committer's date of a commit, in the committer's zone."""
    zone = dt.timezone(dt.timedelta(minutes=commit.commit_time_offset))
    return dt.datetime.fromtimestamp(commit.commit_time, zone)


def read_blob(commit: pygit2.Commit, path: str) -> bytes:
    """The bytes of a file that the caller knows is in the commit."""
    data = read_blob_or_none(commit, path)
    if data is None:
        raise KeyError(path)
    return data


def read_blob_or_none(commit: pygit2.Commit, path: str) -> bytes | None:
    """The bytes of a file in a commit; None when there is no such file."""
    try:
        blob = commit.tree[path]
    except KeyError:
        return None
    return blob.data if isinstance(blob, pygit2.Blob) else None


def subtree_id(commit: pygit2.Commit, path: str) -> str:
    """The id of a folder's tree in a commit."""
    return str(commit.tree[path].id)


def git_dirs(repo: pygit2.Repository) -> tuple[Path, Path]:
    """The working tree's own git folder (HEAD, index) and the common one (refs, objects): the
    same folder, except in a linked worktree (`git worktree add`)."""
    own = Path(repo.path)
    pointer = own / "commondir"
    common = (own / pointer.read_text(encoding="utf-8").strip()).resolve() if pointer.is_file() else own
    return own, common


def worktree_dirs(repo: pygit2.Repository) -> list[Path]:
    """Every working tree of the repository: its own, the main one, and each linked one (`git
    worktree add`); none for a bare repository without linked ones."""
    _, common = git_dirs(repo)
    main = pygit2.Repository(str(common))
    found = [Path(p) for p in (repo.workdir, main.workdir) if p]
    for name in main.list_worktrees():
        found.append(Path(main.lookup_worktree(name).path))
    return found


def config_path(repo: pygit2.Repository, key: str) -> str | None:
    """A path-valued git config entry (`~` expanded, as git does); None when unset."""
    try:
        value = str(repo.config[key])
    except (KeyError, ValueError):
        return None
    return str(Path(value).expanduser()) if value else None


def config_value(repo: pygit2.Repository, name: str) -> str | None:
    """A git config value as the repository sees it (its own, the user's, the system's)."""
    try:
        return str(repo.config[name])
    except KeyError:
        return None


_OWN_LOCKS = {"index.lock", "HEAD.lock"}  # of the working tree; every other ref is common


def leftover_locks(repo: pygit2.Repository, names: list[str]) -> list[str]:
    """Lock files git would trip over, each in the folder git keeps it in (reported, never
    deleted)."""
    own, common = git_dirs(repo)
    found = [(own if n in _OWN_LOCKS else common) / n for n in names]
    return [str(p) for p in found if p.exists()]


def has_commit(repo: pygit2.Repository, ident: str) -> bool:
    """Whether the commit `ident` is in this clone's object database."""
    try:
        return isinstance(repo.get(ident), pygit2.Commit)
    except ValueError:
        return False


def is_ancestor(repo: pygit2.Repository, commit: str, tip: str) -> bool:
    """Whether `commit` is `tip` or in its history (both must be in the clone)."""
    return commit == tip or bool(repo.descendant_of(tip, commit))


def default_branch_tips(repo: pygit2.Repository, remote: str = "origin") -> dict[str, str]:
    """The default branch as this clone knows it, by ref name: the branch `<remote>/HEAD` names
    (else `main`), both the local one and `<remote>`'s remote-tracking one, those that exist."""
    name = DEFAULT_BRANCH.removeprefix("refs/heads/")
    symref = repo.references.get(f"refs/remotes/{remote}/HEAD")
    if symref is not None and isinstance(symref.target, str):
        name = symref.target.removeprefix(f"refs/remotes/{remote}/")
    tips: dict[str, str] = {}
    for ref_name in (f"refs/heads/{name}", f"refs/remotes/{remote}/{name}"):
        ref = repo.references.get(ref_name)
        if ref is not None:
            tips[ref_name] = str(ref.peel(pygit2.Commit).id)
    return tips


def ahead_behind(repo: pygit2.Repository, local: pygit2.Commit, upstream: pygit2.Commit) -> tuple[int, int]:
    """How many commits `local` has that `upstream` lacks, and the other way round."""
    ahead, behind = repo.ahead_behind(local.id, upstream.id)
    return int(ahead), int(behind)


def contains(repo: pygit2.Repository, commit: pygit2.Commit, ident: str) -> bool:
    """Whether `commit` is the commit `ident` or has it in its history (False when unknown here)."""
    if str(commit.id) == ident:
        return True
    try:
        return bool(repo.descendant_of(commit.id, ident))
    except (KeyError, ValueError, pygit2.GitError):
        return False


def remote_names(repo: pygit2.Repository) -> list[str]:
    """The names of the configured remotes, sorted."""
    return sorted(str(name) for name in repo.remotes.names())


def upstream_remote(repo: pygit2.Repository) -> str | None:
    """The remote the current branch tracks (`branch.<name>.remote`); None when HEAD is detached
    or unborn, or the branch tracks none."""
    if repo.head_is_detached or repo.head_is_unborn:
        return None
    branch = str(repo.references["HEAD"].target).removeprefix("refs/heads/")
    try:
        return str(repo.config[f"branch.{branch}.remote"])
    except KeyError:
        return None


def remote_url(repo: pygit2.Repository, remote: str) -> str:
    """The URL of a configured remote, or `remote` itself when it is a URL or a path."""
    try:
        return str(repo.remotes[remote].url)
    except (KeyError, ValueError):
        return remote


def is_shallow(repo: pygit2.Repository) -> bool:
    """Whether the clone lacks part of its history (`git clone --depth`)."""
    return bool(repo.is_shallow)


def tags_not_fetched(repo: pygit2.Repository, remote: str = "origin") -> bool:
    """Whether this clone never fetches `remote`'s tags (`git clone --no-tags` sets tagOpt)."""
    try:
        return str(repo.config[f"remote.{remote}.tagOpt"]) == "--no-tags"
    except (KeyError, ValueError):
        return False
