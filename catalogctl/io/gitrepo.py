"""Where pygit2 is used (with `gitremote`, which talks to remotes): find the repository, resolve
refs, read trees, write commits and tags.

Trees are read straight from the object database: nothing is checked out, nothing is written.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import pygit2

from catalogctl.errors import (
    CheckFailed,
    ConcurrentUpdate,
    EnvironmentProblem,
    HistoryIncomplete,
    RulesetAddedTwice,
)
from catalogctl.io.sshsig import split
from catalogctl.io.tree import Entry, EntryKind, UnsafePath

# The branch a release is on when the remote does not say (its HEAD symref) which one is.
DEFAULT_BRANCH = "refs/heads/main"

# The command that fetches what a shallow or tagless clone lacks.
FETCH_HISTORY = "git fetch --unshallow --tags origin"

# The types other modules name; they never import pygit2 themselves.
Repository = pygit2.Repository
Commit = pygit2.Commit
Signature = pygit2.Signature

_KIND_BY_MODE: dict[int, EntryKind] = {
    pygit2.enums.FileMode.BLOB: "file",
    pygit2.enums.FileMode.BLOB_EXECUTABLE: "file",
    pygit2.enums.FileMode.TREE: "dir",
    pygit2.enums.FileMode.LINK: "symlink",
}


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


def _has_path(commit: pygit2.Commit, path: str) -> bool:
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
    an error."""
    require_full_history(repo, path)
    if start is None:
        if repo.head_is_unborn:
            return []
        start = head(repo)
    walk = repo.walk(start.id, pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.TIME)
    return [c for c in walk if _has_path(c, path) and not any(_has_path(p, path) for p in c.parents)]


def commit_adding(repo: pygit2.Repository, path: str, start: pygit2.Commit | None = None) -> pygit2.Commit | None:
    """The one commit reachable from `start` (default HEAD) that added `path`. Two are an error: a
    release's ruleset is added once, by its freeze, and a second copy brought in by a merge (that
    changes no file, so no review sees it) must never be taken for the release."""
    found = commits_adding(repo, path, start)
    if len(found) > 1:
        shown = ", ".join(str(c.id)[:12] for c in found)
        raise RulesetAddedTwice(
            f"{path} was added by {len(found)} commits ({shown}): a ruleset is added once, by its freeze",
            "one of them is not the release: ask the maintainers which; do not run either",
        )
    return found[0] if found else None


class GitTree:
    """The tree of one commit, read from the object database."""

    def __init__(self, repo: pygit2.Repository, commit: pygit2.Commit, ref: str, note: str = "") -> None:
        self.repo = repo
        self.commit = commit
        self.label = f"{ref} ({str(commit.id)[:12]})"
        self.note = note
        self._root = commit.tree
        # Folder path -> its tree object. A lookup by full path (`tree["a/b/c.yaml"]`) reads and
        # parses every tree on the way again, so reading each file of a folder of n files would
        # cost O(n) apiece; looking names up in the cached folder tree keeps it O(log n).
        self._trees: dict[str, pygit2.Tree] = {}
        self._ids: dict[str, dict[str, str]] = {}  # folder -> `file_ids`: a commit's tree never changes

    def _object(self, path: str) -> pygit2.Object | None:
        if not path:
            return self._root
        parts = path.split("/")
        if "" in parts:  # an unusual spelling ('a//b', 'a/'): let libgit2 resolve the whole path
            try:
                return self._root[path]
            except KeyError:
                return None
        parent = self._folder("/".join(parts[:-1]))
        if parent is None:
            return None
        try:
            return parent[parts[-1]]
        except KeyError:
            return None

    def _folder(self, folder: str) -> pygit2.Tree | None:
        """The tree object of a folder (cached), or None when it is absent or not a folder."""
        found = self._trees.get(folder)
        if found is None:
            obj = self._object(folder)
            if not isinstance(obj, pygit2.Tree):
                return None
            self._trees[folder] = found = obj
        return found

    def kind(self, path: str) -> EntryKind | None:
        """What `path` is; None when absent."""
        obj = self._object(path)
        if obj is None:
            return None
        if not path:
            return "dir"
        return _KIND_BY_MODE.get(obj.filemode, "other")

    def entries(self, folder: str) -> list[Entry]:
        """Direct children of `folder`."""
        obj = self._object(folder)
        if not isinstance(obj, pygit2.Tree):
            return []
        prefix = f"{folder.rstrip('/')}/" if folder else ""
        found = [Entry(prefix + (e.name or ""), _KIND_BY_MODE.get(e.filemode, "other")) for e in obj]
        return sorted(found, key=lambda e: e.path)

    def file_ids(self, folder: str) -> dict[str, str]:
        """The git blob id of every entry directly in `folder` (free: no blob is read)."""
        known = self._ids.get(folder)
        if known is None:
            obj = self._object(folder)
            if not isinstance(obj, pygit2.Tree):
                return {}
            prefix = f"{folder.rstrip('/')}/" if folder else ""
            known = self._ids[folder] = {prefix + (e.name or ""): f"{e.filemode:o}:{e.id}" for e in obj}
        return dict(known)  # a copy: a caller may change its own

    def read(self, path: str) -> bytes:
        """The bytes of a blob; a symlink blob is never read as a file."""
        obj = self._object(path)
        if not isinstance(obj, pygit2.Blob) or _KIND_BY_MODE.get(obj.filemode) != "file":
            raise UnsafePath(f"{path} is not a regular file at {self.label}")
        return obj.data

    def read_blob(self, oid: str) -> bytes:
        """The bytes of the blob `oid`, straight from the object database (`BlobReader`). No
        path is walked, so nothing here says it is a regular file: `file_ids` says so."""
        try:
            kind, data = self.repo.odb.read(oid)
        except (pygit2.GitError, KeyError, ValueError) as exc:  # absent, or not an object id
            raise FileNotFoundError(f"no blob {oid} at {self.label}") from exc
        if kind != pygit2.enums.ObjectType.BLOB:
            raise UnsafePath(f"{oid} is not a blob at {self.label}")
        return bytes(data)


# -- writing: status, commits, tags ----------------------------------------------------------


def dirty_paths(repo: pygit2.Repository) -> list[str]:
    """Modified, staged and untracked paths (ignored files left out)."""
    return sorted(path for path, flags in repo.status().items() if flags != pygit2.enums.FileStatus.IGNORED)


def signature(repo: pygit2.Repository, at: dt.datetime | None = None) -> pygit2.Signature:
    """Who commits: GIT_COMMITTER_NAME/EMAIL when set (as git does), else user.name/user.email;
    dated `at` when given (a caller's clock), else now."""
    import os

    name, email = os.environ.get("GIT_COMMITTER_NAME"), os.environ.get("GIT_COMMITTER_EMAIL")
    hint = 'set another: export GIT_COMMITTER_NAME="…" GIT_COMMITTER_EMAIL="…"'
    if not (name and email):
        name, email = _config_identity(repo)
        hint = 'set another: git config user.name "…" && git config user.email "…"'
    if any(c in name + email for c in "<>"):  # libgit2 refuses it, as git does
        raise EnvironmentProblem(
            f"the git identity {name!r} <{email}> holds '<' or '>': git writes no such identity in a commit; "
            "nothing was written",
            hint,
        )
    if at is None:
        return pygit2.Signature(name, email)
    offset = at.utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    return pygit2.Signature(name, email, int(at.timestamp()), minutes)


def _config_identity(repo: pygit2.Repository) -> tuple[str, str]:
    """user.name and user.email as git config holds them."""
    name, email = config_value(repo, "user.name"), config_value(repo, "user.email")
    if not (name and email):
        raise EnvironmentProblem(
            "no git identity to commit with", 'set it: git config user.name "…" && git config user.email "…"'
        )
    return name, email


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


def _lock_failure(exc: Exception) -> str | None:
    """The lock file a libgit2 error names ("failed to lock file '…' for writing"), if any."""
    text = str(exc)
    marker = "failed to lock file '"
    if marker not in text:
        return None
    return text.split(marker, 1)[1].split("'", 1)[0]


def _tree_with(repo: pygit2.Repository, files: dict[str, bytes], parent: pygit2.Commit) -> pygit2.Oid:
    """`parent`'s tree with `files` (path -> bytes, regular files) in it, written as objects only."""
    index = pygit2.Index()
    index.read_tree(parent.tree)
    for path, data in files.items():
        index.add(pygit2.IndexEntry(path, repo.create_blob(data), pygit2.enums.FileMode.BLOB))
    return index.write_tree(repo)


def commit_id(
    repo: pygit2.Repository, files: dict[str, bytes], message: str, parent: pygit2.Commit, author: pygit2.Signature
) -> str:
    """The id `commit_files` will give this commit with this `author` (its time included): the
    commit is written as an object that no ref names, so nothing a user sees changes."""
    return str(repo.create_commit(None, author, author, message, _tree_with(repo, files, parent), [parent.id]))


def commit_files(
    repo: pygit2.Repository,
    files: dict[str, bytes],
    message: str,
    parent: pygit2.Commit,
    author: pygit2.Signature | None = None,
) -> pygit2.Commit:
    """Commit `parent`'s tree with `files` (path -> bytes, regular files) on top of `parent`, which
    must still be HEAD (libgit2 refuses when HEAD moved: a compare-and-swap). Neither the index
    nor the working tree is read: the commit holds these bytes and nothing else that changed."""
    tree = _tree_with(repo, files, parent)
    author = author or signature(repo)
    try:
        oid = repo.create_commit("HEAD", author, author, message, tree, [parent.id])
    except (pygit2.GitError, OSError) as exc:
        lock = _lock_failure(exc)
        if lock is not None:
            raise EnvironmentProblem(
                f"cannot commit: {lock} is held by another git process", "rerun when it has finished"
            ) from None
        raise ConcurrentUpdate(
            f"HEAD moved while committing ({exc})", "another freeze ran at the same time; rerun"
        ) from None
    return repo[oid].peel(pygit2.Commit)


def stage_committed(
    repo: pygit2.Repository, commit: pygit2.Commit, paths: list[str], *, only_clean: bool = False
) -> list[str]:
    """Make the index hold `commit`'s blobs at `paths` (a commit made outside the index leaves them
    to stage), with the files' stat data where the working tree holds the same bytes, so that
    `git status` shows them clean; `only_clean`: only there (a repair never stages over someone's
    edit). Returns the paths it changed; a locked index is an error."""
    index = repo.index
    index.read()
    changed: list[str] = []
    for path in paths:
        blob = commit.tree[path] if _has_path(commit, path) else None
        if blob is None:
            continue
        if path in index and index[path].id == blob.id:
            continue
        on_disk = work_dir(repo) / path
        same = on_disk.is_file() and not on_disk.is_symlink() and pygit2.hash(on_disk.read_bytes()) == blob.id
        if only_clean and not same:
            continue
        if same:
            index.add(path)  # reads the file: the same bytes, and records its stat data
        else:
            index.add(pygit2.IndexEntry(path, blob.id, pygit2.enums.FileMode.BLOB))
        changed.append(path)
    if changed:
        try:
            index.write()
        except (pygit2.GitError, OSError) as exc:
            own, _ = git_dirs(repo)
            raise EnvironmentProblem(
                f"cannot update the index ({exc}): {own / 'index.lock'} is held by another git process",
                "rerun the same command when it has finished: the rerun updates the index",
            ) from None
    return changed


@dataclass(frozen=True)
class TagState:
    """A tag and what it points at."""

    name: str
    commit: str
    annotated: bool
    message: str  # the signed part's (the whole message when unsigned): never bytes after a signature
    malformed: str | None = None  # why the tag object is not one git makes (no readable tagger date, another name)


def _tagged_at(tag: pygit2.Tag) -> dt.datetime | str:
    """The tagger's date of a tag object, or why it has none: anyone who can push a tag can write
    one with no tagger line, or a date no calendar holds (`git hash-object --literally`)."""
    tagger = tag.tagger
    if tagger is None:
        return "it has no tagger line"
    sign = "-" if tagger.offset < 0 else "+"
    hours, minutes = divmod(abs(tagger.offset), 60)
    shown = f"{tagger.time} {sign}{hours:02d}{minutes:02d}"
    if tagger.time <= 0:  # ssh-keygen's -Overify-time refuses it: no signature could be checked at it
        return f"its tagger date {shown} cannot be checked: ssh-keygen takes no time before 1970"
    try:
        return dt.datetime.fromtimestamp(tagger.time, dt.timezone(dt.timedelta(minutes=tagger.offset)))
    except (ValueError, OSError, OverflowError):
        return f"its tagger date {shown} is not a date"


def tag_state(repo: pygit2.Repository, name: str) -> TagState | None:
    """The tag `name`, peeled to its commit; None when absent. A tag that names a tree or a blob
    is `CheckFailed("tag-invalid")`: a tag never names a commit by accident."""
    try:
        ref = repo.references[f"refs/tags/{name}"]
    except (KeyError, ValueError, pygit2.InvalidSpecError):
        return None
    try:
        target = repo.get(ref.target)
    except pygit2.GitError as exc:  # libgit2 cannot parse it: a tagger date past its range, say
        return _unparsed_tag(repo, name, ref.target, exc)
    assert target is not None
    named = target
    while isinstance(named, pygit2.Tag):  # an annotated tag may name another tag
        named = named.get_object()
    if not isinstance(named, pygit2.Commit):
        raise CheckFailed(
            "tag-invalid",
            f"tag `{name}` names a {named.type_str} ({str(named.id)[:12]}), not a commit",
            "a release tag names the commit that added its ruleset: ask the maintainers which commit is the release",
        )
    if isinstance(target, pygit2.Tag):
        when = _tagged_at(target)
        malformed = when if isinstance(when, str) else None
        if target.name != name:  # git never compares them (only `git describe` warns): a release does
            malformed = f"it is tag `{target.name}` (its tag header) under refs/tags/{name}"
        return TagState(name, str(named.id), True, _signed_message(repo, target.id), malformed)
    return TagState(name, str(named.id), False, "")


def _unparsed_tag(repo: pygit2.Repository, name: str, oid: pygit2.Oid | str, exc: Exception) -> TagState:
    """A tag object libgit2 refuses to parse (git fsck and push accept it), read from its raw
    headers: never a release, but a finding (`malformed`), not a crash."""
    kind, raw = repo.odb.read(oid)
    head = bytes(raw).split(b"\n\n", 1)[0].decode("utf-8", errors="replace")
    headers: dict[str, str] = {}
    for line in head.split("\n"):
        key, _, value = line.partition(" ")
        headers.setdefault(key, value)
    commit = repo.get(headers.get("object", "")) if kind == pygit2.enums.ObjectType.TAG else None
    if not isinstance(commit, pygit2.Commit):
        raise CheckFailed(
            "tag-invalid",
            f"tag `{name}` is an object git cannot read ({exc})",
            "a release tag is an annotated tag of the commit that added its ruleset: ask the maintainers",
        )
    tagger = headers.get("tagger")
    why = (
        f"its tagger date {' '.join(tagger.rsplit(' ', 2)[-2:])} is not a date"
        if tagger
        else f"git cannot read it ({exc})"
    )
    return TagState(name, str(commit.id), True, _signed_message(repo, oid), why)


def _signed_message(repo: pygit2.Repository, oid: pygit2.Oid | str) -> str:
    """A tag's message up to its signature (all of it when unsigned): what anything read from a
    tag (the ruleset digest) is read from, since what follows the signature is signed by no one."""
    _, raw = repo.odb.read(oid)
    payload = split(bytes(raw)).payload
    return payload.split(b"\n\n", 1)[1].decode("utf-8", errors="replace") if b"\n\n" in payload else ""


@dataclass(frozen=True)
class TagObject:
    """An annotated tag object as git stores it (signature included), and its tagger's date (None
    when it has none that is a date: see `TagState.malformed`)."""

    id: str
    raw: bytes
    tagged_at: dt.datetime | None


def tag_object(repo: pygit2.Repository, name: str) -> TagObject | None:
    """The annotated tag object `refs/tags/<name>` points at; None for a lightweight or missing tag."""
    try:
        ref = repo.references[f"refs/tags/{name}"]
    except (KeyError, ValueError, pygit2.InvalidSpecError):
        return None
    kind, raw = repo.odb.read(ref.target)
    if kind != pygit2.enums.ObjectType.TAG:
        return None
    try:
        target = repo.get(ref.target)
    except pygit2.GitError:  # unparsable: `tag_state` says why; no date to check a signature at
        return TagObject(str(ref.target), bytes(raw), None)
    assert isinstance(target, pygit2.Tag)
    when = _tagged_at(target)
    return TagObject(str(target.id), bytes(raw), when if isinstance(when, dt.datetime) else None)


def config_path(repo: pygit2.Repository, key: str) -> str | None:
    """A path-valued git config entry (`~` expanded, as git does); None when unset."""
    try:
        value = str(repo.config[key])
    except (KeyError, ValueError):
        return None
    return str(Path(value).expanduser()) if value else None


def create_tag(repo: pygit2.Repository, name: str, commit: pygit2.Commit, message: str) -> None:
    """An annotated tag; an existing tag or a leftover lock file is an error, never overwritten."""
    try:
        repo.create_tag(name, commit.id, pygit2.enums.ObjectType.COMMIT, signature(repo), message)
    except pygit2.AlreadyExistsError:
        raise ConcurrentUpdate(f"tag `{name}` was created meanwhile", "rerun to see where it points") from None
    except OSError as exc:  # libgit2 reports a leftover refs/tags/X.lock as a plain OSError
        raise EnvironmentProblem(
            f"cannot create tag `{name}`: {exc}", f"if no git process is running, remove .git/refs/tags/{name}.lock"
        ) from None


def _signature_line(who: pygit2.Signature) -> str:
    """An identity as git writes it in an object header: name, email, seconds, offset."""
    sign = "-" if who.offset < 0 else "+"
    hours, minutes = divmod(abs(who.offset), 60)
    return f"{who.name} <{who.email}> {who.time} {sign}{hours:02d}{minutes:02d}"


def tag_payload(name: str, commit: str, message: str, tagger: pygit2.Signature) -> bytes:
    """An annotated tag object's text, as `git tag -s` signs it: the headers, a blank line, the
    message (ending in a newline, so that a signature appended to it starts a line)."""
    body = message if message.endswith("\n") else message + "\n"
    head = f"object {commit}\ntype commit\ntag {name}\ntagger {_signature_line(tagger)}\n\n"
    return (head + body).encode("utf-8")


def create_tag_object(repo: pygit2.Repository, name: str, data: bytes) -> None:
    """The tag `name` for a tag object's raw text (a signed payload with its signature appended,
    git's layout); an existing tag or a leftover lock file is an error, never overwritten."""
    oid = repo.odb.write(pygit2.enums.ObjectType.TAG, data)
    try:
        repo.references.create(f"refs/tags/{name}", oid)
    except pygit2.AlreadyExistsError:
        raise ConcurrentUpdate(f"tag `{name}` was created meanwhile", "rerun to see where it points") from None
    except OSError as exc:
        raise EnvironmentProblem(
            f"cannot create tag `{name}`: {exc}", f"if no git process is running, remove .git/refs/tags/{name}.lock"
        ) from None


# The armor a signature in an object starts with, as git tells SSH from PGP and X.509 ones.
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
