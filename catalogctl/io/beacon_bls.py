"""The one module that imports py_ecc: the BLS12-381 check of a drand round's signature.

Scheme `bls-unchained-g1-rfc9380` (drand's quicknet): the signature is a G1 point (48 bytes
compressed), the chain's public key a G2 point (96 bytes), the message sha256 of the round as an
8-byte big-endian integer, hashed to G1 by RFC 9380 with the DST below (drand/drand-client
lib/beacon-verification.ts, `unchainedBeaconMessage` and `verifySigOnG1`). The pairing is
py_ecc's (the Ethereum Foundation's BLS12-381): pure Python, about 0.2 s per check.
"""

from __future__ import annotations

import hashlib
import sys

# py_ecc raises the interpreter's recursion limit to 100,000 on import. Every reader of untrusted
# JSON relies on the default limit: json's C parser then recurses 100,000 deep on nested brackets
# and the process dies of a segmentation fault instead of refusing the file. The limit is put
# back; the optimized pairing used here does not recurse.
_LIMIT = sys.getrecursionlimit()
try:
    from py_ecc.bls.hash_to_curve import hash_to_G1
    from py_ecc.bls.point_compression import compress_G1, compress_G2, decompress_G1, decompress_G2
    from py_ecc.bls.typing import G1Compressed, G2Compressed
    from py_ecc.fields import optimized_bls12_381_FQ12 as FQ12
    from py_ecc.optimized_bls12_381.optimized_curve import G2, curve_order, is_inf, multiply, neg
    from py_ecc.optimized_bls12_381.optimized_pairing import final_exponentiate, pairing
finally:
    sys.setrecursionlimit(_LIMIT)

DST_G1 = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"


class BadPoint(ValueError):
    """Bytes that are not a canonical point of the right group: no signature can be checked."""


def unchained_message(round_number: int) -> bytes:
    """What an unchained drand round signs: sha256 of the round, 8 bytes big-endian."""
    return hashlib.sha256(round_number.to_bytes(8, "big")).digest()


def verify_unchained_g1(public_key: bytes, round_number: int, signature: bytes) -> bool:
    """Whether `signature` is the chain's (`public_key`) signature of `round_number`.

    Both points must be canonical encodings of points of the prime-order subgroups other than the
    identity: a signature is then unique for its round, so the randomness (its sha256) is too."""
    if len(signature) != 48:
        raise BadPoint(f"the signature is {len(signature)} bytes; a G1 signature is 48 bytes")
    if len(public_key) != 96:
        raise BadPoint(f"the public key is {len(public_key)} bytes; a G2 key is 96 bytes")
    try:
        sig_point = decompress_G1(G1Compressed(int.from_bytes(signature, "big")))
    except ValueError as exc:
        raise BadPoint(f"the signature is no point of G1: {exc}") from None
    try:
        key_point = decompress_G2(
            G2Compressed((int.from_bytes(public_key[:48], "big"), int.from_bytes(public_key[48:], "big")))
        )
    except ValueError as exc:
        raise BadPoint(f"the public key is no point of G2: {exc}") from None
    # The identity pairs to 1 with anything: as the key it would "verify" the identity as every
    # round's signature (KeyValidate in the BLS draft refuses it), and it is no signature either.
    if is_inf(key_point):
        raise BadPoint("the public key is the identity (the point at infinity): no chain's key")
    if is_inf(sig_point):
        raise BadPoint("the signature is the identity (the point at infinity): no round's signature")
    if compress_G1(sig_point) != int.from_bytes(signature, "big") or not is_inf(multiply(sig_point, curve_order)):
        raise BadPoint("the signature is not a canonical point of the prime-order subgroup of G1")
    key_ints = (int.from_bytes(public_key[:48], "big"), int.from_bytes(public_key[48:], "big"))
    if compress_G2(key_point) != key_ints or not is_inf(multiply(key_point, curve_order)):
        raise BadPoint("the public key is not a canonical point of the prime-order subgroup of G2")
    # py_ecc annotates the hash as a hash object but calls it as a constructor (as its own suites pass it).
    hashed = hash_to_G1(unchained_message(round_number), DST_G1, hashlib.sha256)  # type: ignore[arg-type]
    # e(H(m), pk) == e(sig, g2), as one product of two Miller loops and one final exponentiation.
    product = pairing(key_point, hashed, final_exponentiate=False) * pairing(
        neg(G2), sig_point, final_exponentiate=False
    )
    return bool(final_exponentiate(product) == FQ12.one())
