"""`freeze --sign` with OpenPGP: the tag is signed as `git tag -s` signs it with gpg.format=openpgp
and passes real `git tag -v`; a freeze that cannot sign with gpg writes nothing and says why."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.gpgkeys import GpgHome
from tests.helpers import git, run_cli
from tests.release.test_freeze_sign import state
from tests.release_repo import make_freezable
from tests.signing import fingerprint, make_key

COHORT = "2026-09-C0"
UID = "Maintainer <m@example.org>"
FREEZE = ("freeze", COHORT, "--add", "gsm8k")


@pytest.fixture
def repo(catalog_repo: Path) -> Path:
    return make_freezable(catalog_repo)


@pytest.fixture
def key(gnupg: GpgHome) -> str:
    return gnupg.make_key(UID)


def git_tag_v(root: Path, tag: str) -> subprocess.CompletedProcess[str]:
    """Real `git tag -v`, with the environment's GNUPGHOME (the key's home): git tells the kind by the armor."""
    return subprocess.run(["git", "tag", "-v", tag], cwd=root, capture_output=True, text=True, check=False)


def test_freeze_sign_openpgp_makes_a_tag_git_tag_v_verifies(repo: Path, key: str) -> None:
    done = run_cli(*FREEZE, "--sign", "--signing-format", "openpgp", "--signing-key", "m@example.org", "-C", repo)
    assert done.stdout.endswith(f"signed with gpg key m@example.org ({key})\n")
    verified = git_tag_v(repo, COHORT)
    assert verified.returncode == 0, verified.stderr
    assert f'Good signature from "{UID}"' in verified.stderr
    raw = git(repo, "cat-file", "tag", COHORT)
    assert "\n\nCohort 2026-09-C0\n\nruleset: rulesets/2026-09-C0.yaml\nruleset-digest: sha256:" in raw
    assert raw.endswith("-----END PGP SIGNATURE-----")
    assert git(repo, "status", "--porcelain") == ""


def test_gpg_format_and_user_signingkey_come_from_git_config(
    repo: Path, gnupg: GpgHome, key: str, tmp_path: Path
) -> None:
    git(repo, "config", "gpg.format", "openpgp")
    git(repo, "config", "user.signingKey", key)
    keyring = gnupg.export(tmp_path / "trust" / "keyring.gpg", key)
    done = run_cli(*FREEZE, "--sign", "--gpg-keyring", keyring, "-C", repo)  # the fresh tag is checked against it
    assert done.stdout.endswith(f"signed with gpg key {key} ({key})\n")
    assert git_tag_v(repo, COHORT).returncode == 0
    lines = run_cli("verify", COHORT, "-C", repo, "--require-signature", "--gpg-keyring", keyring).stdout
    assert f"ok    tag `{COHORT}` is signed by {UID} (OpenPGP key {key})\n" in lines


def test_gpg_program_is_honoured(repo: Path, key: str, tmp_path: Path) -> None:
    called = tmp_path / "called"
    program = tmp_path / "my-gpg"
    program.write_text(f'#!/bin/sh\necho "$@" >> {called}\nexec gpg "$@"\n')
    program.chmod(0o755)
    git(repo, "config", "gpg.program", str(program))
    run_cli(*FREEZE, "--sign", "--signing-format", "openpgp", "--signing-key", key, "-C", repo)
    assert called.read_text().splitlines()[-1] == f"--status-fd=2 -bsau {key}"  # git's own arguments
    assert git_tag_v(repo, COHORT).returncode == 0


def test_an_unknown_key_writes_nothing_and_says_why(repo: Path, key: str) -> None:
    before = state(repo)
    done = run_cli(
        *FREEZE, "--sign", "--signing-format", "openpgp", "--signing-key", "nobody@example.org", "-C", repo, code=2
    )
    assert done.stderr == (
        "error: cannot sign with gpg key nobody@example.org: gpg has no secret key for it "
        "(gpg: error reading key: No secret key)\n"
        "hint: pass --signing-key with a key of gpg --list-secret-keys, or git config user.signingKey KEYID\n"
    )
    assert state(repo) == before


def test_no_key_writes_nothing_and_says_why(repo: Path, gnupg: GpgHome) -> None:
    git(repo, "config", "gpg.format", "openpgp")
    before = state(repo)
    done = run_cli(*FREEZE, "--sign", "-C", repo, code=2)
    assert done.stderr == (
        "error: freeze --sign has no key: no --signing-key, and git config user.signingKey is unset; "
        "nothing was written\n"
        "hint: pass --signing-key a gpg key id, or git config user.signingKey a gpg key id\n"
    )
    assert state(repo) == before


def test_a_missing_gpg_is_an_install_hint(repo: Path, key: str) -> None:
    git(repo, "config", "gpg.openpgp.program", "/nonexistent/gpg")
    done = run_cli(*FREEZE, "--sign", "--signing-format", "openpgp", "--signing-key", key, "-C", repo, code=2)
    assert done.stderr == (
        "error: /nonexistent/gpg is not installed: OpenPGP signatures cannot be made\n"
        "hint: install GnuPG (apt-get install gnupg; it brings gpgv)\n"
    )


def test_a_gpg_that_cannot_sign_at_the_last_step_leaves_nothing(repo: Path, key: str, tmp_path: Path) -> None:
    program = tmp_path / "refusing-gpg"  # lists the key, then refuses to sign (a locked card, say)
    refuse = 'case "$1" in --status-fd*) echo "gpg: signing failed: Card removed" >&2; exit 2;; esac'
    program.write_text(f'#!/bin/sh\n{refuse}\nexec gpg "$@"\n')
    program.chmod(0o755)
    git(repo, "config", "gpg.program", str(program))
    before = state(repo)
    done = run_cli(*FREEZE, "--sign", "--signing-format", "openpgp", "--signing-key", key, "-C", repo, code=2)
    assert done.stderr.splitlines()[0] == f"error: gpg could not sign with {key}: gpg: signing failed: Card removed"
    assert state(repo) == before
    assert not (repo / "rulesets").exists()


def test_a_key_the_keyring_does_not_hold_signs_nothing(repo: Path, gnupg: GpgHome, key: str, tmp_path: Path) -> None:
    other = gnupg.make_key("Other <o@example.org>")
    keyring = gnupg.export(tmp_path / "trust" / "keyring.gpg", other)
    before = state(repo)
    done = run_cli(
        *FREEZE,
        "--sign",
        "--signing-format",
        "openpgp",
        "--signing-key",
        key,
        "--gpg-keyring",
        keyring,
        "-C",
        repo,
        code=2,
    )
    assert done.stderr == (
        f"error: freeze --sign refuses to tag with a key its trust refuses: tag `{COHORT}` is signed by OpenPGP "
        f"key {key}, which is not in the GPG keyring {keyring}; nothing was written\n"
        "hint: sign with a key of the GPG keyring, valid now and not revoked (--signing-key), or have the "
        "maintainers publish this key first\n"
    )
    assert state(repo) == before


def test_dry_run_says_it_would_sign_with_gpg_and_which_key(repo: Path, key: str) -> None:
    before = state(repo)
    done = run_cli(*FREEZE, "--dry-run", "--signing-format", "openpgp", "--signing-key", UID, "-C", repo)
    assert done.stdout.endswith(f"\n\nthe tag would be signed with gpg key {UID} ({key})\n")
    assert state(repo) == before


def test_signing_format_ssh_overrides_gpg_format_openpgp(repo: Path, tmp_path: Path) -> None:
    ssh_key = make_key(tmp_path / "keys")
    git(repo, "config", "gpg.format", "openpgp")
    done = run_cli(*FREEZE, "--sign", "--signing-format", "ssh", "--signing-key", ssh_key, "-C", repo)
    assert done.stdout.endswith(f"signed with {ssh_key} ({fingerprint(ssh_key)})\n")
    assert git(repo, "cat-file", "tag", COHORT).endswith("-----END SSH SIGNATURE-----")
