"""Real SSH keys for signing tests, made by ssh-keygen in a temporary folder."""

from __future__ import annotations

import subprocess
from pathlib import Path

EMAIL = "tester@example.invalid"  # the identity the sealed test environment commits as


def make_key(folder: Path, name: str = "maintainer", passphrase: str = "") -> Path:
    """A real ed25519 key pair made by ssh-keygen; returns the private key's path."""
    folder.mkdir(parents=True, exist_ok=True)
    key = folder / name
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", passphrase, "-C", name, "-f", str(key)],
        check=True,
        capture_output=True,
    )
    return key


def fingerprint(key: Path) -> str:
    done = subprocess.run(["ssh-keygen", "-l", "-f", str(key)], check=True, capture_output=True, text=True)
    return done.stdout.split()[1]


def allowed_signers(folder: Path, *keys: Path) -> Path:
    """An allowed-signers file (outside any repository) naming each key's public half."""
    path = folder / "allowed_signers"
    lines = [f'{EMAIL} namespaces="git" {Path(f"{k}.pub").read_text().strip()}' for k in keys]
    path.write_text("\n".join(lines) + "\n")
    return path
