"""Writing files so that a reader sees the old content or the new one, never half of one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def read_input(path: Path) -> bytes:
    """The bytes of a file the user named; a usage error (exit 2) when it cannot be read."""
    from catalogctl.errors import UsageError

    try:
        return path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None


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
