"""The folder `catalogctl site` writes into, and how it writes there without losing anyone's files.

- Refused even with `--force` (`refuse_protected`): the filesystem root, the home folder, the
  current folder, the catalog's folders (the `-C` folder, the catalog root, the repository's
  work tree) and any parent of one of these; a folder inside a `.git` folder or a bare
  repository, one that is a git repository or holds one anywhere below it (a `.git` entry, or a
  bare repository).
- A folder holding `.catalogctl-site.json`, a valid manifest, is a build of the site: a rebuild
  overwrites the files that build wrote and the new one writes again (an edited page too), and
  removes those the new build does not write, each only while it still has the bytes the manifest
  records; nothing else in the folder is touched.
- A missing folder is created, an empty one used; any other folder is refused unless `--force`,
  which writes into it, overwriting the files at the paths the site writes and deleting nothing.
  A file the last build did not write, at a path the new one writes, needs `--force` too.
- The pages are built in a temporary folder inside the output folder (one filesystem, so each is
  put in place with one rename): a failed build changes nothing. Every path is reached through
  real folders only (`io.confined`): no link, in the folder or in a manifest, leads outside.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from catalogctl.catalog.config import layout_for
from catalogctl.catalog.layout import Layout
from catalogctl.catalog.source import find_root
from catalogctl.errors import CatalogError, EnvironmentProblem, UsageError
from catalogctl.io import gitrepo
from catalogctl.io.confined import Confined, NotAFolder
from catalogctl.model.documents.site_manifest import MANIFEST_NAME, SITE_MANIFEST_SCHEMA, SiteManifest
from catalogctl.version import __version__

MANIFEST = MANIFEST_NAME
MAX_MANIFEST = 64 * 1024 * 1024
PROTECTED_HINT = "--force does not override this: name a new folder for the site, e.g. _site"
FORCE_HINT = (
    "name a new or empty folder (e.g. _site), or pass --force to write into it: "
    "it overwrites the files at the site's paths and deletes nothing"
)
LISTED = 5  # paths named in a message; the rest are counted


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def catalog_folders(start: Path, layout: Layout) -> list[Path]:
    """The folders of the catalog the site is built from: the `-C` folder, the catalog root above
    it (found in `layout`) and the work tree of its repository, those that exist."""
    found = [_real(start)]
    with contextlib.suppress(CatalogError):
        found.append(_real(find_root(start, layout)))
    with contextlib.suppress(CatalogError):
        found.append(_real(gitrepo.work_dir(gitrepo.open_repository(start))))
    return found


def _homes() -> set[Path]:
    homes = set()
    with contextlib.suppress(RuntimeError, KeyError):
        homes.add(_real(Path.home()))  # $HOME
    with contextlib.suppress(KeyError):
        homes.add(_real(Path(pwd.getpwuid(os.getuid()).pw_dir)))  # the account's, when $HOME says otherwise
    return homes


def _identity(folder: Path) -> tuple[int, int] | None:
    """The device and inode of `folder`, the same whatever path names it (None when missing)."""
    try:
        found = folder.stat()
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _why_place(target: Path, catalog: Sequence[Path], layout: Layout) -> str:
    """Why `target` is a place no site may go: the root, home, current or catalog folder, a
    parent of one, a catalog data folder, or a folder in a .git folder or a bare repository ("" when none)."""
    if target == Path(target.anchor):
        return "it is the root of the filesystem"
    named = [(home, "the home folder") for home in sorted(_homes())]
    named += [(_real(Path.cwd()), "the current folder"), *((folder, "the catalog's folder") for folder in catalog)]
    # Paths are compared, and folders too: a bind mount names the same folder by another path.
    here = _identity(target)
    upward = {_identity(folder) for folder in (target, *target.parents)} - {None}  # target and its parents
    for folder, what in named:
        if target == folder or (here and _identity(folder) == here):
            return f"it is {what}"
        if folder.is_relative_to(target) or (here and here in {_identity(up) for up in folder.parents}):
            return f"it is a parent of {what} ({folder})"
    for folder in catalog:
        for data in (layout.suite_dir, layout.rulesets_dir):
            if target.is_relative_to(folder / data) or _identity(folder / data) in upward:
                return f"it is in the catalog's {data}/ folder"
    if ".git" in target.parts:
        return "it is in a git repository's .git folder"
    # A bare repository or a --separate-git-dir is a .git folder by another name.
    inside = next((folder for folder in target.parents if _is_git_dir(folder)), None)
    return f"it is in a git repository ({inside})" if inside else ""


def _is_git_dir(folder: Path) -> bool:
    """Git's own test of a repository folder (setup.c), as `_why_git` applies it."""
    return (folder / "HEAD").is_file() and (folder / "objects").is_dir() and (folder / "refs").is_dir()


def _why_git(target: Path) -> str:
    """Why `target` is a git repository or holds one ("" when it is neither)."""
    for top, folders, files in os.walk(target):  # links are listed, never followed
        folders.sort()  # the same answer every time
        rel = Path(top).relative_to(target)
        if "HEAD" in files and "objects" in folders and "refs" in folders:  # git's own test (setup.c)
            return "it is a git repository" if rel == Path() else f"it holds a git repository ({rel.as_posix()})"
        if ".git" in folders or ".git" in files:
            return f"it holds a git repository ({(rel / '.git').as_posix()})"
    return ""


def refuse_protected(target: Path, shown: str | Path, catalog: Sequence[Path], layout: Layout) -> None:
    """Refuse, whatever `--force` says, a `target` (resolved) whose files are someone's work
    (`catalog`: the catalog's folders, whose data folders `layout` names)."""
    why = _why_place(target, catalog, layout) or (_why_git(target) if target.is_dir() else "")
    if why:
        where = str(shown) if str(shown) == str(target) else f"{shown} ({target})"
        raise UsageError(f"refusing to write the site into {where}: {why}", PROTECTED_HINT)


def _present(box: Confined, rel: str) -> bool:
    """Whether `rel` is in the folder itself (a file behind a link in its path is not)."""
    try:
        return box.kind(rel) != "missing"
    except NotAFolder:
        return False


def _listed(paths: Sequence[str]) -> str:
    more = len(paths) - LISTED
    return ", ".join(paths[:LISTED]) + (f" and {more} more" if more > 0 else "")


@dataclass(frozen=True)
class SiteWritten:
    """What a build did to its folder."""

    pages: int
    removed: list[str] = field(default_factory=list)  # files of the last build it no longer writes
    kept: list[str] = field(default_factory=list)  # such files left alone: changed since that build
    rendered: list[str] = field(default_factory=list)  # the files it wrote (the others were unchanged)


@dataclass(frozen=True)
class Destination:
    """An output folder found fit for the site (`open_destination`), and its last build if any."""

    target: Path
    shown: str
    previous: SiteManifest | None
    force: bool

    def _refuse(self, why: str, hint: str) -> UsageError:
        return UsageError(f"refusing to write the site into {self.shown}: {why}", hint)

    def _cannot(self, why: str, hint: str = "") -> EnvironmentProblem:
        return EnvironmentProblem(f"cannot write the site into {self.shown}: {why}", hint)

    @contextlib.contextmanager
    def staging(self) -> Iterator[Path]:
        """A temporary folder inside the target (made, with its parents, when missing); removed
        at the end, and on a failure the folders made for it too."""
        made: list[Path] = []
        try:
            for folder in reversed([self.target, *self.target.parents]):
                if not folder.exists():
                    folder.mkdir()
                    made.append(folder)
            staging = Path(tempfile.mkdtemp(prefix=".catalogctl-site.", suffix=".tmp", dir=self.target))
        except OSError as exc:
            self._unmake(made)
            raise self._cannot(exc.strerror or str(exc)) from None
        try:
            yield staging
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            self._unmake(made)
            raise
        shutil.rmtree(staging, ignore_errors=True)

    @staticmethod
    def _unmake(made: list[Path]) -> None:
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()  # only while empty

    def holds(self, rel: str, digest: str) -> bool:
        """Whether `rel` is a regular file of the folder with the bytes of `digest`."""
        try:
            return Confined(self.target).digest(rel) == digest
        except (OSError, NotAFolder):
            return False

    def commit(
        self,
        staging: Path,
        written: dict[str, str],
        source: str,
        unchanged: dict[str, str] | None = None,
        inputs: dict[str, str] | None = None,
    ) -> SiteWritten:
        """Put the files of `staging` (path -> digest) in place, remove the last build's stale
        files, and write the new manifest; `unchanged` are the files of the last build this one
        leaves as they are, `inputs` the digest of what each file is made from. Nothing is
        changed until every path is known fit."""
        box = Confined(self.target)
        old = self.previous.files if self.previous else {}
        unchanged = unchanged or {}
        inputs = inputs or {}
        self._check_paths(box, written, old)
        # The manifest first lists both builds: an interruption leaves no file of either unlisted,
        # and no inputs but those of the files left as they are (the others may be either build's).
        kept_inputs = {rel: key for rel, key in inputs.items() if rel in unchanged}
        self._write_manifest(box, staging, {**old, **written}, source, kept_inputs)
        removed: list[str] = []
        kept: list[str] = []
        try:
            _move(box, staging, "")
            for rel, digest in sorted(old.items()):
                if rel in written or rel in unchanged:
                    continue
                if box.remove_if(rel, digest):
                    removed.append(rel)
                elif _present(box, rel):
                    kept.append(rel)
        except (OSError, NotAFolder) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise self._cannot(why, "a new build completes the last one") from None
        files = {**unchanged, **written}
        self._write_manifest(box, staging, files, source, {rel: key for rel, key in inputs.items() if rel in files})
        return SiteWritten(sum(rel.endswith(".html") for rel in files), removed, kept, sorted(written))

    def _check_paths(self, box: Confined, written: dict[str, str], old: dict[str, str]) -> None:
        foreign = []
        for rel in sorted(written):
            try:
                kind = box.kind(rel)
            except NotAFolder as exc:
                raise self._cannot(str(exc), "move it away, or name another folder for the site") from None
            except OSError as exc:
                raise self._cannot(f"{rel}: {exc.strerror or exc}") from None
            if kind == "folder":
                raise self._cannot(f"{rel} is a folder, where the site writes a file", "move it away")
            if kind != "missing" and rel not in old and not self.force:
                foreign.append(rel)
        if foreign:
            one = len(foreign) == 1
            what = "1 file it writes was" if one else f"{len(foreign)} files it writes were"
            it = "it" if one else "them"
            raise self._refuse(
                f"{what} not written by its last build: {_listed(foreign)}",
                f"move {it} away, or pass --force to overwrite {it}",
            )

    def _write_manifest(
        self, box: Confined, staging: Path, files: dict[str, str], source: str, inputs: dict[str, str]
    ) -> None:
        manifest = SiteManifest(
            schema_=SITE_MANIFEST_SCHEMA,
            tool_version=__version__,
            source=source,
            files=dict(sorted(files.items())),
            inputs=dict(sorted(inputs.items())),
        )
        path = staging / MANIFEST
        try:
            with path.open("wb") as handle:
                handle.write((manifest.model_dump_json(by_alias=True, indent=2) + "\n").encode("utf-8"))
                handle.flush()
                os.fsync(handle.fileno())
            box.replace(path, MANIFEST)
        except OSError as exc:
            raise self._cannot(f"{MANIFEST}: {exc.strerror or exc}") from None


def _move(box: Confined, staging: Path, rel: str) -> None:
    """Move what `staging/rel` holds into place: a folder whose place is free in one rename (a
    first build is a handful), files one by one below a folder that is there already."""
    with os.scandir(staging / rel if rel else staging) as scan:
        entries = sorted(scan, key=lambda entry: entry.name)
    for entry in entries:
        path = f"{rel}/{entry.name}" if rel else entry.name
        if entry.is_dir(follow_symlinks=False) and box.kind(path) == "folder":
            _move(box, staging, path)
        else:
            box.replace(Path(entry.path), path)


def _previous(target: Path, shown: str, force: bool) -> SiteManifest | None:
    """The manifest of the build in `target`; None for a missing or empty folder, or with `force`;
    any other folder is refused."""
    if not target.exists():
        return None
    box = Confined(target)
    kind = box.kind(MANIFEST)
    if kind == "missing":
        with os.scandir(target) as entries:
            if force or next(entries, None) is None:
                return None
        why = f"it is not empty and no site was built there (no {MANIFEST})"
        raise UsageError(f"refusing to write the site into {shown}: {why}", FORCE_HINT)
    data = box.read(MANIFEST, MAX_MANIFEST)
    problem = "not a regular file of at most 64 MiB"
    if data is not None:
        try:
            return SiteManifest.model_validate_json(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            problem = f"{where}: {first['msg']}" if where else first["msg"]
    if force:
        return None  # not a build: nothing in it will be removed
    raise UsageError(f"refusing to write the site into {shown}: its {MANIFEST} is not valid ({problem})", FORCE_HINT)


def open_destination(output: Path, force: bool = False, catalog: Path | None = None) -> Destination:
    """The folder `output` if the site may be written there (see the module's docstring);
    `catalog` is the `-C` folder (default: the current one), read in the layout configured
    there. Nothing is written yet."""
    target = _real(output)
    shown = str(output)
    if target.exists() and not target.is_dir():
        raise UsageError(f"{Path(os.path.abspath(output))} exists and is not a folder", "name a folder for the site")
    start = Path.cwd() if catalog is None else Path(catalog)
    layout = layout_for(start)
    refuse_protected(target, shown, catalog_folders(start, layout), layout)
    try:
        previous = _previous(target, shown, force)
    except OSError as exc:
        raise EnvironmentProblem(f"cannot read {shown}: {exc.strerror or exc}") from None
    return Destination(target, shown, previous, force)
