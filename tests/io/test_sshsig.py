"""SSH signatures of tag objects through the real ssh-keygen: split as git splits them, and each
way a signature fails told apart."""

from __future__ import annotations

import datetime as dt
import io
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from catalogctl.errors import EnvironmentProblem
from catalogctl.io import sshsig
from tests.signing import allowed_signers, fingerprint, make_key

PAYLOAD = b"object 0123\ntype commit\ntag X\ntagger A <a@x> 1787918400 +0000\n\nCohort X\n"
SIGNED_AT = dt.datetime(2026, 8, 28, 12, 0, tzinfo=dt.UTC)


def signed_by(key: Path, payload: bytes = PAYLOAD) -> sshsig.Signed:
    """`payload` with the signature `ssh-keygen -Y sign -n git` makes, as git appends it."""
    done = subprocess.run(
        ["ssh-keygen", "-q", "-Y", "sign", "-n", "git", "-f", str(key)], input=payload, capture_output=True, check=True
    )
    return sshsig.split(payload + done.stdout)


def test_split_finds_the_last_signature_block_and_its_kind() -> None:
    assert sshsig.split(PAYLOAD) == sshsig.Signed(PAYLOAD, b"", None)
    pgp = b"-----BEGIN PGP SIGNATURE-----\nabc\n-----END PGP SIGNATURE-----\n"
    assert sshsig.split(PAYLOAD + pgp) == sshsig.Signed(PAYLOAD, pgp, "gpg")
    ssh = b"-----BEGIN SSH SIGNATURE-----\nabc\n-----END SSH SIGNATURE-----\n"
    quoted = PAYLOAD + b"-----BEGIN SSH SIGNATURE----- quoted in a message\n"
    assert sshsig.split(quoted + ssh) == sshsig.Signed(quoted, ssh, "ssh")


def test_verify_time_is_utc() -> None:
    plus_two = dt.datetime(2026, 8, 28, 14, 0, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    assert sshsig.verify_time(plus_two) == "20260828120000Z"


def test_each_outcome(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC")  # ssh-keygen shows the times of its messages in local time
    good, other, retired = (make_key(tmp_path, n) for n in ("good", "other", "retired"))
    allowed = allowed_signers(
        tmp_path / "allowed",
        ("good@example.org", good, ""),
        ("retired@example.org", retired, 'valid-before="20260801"'),
    )
    revoked = tmp_path / "revoked"
    subprocess.run(["ssh-keygen", "-q", "-k", "-f", str(revoked), str(good) + ".pub"], check=True)
    key = fingerprint(good)
    assert sshsig.check(signed_by(good), allowed, None, SIGNED_AT) == sshsig.Checked(
        "good", "good@example.org", key, ""
    )
    assert sshsig.fingerprint(signed_by(good)) == key
    assert sshsig.check(signed_by(good), allowed, revoked, SIGNED_AT) == sshsig.Checked(
        "revoked", "good@example.org", key, f"the key is in the revocation list {revoked}"
    )
    assert sshsig.check(signed_by(other), allowed, None, SIGNED_AT) == sshsig.Checked(
        "unknown-key", None, fingerprint(other), f"no principal in {allowed} has this key"
    )
    expired = sshsig.check(signed_by(retired), allowed, None, SIGNED_AT)
    assert (expired.outcome, expired.fingerprint) == ("expired", fingerprint(retired))
    assert expired.detail == "key has expired: verify time 2026-08-28T12:00:00 > valid-before 2026-08-01T00:00:00"
    before = sshsig.check(signed_by(retired), allowed, None, dt.datetime(2026, 7, 1, tzinfo=dt.UTC))
    assert before.outcome == "good"
    forged = sshsig.Signed(PAYLOAD.replace(b"Cohort X", b"Cohort Y"), signed_by(good).signature, "ssh")
    bad = sshsig.check(forged, allowed, None, SIGNED_AT)
    assert (bad.outcome, bad.principal) == ("bad", None)
    assert sshsig.fingerprint(forged) is None


def test_a_signature_in_another_namespace_is_bad(tmp_path: Path) -> None:
    key = make_key(tmp_path, "good")
    allowed = allowed_signers(tmp_path / "allowed", ("good@example.org", key, ""))
    done = subprocess.run(
        ["ssh-keygen", "-q", "-Y", "sign", "-n", "file", "-f", str(key)], input=PAYLOAD, capture_output=True, check=True
    )
    checked = sshsig.check(sshsig.split(PAYLOAD + done.stdout), allowed, None, SIGNED_AT)
    assert (checked.outcome, checked.detail) == ("bad", "Couldn't verify signature: namespace does not match")


def test_a_missing_ssh_keygen_is_an_environment_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(EnvironmentProblem, match="ssh-keygen is not installed"):
        sshsig.fingerprint(sshsig.Signed(PAYLOAD, b"-----BEGIN SSH SIGNATURE-----\n", "ssh"))


def hanging_keygen(folder: Path, monkeypatch: pytest.MonkeyPatch, only: str = "") -> Path:
    """A `ssh-keygen` first on PATH that never answers (when its arguments hold `only`; otherwise
    the real one answers): it starts a child that sleeps, whose pid it writes to `folder/child`."""
    real = shutil.which("ssh-keygen")
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "ssh-keygen"
    script.write_text(
        f'#!/bin/sh\ncase "$*" in *"{only}"*) sleep 300 & echo $! > "{folder}/child"; wait ;; esac\nexec {real} "$@"\n'
    )
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("CATALOGCTL_SSH_TIMEOUT", "0.5")
    return folder / "child"


def gone(pid: int) -> bool:
    """Whether process `pid` has ended (a zombie no one reaps has ended too)."""
    stat = Path(f"/proc/{pid}/stat")
    for _ in range(100):  # SIGKILL is delivered asynchronously: look again for a moment
        if not stat.exists() or stat.read_text().split(")")[-1].split()[0] == "Z":
            return True
        time.sleep(0.05)
    return False


def test_a_hanging_ssh_keygen_is_an_environment_problem_and_its_children_are_killed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = make_key(tmp_path / "keys")
    signed = signed_by(key)
    child = hanging_keygen(tmp_path / "bin", monkeypatch)
    with pytest.raises(EnvironmentProblem) as caught:
        sshsig.fingerprint(signed)
    assert str(caught.value) == "ssh-keygen did not answer within 0.5 s (ssh-keygen -Y check-novalidate): stopped it"
    assert caught.value.hint == (
        "a signing key whose agent never answers, or a passphrase asked where no one can type it: "
        "ssh-add the key, or raise CATALOGCTL_SSH_TIMEOUT (seconds)"
    )
    assert gone(int(child.read_text()))


def test_signing_times_out_when_no_terminal_can_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key = make_key(tmp_path / "keys")
    child = hanging_keygen(tmp_path / "bin", monkeypatch, only="-Y sign")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # not a terminal
    with pytest.raises(EnvironmentProblem) as caught:
        sshsig.sign(PAYLOAD, str(key))
    assert str(caught.value) == "ssh-keygen did not answer within 0.5 s (ssh-keygen -Y sign): stopped it"
    assert gone(int(child.read_text()))


def test_a_timeout_that_is_not_a_number_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CATALOGCTL_SSH_TIMEOUT", "soon")
    with pytest.raises(EnvironmentProblem) as caught:
        sshsig.fingerprint(sshsig.split(PAYLOAD))
    assert str(caught.value) == "CATALOGCTL_SSH_TIMEOUT is 'soon': not a number of seconds"


def test_split_breaks_lines_at_newlines_only() -> None:
    """git splits a tag object at `\\n`: a signature block after a `\\r` only is part of the message."""
    hidden = PAYLOAD + b"note\r-----BEGIN SSH SIGNATURE-----\nabc\n-----END SSH SIGNATURE-----\n"
    assert sshsig.split(hidden) == sshsig.Signed(hidden, b"", None)


def test_signing_without_ssh_keygen_says_it_is_not_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(EnvironmentProblem) as caught:
        sshsig.key_fingerprint("key::ssh-ed25519 AAAA")
    assert str(caught.value) == "ssh-keygen is not installed: SSH signatures cannot be made"
    assert caught.value.hint == "install OpenSSH's client (apt-get install openssh-client)"


def test_split_measures_what_follows_the_armor() -> None:
    """A verifier reads the armored block and ignores the rest: what follows is signed by no one."""
    ssh = b"-----BEGIN SSH SIGNATURE-----\nabc\n-----END SSH SIGNATURE-----"
    assert [sshsig.split(PAYLOAD + ssh + tail).layout_problem for tail in (b"", b"\n")] == [None, None]
    assert sshsig.split(PAYLOAD + ssh + b"\n\n").layout_problem == "1 byte follows its END line, signed by no one"
    no_end = sshsig.split(PAYLOAD + ssh.replace(b"SIGNATURE-----", b"SIGNATURE-----\r") + b"\n")
    assert no_end.layout_problem == "its signature has no END line of its own"
    assert sshsig.split(PAYLOAD).layout_problem is None
