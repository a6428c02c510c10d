"""A hostile beacon relay (`freeze --fetch-beacon`): answers of another shape, uppercase hex,
extra keys, a redirect to a file, a body too large; and a ruleset whose recorded round was
edited after the freeze. Each refusal is a message and leaves the repository and the remote as
they were."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from catalogctl.errors import BeaconRoundRefused
from catalogctl.release.beacon_plan import BeaconRequest
from catalogctl.release.freeze import FreezeRequest, freeze
from tests.beacon_repo import AFTER, DRAND, ROUND, derive, round_file, state
from tests.beacon_repo import beacon_catalog as named_release
from tests.helpers import git, run_cli


@pytest.fixture
def repo(catalog_repo: Path, origin: Path) -> Path:
    """2026-09-C0 released (tagged, pushed) before round 12040883, naming it."""
    return named_release(catalog_repo, origin)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        pytest.param(
            json.dumps({"round": str(ROUND), "randomness": "00" * 32, "signature": "00" * 48}),
            "is no beacon round",
            id="string-round",
        ),
        pytest.param(
            json.dumps({"round": ROUND, "randomness": 1, "signature": "00" * 48}),
            "is no beacon round",
            id="number-randomness",
        ),
        pytest.param(json.dumps([ROUND]), "is no beacon round", id="a-list"),
        pytest.param("[" * 5000 + "]" * 5000, "is no beacon round", id="deep-nesting"),
        pytest.param('{"round": ' + "9" * 5000 + "}", "is no beacon round", id="huge-number"),
    ],
)
def test_a_relay_answer_of_another_shape_is_refused(
    repo: Path, origin: Path, httpserver: HTTPServer, body: str, message: str
) -> None:
    httpserver.expect_request(f"/public/{ROUND}").respond_with_data(body)
    before = state(repo, origin)
    with pytest.raises(BeaconRoundRefused, match=message):
        freeze(repo, FreezeRequest("2026-09-C1", now=AFTER, beacon=BeaconRequest(relay=httpserver.url_for("/"))))
    assert state(repo, origin) == before


def test_a_relay_with_extra_keys_and_uppercase_hex(repo: Path, origin: Path, httpserver: HTTPServer) -> None:
    # Uppercase hex is refused (the ruleset records lowercase, as relays serve it); an extra key too.
    data = json.loads((DRAND / f"quicknet-{ROUND}.json").read_text())
    httpserver.expect_request(f"/public/{ROUND}").respond_with_json(dict(data, signature=data["signature"].upper()))
    before = state(repo, origin)
    with pytest.raises(BeaconRoundRefused, match="96 lowercase hex digits"):
        freeze(repo, FreezeRequest("2026-09-C1", now=AFTER, beacon=BeaconRequest(relay=httpserver.url_for("/"))))
    httpserver.clear()
    httpserver.expect_request(f"/public/{ROUND}").respond_with_json(dict(data, previous_signature="00"))
    with pytest.raises(BeaconRoundRefused, match="is no beacon round"):
        freeze(repo, FreezeRequest("2026-09-C1", now=AFTER, beacon=BeaconRequest(relay=httpserver.url_for("/"))))
    assert state(repo, origin) == before


def test_a_relay_that_redirects_to_a_file_or_answers_too_much(
    repo: Path, origin: Path, httpserver: HTTPServer, tmp_path: Path
) -> None:
    local = round_file(tmp_path)
    before = state(repo, origin)
    httpserver.expect_request(f"/public/{ROUND}").respond_with_data(
        "", status=302, headers={"Location": local.as_uri()}
    )
    shown = run_cli("freeze", "2026-09-C1", "-C", repo, "--fetch-beacon", httpserver.url_for("/"), code=2)
    assert "error: the beacon relay" in shown.stderr
    assert "is unreachable" in shown.stderr
    httpserver.clear()
    httpserver.expect_request(f"/public/{ROUND}").respond_with_data(b" " * (2 * 1024 * 1024))
    shown = run_cli("freeze", "2026-09-C1", "-C", repo, "--fetch-beacon", httpserver.url_for("/"), code=1)
    assert "answered more than 65,536 bytes" in shown.stderr
    assert state(repo, origin) == before


def test_a_recorded_signature_edited_before_the_tag_fails_verify(repo: Path, tmp_path: Path) -> None:
    # The seeds and randomness as derived, the signature another round's: tagged as the release.
    derive(repo, round_file(tmp_path), tag=False)
    other = json.loads((DRAND / "quicknet-123.json").read_text())["signature"]
    ours = json.loads((DRAND / f"quicknet-{ROUND}.json").read_text())["signature"]
    path = repo / "rulesets" / "2026-09-C1.yaml"
    path.write_text(path.read_text().replace(ours, other))
    git(repo, "commit", "-q", "--amend", "-a", "--no-edit")
    # `catalogctl tag` validates first and refuses it (validate's rule on derived sets) ...
    refused = run_cli("tag", "2026-09-C1", "-C", repo, code=1)
    assert "error ruleset-seeds-underived: seed set B, derived from beacon round 12040883" in refused.stderr
    # ... so the tag is made by hand, and verify re-derives it offline.
    git(repo, "tag", "-a", "2026-09-C1", "-m", "2026-09-C1")
    shown = run_cli("verify", "2026-09-C1", "-C", repo, code=11)
    assert "its randomness 173df1f57805453a… is not the sha256 of its signature" in shown.stdout
