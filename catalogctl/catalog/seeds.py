"""Seed sets and their rotation.

The suite's policy says: a new set every `rotate_every` cohorts, each valid for `valid_for`
cohorts. A set's id (A, B, ..., Z, AA, ...) and values never change once published; a freeze
carries over the sets still valid and adds a new one only when rotation is due.
"""

from __future__ import annotations

import hashlib
import secrets
import string
from collections.abc import Callable, Iterable
from pathlib import Path

from catalogctl.catalog.cohorts import Cohort
from catalogctl.errors import CatalogError, UsageError
from catalogctl.model import SeedSet
from catalogctl.model.documents.beacon import BeaconDerivation
from catalogctl.model.documents.seeds import LoadGenImport, PublishedSeedFile, SeedFile, SeedImport, SeedValues
from catalogctl.model.documents.suite import SeedRotation


def cohorts_between(first: Cohort, last: Cohort) -> int:
    """How many cohorts `last` is after `first` (0 when equal)."""
    steps, current = 0, first
    while current < last:
        current = current.next()
        steps += 1
    return steps


def advance(cohort: Cohort, steps: int) -> Cohort:
    """The cohort `steps` after `cohort`."""
    for _ in range(steps):
        cohort = cohort.next()
    return cohort


def set_id(index: int) -> str:
    """The id of the index-th set ever published: A..Z, then AA, AB, ..."""
    letters = string.ascii_uppercase
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = letters[rest] + name
    return name


def set_index(ident: str) -> int:
    """The inverse of `set_id`."""
    value = 0
    for char in ident:
        value = value * 26 + (ord(char) - ord("A") + 1)
    return value - 1


def generate(randbits: Callable[[int], int] = secrets.randbits) -> SeedValues:
    """Three fresh unsigned 64-bit seeds from a CSPRNG, distinct from each other and none 0 (no
    seed of a set: see `model.seeds`)."""
    while True:
        scheduler, sample_index, model = randbits(64), randbits(64), randbits(64)
        if len({scheduler, sample_index, model}) == 3 and 0 not in (scheduler, sample_index, model):
            return SeedValues(scheduler_rng_seed=scheduler, sample_index_rng_seed=sample_index, model_seed=model)


def unique_sets(sets: Iterable[SeedSet]) -> list[SeedSet]:
    """Seed sets by id, first occurrence kept (a published set never changes)."""
    seen: dict[str, SeedSet] = {}
    for seed_set in sets:
        seen.setdefault(seed_set.id, seed_set)
    return list(seen.values())


def is_valid_in(seed_set: SeedSet, cohort: Cohort) -> bool:
    """Whether a submission of `cohort` may adopt `seed_set`: from the cohort that introduced it
    through its `valid_through`."""
    return Cohort.parse(seed_set.introduced_in) <= cohort <= Cohort.parse(seed_set.valid_through)


def valid_sets(seed_sets: Iterable[SeedSet], cohort: Cohort) -> list[SeedSet]:
    """The sets of `seed_sets` a submission of `cohort` may adopt, in their order."""
    return [s for s in seed_sets if is_valid_in(s, cohort)]


def rotation_due(rotation: SeedRotation, cohort: Cohort, published: Iterable[SeedSet]) -> bool:
    """Whether `cohort` must introduce a new set: none was ever published, or the newest one is
    `rotate_every` cohorts old."""
    newest = max((Cohort.parse(s.introduced_in) for s in published), default=None)
    return newest is None or cohorts_between(newest, cohort) >= rotation.rotate_every


def next_seed_sets(
    rotation: SeedRotation,
    cohort: Cohort,
    carried: list[SeedSet],
    published: list[SeedSet],
    new_values: SeedValues | None,
    new_id: str | None = None,
    derived_from: BeaconDerivation | None = None,
    imported_from: SeedImport | None = None,
    loadgen: tuple[int, LoadGenImport] | None = None,
) -> tuple[list[SeedSet], SeedSet | None]:
    """The seed sets of a new cohort: the sets of the previous cohort still valid, plus a new set
    when rotation is due, with `new_values` (imported) or fresh ones. `published` is every set
    of every frozen cohort: ids are never reused. `loadgen` is the QSL seed and the record of a
    set imported from a LoadGen release. Returns (sets, the new set)."""
    valid = valid_sets(carried, cohort)
    if not rotation_due(rotation, cohort, published):
        if new_values is not None:
            raise UsageError(
                f"no new seed set is due at {cohort}: the policy rotates every {rotation.rotate_every} cohorts",
                f"drop {'--loadgen-seeds' if loadgen else '--seeds'}; the sets still valid are carried over",
            )
        return valid, None
    values = new_values or generate()
    expected = set_id(max((set_index(s.id) for s in published), default=-1) + 1)
    if new_id is not None and new_id != expected:
        raise CatalogError(f"the imported seed set is named {new_id}, but the next set id is {expected}")
    new_set = SeedSet(
        id=expected,
        **values.seed_values().model_dump(),
        introduced_in=cohort.id,
        valid_through=advance(cohort, rotation.valid_for - 1).id,
        derived_from=derived_from,
        imported_from=imported_from,
        qsl_rng_seed=loadgen[0] if loadgen else None,
        imported_from_loadgen=loadgen[1] if loadgen else None,
    )
    return [*valid, new_set], new_set


def read_seed_file(path: Path, set_id: str | None = None) -> tuple[SeedFile, SeedImport]:
    """Already-published seeds to import: a flat file (`scheduler_rng_seed`,
    `sample_index_rng_seed`, `model_seed`, optionally the set's `id`), or endpoints_policies'
    `seedset.yaml` as published (`cohort: {version, cohort-id, seed_sets: [...]}`), whose set
    `set_id` is taken (needed only when it publishes several). Also what the ruleset records of
    the import: the file's name, the sha256 of the bytes read, the source a flat file states."""
    from catalogctl.catalog.validation import validate_document
    from catalogctl.errors import CatalogInvalid
    from catalogctl.io.files import read_input
    from catalogctl.io.yamlio import YamlProblem, parse_document

    data = read_input(path)
    try:
        doc = parse_document(str(path), data)
    except YamlProblem as problem:
        raise CatalogInvalid(f"{path} is not a valid seed file", [problem.diagnostic(str(path))]) from None
    published = isinstance(doc.data, dict) and "cohort" in doc.data
    value, problems = validate_document(doc, PublishedSeedFile if published else SeedFile)
    if value is None:
        raise CatalogInvalid(f"{path} is not a valid {'seedset.yaml' if published else 'seed file'}", problems)
    if isinstance(value, PublishedSeedFile):
        seeds = _published_set(path, value, set_id)
    else:
        assert isinstance(value, SeedFile)
        if set_id is not None:
            raise UsageError(
                f"--seed-set picks a set of a published seedset.yaml; {path} holds one set",
                "drop --seed-set (the file's `id`, if any, names the set)",
            )
        seeds = value
    if len({seeds.scheduler_rng_seed, seeds.sample_index_rng_seed, seeds.model_seed}) != 3:
        raise CatalogError(f"{path}: the three seeds of a set must differ")
    return seeds, SeedImport(file=path.name, sha256=hashlib.sha256(data).hexdigest(), source=seeds.source)


def _published_set(path: Path, published: PublishedSeedFile, set_id: str | None) -> SeedFile:
    """The set `set_id` of a published seedset.yaml (its only set when `set_id` is None)."""
    cohort = published.cohort
    ids = [s.id for s in cohort.seed_sets]
    if set_id is None and len(ids) > 1:
        raise UsageError(
            f"{path} publishes seed sets {', '.join(ids)}: which one does this cohort import?",
            "name it with --seed-set ID",
        )
    chosen = [s for s in cohort.seed_sets if set_id is None or s.id == set_id]
    if not chosen:
        raise UsageError(f"{path} publishes no seed set {set_id}", f"it publishes {', '.join(ids)}")
    return SeedFile(**chosen[0].model_dump(), published_for=cohort.cohort_id)
