"""Stand-in installations of `mlcommons-loadgen`, for the tests of what catalogctl does with the
LoadGen release installed, another release, or none, on every platform (the real wheel exists for
Linux x86_64 only).

A stand-in is what a wheel leaves in site-packages, as far as catalogctl reads it: a `.dist-info`
folder (METADATA, RECORD) and the extension module the RECORD lists, holding mlperf.conf as a
NUL-terminated string among others, as LoadGen's build compiles it in
(tests/fixtures/loadgen/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalogctl.io import loadgen_package

CONF = (Path(__file__).parent / "fixtures" / "loadgen" / "mlperf.conf").read_bytes()  # mlcommons-loadgen 6.0.17's
CONF_SHA256 = "f6fe8510fde70f3d2b897f387c4c1397045bd028bb408a9c9eb808b3a4cbe75c"
MODULE = "mlperf_loadgen.cpython-311-x86_64-linux-gnu.so"
# Its seeds, by the seed set's names.
SHIPPED = {
    "scheduler_rng_seed": 16159082839903944936,
    "sample_index_rng_seed": 2747215439041700203,
    "qsl_rng_seed": 2085463073848966840,
}


def install(root: Path, version: str = "6.0.17", conf: bytes = CONF, module: str = MODULE) -> Path:
    """A stand-in installation of `mlcommons-loadgen` `version` in the folder `root`."""
    info = root / f"mlcommons_loadgen-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: mlcommons_loadgen\nVersion: {version}\n")
    (info / "RECORD").write_text(f"{module},sha256=,1\n{info.name}/METADATA,,\n{info.name}/RECORD,,\n")
    # Other strings about seeds come before and after it, as in the real module.
    (root / module).write_bytes(b"\x7fELF\x02\x01\0qsl_rng_seed\0" + conf + b"\0qsl_rng_seed : \0\x00\x10")
    return root


def use(monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
    """Have catalogctl look for LoadGen in `root` only (an empty folder: LoadGen not installed)."""
    root.mkdir(parents=True, exist_ok=True)
    monkeypatch.setattr(loadgen_package, "SEARCH_PATH", [str(root)])
