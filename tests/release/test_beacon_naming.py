"""Attacks on which round names a set, and when, each on a real repository with a bare remote: a
round no calendar holds, a naming release edited in a later tree, a set that cites an older
release's (long public) round, a set that quietly stops being derived. Each refusal leaves the
repository and the remote as they were."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from catalogctl.catalog import beacon_seeds, seeds
from catalogctl.errors import CatalogError, CheckFailed, UsageError
from catalogctl.release.beacon_plan import BeaconRequest, derive_new_set
from catalogctl.release.freeze import FreezeRequest, freeze
from catalogctl.run.preflight import preflight
from tests.beacon_repo import AFTER, DRAND, ROUND, derive, round_file, state
from tests.beacon_repo import beacon_catalog as named_release
from tests.helpers import commit_all, git, run_cli, write
from tests.release_repo import SUBMISSION


@pytest.fixture
def repo(catalog_repo: Path, origin: Path) -> Path:
    """2026-09-C0 released (tagged, pushed) before round 12040883, naming it."""
    return named_release(catalog_repo, origin)


@pytest.mark.parametrize("asked", ["18446744073709551615", "999999999999"])
def test_a_round_beyond_the_calendar_is_a_message(repo: Path, origin: Path, asked: str) -> None:
    # Round 2^64-1 is due in a year no datetime holds: a refusal, not a traceback (was exit 70:
    # "internal error: OverflowError: timestamp out of range for platform time_t").
    before = state(repo, origin)
    shown = run_cli(
        "freeze", "2026-09-C1", "-C", repo, "--name-round", asked,
        "--beacon-round", str(DRAND / f"quicknet-{ROUND}.json"), code=1,
    )  # fmt: skip
    assert f"error: round {asked} of drand quicknet is due after the year 9999" in shown.stderr
    assert state(repo, origin) == before


def test_a_naming_release_edited_in_the_tree_is_refused(repo: Path, origin: Path, tmp_path: Path) -> None:
    # After the release of 2026-09-C0 (tagged, pushed), its ruleset is edited to name round 123,
    # public for a year, with a frozen_at before it: a round whose randomness the maintainer saw.
    path = repo / "rulesets" / "2026-09-C0.yaml"
    text = path.read_text()
    text = text.replace(f"round: {ROUND}", "round: 123").replace(
        "frozen_at: 2024-10-14T09:00:00+00:00", "frozen_at: 2023-08-23T00:00:00+00:00"
    )
    path.write_text(text)
    commit_all(repo, "Name another round")
    before = state(repo, origin)
    with pytest.raises(
        CatalogError, match=r"rulesets/2026-09-C0\.yaml is not the ruleset its release tag 2026-09-C0 carries"
    ):
        derive(repo, round_file(tmp_path, 123))
    assert state(repo, origin) == before


def test_verify_reads_the_naming_release_from_its_tag(repo: Path, origin: Path, tmp_path: Path) -> None:
    # The same edit, and a set derived from round 123 by a tool that trusted the tree: verify
    # must not take the edited ruleset for the release that named the round.
    path = repo / "rulesets" / "2026-09-C0.yaml"
    text = path.read_text()
    path.write_text(
        text.replace(f"round: {ROUND}", "round: 123").replace(
            "frozen_at: 2024-10-14T09:00:00+00:00", "frozen_at: 2023-08-23T00:00:00+00:00"
        )
    )
    commit_all(repo, "Name another round")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("catalogctl.release.freeze.check_naming_release", lambda *a: None)
        derive(repo, round_file(tmp_path, 123))
    shown = run_cli("verify", "2026-09-C1", "-C", repo, code=11)
    assert "the release of 2026-09-C0 it cites as naming the round has round 12040883" in shown.stdout


def freeze_citing_the_older_release(repo: Path, tmp_path: Path) -> str:
    """2026-09-C1 derives set B from the round 2026-09-C0 named, then names its own. At 2026-10-C0 a
    tool that cites 2026-09-C0 again derives set C from the same, long public, round: any earlier
    release is a choice of seeds. Returns the ruleset of 2026-10-C0."""
    derive(repo, round_file(tmp_path))

    def old_round(suite, cohort, previous, published, request, importing):  # type: ignore[no-untyped-def]
        from catalogctl.catalog.loader import load_tree
        from catalogctl.io.tree import WorkingTree

        c0 = load_tree(WorkingTree(repo)).catalog.rulesets["2026-09-C0"]
        return derive_new_set(suite, cohort, c0, published, request, importing)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("catalogctl.release.plan.derive_new_set", old_round)
        freeze(
            repo,
            FreezeRequest(
                "2026-10-C0", now=AFTER + dt.timedelta(days=30), beacon=BeaconRequest(round_file=round_file(tmp_path))
            ),
        )
    ruleset = (repo / "rulesets" / "2026-10-C0.yaml").read_text()
    assert "named_in: 2026-09-C0" in ruleset
    assert "id: C" in ruleset
    return ruleset


CITES_THE_OLDER_RELEASE = (
    "seed set C, derived from beacon round 12040883: it cites the release of 2026-09-C0 as naming the round, "
    "but the release before 2026-10-C0 is 2026-09-C1"
)


def test_a_set_derived_from_an_older_release_s_round_fails_verify(repo: Path, tmp_path: Path) -> None:
    freeze_citing_the_older_release(repo, tmp_path)
    shown = run_cli("verify", "2026-10-C0", "-C", repo, code=11)
    assert CITES_THE_OLDER_RELEASE in shown.stdout


def test_a_set_derived_from_an_older_release_s_round_fails_validate_where_the_release_before_named_none(
    repo: Path, tmp_path: Path
) -> None:
    # validate holds a tree (a pull request's head) to the rule verify holds a release to: the
    # release before 2026-10-C0 naming no round does not make an older release's round a choice.
    ruleset = freeze_citing_the_older_release(repo, tmp_path)
    path = repo / "rulesets" / "2026-09-C1.yaml"
    text = path.read_text()
    start = text.index("next_seed_round:\n")
    end = text.index("\n", text.index("  due: ", start)) + 1
    path.write_text(text[:start] + text[end:])
    commit_all(repo, "Name no round for the next seed set")
    rows = ruleset.splitlines()
    set_c = next(n for n, row in enumerate(rows) if row.endswith("id: C"))  # set B, carried, cites 2026-09-C0 too
    line = next(n for n, row in enumerate(rows[set_c:], set_c + 1) if "named_in: 2026-09-C0" in row)
    column = rows[line - 1].index("named_in") + 1
    shown = run_cli("validate", repo, "--select", "ruleset-seeds-underived", code=1)
    assert f"rulesets/2026-10-C0.yaml:{line}:{column}: error ruleset-seeds-underived: {CITES_THE_OLDER_RELEASE}" in (
        shown.stdout
    ), shown.stdout


def freeze_relabelled(repo: Path, tmp_path: Path, introduced_in: str) -> None:
    """2026-10-C0 with its new set C derived from 2026-09-C0's long public round, as above, but
    recorded as carried: introduced in `introduced_in` (its seeds derived for that cohort)."""
    real_next = seeds.next_seed_sets  # as release/plan.py imported it

    def relabel(rotation, cohort, *args, **kwargs):  # type: ignore[no-untyped-def]
        sets, new = real_next(rotation, cohort, *args, **kwargs)
        if str(cohort) != "2026-10-C0":
            return sets, new  # 2026-09-C1, frozen first, as freeze writes it
        assert new is not None
        assert new.derived_from is not None
        derived = beacon_seeds.derive_seeds(new.derived_from.randomness, introduced_in, new.id).model_dump()
        forged = new.model_copy(update={"introduced_in": introduced_in, **derived})
        return [forged if s is new else s for s in sets], forged

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("catalogctl.release.plan.next_seed_sets", relabel)
        ruleset = freeze_citing_the_older_release(repo, tmp_path)
    assert f"introduced_in: {introduced_in}" in ruleset


@pytest.mark.parametrize(
    ("introduced_in", "held"),
    [
        ("2026-09-C1", "the ruleset of 2026-09-C1 holds no set C"),  # set B's cohort: it introduced B only
        ("2026-08-C1", "there is no ruleset of 2026-08-C1 here"),  # a cohort never released
    ],
)
def test_a_new_set_relabelled_as_carried_fails_validate_and_verify(
    repo: Path, tmp_path: Path, introduced_in: str, held: str
) -> None:
    # Found by a breaker: validate skipped any set not introduced by the ruleset holding it, and
    # verify took the label too, so a set derived from an older release's round, labelled as
    # introduced by the cohort before, passed both (and so did the second case, in validate).
    freeze_relabelled(repo, tmp_path, introduced_in)
    message = f"seed set C is carried as introduced in {introduced_in}, but {held}"
    shown = run_cli("verify", "2026-10-C0", "-C", repo, code=11)
    assert f"FAIL  {message}" in shown.stdout
    rows = (repo / "rulesets" / "2026-10-C0.yaml").read_text().splitlines()
    set_c = next(n for n, row in enumerate(rows) if row.endswith("id: C"))  # set B may be of the same cohort
    line = next(n for n, row in enumerate(rows[set_c:], set_c + 1) if row.endswith(f"introduced_in: {introduced_in}"))
    column = rows[line - 1].index("introduced_in") + 1
    validated = run_cli("validate", repo, "--select", "ruleset-seeds-underived", code=1)
    assert f"rulesets/2026-10-C0.yaml:{line}:{column}: error ruleset-seeds-underived: {message}" in validated.stdout


def test_a_set_that_should_have_been_derived_but_was_drawn_fails_verify_and_preflight(
    repo: Path, tmp_path: Path
) -> None:
    # A tool that draws (or a ruleset whose derived_from was dropped, the seeds rewritten): the
    # release of 2026-09-C0 named round 12040883 for this set.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("catalogctl.release.plan.derive_new_set", lambda *a: None)
        freeze(repo, FreezeRequest("2026-09-C1", now=AFTER))
    assert "derived_from" not in (repo / "rulesets" / "2026-09-C1.yaml").read_text()
    message = (
        "seed set B, introduced in 2026-09-C1: the release of 2026-09-C0 named beacon round 12040883 for it, "
        "but it records no round (derived_from)"
    )
    shown = run_cli("verify", "2026-09-C1", "-C", repo, code=11)
    assert message in shown.stdout
    submission = write(
        tmp_path, "submission.yaml", SUBMISSION.replace("2026-09-C0, seed_set_id: A", "2026-09-C1, seed_set_id: B")
    )
    git(repo, "checkout", "-q", "2026-09-C1")
    with pytest.raises(CheckFailed, match="records no round") as failed:
        preflight(repo, submission, offline=True)
    assert failed.value.exit_code == 11


def test_dropping_the_policy_does_not_free_a_named_set(repo: Path, origin: Path) -> None:
    # The freeze commit removes policies.seed_beacon: the set 2026-09-C0 named a round for would be drawn.
    text = (repo / "benchmark_suite" / "suite.yaml").read_text()
    start = text.index("  seed_beacon:\n")
    end = text.index("/info\n", start) + len("/info\n")
    (repo / "benchmark_suite" / "suite.yaml").write_text(text[:start] + text[end:])
    commit_all(repo, "Stop deriving seeds")
    before = state(repo, origin)
    with pytest.raises(UsageError, match="the release of 2026-09-C0 named beacon round 12040883 for this set"):
        freeze(repo, FreezeRequest("2026-09-C1", now=AFTER))
    assert state(repo, origin) == before
