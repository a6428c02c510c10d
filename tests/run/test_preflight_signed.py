"""`preflight` of a signed release: the signer lands in the resolved config, and an attacker who
replaces the release tag on the remote (unsigned, by an unknown key, by a revoked key, by a key
past its valid-before) is refused with exit 10, in a clone made before the attack and in one made
after it, with the local state unchanged."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from catalogctl.run.check import read_resolved
from catalogctl.run.integrity import verify_config
from tests.helpers import git, run_cli
from tests.signing import allowed_signers, fingerprint, make_key, retag

COHORT = "2026-09-C0"
HINT = "do not run it: ask the maintainers for the signed release\n"


@pytest.fixture
def keys(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "keys"
    return {name: make_key(folder, name) for name in ("maint", "unknown", "revoked", "retired")}


@pytest.fixture
def trust(tmp_path: Path, keys: dict[str, Path]) -> list[str]:
    """The runner's flags: the allowed signers the maintainers published, and their revocations."""
    (tmp_path / "trust").mkdir()
    allowed = allowed_signers(
        tmp_path / "trust" / "allowed_signers",
        ("maint@example.org", keys["maint"], ""),
        ("old@example.org", keys["revoked"], ""),
        ("retired@example.org", keys["retired"], 'valid-before="20260801"'),
    )
    revoked = tmp_path / "trust" / "revoked.krl"
    subprocess.run(["ssh-keygen", "-q", "-k", "-f", str(revoked), str(keys["revoked"]) + ".pub"], check=True)
    return ["--require-signature", "--allowed-signers", str(allowed), "--revocation-list", str(revoked)]


@pytest.fixture
def origin(release: Path, keys: dict[str, Path], tmp_path: Path) -> Path:
    """The bare remote, its release tag signed by the maintainer (`git tag -s`)."""
    retag(release, COHORT, keys["maint"])
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


def test_a_signed_release_passes_and_the_signer_is_recorded(
    origin: Path, trust: list[str], keys: dict[str, Path], submission: Path, tmp_path: Path
) -> None:
    runner = clone(origin, tmp_path / "runner")
    done = run_cli("preflight", submission, "-C", runner, "--format", "json", *trust)
    provenance = json.loads(done.stdout)["provenance"]
    assert provenance["signer"] == {"principal": "maint@example.org", "key_fingerprint": fingerprint(keys["maint"])}
    assert provenance["remote"]["verified"]
    offline = run_cli("preflight", submission, "-C", runner, "--format", "json", "--offline", *trust)
    assert json.loads(offline.stdout)["provenance"]["signer"]["principal"] == "maint@example.org"
    written = tmp_path / "resolved.yaml"
    run_cli("preflight", submission, "-C", runner, "-o", written, *trust)
    config, data = read_resolved(written)
    verify_config(config, str(written), data)  # the seal holds over the signer, as `check` proves it
    assert config.provenance.signer is not None
    assert config.provenance.signer.principal == "maint@example.org"
    unsigned = run_cli("preflight", submission, "-C", runner, "--format", "json")  # nothing asks: not checked
    assert "signer" not in json.loads(unsigned.stdout)["provenance"]


ATTACKS = {
    "unsigned": (None, "2026-08-28T12:00:00Z", "tag `2026-09-C0` is not signed"),
    "unknown": (
        "unknown",
        "2026-08-28T12:00:00Z",
        "tag `2026-09-C0` is signed by key {unknown}, which is not in the allowed-signers file {allowed}",
    ),
    "revoked": (
        "revoked",
        "2026-08-28T12:00:00Z",
        "tag `2026-09-C0` is signed by key {revoked} of old@example.org, which is revoked ({krl})",
    ),
    "retired": (
        "retired",
        "2026-08-28T12:00:00Z",
        "tag `2026-09-C0` was signed at 2026-08-28T12:00:00+00:00 by key {retired}, outside the key's validity: "
        "key has expired: verify time 2026-08-28T12:00:00 > valid-before 2026-08-01T00:00:00",
    ),
}
HINTS = {"unknown": "a key the maintainers did not publish: ", "retired": "a retired key signs no new release: "}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_a_tag_replaced_on_the_remote_is_refused(
    attack: str,
    origin: Path,
    trust: list[str],
    keys: dict[str, Path],
    submission: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TZ", "UTC")  # ssh-keygen shows the times of its messages in local time
    before = clone(origin, tmp_path / "before")  # a runner's clone made before the attack
    signed = git(before, "rev-parse", f"refs/tags/{COHORT}")
    key, date, message = ATTACKS[attack]
    attacker = clone(origin, tmp_path / "attacker")
    forged = retag(attacker, COHORT, keys[key] if key else None, date)
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
    words = {name: fingerprint(k) for name, k in keys.items()}
    expected = message.format(allowed=trust[2], krl=trust[4], **words)
    assert result.stderr == f"error [signature-invalid]: {expected}\nhint: {HINTS.get(attack, '')}{HINT}"
    assert snapshot(after) == state
    assert not output.exists()
