"""Writing files so that a reader sees the old content or the new one, never half of one; a lock
file taken the way git takes its own (created exclusively, removed by its holder)."""

from __future__ import annotations

import fcntl
import os
import re
import socket
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

from catalogctl.errors import EnvironmentProblem, UsageError

MAX_INPUT = 64 * 1024 * 1024  # a document, not a dataset: far above any real config or results file


def read_input(path: Path, max_bytes: int = MAX_INPUT) -> bytes:
    """The bytes of a regular file the user named, up to `max_bytes`; a usage error (exit 2)
    when it cannot be read, is not a regular file (a FIFO would block forever) or is larger."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # before opening: opening a FIFO blocks
            raise UsageError(f"cannot read {path}: not a regular file")
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise UsageError(f"cannot read {path}: larger than {max_bytes // (1024 * 1024)} MiB")
    return data


WriteState = Literal["written", "unchanged", "replaced"]


def write_state(path: Path, data: bytes, refusal: str, hint: str) -> WriteState:
    """What writing `data` to `path` would do: `written` (nothing is there), `unchanged` (the same
    bytes are), `replaced` (other bytes are: whatever they are, text or not). A symlink is never
    followed: it, or anything but a regular file, is a usage error `{path} is not a regular file:
    {refusal}`, before anything is written."""
    try:
        mode = os.lstat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return "written"
    except OSError as exc:
        raise EnvironmentProblem(f"cannot read {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        raise UsageError(f"{path} is not a regular file: {refusal}", hint)
    try:
        with path.open("rb") as handle:
            held = handle.read(len(data) + 1)  # a longer file differs: no need to read it all
    except OSError as exc:
        raise EnvironmentProblem(f"cannot read {path}: {exc.strerror or exc}") from None
    return "unchanged" if held == data else "replaced"


def _temporary_pattern(path: Path) -> re.Pattern[str]:
    # mkstemp's names: the prefix and suffix below around 8 characters of [a-z0-9_].
    return re.compile(rf"\.{re.escape(path.name)}\.[a-z0-9_]{{8}}\.tmp")


def leftover_temporaries(path: Path) -> list[Path]:
    """The temporary files `write_atomic(path, …)` leaves when it is killed before its rename."""
    pattern = _temporary_pattern(path)
    try:
        names = os.listdir(path.parent)
    except OSError:
        return []
    return sorted(path.parent / n for n in names if pattern.fullmatch(n) and (path.parent / n).is_file())


def _fsync_folder(folder: Path) -> None:
    """Make a rename in `folder` durable (the rename is in the folder, not in the file)."""
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def write_atomic(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write to a temporary file beside `path`, flush it to disk, then rename it over `path`
    (with permissions `mode`: 0o755 for a script). A failure leaves `path` as it was (and no
    temporary file) and is an environment error."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise EnvironmentProblem(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
        _fsync_folder(path.parent)
    except BaseException as exc:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise EnvironmentProblem(f"cannot write {path}: {exc.strerror or exc}") from None
        raise


def _holder(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip() or "another process"
    except OSError:
        return "another process"


def _take(path: Path, what: str) -> int:
    """An open descriptor of the lock file at `path`, flock-ed: a lock its holder left when it was
    killed is taken over (the kernel released the holder's flock), a live holder's is refused."""
    for _ in range(5):
        try:
            handle = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        except FileExistsError:
            try:
                handle = os.open(path, os.O_RDWR | os.O_NOFOLLOW)  # a link there is no lock of ours
            except FileNotFoundError:
                continue  # its holder just removed it: try to create it again
            except OSError as exc:  # ELOOP: a symlink; writing through it would change its target
                raise EnvironmentProblem(
                    f"{path} is not a lock file ({exc.strerror or exc}): nothing was done",
                    "remove it if no catalogctl is running (catalogctl never follows or removes it)",
                ) from None
        except OSError as exc:
            raise EnvironmentProblem(f"cannot create the lock file {path}: {exc.strerror or exc}") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(handle)
            raise EnvironmentProblem(
                f"{what} is running in this repository: {_holder(path)} holds {path}", "wait for it to finish"
            ) from None
        try:
            same = os.stat(path).st_ino == os.fstat(handle).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return handle
        os.close(handle)  # we locked a file its holder removed meanwhile: not the lock any more
    raise EnvironmentProblem(f"cannot take the lock file {path}: it keeps changing", "rerun")


@contextmanager
def exclusive_lock(path: Path, what: str) -> Iterator[None]:
    """Hold the lock file `path` (created with O_EXCL, as git's are, holding our pid and host) for
    the block. A live holder's lock is an environment error naming it; we remove only our own."""
    handle = _take(path, what)
    try:
        os.ftruncate(handle, 0)
        os.write(handle, f"pid {os.getpid()} on {socket.gethostname()}\n".encode())
        yield
    finally:
        path.unlink(missing_ok=True)  # ours: we hold its flock, nobody else can hold this file
        os.close(handle)


def other_name_in(path: Path, folders: list[Path]) -> Path | None:
    """A name, under one of `folders`, of the file `path` is (the same st_dev and st_ino): a hard
    link, which no comparison of paths sees. Only a file with more than one link has one, so only
    then are the folders walked (symbolic links not followed, other devices not entered)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    if found.st_nlink < 2:
        return None
    identity = (found.st_dev, found.st_ino)
    stack = [folder for folder in folders if folder.is_dir()]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:  # a folder we may not read holds nothing we could be handed either
            continue
        for entry in entries:
            try:
                seen = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(seen.st_mode) and seen.st_dev == found.st_dev:
                stack.append(Path(entry.path))
            elif (seen.st_dev, seen.st_ino) == identity and Path(entry.path) != path:
                return Path(entry.path)
    return None
