"""The `mlperf.conf` an installed MLPerf LoadGen release ships, read without importing LoadGen.

The `mlcommons-loadgen` wheel holds no `mlperf.conf` file: LoadGen's build turns
loadgen/mlperf.conf into a C string (`const char* mlperf_conf`, loadgen/setup.py) compiled into
the extension module `mlperf_loadgen`, and `FromConfig` parses that string. So the text is read
from the module's bytes: the one NUL-terminated string that holds LoadGen's seed keys on lines of
their own. Importing LoadGen instead would start its logging and leave global state in the
caller's process (a runner's, through the API), which a later `FromConfig` would trip over.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final

PACKAGE: Final = "mlcommons-loadgen"  # the PyPI project of MLPerf Inference's LoadGen
MODULE = "mlperf_loadgen"
# Where to look for the package: None is `sys.path`, where imports look (tests point it at
# installations they build).
SEARCH_PATH: list[str] | None = None
# A line that sets one of LoadGen's three seeds (`*.*.qsl_rng_seed = 2085463073848966840`).
_SEED_LINE = re.compile(rb"^\S+\.(qsl|sample_index|schedule)_rng_seed\s+=", re.M)


class LoadGenUnreadable(Exception):
    """The installed package is there, but its mlperf.conf cannot be found in it."""


@dataclass(frozen=True)
class InstalledLoadGen:
    """An installed LoadGen release: its version, the module file that holds mlperf.conf (as the
    package's RECORD names it), and the mlperf.conf text."""

    version: str
    file: str
    conf: bytes

    @property
    def sha256(self) -> str:
        """The digest of the mlperf.conf text."""
        return hashlib.sha256(self.conf).hexdigest()


def _distribution(path: list[str] | None) -> importlib.metadata.Distribution | None:
    """The first distribution of `mlcommons-loadgen` on `path` (default: `SEARCH_PATH`), as imports find it."""
    path = SEARCH_PATH if path is None else path
    # importlib matches the name as PyPI does (mlcommons_loadgen-6.0.17.dist-info is this project).
    found = importlib.metadata.distributions(name=PACKAGE, path=sys.path if path is None else path)
    return next(iter(found), None)


def read_installed(path: list[str] | None = None) -> InstalledLoadGen | None:
    """The installed LoadGen release and its mlperf.conf (None when the package is not installed
    on `path`, default `SEARCH_PATH`)."""
    dist = _distribution(path)
    if dist is None:
        return None
    modules = [f for f in dist.files or [] if f.name.split(".", 1)[0] == MODULE and f.suffix in (".so", ".pyd")]
    what = f"{PACKAGE} {dist.version}"
    if len(modules) != 1:
        listed = ", ".join(str(m) for m in modules) or "none"
        raise LoadGenUnreadable(f"{what} lists {len(modules)} extension modules {MODULE} in its RECORD ({listed})")
    module = modules[0]
    located = Path(str(module.locate()))
    try:
        data = located.read_bytes()
    except OSError as exc:
        raise LoadGenUnreadable(f"{what}: {located} cannot be read ({exc.strerror or exc})") from None
    return InstalledLoadGen(version=dist.version, file=str(module), conf=embedded_conf(data, f"{what} ({located})"))


def embedded_conf(data: bytes, where: str) -> bytes:
    """The mlperf.conf text compiled into a LoadGen module: the one NUL-terminated string with
    lines that set LoadGen's seeds."""
    strings: dict[int, bytes] = {}  # each NUL-terminated string that names a seed, by where it starts
    at = data.find(b"_rng_seed")
    while at != -1:
        start = data.rfind(b"\0", 0, at) + 1
        end = data.find(b"\0", at)
        strings[start] = data[start : len(data) if end == -1 else end]
        at = data.find(b"_rng_seed", len(data) if end == -1 else end)
    found = [text for text in strings.values() if b"\n" in text and _SEED_LINE.search(text)]
    if len(found) != 1:
        raise LoadGenUnreadable(
            f"{where} holds {len(found)} texts that set LoadGen's seeds, not one mlperf.conf"
            if found
            else f"{where} holds no mlperf.conf text (no line sets qsl_rng_seed, sample_index_rng_seed or "
            "schedule_rng_seed)"
        )
    text = found[0]
    try:
        decoded = text.decode("utf-8")
    except UnicodeDecodeError:
        raise LoadGenUnreadable(f"{where}: the text that sets LoadGen's seeds is not UTF-8") from None
    if any(not char.isprintable() and char not in "\n\t\r" for char in decoded):
        raise LoadGenUnreadable(f"{where}: the text that sets LoadGen's seeds holds bytes no config file has")
    return text
