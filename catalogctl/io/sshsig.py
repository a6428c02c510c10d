"""The only place OpenSSH's `ssh-keygen` is run: SSH signatures (`-Y sign`, namespace "git") as
`git tag -s` makes them with `gpg.format=ssh`, and what they say about their signer.

catalogctl never builds or parses a signature itself: every cryptographic step is ssh-keygen's.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from catalogctl.errors import EnvironmentProblem

SSH_KEYGEN = "ssh-keygen"
NAMESPACE = "git"  # git signs and verifies tags and commits in this namespace
SIGNATURE_START = b"-----BEGIN SSH SIGNATURE-----"
_LITERAL = "key::"  # git's form of user.signingKey that holds the public key itself


def _run(args: list[str], data: bytes) -> subprocess.CompletedProcess[bytes]:
    """ssh-keygen with `data` on stdin (a passphrase prompt, if any, goes to the terminal)."""
    try:
        return subprocess.run([SSH_KEYGEN, *args], input=data, capture_output=True, check=False)
    except FileNotFoundError:
        raise EnvironmentProblem(
            "ssh-keygen is not installed: catalogctl signs with OpenSSH's ssh-keygen",
            "install OpenSSH's client (apt-get install openssh-client)",
        ) from None


def _why(done: subprocess.CompletedProcess[bytes]) -> str:
    """ssh-keygen's own reason, without its progress line."""
    lines = [line for line in done.stderr.decode(errors="replace").splitlines() if line.strip()]
    lines = [line for line in lines if not line.startswith("Signing data on standard input")]
    return "; ".join(lines) or f"ssh-keygen exited with {done.returncode}"


def _key_file(key: str, folder: Path) -> Path:
    """The file ssh-keygen's -f takes for `key`: a path (`~` expanded), or a `key::` literal
    written to a file in `folder` (its private half is then in the agent)."""
    if key.startswith(_LITERAL):
        literal = folder / "key.pub"
        literal.write_text(key.removeprefix(_LITERAL).strip() + "\n", encoding="utf-8")
        return literal
    path = Path(os.path.expanduser(key))
    if not path.is_file():
        raise EnvironmentProblem(
            f"cannot sign with {key}: no such file",
            "pass --signing-key PATH (a private key, or a public key whose private key is in ssh-agent), "
            "or set git config user.signingKey",
        )
    return path


def key_fingerprint(key: str) -> str:
    """The SHA256 fingerprint of a signing key (a path or a `key::` literal), as `ssh-keygen -l`
    prints it; a key it cannot read is an `EnvironmentProblem`."""
    with tempfile.TemporaryDirectory(prefix="catalogctl-key-") as folder:
        done = _run(["-l", "-E", "sha256", "-f", str(_key_file(key, Path(folder)))], b"")
    if done.returncode != 0:
        raise EnvironmentProblem(f"cannot read the signing key {key}: {_why(done)}", "pass another --signing-key")
    return done.stdout.decode().split()[1]


def signer_fingerprint(payload: bytes, signature: bytes) -> str | None:
    """The fingerprint of the key that made `signature` over `payload`, when the signature is
    cryptographically good (`-Y check-novalidate`: no allowed-signers file, so no trust); None
    when it is not."""
    with tempfile.TemporaryDirectory(prefix="catalogctl-sig-") as folder:
        sig = Path(folder) / "payload.sig"
        sig.write_bytes(signature)
        done = _run(["-Y", "check-novalidate", "-n", NAMESPACE, "-s", str(sig)], payload)
    words = done.stdout.decode(errors="replace").split()
    if done.returncode != 0 or "key" not in words or words.index("key") + 1 >= len(words):
        return None
    return words[words.index("key") + 1]


def sign(payload: bytes, key: str) -> bytes:
    """The armored SSH signature of `payload` in namespace "git", made by `ssh-keygen -Y sign`
    with `key` (a private key file, a public key file or `key::` literal whose private key is in
    ssh-agent); a key that cannot sign is an `EnvironmentProblem` with ssh-keygen's reason."""
    with tempfile.TemporaryDirectory(prefix="catalogctl-sign-") as folder:
        done = _run(["-Y", "sign", "-n", NAMESPACE, "-f", str(_key_file(key, Path(folder)))], payload)
    if done.returncode != 0 or not done.stdout.startswith(SIGNATURE_START):
        raise EnvironmentProblem(
            f"ssh-keygen could not sign with {key}: {_why(done)}",
            "a public key signs only when its private key is in ssh-agent (ssh-add); an encrypted key needs "
            "its passphrase (ssh-add it, or run in a terminal)",
        )
    return done.stdout
