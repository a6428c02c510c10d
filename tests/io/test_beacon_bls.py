"""The BLS check of drand rounds, on real quicknet rounds (tests/fixtures/drand/README.md cites
where each comes from). A pairing costs a fraction of a second in pure Python: few checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalogctl.io.beacon_bls import BadPoint, verify_unchained_g1

DRAND = Path(__file__).parents[1] / "fixtures" / "drand"
INFO = json.loads((DRAND / "quicknet-info.json").read_text())
KEY = bytes.fromhex(INFO["public_key"])
# drand's testnet quicknet (`quicknet-t`): a real G2 key of another chain
# (drand/drand-client@b9572b2e lib/defaults.ts, TESTNET_QUICKNET_CHAIN_INFO).
OTHER_KEY = bytes.fromhex(
    "b15b65b46fb29104f6a4b5d1e11a8da6344463973d423661bb0804846a0ecd1ef93c25057f1c0baab2ac53e56c662b66"
    "072f6d84ee791a3382bfb055afab1e6a375538d8ffc451104ac971d2dc9b168e2d3246b0be2015969cbaac298f6502da"
)


def signature(round_number: int) -> bytes:
    return bytes.fromhex(json.loads((DRAND / f"quicknet-{round_number}.json").read_text())["signature"])


@pytest.mark.parametrize("round_number", [123, 12040883])
def test_real_quicknet_rounds_verify(round_number: int) -> None:
    assert verify_unchained_g1(KEY, round_number, signature(round_number))


def test_a_signature_of_another_round_does_not_verify() -> None:
    assert not verify_unchained_g1(KEY, 12040883, signature(123))


def test_another_chains_key_does_not_verify() -> None:
    assert not verify_unchained_g1(OTHER_KEY, 123, signature(123))


def test_bytes_that_are_no_point_are_refused() -> None:
    with pytest.raises(BadPoint, match="signature"):
        verify_unchained_g1(KEY, 123, b"\x00" * 48)
    with pytest.raises(BadPoint, match="public key"):
        verify_unchained_g1(KEY[:95] + b"\x00", 123, signature(123))
    with pytest.raises(BadPoint, match="48 bytes"):
        verify_unchained_g1(KEY, 123, signature(123)[:47])
