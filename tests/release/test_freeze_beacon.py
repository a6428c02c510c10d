"""Seed sets derived from a real drand quicknet round (tests/fixtures/drand/README.md cites the
rounds): a release names a future round, the next freeze derives the set from it, and `verify`
and `preflight` re-derive it offline. Each refusal leaves the repository and the remote as they
were. A pairing costs a fraction of a second in pure Python: the flow verifies few rounds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from catalogctl.catalog import beacon_seeds
from catalogctl.errors import BeaconRoundRefused, CatalogInvalid, CheckFailed, RemoteUnreachable, UsageError
from catalogctl.release.beacon_plan import BeaconRequest
from catalogctl.release.freeze import FreezeRequest, freeze
from catalogctl.run.preflight import preflight
from tests.beacon_repo import AFTER, DRAND, INFO, ROUND, beacon_catalog, derive, round_file, state
from tests.helpers import commit_all, git, replace_in, run_cli, write
from tests.release_repo import SUBMISSION

# The testnet quicknet's key (drand/drand-client@b9572b2e lib/defaults.ts): a real key of another chain.
OTHER_KEY = (
    "b15b65b46fb29104f6a4b5d1e11a8da6344463973d423661bb0804846a0ecd1ef93c25057f1c0baab2ac53e56c662b66"
    "072f6d84ee791a3382bfb055afab1e6a375538d8ffc451104ac971d2dc9b168e2d3246b0be2015969cbaac298f6502da"
)


@pytest.fixture
def repo(catalog_repo: Path, origin: Path) -> Path:
    """A catalog under the beacon policy, its first cohort frozen and pushed, naming round ROUND."""
    return beacon_catalog(catalog_repo, origin)


def test_a_named_round_derives_the_next_set_and_verify_re_derives_it(repo: Path, origin: Path, tmp_path: Path) -> None:
    result = derive(repo, round_file(tmp_path), push="origin")
    ruleset = (repo / "rulesets" / "2026-09-C1.yaml").read_text()
    expected = beacon_seeds.derive_seeds(json.loads(round_file(tmp_path).read_text())["randomness"], "2026-09-C1", "B")
    assert f"model_seed: {expected.model_seed}" in ruleset
    assert f"round: {ROUND}" in ruleset
    assert "named_in: 2026-09-C0" in ruleset
    assert "seed set B derived from round 12040883 of drand quicknet, valid through 2026-11-C0" in result.notes  # type: ignore[attr-defined]
    # Offline, from what the ruleset records: the set follows from the round and its signature verifies.
    shown = run_cli("verify", "2026-09-C1", "-C", repo)
    assert (
        "ok    seed set B: derived from round 12040883 of drand quicknet, named by 2026-09-C0; signature verifies"
        in shown.stdout
    )
    submission = write(
        tmp_path, "submission.yaml", SUBMISSION.replace("2026-09-C0, seed_set_id: A", "2026-09-C1, seed_set_id: B")
    )
    git(repo, "checkout", "-q", "2026-09-C1")
    assert preflight(repo, submission, offline=True).seeds.model_seed == expected.model_seed


def test_seeds_that_do_not_follow_from_the_round_fail_verify_and_preflight(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A maintainer who wrote other seeds beside the real round: the release itself is sound.
    real = beacon_seeds.derive_seeds
    with monkeypatch.context() as patch:
        patch.setattr(beacon_seeds, "derive_seeds", lambda *a: real(*a).model_copy(update={"sample_index_rng_seed": 7}))
        derive(repo, round_file(tmp_path))
    right = real(json.loads(round_file(tmp_path).read_text())["randomness"], "2026-09-C1", "B").sample_index_rng_seed
    shown = run_cli("verify", "2026-09-C1", "-C", repo, code=11)
    assert (
        f"seed set B, derived from beacon round {ROUND}: its sample_index_rng_seed is 7, "
        f"but round {ROUND} gives {right}" in shown.stdout
    )
    submission = write(
        tmp_path, "submission.yaml", SUBMISSION.replace("2026-09-C0, seed_set_id: A", "2026-09-C1, seed_set_id: B")
    )
    with pytest.raises(CheckFailed, match="its sample_index_rng_seed is 7") as failed:
        preflight(repo, submission, offline=True)
    assert failed.value.exit_code == 11


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param(
            {"randomness": "00" * 32},
            f"round {ROUND} of drand quicknet: its randomness 0000000000000000… is not the sha256 of its signature",
            id="tampered-randomness",
        ),
        pytest.param(
            {
                "signature": json.loads((DRAND / "quicknet-123.json").read_text())["signature"],
                "randomness": json.loads((DRAND / "quicknet-123.json").read_text())["randomness"],
            },
            f"round {ROUND} of drand quicknet: its signature does not verify against the chain's pinned public key "
            "83cf0f2896ad…",
            id="signature-of-another-round",
        ),
    ],
)
def test_round_data_that_is_not_the_chains_round_is_refused(
    repo: Path, origin: Path, tmp_path: Path, data: dict[str, str], message: str
) -> None:
    before = state(repo, origin)
    with pytest.raises(BeaconRoundRefused) as refused:
        derive(repo, round_file(tmp_path, **data))  # type: ignore[arg-type]
    assert str(refused.value) == f"{message}: nothing was frozen"
    assert state(repo, origin) == before


def test_a_round_other_than_the_one_named_is_refused(repo: Path, origin: Path, tmp_path: Path) -> None:
    before = state(repo, origin)
    with pytest.raises(
        BeaconRoundRefused, match=f"the beacon data is round 123, but the release of 2026-09-C0 named round {ROUND}"
    ):
        derive(repo, round_file(tmp_path, 123))
    assert state(repo, origin) == before


def test_a_wrong_chain_key_is_refused(repo: Path, origin: Path, tmp_path: Path) -> None:
    # Another chain's key under quicknet's chain hash: the hash is of the key, so the suite is invalid.
    replace_in(repo, "benchmark_suite/suite.yaml", INFO["public_key"], OTHER_KEY)
    commit_all(repo, "Pin another chain's key")
    before = state(repo, origin)
    with pytest.raises(CatalogInvalid) as refused:
        derive(repo, round_file(tmp_path))
    assert "chain_hash 52db9ba70e0c… is not the hash of the chain's info" in refused.value.diagnostics[0].message
    assert state(repo, origin) == before


def test_a_round_named_after_the_fact_is_refused(repo: Path, origin: Path, tmp_path: Path) -> None:
    # At naming: freeze refuses to name a round already due.
    with pytest.raises(BeaconRoundRefused, match=f"round {ROUND} of drand quicknet was due at 2024-10-14 17:13:33 UTC"):
        freeze(
            repo,
            FreezeRequest(
                "2026-09-C1", now=AFTER, beacon=BeaconRequest(round_file=round_file(tmp_path), name_round=ROUND)
            ),
        )
    # At derivation: a ruleset edited to name it after the fact (its recorded time is the release's clock).
    replace_in(
        repo, "rulesets/2026-09-C0.yaml", "frozen_at: 2024-10-14T09:00:00+00:00", "frozen_at: 2024-10-14T18:00:00+00:00"
    )
    commit_all(repo, "Back-date the naming")
    before = state(repo, origin)
    with pytest.raises(BeaconRoundRefused, match="is not the ruleset its release tag 2026-09-C0 carries"):
        derive(repo, round_file(tmp_path))
    assert state(repo, origin) == before
    # The tag made again on the edit: the tag's own frozen_at is then checked against the round.
    git(repo, "tag", "-d", "2026-09-C0")
    git(repo, "tag", "-a", "2026-09-C0", "-m", "re-made")
    before = state(repo, origin)
    with pytest.raises(
        BeaconRoundRefused,
        match="not after the release of 2026-09-C0 that names it "
        "\\(frozen at 2024-10-14 18:00:00 UTC\\): it was no future round",
    ):
        derive(repo, round_file(tmp_path))
    assert state(repo, origin) == before


def test_a_due_derivation_needs_the_round_and_refuses_an_import(repo: Path, origin: Path, tmp_path: Path) -> None:
    before = state(repo, origin)
    with pytest.raises(
        UsageError, match=f"derived from round {ROUND} of drand quicknet, named by the release of 2026-09-C0"
    ):
        freeze(repo, FreezeRequest("2026-09-C1", now=AFTER))
    seeds = write(tmp_path, "seeds.yaml", "scheduler_rng_seed: 1\nsample_index_rng_seed: 2\nmodel_seed: 3\n")
    with pytest.raises(UsageError, match="it is derived, not imported"):
        derive(repo, round_file(tmp_path), seeds_file=seeds)
    assert state(repo, origin) == before


def test_the_round_is_fetched_from_a_relay(repo: Path, tmp_path: Path, httpserver: HTTPServer) -> None:
    httpserver.expect_request(f"/public/{ROUND}").respond_with_data((DRAND / f"quicknet-{ROUND}.json").read_bytes())
    relay = BeaconRequest(relay=httpserver.url_for("/"))
    result = freeze(repo, FreezeRequest("2026-09-C1", now=AFTER, dry_run=True, beacon=relay))
    randomness = json.loads((DRAND / f"quicknet-{ROUND}.json").read_text())["randomness"]
    assert f"model_seed: {beacon_seeds.derive_seeds(randomness, '2026-09-C1', 'B').model_seed}" in result.ruleset_text


def test_a_relay_that_trickles_is_stopped_by_the_deadline(
    repo: Path, origin: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.slow_server import slow_server

    monkeypatch.setenv("CATALOGCTL_TIMEOUT", "1")
    before = state(repo, origin)
    with (
        slow_server("trickle-body") as (url, _),
        pytest.raises(RemoteUnreachable, match="no complete answer within 1 s"),
    ):
        freeze(repo, FreezeRequest("2026-09-C1", now=AFTER, beacon=BeaconRequest(relay=url)))
    assert state(repo, origin) == before


def test_cohorts_and_verify_report_where_each_sets_seeds_come_from(repo: Path, tmp_path: Path) -> None:
    derive(repo, round_file(tmp_path))
    listed = json.loads(run_cli("cohorts", "-C", repo, "-f", "json").stdout)
    first, second = listed["cohorts"]
    assert [(p["id"], p["kind"]) for p in first["provenance"]] == [("A", "drawn")]
    derived = second["provenance"][1]
    assert (derived["id"], derived["kind"], derived["round"], derived["named_in"]) == (
        "B",
        "derived",
        ROUND,
        "2026-09-C0",
    )
    assert derived["round_time"] == "2024-10-14T17:13:33Z"
    verified = json.loads(run_cli("verify", "2026-09-C1", "-C", repo, "-f", "json").stdout)
    assert [(p["id"], p["kind"]) for p in verified["provenance"]] == [("A", "drawn"), ("B", "derived")]
    assert verified["provenance"][1]["randomness"] == json.loads(round_file(tmp_path).read_text())["randomness"]
