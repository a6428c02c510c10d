"""The signature clause of a release signed with OpenPGP: `verify` and `cohorts` with real gpg keys
and `git tag -s` tags (gpg.format=openpgp), checked by gpgv against a keyring file from outside the
tree under check; an SSH trust accepts no OpenPGP signature."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.gpgkeys import GpgHome, retag_gpg
from tests.helpers import git, run_cli
from tests.prebuilt import Prebuilt
from tests.release.test_trust import put_tag
from tests.signing import allowed_signers, fingerprint, make_key, retag

COHORT = "2026-09-C0"
UID = "Maintainer <m@example.org>"


@pytest.fixture
def release(catalog_repo: Path, prebuilt: Prebuilt, tmp_path: Path) -> Path:
    """Cohort 2026-09-C0 frozen and pushed to a bare `origin` (unsigned: freeze does not sign here)."""
    return prebuilt.install("release", tmp_path)


@pytest.fixture
def key(gnupg: GpgHome) -> str:
    return gnupg.make_key(UID)


@pytest.fixture
def keyring(gnupg: GpgHome, key: str, tmp_path: Path) -> Path:
    return gnupg.export(tmp_path / "trust" / "keyring.gpg", key)


def verify(release: Path, *extra: str, code: int = 0) -> list[str]:
    """`verify --require-signature` of the cohort, its output lines."""
    return run_cli("verify", COHORT, "-C", release, "--require-signature", *extra, code=code).stdout.splitlines()


def test_a_git_tag_s_openpgp_tag_verifies(release: Path, key: str, keyring: Path) -> None:
    retag_gpg(release, COHORT, key)
    lines = verify(release, "--gpg-keyring", str(keyring))
    assert f"ok    tag `{COHORT}` is signed by {UID} (OpenPGP key {key})" in lines
    assert lines[-1].startswith(f"{COHORT}: verified")
    result = json.loads(run_cli("verify", COHORT, "-C", release, "--gpg-keyring", str(keyring), "-f", "json").stdout)
    assert result["signature"] == {
        "state": "good",
        "required": False,
        "principal": UID,
        "fingerprint": key,
        "message": f"tag `{COHORT}` is signed by {UID} (OpenPGP key {key})",
        "hint": "",
    }
    shown = run_cli("cohorts", "-C", release, "--gpg-keyring", str(keyring)).stdout.splitlines()[1]
    assert shown.endswith(f"{UID} ({key})")


def test_the_keyring_comes_from_the_environment(
    release: Path, key: str, keyring: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    retag_gpg(release, COHORT, key)
    monkeypatch.setenv("CATALOGCTL_GPG_KEYRING", str(keyring))
    assert verify(release)[-1].startswith(f"{COHORT}: verified")


def test_without_a_keyring_a_required_openpgp_signature_fails_closed(release: Path, key: str, tmp_path: Path) -> None:
    retag_gpg(release, COHORT, key)
    assert f"FAIL  tag `{COHORT}` has an OpenPGP signature, not checked: no GPG keyring is configured" in verify(
        release, code=1
    )
    ssh = allowed_signers(tmp_path / "allowed_signers", ("m@example.org", make_key(tmp_path / "ssh"), ""))
    assert (
        f"FAIL  tag `{COHORT}` has an OpenPGP signature, not checked: no GPG keyring is configured (the "
        f"allowed-signers file {ssh} trusts SSH keys only)"
    ) in verify(release, "--allowed-signers", str(ssh), code=1)
    assert run_cli("cohorts", "-C", release).stdout.splitlines()[1].split()[-1] == "not-checked"


def test_a_keyring_does_not_accept_an_ssh_signed_tag(release: Path, keyring: Path, tmp_path: Path) -> None:
    ssh_key = make_key(tmp_path / "ssh")
    retag(release, COHORT, ssh_key)
    assert (
        f"FAIL  tag `{COHORT}` is signed by key {fingerprint(ssh_key)}, not checked: no allowed-signers file is "
        f"configured (the GPG keyring {keyring} trusts OpenPGP keys only)"
    ) in verify(release, "--gpg-keyring", str(keyring), code=1)


def test_a_keyring_in_the_tree_under_check_is_refused(release: Path, gnupg: GpgHome, key: str) -> None:
    inside = gnupg.export(release / "keyring.gpg", key)
    result = run_cli("verify", COHORT, "-C", release, "--gpg-keyring", inside, code=2)
    assert result.stderr == (
        f"error: the GPG keyring {inside.resolve()} (from --gpg-keyring) is inside the repository under check: "
        "whoever can change the repository could trust their own key\n"
        "hint: keep it outside the clone: a copy the maintainers publish, installed by you\n"
    )
    missing = release.parent / "no-such-keyring"
    assert run_cli("verify", COHORT, "-C", release, "--require-signature", "--gpg-keyring", missing, code=2).stderr == (
        f"error: the GPG keyring {missing} (from --gpg-keyring) does not exist\n"
        "hint: pass --gpg-keyring FILE or set CATALOGCTL_GPG_KEYRING (the maintainers' public keys, gpg --export, "
        "in a file outside the repository)\n"
    )


def test_an_armored_keyring_is_refused_as_unreadable_not_as_an_unknown_key(
    release: Path, gnupg: GpgHome, key: str, tmp_path: Path
) -> None:
    retag_gpg(release, COHORT, key)
    armored = tmp_path / "trust" / "keyring.asc"
    armored.parent.mkdir(exist_ok=True)
    armored.write_bytes(gnupg.gpg("--export", "--armor", key))
    done = run_cli("verify", COHORT, "-C", release, "--require-signature", "--gpg-keyring", armored, code=2)
    assert done.stderr == (
        f"error: the GPG keyring {armored} cannot be read: gpgv finds no OpenPGP keys in it (gpgv: keydb_search "
        "failed: Invalid packet)\n"
        "hint: pass a binary keyring: gpg --export KEYID > keyring.gpg (an armored export: gpg --dearmor it)\n"
    )
    shown = run_cli("cohorts", "-C", release, "--gpg-keyring", armored).stdout.splitlines()[1]
    assert shown.split()[-1] == "not-checked"  # not required: said, not fatal


def test_text_after_a_good_openpgp_signature_is_refused(release: Path, key: str, keyring: Path) -> None:
    """gpgv reads the armor and ignores what follows it: those bytes are signed by no one."""
    retag_gpg(release, COHORT, key)
    good = git(release, "cat-file", "tag", COHORT) + "\n"
    put_tag(release, COHORT, good + "x\n")
    lines = verify(release, "--gpg-keyring", str(keyring), code=1)
    assert [line for line in lines if line.startswith("FAIL")] == [
        f"FAIL  tag `{COHORT}`'s signature is not the end of the tag object: 2 bytes follow its END line, "
        "signed by no one"
    ]
