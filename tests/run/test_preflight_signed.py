"""`preflight` of a signed release, once per signing format (the `signer` fixture: SSH, OpenPGP):
the signer lands in the resolved config, and an attacker who replaces the release tag on the
remote (unsigned, by an unknown key, by a revoked key, by a key past its validity) is refused with
exit 10, in a clone made before the attack and in one made after it, with the local state unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalogctl.release.trust import SignatureFlags
from catalogctl.run.check import read_resolved
from catalogctl.run.integrity import verify_config, verify_release
from tests.helpers import git, run_cli
from tests.signers import SIGNED_AT, Signer, Trust

COHORT = "2026-09-C0"
HINT = "do not run it: ask the maintainers for the signed release\n"


@pytest.fixture
def trust(signer: Signer, tmp_path: Path) -> Trust:
    """What the maintainers published: their keys (an expired one among them) and a revocation; not
    the unknown key."""
    maint, expired, revoked = (signer.key(name) for name in ("maint", "expired", "revoked"))
    return signer.trust(tmp_path / "trust", maint, expired, revoked=(revoked,))


@pytest.fixture
def origin(release: Path, signer: Signer, tmp_path: Path) -> Path:
    """The bare remote, its release tag signed by the maintainer (`git tag -s`)."""
    signer.sign_tag(release, COHORT, signer.key("maint"))
    git(release, "push", "-q", "-f", "origin", f"refs/tags/{COHORT}")
    return tmp_path / "origin.git"


def clone(origin: Path, where: Path) -> Path:
    git(where.parent, "clone", "-q", str(origin), str(where))
    return where


def snapshot(repo: Path) -> str:
    """Every ref and object id, HEAD and the status: what a refusal must leave as it was."""
    return "\n".join(
        git(repo, *args) for args in (["for-each-ref"], ["rev-parse", "HEAD"], ["status", "--porcelain", "-uall"])
    )


def flags(trust: Trust) -> SignatureFlags:
    """`trust` as the library takes it."""
    keyring = trust.file if trust.flags[0] == "--gpg-keyring" else None
    allowed = None if keyring else trust.file
    return SignatureFlags(
        True,
        allowed_signers=str(allowed) if allowed else None,
        revocation_list=str(trust.revocations) if trust.revocations else None,
        gpg_keyring=str(keyring) if keyring else None,
    )


def test_a_signed_release_passes_and_the_signer_is_recorded(
    origin: Path, trust: Trust, signer: Signer, submission: Path, tmp_path: Path
) -> None:
    maint = signer.key("maint")
    required = ["--require-signature", *trust.flags]
    runner = clone(origin, tmp_path / "runner")
    done = run_cli("preflight", submission, "-C", runner, "--format", "json", *required)
    provenance = json.loads(done.stdout)["provenance"]
    assert provenance["signer"] == {"principal": maint.principal, "key_fingerprint": maint.fingerprint}
    assert provenance["remote"]["verified"]
    offline = run_cli("preflight", submission, "-C", runner, "--format", "json", "--offline", *required)
    assert json.loads(offline.stdout)["provenance"]["signer"]["principal"] == maint.principal
    written = tmp_path / "resolved.yaml"
    run_cli("preflight", submission, "-C", runner, "-o", written, *required)
    config, data = read_resolved(written)
    verify_config(config, str(written), data)  # the seal holds over the signer, as `check` proves it
    verify_release(config, runner, str(written), flags(trust))
    assert config.provenance.signer is not None
    assert config.provenance.signer.principal == maint.principal
    unsigned = run_cli("preflight", submission, "-C", runner, "--format", "json")  # nothing asks: not checked
    assert "signer" not in json.loads(unsigned.stdout)["provenance"]


def expected(signer: Signer, attack: str, trust: Trust) -> str:
    """Why the tag the attacker signed is refused, in the format's words."""
    if attack == "unsigned":
        return f"tag `{COHORT}` is not signed"
    key = signer.key(attack)
    if attack == "unknown":
        return f"tag `{COHORT}` {signer.not_trusted(key, trust)}"
    if attack == "revoked":
        return f"tag `{COHORT}` {signer.revoked(key, trust)}"
    return f"tag `{COHORT}` {signer.expired(key, SIGNED_AT.replace('Z', '+00:00'))}"


HINTS = {"unknown": "a key the maintainers did not publish: ", "expired": "a retired key signs no new release: "}


@pytest.mark.parametrize("attack", ["expired", "revoked", "unknown", "unsigned"])
def test_a_tag_replaced_on_the_remote_is_refused(
    attack: str, origin: Path, trust: Trust, signer: Signer, submission: Path, tmp_path: Path
) -> None:
    required = ["--require-signature", *trust.flags]
    before = clone(origin, tmp_path / "before")  # a runner's clone made before the attack
    signed = git(before, "rev-parse", f"refs/tags/{COHORT}")
    attacker = clone(origin, tmp_path / "attacker")
    forged = signer.sign_tag(attacker, COHORT, None if attack == "unsigned" else signer.key(attack))
    git(attacker, "push", "-q", "-f", "origin", f"refs/tags/{COHORT}")
    output = tmp_path / "out" / "resolved.json"

    state = snapshot(before)
    result = run_cli("preflight", submission, "-C", before, "-o", output, *required, code=10)
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
    result = run_cli("preflight", submission, "-C", after, "-o", output, *required, code=10)
    why = expected(signer, attack, trust)
    assert result.stderr == f"error [signature-invalid]: {why}\nhint: {HINTS.get(attack, '')}{HINT}"
    assert snapshot(after) == state
    assert not output.exists()
