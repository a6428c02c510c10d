"""Seed sets that adopt the seeds a LoadGen release ships (`freeze --loadgen-seeds`).

MLPerf Inference fixes LoadGen's three seeds per round in LoadGen's `mlperf.conf`
(`*.*.qsl_rng_seed`, `*.*.sample_index_rng_seed`, `*.*.schedule_rng_seed`), and its submission
checker holds every LoadGen run to them (`seeds_check`). A set imported from an installed
`mlcommons-loadgen` takes them as its `qsl_rng_seed`, `sample_index_rng_seed` and
`scheduler_rng_seed`; mlperf.conf has no model seed, so `model_seed` is drawn as `freeze` draws
every seed. The set records the release it came from (`imported_from_loadgen`), and `verify` and
`preflight` read that release's mlperf.conf again where it is installed.

mlperf.conf is read as LoadGen's `FromConfig` reads it (loadgen/test_settings_internal.cc):
`key = value` lines, a `#` word starting a comment, the most specific key winning. A set holds
one value for every benchmark and scenario, so a seed must be set by one `*.*.` line and by no
line for a model or a scenario, in decimal, and not 0.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from catalogctl.errors import CatalogError, EnvironmentProblem
from catalogctl.io.loadgen_package import PACKAGE, InstalledLoadGen, LoadGenUnreadable, read_installed
from catalogctl.model import SeedSet
from catalogctl.model.common import UINT64_MAX
from catalogctl.model.documents.seeds import LoadGenImport, SeedValues

# LoadGen's seed key -> the seed set's name for it.
LOADGEN_SEEDS = {
    "schedule_rng_seed": "scheduler_rng_seed",
    "sample_index_rng_seed": "sample_index_rng_seed",
    "qsl_rng_seed": "qsl_rng_seed",
}
INSTALL = f"pip install {PACKAGE} (its wheels are built for Linux x86_64)"


@dataclass(frozen=True)
class ShippedSeeds:
    """The three seeds of a LoadGen release's mlperf.conf, by the seed set's names."""

    scheduler_rng_seed: int
    sample_index_rng_seed: int
    qsl_rng_seed: int


def conf_seeds(conf: bytes, where: str) -> ShippedSeeds:
    """LoadGen's three seeds as an mlperf.conf sets them for every model and scenario."""
    found: dict[str, tuple[int, int]] = {}  # LoadGen's key -> (value, line)
    for number, line in enumerate(conf.decode("utf-8").splitlines(), 1):
        words = line.split()
        if not words or words[0] == "#":
            continue
        model_scenario, _, key = words[0].rpartition(".")
        if key not in LOADGEN_SEEDS:
            continue
        at = f"{where}, line {number}"
        if model_scenario != "*.*":
            raise CatalogError(
                f"{at} sets {key} for `{model_scenario}` alone: LoadGen would run those benchmarks with another "
                "seed than the one a seed set holds",
                "a seed set adopts seeds that mlperf.conf sets for every model and scenario (`*.*.`)",
            )
        if key in found:
            raise CatalogError(f"{at} sets {key} again (first at line {found[key][1]})")
        value = words[2] if len(words) == 3 and words[1] == "=" else ""
        if not value.isdigit() or value.startswith("0") or int(value) > UINT64_MAX:
            shown = " ".join(words[1:])
            raise CatalogError(
                f"{at}: {key} is `{shown}`, not `= SEED` with a decimal seed from 1 to 2^64-1",
                "0 is no seed here (LoadGen's default), and a seed set holds unsigned 64-bit seeds",
            )
        found[key] = int(value), number
    missing = [key for key in LOADGEN_SEEDS if key not in found]
    if missing:
        raise CatalogError(f"{where} sets no {', '.join(f'*.*.{key}' for key in missing)}")
    return ShippedSeeds(**{name: found[key][0] for key, name in LOADGEN_SEEDS.items()})


def installed_loadgen(path: list[str] | None = None) -> InstalledLoadGen | None:
    """The LoadGen release installed here (None when none is), its module unreadable refused."""
    try:
        return read_installed(path)
    except LoadGenUnreadable as exc:
        raise EnvironmentProblem(f"{exc}: its seeds cannot be read", f"reinstall it: {INSTALL}") from None


def describe(installed: InstalledLoadGen) -> str:
    """`mlperf.conf of mlcommons-loadgen 6.0.17 (built into FILE)`."""
    return f"mlperf.conf of {PACKAGE} {installed.version} (built into {installed.file})"


def import_loadgen_seeds(
    installed: InstalledLoadGen | None, randbits: Callable[[int], int] = secrets.randbits
) -> tuple[SeedValues, int, LoadGenImport]:
    """A new set's seeds from the installed LoadGen release (its model seed drawn), its QSL seed,
    and what the ruleset records of the import. No LoadGen installed is refused."""
    if installed is None:
        raise EnvironmentProblem(
            f"--loadgen-seeds reads the seeds of the installed {PACKAGE}, and it is not installed here: "
            "nothing was frozen",
            f"{INSTALL}, the release whose mlperf.conf the cohort adopts",
        )
    shipped = conf_seeds(installed.conf, describe(installed))
    taken = {shipped.scheduler_rng_seed, shipped.sample_index_rng_seed, shipped.qsl_rng_seed}
    if len({shipped.scheduler_rng_seed, shipped.sample_index_rng_seed}) != 2:
        raise CatalogError(f"{describe(installed)}: its schedule_rng_seed and sample_index_rng_seed are equal")
    model = 0
    while model == 0 or model in taken:  # a seed set's seeds differ, and none is 0
        model = randbits(64)
    values = SeedValues(
        scheduler_rng_seed=shipped.scheduler_rng_seed,
        sample_index_rng_seed=shipped.sample_index_rng_seed,
        model_seed=model,
    )
    record = LoadGenImport(package=PACKAGE, version=installed.version, file=installed.file, sha256=installed.sha256)
    return values, shipped.qsl_rng_seed, record


def shipped_problem(seed_set: SeedSet, installed: InstalledLoadGen) -> str:
    """Why `seed_set` does not hold what the release it records ships ("" when it does), read from
    `installed`, that release (same version)."""
    source = seed_set.imported_from_loadgen
    assert source is not None
    where = f"seed set {seed_set.id}, imported from {PACKAGE} {source.version}"
    if installed.sha256 != source.sha256:
        return (
            f"{where}: the mlperf.conf that release ships here (built into {installed.file}) has sha256 "
            f"{installed.sha256[:12]}…, but the set records {source.sha256[:12]}…"
        )
    shipped = conf_seeds(installed.conf, describe(installed))
    for name in LOADGEN_SEEDS.values():
        held, ships = getattr(seed_set, name), getattr(shipped, name)
        if held != ships:
            return f"{where}: its {name} is {held}, but that release's mlperf.conf sets {ships}"
    return ""
