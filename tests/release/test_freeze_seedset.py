"""`freeze --seeds` with endpoints_policies' seedset.yaml as published (the official checker's
bundled copy, byte for byte)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from catalogctl.errors import CatalogError, UsageError
from catalogctl.release.freeze import FreezeRequest, freeze
from tests.helpers import REPO_ROOT, git, run_cli, write
from tests.release.test_freeze import NOW, ruleset_at
from tests.release_repo import SEEDS_A, make_freezable

FIXTURES = Path(__file__).parent.parent / "fixtures" / "mlperf"
SEEDSET = FIXTURES / "seed_sets.yaml"
SET_A = (10487924139932647040, 586478644936801402, 9315206023656308754)


@pytest.fixture
def repo(catalog_repo: Path) -> Path:
    return make_freezable(catalog_repo)


def request(cohort: str, **kwargs: object) -> FreezeRequest:
    return FreezeRequest(cohort=cohort, add=["gsm8k"], now=NOW, **kwargs)  # type: ignore[arg-type]


@pytest.mark.conformance
def test_the_fixtures_are_the_installed_checkers_files() -> None:
    from submission_checker.drafters import bundled_drafters_path
    from submission_checker.seed_sets import bundled_seed_sets_path

    assert SEEDSET.read_bytes() == bundled_seed_sets_path().read_bytes()
    assert (FIXTURES / "approved_drafters.yaml").read_bytes() == bundled_drafters_path().read_bytes()


@pytest.mark.conformance
def test_the_published_file_is_imported_for_its_cohort_with_the_checkers_window(repo: Path) -> None:
    from submission_checker.seed_sets import load_seed_sets

    result = run_cli("freeze", "2026-10-C1", "--add", "gsm8k", "--seeds", str(SEEDSET), "-C", str(repo))
    assert "seed set A imported, valid through 2026-12-C0" in result.stdout
    [seed_set] = ruleset_at(repo, "2026-10-C1").seed_sets
    assert (seed_set.scheduler_rng_seed, seed_set.sample_index_rng_seed, seed_set.model_seed) == SET_A
    window = (seed_set.introduced_in, seed_set.valid_through)
    assert window == ("2026-10-C1", "2026-12-C0")
    # The checker derives the same window from the file's cohort-id.
    assert load_seed_sets(SEEDSET)["A"].cohorts == ("2026-10-C1", "2026-11-C0", "2026-11-C1", "2026-12-C0")


def test_a_set_published_for_another_cohort_is_refused(repo: Path) -> None:
    with pytest.raises(UsageError) as caught:
        freeze(repo, request("2026-09-C0", seeds_file=SEEDSET))
    assert str(caught.value) == (
        f"{SEEDSET} was published for cohort 2026-10-C1, not 2026-09-C0: its window of adoption (§4.6) starts there"
    )
    assert caught.value.hint == "import it when freezing 2026-10-C1"


def test_a_file_of_several_sets_needs_seed_set(repo: Path, tmp_path: Path) -> None:
    text = SEEDSET.read_text(encoding="utf-8")
    two = write(
        tmp_path,
        "two.yaml",
        text + "    - id: B\n      scheduler_rng_seed: 1\n      sample_index_rng_seed: 2\n      model_seed: 3\n",
    )
    with pytest.raises(UsageError) as caught:
        freeze(repo, request("2026-10-C1", seeds_file=two))
    assert (str(caught.value), caught.value.hint) == (
        f"{two} publishes seed sets A, B: which one does this cohort import?",
        "name it with --seed-set ID",
    )
    with pytest.raises(UsageError, match=f"^{two} publishes no seed set C$"):
        freeze(repo, request("2026-10-C1", seeds_file=two, seed_set="C"))
    # B is no first set: ids count publications, so the first set of this catalog is A.
    with pytest.raises(CatalogError, match="the imported seed set is named B, but the next set id is A"):
        freeze(repo, request("2026-10-C1", seeds_file=two, seed_set="B"))
    result = freeze(repo, request("2026-10-C1", seeds_file=two, seed_set="A"))
    assert "seed set A imported, valid through 2026-12-C0" in result.notes


def test_seed_set_is_for_a_published_file_only(repo: Path, tmp_path: Path) -> None:
    flat = write(tmp_path, "flat.yaml", "scheduler_rng_seed: 1\nsample_index_rng_seed: 2\nmodel_seed: 3\n")
    with pytest.raises(UsageError, match=r"--seed-set picks a set of a published seedset\.yaml"):
        freeze(repo, request("2026-09-C0", seeds_file=flat, seed_set="A"))


def test_a_malformed_published_file_is_positioned(repo: Path, tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.yaml", SEEDSET.read_text(encoding="utf-8").replace("2026-10-C1", "2026-10"))
    result = run_cli("freeze", "2026-10-C1", "--add", "gsm8k", "--seeds", str(bad), "-C", str(repo), code=1)
    assert f"{bad}:15:14: error schema-invalid-value: cohort.cohort-id: `2026-10` is not a cohort id" in result.stderr


TUTORIAL = REPO_ROOT / "docs" / "tutorials" / "first-cohort.md"
SEEDS_PAGE = REPO_ROOT / "docs" / "explanation" / "seeds.md"


def test_the_maintainer_tutorial_imports_the_published_set_and_prints_what_catalogctl_prints(repo: Path) -> None:
    # tests/docs runs the whole page; this pins what the page teaches about the published set.
    flow = TUTORIAL.read_text(encoding="utf-8").splitlines()
    published = str(SEEDSET.relative_to(REPO_ROOT))
    first = f"$ catalogctl freeze 2026-10-C1 --add gsm8k --seeds {published} --today 2026-10-08"
    first += ' -m "October, second round"'
    assert first in flow
    done = run_cli("freeze", "2026-10-C1", "--add", "gsm8k", "--seeds", str(SEEDSET), "-C", str(repo))
    note = done.stdout.splitlines()[0]
    assert flow[flow.index(first) + 1] == note == "note: seed set A imported, valid through 2026-12-C0"
    [seed_set] = ruleset_at(repo, "2026-10-C1").seed_sets
    assert (seed_set.scheduler_rng_seed, seed_set.sample_index_rng_seed, seed_set.model_seed) == SET_A
    cohorts = run_cli("cohorts", "-C", str(repo)).stdout.splitlines()
    at = flow.index("$ catalogctl cohorts")
    assert flow[at + 1 : at + 1 + len(cohorts)] == cohorts
    # the flow pushes to a bare repository, as its first command makes it (a push to a clone with a
    # working tree is refused)
    assert "$ git clone -q --bare . ../catalog.git" in flow


@pytest.mark.conformance
def test_the_docs_and_the_fixtures_say_which_set_is_which() -> None:
    import mlperf_loadgen

    page = SEEDS_PAGE.read_text(encoding="utf-8")
    published = "| the **published** set A (cohort-id 2026-10-C1) | {} | {} | {} |".format(*SET_A)
    assert published in page
    example = dict(line.split(": ") for line in SEEDS_A.splitlines())
    values = (example["scheduler_rng_seed"], example["sample_index_rng_seed"], example["model_seed"])
    assert "| the **proposal's example** set A | {} | {} | {} |".format(*values) in page
    assert int(values[0]) not in SET_A
    # Its first two seeds are LoadGen's mlperf.conf seeds (compiled into mlcommons-loadgen, which
    # loads them before any user.conf).
    settings = mlperf_loadgen.TestSettings()
    assert settings.FromConfig("/dev/null", "llama3.1-8b", "Offline") == 0
    assert (str(settings.schedule_rng_seed), str(settings.sample_index_rng_seed)) == values[:2]


ZERO = (
    "0 is no seed here: LoadGen records 0 for every seed a run never set (its TestSettings default), so a run "
    "that set none would match it"
)


def test_a_seed_of_0_is_refused_with_why(repo: Path, tmp_path: Path) -> None:
    # It was imported silently: a set with a 0 seed matches what an unseeded LoadGen run records.
    flat = write(tmp_path, "zero.yaml", "scheduler_rng_seed: 1\nsample_index_rng_seed: 0\nmodel_seed: 3\n")
    head = git(repo, "rev-parse", "HEAD")
    result = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--seeds", str(flat), "-C", str(repo), code=1)
    assert f"{flat}:2:24: error schema-invalid-value: sample_index_rng_seed: {ZERO}" in result.stderr
    published = write(tmp_path, "seedset.yaml", SEEDSET.read_text(encoding="utf-8").replace("586478644936801402", "0"))
    result = run_cli("freeze", "2026-10-C1", "--add", "gsm8k", "--seeds", str(published), "-C", str(repo), code=1)
    assert f"sample_index_rng_seed: {ZERO}" in result.stderr
    assert git(repo, "rev-parse", "HEAD") == head
    assert not (repo / "rulesets").exists()


def test_an_imported_set_records_the_file_and_the_source_it_states(repo: Path, tmp_path: Path) -> None:
    seeds = write(tmp_path, "seeds-a.yaml", SEEDS_A + "source: the proposal's example ruleset\n")
    freeze(repo, request("2026-09-C0", seeds_file=seeds))
    digest = hashlib.sha256(seeds.read_bytes()).hexdigest()
    text = (repo / "rulesets/2026-09-C0.yaml").read_text()
    assert (
        "  valid_through: 2026-10-C1\n  imported_from:\n    file: seeds-a.yaml\n"
        f"    sha256: {digest}\n    source: the proposal's example ruleset\n"
    ) in text


def test_a_published_seedset_is_recorded_by_its_name_and_digest(repo: Path) -> None:
    freeze(repo, request("2026-10-C1", seeds_file=SEEDSET))
    [seed_set] = ruleset_at(repo, "2026-10-C1").seed_sets
    assert seed_set.imported_from is not None
    recorded = seed_set.imported_from
    assert (recorded.file, recorded.sha256, recorded.source) == (
        "seed_sets.yaml",
        hashlib.sha256(SEEDSET.read_bytes()).hexdigest(),
        None,
    )
    assert "source:" not in (repo / "rulesets/2026-10-C1.yaml").read_text()  # absent: not written as null
