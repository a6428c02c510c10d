"""Attacks on the pinned beacon chain, each on a real repository with a bare remote: a maintainer
who swaps the key (their own signs any round they like) or moves the chain's clock (a round
already public looks future) under quicknet's chain hash. Each refusal leaves the repository
and the remote as they were."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from catalogctl.errors import BeaconRoundRefused, CatalogInvalid
from catalogctl.release.beacon_plan import BeaconRequest
from catalogctl.release.freeze import FreezeRequest, freeze
from tests.beacon_repo import AFTER, INFO, ROUND, beacon_policy, derive, round_file, state
from tests.beacon_repo import beacon_catalog as named_release
from tests.helpers import commit_all, git, replace_in
from tests.release_repo import make_freezable


@pytest.fixture
def repo(catalog_repo: Path, origin: Path) -> Path:
    """2026-09-C0 released (tagged, pushed) before round 12040883, naming it."""
    return named_release(catalog_repo, origin)


SECRET = 0x5EED  # the attacker's own secret key


def attacker_round(number: int) -> tuple[str, dict[str, object]]:
    """A key of the attacker's own and its valid signature of round `number` (the scheme of
    quicknet): what a maintainer who swaps the pinned key can produce for any round."""
    from py_ecc.bls.hash_to_curve import hash_to_G1
    from py_ecc.bls.point_compression import compress_G1, compress_G2
    from py_ecc.optimized_bls12_381.optimized_curve import G2, multiply

    message = hashlib.sha256(number.to_bytes(8, "big")).digest()
    point = multiply(hash_to_G1(message, b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_", hashlib.sha256), SECRET)  # type: ignore[arg-type]
    key = b"".join(part.to_bytes(48, "big") for part in compress_G2(multiply(G2, SECRET)))
    signature = compress_G1(point).to_bytes(48, "big")
    return key.hex(), {
        "round": number,
        "signature": signature.hex(),
        "randomness": hashlib.sha256(signature).hexdigest(),
    }


def test_a_key_swapped_under_the_pinned_chain_hash_is_refused(repo: Path, origin: Path, tmp_path: Path) -> None:
    # The freeze commit pins the attacker's key under quicknet's chain hash: their signature of the
    # named round "verifies", and they chose its randomness.
    key, data = attacker_round(ROUND)
    replace_in(repo, "benchmark_suite/suite.yaml", INFO["public_key"], key)
    commit_all(repo, "Pin a key")
    before = state(repo, origin)
    with pytest.raises(CatalogInvalid) as refused:
        derive(repo, round_file(tmp_path, **data))  # type: ignore[arg-type]
    assert "is not the hash of the chain's info" in "\n".join(d.message for d in refused.value.diagnostics)
    assert state(repo, origin) == before


def test_a_genesis_moved_to_make_a_past_round_look_future_is_refused(catalog_repo: Path, origin: Path) -> None:
    # Round 12040883 was public at AFTER; a suite whose genesis is a day late says it is due later.
    root = make_freezable(catalog_repo)
    policy = beacon_policy().replace(
        f"genesis_time: {INFO['genesis_time']}", f"genesis_time: {INFO['genesis_time'] + 86400}"
    )
    replace_in(
        root, "benchmark_suite/suite.yaml", "    rotate_every: 2\n    valid_for: 4\n", "    rotate_every: 1\n" + policy
    )
    commit_all(root, "Derive seeds from drand quicknet")
    git(root, "remote", "add", "origin", str(origin))
    before = state(root, origin)
    with pytest.raises(CatalogInvalid) as refused:
        freeze(root, FreezeRequest("2026-09-C0", add=["gsm8k"], now=AFTER, beacon=BeaconRequest(name_round=ROUND)))
    assert "is not the hash of the chain's info" in "\n".join(d.message for d in refused.value.diagnostics)
    assert state(root, origin) == before


def test_a_new_chain_hash_for_a_swapped_key_is_not_the_chain_the_release_named(
    repo: Path, origin: Path, tmp_path: Path
) -> None:
    # Held before: a consistent new chain (key and hash) is not the one the naming release recorded.
    key, data = attacker_round(ROUND)
    info = dict(INFO, public_key=key)
    new_hash = drand_chain_hash(info)
    replace_in(repo, "benchmark_suite/suite.yaml", INFO["public_key"], key)
    replace_in(repo, "benchmark_suite/suite.yaml", f"chain_hash: {INFO['chain_hash']}", f"chain_hash: {new_hash}")
    commit_all(repo, "Pin another chain")
    before = state(repo, origin)
    with pytest.raises(
        BeaconRoundRefused, match=f"it is recorded for chain 52db9ba70e0c…, but the suite pins {new_hash[:12]}"
    ):
        derive(repo, round_file(tmp_path, **data))  # type: ignore[arg-type]
    assert state(repo, origin) == before


def drand_chain_hash(info: dict[str, object]) -> str:
    """drand's chain hash (chain.Info.Hash): period, genesis, key, genesis seed, beacon id."""
    digest = hashlib.sha256()
    digest.update(int(info["period"]).to_bytes(4, "big"))  # type: ignore[call-overload]
    digest.update(int(info["genesis_time"]).to_bytes(8, "big"))  # type: ignore[call-overload]
    digest.update(bytes.fromhex(str(info["public_key"])))
    digest.update(bytes.fromhex(str(info["genesis_seed"])))
    digest.update(str(info["beacon_id"]).encode())
    return digest.hexdigest()


def test_drand_chain_hash_is_quicknets() -> None:
    assert drand_chain_hash(INFO) == INFO["chain_hash"]
