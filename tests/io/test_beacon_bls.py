"""The BLS check of drand rounds, on real quicknet rounds (tests/fixtures/drand/README.md cites
where each comes from). A pairing costs a fraction of a second in pure Python: few checks."""

from __future__ import annotations

import json
import subprocess
import sys
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


def off_subgroup_g1() -> bytes:
    """A point on the curve of G1 (y² = x³ + 4) outside its prime-order subgroup: the smallest x
    with a square root, compressed as drand compresses (ZCash's flags)."""
    from py_ecc.bls.point_compression import compress_G1
    from py_ecc.fields import optimized_bls12_381_FQ as FQ
    from py_ecc.optimized_bls12_381.optimized_curve import field_modulus

    for x in range(1, 1000):
        y = pow(x**3 + 4, (field_modulus + 1) // 4, field_modulus)
        if y * y % field_modulus == (x**3 + 4) % field_modulus:
            return compress_G1((FQ(x), FQ(y), FQ(1))).to_bytes(48, "big")
    raise AssertionError("no x")


IDENTITY_G1 = bytes([0xC0]) + bytes(47)  # the compressed point at infinity (flags: compressed, infinity)
IDENTITY_G2 = bytes([0xC0]) + bytes(95)


def test_a_point_outside_the_subgroup_or_not_canonical_is_refused() -> None:
    with pytest.raises(BadPoint, match="not a canonical point of the prime-order subgroup of G1"):
        verify_unchained_g1(KEY, 123, off_subgroup_g1())
    # The same x plus the field's modulus: another encoding of it.
    from py_ecc.optimized_bls12_381.optimized_curve import field_modulus

    value = int.from_bytes(off_subgroup_g1(), "big")
    with pytest.raises(BadPoint, match="less than field modulus"):
        verify_unchained_g1(KEY, 123, (value + field_modulus).to_bytes(48, "big"))
    with pytest.raises(BadPoint, match="b_flag should be 0"):  # infinity with a stray bit
        verify_unchained_g1(KEY, 123, IDENTITY_G1[:47] + b"\x01")
    with pytest.raises(BadPoint, match="c_flag should be 1"):  # an uncompressed flag
        verify_unchained_g1(KEY, 123, bytes(48))
    with pytest.raises(BadPoint, match="96 bytes; a G1 signature is 48 bytes"):  # a G2 point where G1 goes
        verify_unchained_g1(KEY, 123, KEY)


def test_the_identity_is_no_key_and_no_signature() -> None:
    # e(H(m), 1) = 1 = e(1, g2): with the identity as the key, the identity "signs" every round, so
    # anyone could make any round's randomness sha256(c0 00…). KeyValidate (the BLS draft) refuses it.
    with pytest.raises(BadPoint, match="the public key is the identity"):
        verify_unchained_g1(IDENTITY_G2, 123, IDENTITY_G1)
    with pytest.raises(BadPoint, match="the signature is the identity"):
        verify_unchained_g1(KEY, 123, IDENTITY_G1)


def test_the_bls_check_leaves_the_recursion_limit_as_it_was() -> None:
    # py_ecc raises the interpreter's recursion limit to 100,000 when imported; the readers of
    # untrusted JSON refuse deep nesting by the default limit's RecursionError, so a raised limit
    # lets 100,000 nested brackets reach C recursion deep enough to crash the process.
    code = (
        "import sys; before = sys.getrecursionlimit(); import catalogctl.io.beacon_bls as b; "
        "b.verify_unchained_g1; assert sys.getrecursionlimit() == before, sys.getrecursionlimit()"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
