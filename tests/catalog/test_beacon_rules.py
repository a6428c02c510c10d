"""`validate` and the `ci` gate hold a new seed set to the beacon round the previous release
named: a ruleset written by hand that drops `derived_from`, names another round, or carries seeds
that do not follow, is an error at the set, with a stable code and a hint (real quicknet rounds)."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

from catalogctl.catalog import beacon_seeds, seeds
from catalogctl.release.beacon_plan import BeaconRequest
from catalogctl.release.freeze import FreezeRequest, freeze
from tests.beacon_repo import AFTER, ROUND, beacon_catalog, round_data, round_file
from tests.helpers import commit_all, git, run_cli, write

RIGHT = beacon_seeds.derive_seeds(str(round_data()["randomness"]), "2026-09-C1", "B")
HINT = (
    "a derived set is written by `catalogctl freeze 2026-09-C1 --beacon-round FILE` (or --fetch-beacon URL), "
    "never by hand"
)


@pytest.fixture
def repo(catalog_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """2026-09-C0 frozen on `main`, naming round ROUND; `pr` checked out. Its drawn set A has
    seeds that begin with a 7, always: a test that found B's `model_seed: 7` by a prefix would take
    A's line (it did, in about one run in eighteen, while A's seeds were random)."""
    draws = random.Random(0)
    monkeypatch.setattr(
        seeds, "generate", functools.partial(seeds.generate, lambda bits: 7 * 10**18 + draws.getrandbits(59))
    )
    root = beacon_catalog(catalog_repo)
    assert "  model_seed: 7" in (root / "rulesets/2026-09-C0.yaml").read_text()
    git(root, "checkout", "-q", "-b", "pr")
    return root


def planned_text(repo: Path, tmp_path: Path) -> str:
    """The ruleset of 2026-09-C1 that freeze would write (a dry run)."""
    beacon = BeaconRequest(round_file=round_file(tmp_path))
    return freeze(repo, FreezeRequest("2026-09-C1", now=AFTER, dry_run=True, beacon=beacon)).ruleset_text


def propose(repo: Path, tmp_path: Path, edit: tuple[str, str] | None = None) -> None:
    """Commit on `pr` the ruleset of 2026-09-C1 that freeze writes, with `edit` (old, new) made by hand."""
    text = planned_text(repo, tmp_path)
    if edit is not None:
        assert text.count(edit[0]) == 1, edit[0]
        text = text.replace(*edit)
    write(repo, "rulesets/2026-09-C1.yaml", text)
    commit_all(repo, "Freeze 2026-09-C1 by hand")


def lines_of(text: str, needle: str) -> int:
    """The number of the first line that ends with `needle`: a whole value, so `model_seed: 7` is
    never set A's `model_seed: 7…` (the `repo` fixture draws A's seeds beginning with a 7)."""
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.endswith(needle))


def test_what_freeze_writes_passes_validate_and_the_gate(repo: Path, tmp_path: Path) -> None:
    propose(repo, tmp_path)
    run_cli("validate", repo, "--select", "ruleset-seeds-underived")
    done = run_cli("ci", "--base", "main", "-C", repo, "--today", "2024-10-15", "-f", "json")
    assert "ruleset-seeds-underived" not in done.stdout


def derived_block(repo: Path, tmp_path: Path) -> str:
    text = planned_text(repo, tmp_path)
    start = text.index("  derived_from:\n")
    end = text.index("named_in: 2026-09-C0\n", start) + len("named_in: 2026-09-C0\n")
    return text[start:end]


@pytest.mark.parametrize(
    ("edit", "at", "message"),
    [
        pytest.param(
            None,
            "id: B",
            f"seed set B is not derived from beacon round {ROUND} of drand quicknet, which the release of "
            "2026-09-C0 named for the next seed set",
            id="derived_from-dropped",
        ),
        pytest.param(
            (f"round: {ROUND}\n    randomness", "round: 123\n    randomness"),
            "round: 123",
            f"seed set B is derived from beacon round 123, but the release of 2026-09-C0 named round {ROUND} for it",
            id="another-round",
        ),
        pytest.param(
            (f"model_seed: {RIGHT.model_seed}\n", "model_seed: 7\n"),
            "model_seed: 7",
            f"seed set B, derived from beacon round {ROUND}: its model_seed is 7, but round {ROUND} gives "
            f"{RIGHT.model_seed}",
            id="seeds-that-do-not-follow",
        ),
    ],
)
def test_a_new_set_that_does_not_follow_the_named_round_fails_validate_and_the_gate(
    repo: Path, tmp_path: Path, edit: tuple[str, str] | None, at: str, message: str
) -> None:
    propose(repo, tmp_path, edit or (derived_block(repo, tmp_path), ""))
    text = (repo / "rulesets/2026-09-C1.yaml").read_text()
    line = lines_of(text, at)
    column = text.splitlines()[line - 1].index(at.strip()) + 1
    expected = f"rulesets/2026-09-C1.yaml:{line}:{column}: error ruleset-seeds-underived: {message}"
    done = run_cli("validate", repo, code=1)
    assert f"{expected} ({HINT})" in done.stdout.splitlines(), done.stdout
    shown = run_cli("validate", repo, "-f", "json", code=1)
    assert HINT in shown.stdout
    gate = run_cli("ci", "--base", "main", "-C", repo, "--today", "2024-10-15", code=1)
    assert any(row.startswith(expected) for row in gate.stdout.splitlines()), gate.stdout


def test_a_ruleset_taken_from_the_last_check_is_read_for_the_rule(repo: Path, tmp_path: Path) -> None:
    propose(repo, tmp_path)
    run_cli("validate", repo)  # its snapshot holds 2026-09-C0, which the next check does not read again
    path = repo / "rulesets/2026-09-C1.yaml"
    path.write_text(path.read_text().replace(f"model_seed: {RIGHT.model_seed}\n", "model_seed: 7\n"))
    done = run_cli("validate", repo, code=1)
    assert f"its model_seed is 7, but round {ROUND} gives {RIGHT.model_seed}" in done.stdout
