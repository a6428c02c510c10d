"""The only place OpenSSH's `ssh-keygen` is run: SSH signatures of git tag objects, made as
`git tag -s` makes them with `gpg.format=ssh` (`-Y sign -n git`), and checked as `git tag -v`
checks them (`-Y find-principals`, then `-Y verify -n git`), honouring the allowed-signers file's
`valid-after`/`valid-before` at the signing time and a revocation list.

The cryptography is ssh-keygen's; this module only splits a tag object as git does and tells
apart, by asking ssh-keygen again, why a signature fails.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from catalogctl.errors import EnvironmentProblem
from catalogctl.io import bounded as bounded_run

NAMESPACE = "git"  # what git signs tags and commits under
_LITERAL = "key::"  # git's form of user.signingKey that holds the public key itself

SignatureKind = Literal["ssh", "gpg", "x509"]
# The first line of each signature kind git appends to a tag's message (gpg-interface.c).
_BEGINS: dict[bytes, SignatureKind] = {
    b"-----BEGIN SSH SIGNATURE-----": "ssh",
    b"-----BEGIN PGP SIGNATURE-----": "gpg",
    b"-----BEGIN PGP MESSAGE-----": "gpg",
    b"-----BEGIN SIGNED MESSAGE-----": "x509",
}
# The line that closes each block: the BEGIN line with END for BEGIN.
_ENDS = {begin: begin.replace(b"BEGIN", b"END", 1) for begin in _BEGINS}

Outcome = Literal["good", "bad", "unknown-key", "expired", "revoked"]

_FINGERPRINT = re.compile(r" key (SHA256:[A-Za-z0-9+/=]+)")
_TIME_LIMIT = re.compile(r"key (has expired|is not yet valid): [^\r\n]*")


@dataclass(frozen=True)
class Signed:
    """A tag object split as git splits it: the signed payload and the armored signature."""

    payload: bytes
    signature: bytes
    kind: SignatureKind | None  # None: not signed
    trailing: int | None = 0  # bytes after the block's END line and its newline; None: no END line

    @property
    def layout_problem(self) -> str | None:
        """Why the object is not exactly payload + one armored block (+ a final newline), as git
        writes it; None when it is (or it is unsigned). A verifier reads the armor and ignores the
        rest, so anything after it is unsigned text in a signed-looking tag."""
        if self.kind is None:
            return None
        if self.trailing is None:
            return "its signature has no END line of its own"
        if self.trailing:
            plural = "s follow" if self.trailing != 1 else " follows"
            return f"{self.trailing} byte{plural} its END line, signed by no one"
        return None


@dataclass(frozen=True)
class Checked:
    """What ssh-keygen says of one SSH signature against an allowed-signers file."""

    outcome: Outcome
    principal: str | None
    fingerprint: str | None
    detail: str  # ssh-keygen's own words on a failure


def split(raw: bytes) -> Signed:
    """Payload and signature of a tag object: the signature starts at the last line that opens a
    signature block (as git's `parse_signed_buffer` reads it); none, and it is unsigned."""
    start = None
    offset = 0
    for line in raw.split(b"\n"):  # git's lines end at "\n" only: a "\r" starts none
        if any(line.startswith(begin) for begin in _BEGINS):
            start = offset
        offset += len(line) + 1
    if start is None:
        return Signed(raw, b"", None)
    signature = raw[start:]
    begin, kind = next((b, k) for b, k in _BEGINS.items() if signature.startswith(b))
    return Signed(raw[:start], signature, kind, _after_end(signature, _ENDS[begin]))


def _after_end(block: bytes, end: bytes) -> int | None:
    """How many bytes follow the END line (and its one newline) of an armored block; None when no
    line is exactly its END line (a verifier may still find one in, e.g., "END\r")."""
    lines = block.split(b"\n")
    for number, line in enumerate(lines):
        if line == end:
            rest = b"\n".join(lines[number + 1 :])
            return len(rest)
    return None


def verify_time(when: dt.datetime) -> str:
    """The moment as ssh-keygen's `-Overify-time=` takes it, in UTC (the `Z` suffix)."""
    return when.astimezone(dt.UTC).strftime("%Y%m%d%H%M%SZ")


def _keygen(purpose: str = "checked") -> str:
    """The path of ssh-keygen; its absence is an environment problem, never a pass."""
    found = shutil.which("ssh-keygen")
    if found is None:
        raise EnvironmentProblem(
            f"ssh-keygen is not installed: SSH signatures cannot be {purpose}",
            "install OpenSSH's client (apt-get install openssh-client)",
        )
    return found


ENV_TIMEOUT = "CATALOGCTL_SSH_TIMEOUT"


def _run(args: list[str], payload: bytes | None = None, bounded: bool = True) -> tuple[int, str, str]:
    """ssh-keygen with `args`, `payload` on its stdin; exit status, stdout and stderr. `bounded`,
    it runs in a session of its own and is killed with its children when it does not answer in
    time; unbounded, it keeps the terminal (a passphrase prompt) and may take as long as it needs."""
    timeout = bounded_run.seconds_from(ENV_TIMEOUT) if bounded else None
    keygen = _keygen("made" if args[:2] in (["-Y", "sign"], ["-l", "-E"]) else "checked")
    stalled = bounded_run.Stalled(
        "ssh-keygen",
        "a signing key whose agent never answers, or a passphrase asked where no one can type it: "
        f"ssh-add the key, or raise {ENV_TIMEOUT} (seconds)",
        f" (ssh-keygen {' '.join(args[:2])})",
    )
    return bounded_run.run([keygen, *args], payload if payload is not None else b"", timeout, stalled)


def _first_line(text: str, default: str) -> str:
    """The first non-empty line of ssh-keygen's words, for a message."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if lines else default


def _verify(sig: Path, payload: bytes, allowed: Path, principal: str, when: str, revoked: Path | None) -> bool:
    """`ssh-keygen -Y verify` as git runs it; true when the signature is good."""
    args = ["-Y", "verify", "-n", NAMESPACE, "-f", str(allowed), "-I", principal, "-s", str(sig)]
    args += [f"-Overify-time={when}"] + (["-r", str(revoked)] if revoked is not None else [])
    return _run(args, payload)[0] == 0


def check(signed: Signed, allowed: Path, revoked: Path | None, signed_at: dt.datetime) -> Checked:
    """Check an SSH signature as `git tag -v` does, at the signing time, and say why it fails:
    bad (not a signature of this payload in namespace git), unknown-key (no principal of the
    allowed signers has the key), expired (a principal has it, but not at the signing time),
    revoked (good, but the key is in the revocation list)."""
    when = verify_time(signed_at)
    with tempfile.TemporaryDirectory(prefix="catalogctl-sig-") as folder:
        sig = Path(folder) / "tag.sig"
        sig.write_bytes(signed.signature)
        code, out, err = _run(["-Y", "check-novalidate", "-n", NAMESPACE, "-s", str(sig)], signed.payload)
        found = _FINGERPRINT.search(out)
        if code != 0 or found is None:
            return Checked("bad", None, None, _first_line(err, "the signature does not match the tag"))
        fingerprint = found.group(1)
        code, out, err = _run(
            ["-Y", "find-principals", "-f", str(allowed), "-s", str(sig), f"-Overify-time={when}"], signed.payload
        )
        principals = [line.strip() for line in out.splitlines() if line.strip()] if code == 0 else []
        if not principals:
            limit = _TIME_LIMIT.search(err)
            if limit is not None:
                return Checked("expired", None, fingerprint, limit.group(0))
            return Checked("unknown-key", None, fingerprint, f"no principal in {allowed} has this key")
        for principal in principals:
            if _verify(sig, signed.payload, allowed, principal, when, revoked):
                return Checked("good", principal, fingerprint, "")
        if revoked is not None and any(_verify(sig, signed.payload, allowed, p, when, None) for p in principals):
            _require_readable(revoked)  # a list ssh-keygen cannot read fails every signature: not "revoked"
            return Checked("revoked", principals[0], fingerprint, f"the key is in the revocation list {revoked}")
        return Checked("bad", principals[0], fingerprint, f"ssh-keygen refuses it for {', '.join(principals)}")


_KRL_MAGIC = b"SSHKRL\n\0"


def _require_readable(revoked: Path) -> None:
    """A revocation list as ssh-keygen's `-r` takes it: a KRL, or a file of public keys."""
    is_krl = revoked.read_bytes().startswith(_KRL_MAGIC)
    code = _run(["-Q", "-l", "-f", str(revoked)] if is_krl else ["-l", "-f", str(revoked)])[0]
    if code != 0:
        what = "a KRL ssh-keygen cannot read" if is_krl else "neither a KRL nor a file of public keys"
        raise EnvironmentProblem(
            f"the revocation list {revoked} cannot be read: it is {what}",
            "pass a KRL made by ssh-keygen -k, or a file of public keys (--revocation-list FILE)",
        )


def fingerprint(signed: Signed) -> str | None:
    """The key fingerprint of an SSH signature that matches its payload, trusted or not; None when
    it does not match."""
    with tempfile.TemporaryDirectory(prefix="catalogctl-sig-") as folder:
        sig = Path(folder) / "tag.sig"
        sig.write_bytes(signed.signature)
        code, out, _ = _run(["-Y", "check-novalidate", "-n", NAMESPACE, "-s", str(sig)], signed.payload)
    found = _FINGERPRINT.search(out)
    return found.group(1) if code == 0 and found else None


def _why(code: int, err: str) -> str:
    """ssh-keygen's own reason, without its progress line."""
    lines = [line for line in err.splitlines() if line.strip()]
    lines = [line for line in lines if not line.startswith("Signing data on standard input")]
    return "; ".join(lines) or f"ssh-keygen exited with {code}"


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
        code, out, err = _run(["-l", "-E", "sha256", "-f", str(_key_file(key, Path(folder)))])
    if code != 0:
        raise EnvironmentProblem(f"cannot read the signing key {key}: {_why(code, err)}", "pass another --signing-key")
    return out.split()[1]


def sign(payload: bytes, key: str) -> bytes:
    """The armored SSH signature of `payload` in namespace "git", made by `ssh-keygen -Y sign`
    with `key` (a private key file, a public key file or `key::` literal whose private key is in
    ssh-agent); a key that cannot sign is an `EnvironmentProblem` with ssh-keygen's reason. On a
    terminal, no timeout: ssh-keygen may be asking for a passphrase there."""
    on_terminal = sys.stdin is not None and sys.stdin.isatty()
    with tempfile.TemporaryDirectory(prefix="catalogctl-sign-") as folder:
        args = ["-Y", "sign", "-n", NAMESPACE, "-f", str(_key_file(key, Path(folder)))]
        code, out, err = _run(args, payload, bounded=not on_terminal)
    if code != 0 or not out.startswith("-----BEGIN SSH SIGNATURE-----"):
        raise EnvironmentProblem(
            f"ssh-keygen could not sign with {key}: {_why(code, err)}",
            "a public key signs only when its private key is in ssh-agent (ssh-add); an encrypted key needs "
            "its passphrase (ssh-add it, or run in a terminal)",
        )
    return out.encode("ascii")
