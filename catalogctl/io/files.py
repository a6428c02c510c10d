"""Writing files so that a reader sees the old content or the new one, never half of one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

MAX_INPUT = 64 * 1024 * 1024  # a document, not a dataset: far above any real config or results file


def read_input(path: Path, max_bytes: int = MAX_INPUT) -> bytes:
    """The bytes of a regular file the user named, up to `max_bytes`; a usage error (exit 2)
    when it cannot be read, is not a regular file (a FIFO would block forever) or is larger."""
    import stat

    from catalogctl.errors import UsageError

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


def write_atomic(path: Path, data: bytes) -> None:
    """Write to a temporary file beside `path`, flush it to disk, then rename it over `path`.
    A failure leaves `path` as it was (and no temporary file) and is an environment error."""
    from catalogctl.errors import EnvironmentProblem

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
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException as exc:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise EnvironmentProblem(f"cannot write {path}: {exc.strerror or exc}") from None
        raise
