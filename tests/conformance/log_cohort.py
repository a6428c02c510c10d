"""The frozen cohort the generated logs are checked against: `llm-post-training` frozen in cohort
2026-09-C0 of a copy of the shipped catalog (its dataset's pending values decided, as the how-to
page does), and a training submission resolved at each batch size of the sample, as a runner
resolves one (`catalogctl resolve`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conformance.log_sample import GBS
from tests.helpers import commit_all, copy_catalog, init_repo, run_cli, write
from tests.release_repo import NOW, SEEDS_A
from tests.sealed import sealed

COHORT = "2026-09-C0"
_DATASET = "benchmark_suite/datasets/r2e-gym-subset.yaml"
_DECIDED = {  # the pending values of the benchmark's dataset, decided
    "url: <TBD>": "url: https://example.org/r2e-gym-subset.tar",
    "sha256: <TBD>": "sha256: " + "4bdd5b1f" * 8,
    "column: <TBD>": "column: problem_statement",
}


def resolved_at_each_batch(folder: Path) -> dict[int, Path]:
    """Freeze the cohort in `folder/repo` and resolve a submission at each batch size of `GBS`:
    the resolved configs by batch size. Run it sealed (`sealed_home`)."""
    from catalogctl.release.freeze import FreezeRequest, freeze

    repo = copy_catalog(init_repo(folder / "repo"))
    text = (repo / _DATASET).read_text()
    for pending, decided in _DECIDED.items():
        text = text.replace(pending, decided)
    (repo / _DATASET).write_text(text)
    commit_all(repo, "Add the catalog, the r2e-gym subset pinned")
    freeze(
        repo, FreezeRequest(COHORT, add=["llm-post-training"], seeds_file=write(folder, "seeds.yaml", SEEDS_A), now=NOW)
    )
    resolved = {}
    for gbs in GBS:
        submission = write(
            folder,
            f"submission-{gbs}.yaml",
            "type: submission\n"
            f"submission_ref: {{cohort: {COHORT}, seed_set_id: A, benchmark: llm-post-training}}\n"
            f"training: {{system: 64xGB300, global_batch_size: {gbs}}}\n",
        )
        resolved[gbs] = folder / f"resolved-{gbs}.json"
        run_cli("resolve", submission, "-C", repo, "-o", resolved[gbs])
    return resolved


@contextmanager
def sealed_home(home: Path) -> Iterator[None]:
    """A sealed environment (tests/sealed.py) with `home` (made here) as its home, for the block."""
    home.mkdir(parents=True, exist_ok=True)
    with pytest.MonkeyPatch.context() as patch, sealed(patch, home):
        yield
