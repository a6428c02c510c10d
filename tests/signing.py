"""Real SSH keys (`ssh-keygen`), allowed-signers files, and release tags re-signed by `git tag -s`."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.helpers import git

EMAIL = "tester@example.invalid"  # the identity the sealed test environment commits as


def make_key(folder: Path, name: str = "maintainer", passphrase: str = "") -> Path:
    """A new ed25519 key pair `folder/name` (and `.pub`), with `passphrase` (none by default)."""
    folder.mkdir(parents=True, exist_ok=True)
    key = folder / name
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", passphrase, "-C", name, "-f", str(key)],
        check=True,
        capture_output=True,
    )
    return key


def public(key: Path) -> str:
    """The public half of `key`, one line."""
    return key.with_name(key.name + ".pub").read_text().strip()


def fingerprint(key: Path) -> str:
    """The SHA256 fingerprint of `key`, as ssh-keygen prints it."""
    done = subprocess.run(["ssh-keygen", "-lf", str(key)], check=True, capture_output=True, text=True)
    return done.stdout.split()[1]


def allowed_signers(path: Path, *entries: tuple[str, Path, str]) -> Path:
    """An allowed-signers file: each entry a principal, a key, and options (e.g. valid-before)."""
    lines = []
    for principal, key, options in entries:
        opts = 'namespaces="git"' + (f",{options}" if options else "")
        lines.append(f"{principal} {opts} {public(key)}")
    path.write_text("\n".join(lines) + "\n")
    return path


def trusting(folder: Path, *keys: Path) -> Path:
    """`folder/allowed_signers` naming each key's public half for the test environment's identity."""
    return allowed_signers(folder / "allowed_signers", *((EMAIL, key, "") for key in keys))


def tag_message(repo: Path, tag: str) -> str:
    """The message of an annotated tag, without a signature."""
    raw = git(repo, "cat-file", "tag", tag) + "\n"
    message = raw.split("\n\n", 1)[1]
    return message.split("-----BEGIN ", 1)[0]


def retag(repo: Path, tag: str, key: Path | None, date: str | None = "2026-08-28T12:00:00Z") -> str:
    """Replace `tag` by one at the same commit with the same message, signed by `key` with
    `git tag -s` (unsigned when None), its tagger date `date` (None: now); returns the new tag object."""
    message = repo / ".git" / "TAG_MESSAGE_FOR_TEST"
    message.write_text(tag_message(repo, tag))
    commit = git(repo, "rev-parse", f"{tag}^{{commit}}")
    sign = ["-c", "gpg.format=ssh", "-c", f"user.signingKey={key}"] if key else []
    how = ["-s"] if key else ["-a"]
    env = {**os.environ, **({"GIT_COMMITTER_DATE": date} if date else {})}
    subprocess.run(
        ["git", *sign, "tag", "-f", *how, "--cleanup=verbatim", "-F", str(message), tag, commit],
        cwd=repo,
        check=True,
        capture_output=True,
        env=env,
    )
    message.unlink()
    return git(repo, "rev-parse", tag)
