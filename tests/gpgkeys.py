"""Real OpenPGP keys (`gpg`, ed25519) in a temporary GnuPG home, public keyring files, and release
tags re-signed by `git tag -s` with `gpg.format=openpgp`."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers import git
from tests.signing import tag_message

_QUIET = ["--batch", "--pinentry-mode", "loopback", "--passphrase", ""]


@dataclass(frozen=True)
class GpgHome:
    """A GnuPG home of its own (short path: gpg-agent's socket lives there)."""

    path: Path

    def gpg(self, *args: str, stdin: bytes | None = None) -> bytes:
        """`gpg ARGS` in this home; its stdout."""
        done = subprocess.run(["gpg", "--homedir", str(self.path), *args], input=stdin, capture_output=True, check=True)
        return done.stdout

    def make_key(self, uid: str, expires: str = "1y", at: str | None = None) -> str:
        """A new ed25519 signing key for `uid` (made at the faked time `at` when given); its fingerprint."""
        faked = ["--faked-system-time", at] if at else []
        self.gpg(*_QUIET, *faked, "--quick-generate-key", uid, "ed25519", "sign", expires)
        return self.fingerprint(uid)

    def fingerprint(self, uid: str) -> str:
        """The primary key fingerprint of `uid`."""
        records = self.gpg("--with-colons", "--list-keys", uid).decode().splitlines()
        return next(line.split(":")[9] for line in records if line.startswith("fpr:"))

    def export(self, path: Path, *fingerprints: str, revoked: tuple[str, ...] = ()) -> Path:
        """The public keys `fingerprints` in `path`, those `revoked` with the revocation certificate
        gpg made with them (the secret keys here stay usable: a leaked key signs on)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        public = self.gpg("--export", *fingerprints)
        if revoked:
            with tempfile.TemporaryDirectory(prefix="gpg-", dir="/tmp") as folder:
                publisher = GpgHome(Path(folder))
                publisher.gpg("--batch", "--import", stdin=public)
                for fingerprint in revoked:
                    stored = (self.path / "openpgp-revocs.d" / f"{fingerprint}.rev").read_text()
                    certificate = stored.replace(":-----BEGIN", "-----BEGIN")  # gpg guards it against a slip
                    publisher.gpg("--batch", "--import", stdin=certificate.encode())
                public = publisher.gpg("--export", *fingerprints)
                subprocess.run(["gpgconf", "--homedir", folder, "--kill", "all"], check=False, capture_output=True)
        path.write_bytes(public)
        return path

    def program_at(self, when: str) -> Path:
        """A gpg.program that runs gpg at the faked time `when` (to sign with a key since expired)."""
        script = self.path / f"gpg-at-{when.rstrip('!')}"
        script.write_text(f'#!/bin/sh\nexec gpg --faked-system-time {when} "$@"\n')
        script.chmod(0o755)
        return script


@contextlib.contextmanager
def gpg_home(monkeypatch: pytest.MonkeyPatch) -> Iterator[GpgHome]:
    """A GnuPG home of its own, the environment's GNUPGHOME; its gpg-agent is stopped afterwards."""
    gpgconf = shutil.which("gpgconf") or "gpgconf"  # before a test empties PATH
    folder = Path(tempfile.mkdtemp(prefix="gpg-"))
    folder.chmod(0o700)
    monkeypatch.setenv("GNUPGHOME", str(folder))
    try:
        yield GpgHome(folder)
    finally:
        subprocess.run([gpgconf, "--homedir", str(folder), "--kill", "all"], check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def retag_gpg(repo: Path, tag: str, key: str, program: Path | None = None, date: str = "2026-08-28T12:00:00Z") -> str:
    """Replace `tag` by one at the same commit with the same message, signed by the gpg key `key`
    with `git tag -s` (gpg.format=openpgp; `program` as gpg.program); returns the new tag object."""
    message = repo / ".git" / "TAG_MESSAGE_FOR_TEST"
    message.write_text(tag_message(repo, tag))
    commit = git(repo, "rev-parse", f"{tag}^{{commit}}")
    config = ["-c", "gpg.format=openpgp", "-c", f"user.signingKey={key}"]
    config += ["-c", f"gpg.program={program}"] if program else []
    subprocess.run(
        ["git", *config, "tag", "-f", "-s", "--cleanup=verbatim", "-F", str(message), tag, commit],
        cwd=repo,
        check=True,
        capture_output=True,
        env={**os.environ, "GIT_COMMITTER_DATE": date},
    )
    message.unlink()
    return git(repo, "rev-parse", tag)
