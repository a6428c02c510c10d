"""`preflight` of a release signed with OpenPGP: the signer (the key's user id and primary key
fingerprint) lands in the resolved config, and an attacker who replaces the release tag on the
remote (unsigned, by an unknown gpg key, by an expired key, by a revoked key) is refused with exit
10, in a clone made before the attack and in one made after it, with the local state unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalogctl.release.trust import SignatureFlags
from catalogctl.run.check import read_resolved
from catalogctl.run.integrity import verify_config, verify_release
from tests.gpgkeys import GpgHome, retag_gpg
from tests.helpers import git, run_cli
from tests.run.test_preflight_signed import clone, snapshot
from tests.signing import retag

COHORT = "2026-09-C0"
HINT = "do not run it: ask the maintainers for the signed release\n"
UIDS = {
    "maint": "Maintainer <m@example.org>",
    "unknown": "Stranger <s@example.org>",
    "expired": "Retired <old@example.org>",
    "revoked": "Revoked <r@example.org>",
}
SIGNED_IN_2020 = "20200601T000000"


@pytest.fixture
def keys(gnupg: GpgHome) -> dict[str, str]:
    """The keys' fingerprints; the expired one was made in 2020, valid for a year."""
    made = {name: gnupg.make_key(uid) for name, uid in UIDS.items() if name != "expired"}
    made["expired"] = gnupg.make_key(UIDS["expired"], "1y", at="20200101T000000")
    return made


@pytest.fixture
def keyring(gnupg: GpgHome, keys: dict[str, str], tmp_path: Path) -> Path:
    """The public keys the maintainers published (the revocation among them); not the unknown key."""
    published = (keys["maint"], keys["expired"], keys["revoked"])
    return gnupg.export(tmp_path / "trust" / "keyring.gpg", *published, revoked=(keys["revoked"],))


@pytest.fixture
def origin(release: Path, keys: dict[str, str], tmp_path: Path) -> Path:
    """The bare remote, its release tag signed by the maintainer (`git tag -s`, gpg.format=openpgp)."""
    retag_gpg(release, COHORT, keys["maint"])
    git(release, "push", "-q", "-f", "origin", f"refs/tags/{COHORT}")
    return tmp_path / "origin.git"


def test_an_openpgp_signed_release_passes_and_the_signer_is_recorded(
    origin: Path, keyring: Path, keys: dict[str, str], submission: Path, tmp_path: Path
) -> None:
    runner = clone(origin, tmp_path / "runner")
    trust = ["--require-signature", "--gpg-keyring", str(keyring)]
    done = run_cli("preflight", submission, "-C", runner, "--format", "json", *trust)
    provenance = json.loads(done.stdout)["provenance"]
    assert provenance["signer"] == {"principal": UIDS["maint"], "key_fingerprint": keys["maint"]}
    written = tmp_path / "resolved.yaml"
    run_cli("preflight", submission, "-C", runner, "-o", written, *trust)
    config, data = read_resolved(written)
    verify_config(config, str(written), data)  # the seal holds over the signer, as `check` proves it
    verify_release(config, runner, str(written), SignatureFlags(True, gpg_keyring=str(keyring)))


ATTACKS = {
    "unsigned": "tag `2026-09-C0` is not signed",
    "unknown": "tag `2026-09-C0` is signed by OpenPGP key {unknown}, which is not in the GPG keyring {keyring}",
    "expired": "tag `2026-09-C0` is signed by OpenPGP key {expired} of Retired <old@example.org>, but the key has "
    "expired",
    "revoked": "tag `2026-09-C0` is signed by OpenPGP key {revoked} of Revoked <r@example.org>, which is revoked",
}
HINTS = {"unknown": "a key the maintainers did not publish: ", "expired": "a retired key signs no new release: "}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_a_tag_replaced_on_the_remote_is_refused(
    attack: str,
    origin: Path,
    keyring: Path,
    keys: dict[str, str],
    gnupg: GpgHome,
    submission: Path,
    tmp_path: Path,
) -> None:
    trust = ["--require-signature", "--gpg-keyring", str(keyring)]
    before = clone(origin, tmp_path / "before")  # a runner's clone made before the attack
    signed = git(before, "rev-parse", f"refs/tags/{COHORT}")
    attacker = clone(origin, tmp_path / "attacker")
    if attack == "unsigned":
        forged = retag(attacker, COHORT, None)
    else:  # an expired key signs only at a time it was valid: the attacker's clock says 2020
        program = gnupg.program_at(SIGNED_IN_2020) if attack == "expired" else None
        forged = retag_gpg(attacker, COHORT, keys[attack], program)
    git(attacker, "push", "-q", "-f", "origin", f"refs/tags/{COHORT}")
    output = tmp_path / "out" / "resolved.json"

    state = snapshot(before)
    result = run_cli("preflight", submission, "-C", before, "-o", output, *trust, code=10)
    assert result.stderr == (
        f"error [signature-invalid]: the remote `origin` has tag `{COHORT}` as tag object {forged[:12]}, not the "
        f"signed tag {signed[:12]} verified here: its signature is not the one checked\n"
        f"hint: do not run it; if the maintainers re-signed the release, fetch it (git fetch --force origin tag "
        f"{COHORT}) and run preflight again\n"
    )
    assert snapshot(before) == state
    assert not output.exists()

    after = clone(origin, tmp_path / "after")  # a clone made after it holds the forged tag
    state = snapshot(after)
    result = run_cli("preflight", submission, "-C", after, "-o", output, *trust, code=10)
    expected = ATTACKS[attack].format(keyring=keyring, **keys)
    assert result.stderr == f"error [signature-invalid]: {expected}\nhint: {HINTS.get(attack, '')}{HINT}"
    assert snapshot(after) == state
    assert not output.exists()
