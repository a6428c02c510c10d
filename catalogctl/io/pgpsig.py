"""The only place GnuPG is run: OpenPGP signatures of git tag objects, made as `git tag -s` makes
them with `gpg.format=openpgp` (`gpg --status-fd=2 -bsau KEY`), and checked by `gpgv` (GnuPG's
verify-only tool) against a public keyring file the caller trusts.

Verification runs in a temporary GnuPG home, so that the user's own keyring and trust database
never decide; every key of the keyring file is trusted, none other. The cryptography is GnuPG's;
this module only reads its machine-readable status lines (doc/DETAILS in GnuPG's sources).
"""

from __future__ import annotations

import base64
import binascii
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
from catalogctl.io.sshsig import Signed

ARMOR = b"-----BEGIN PGP SIGNATURE-----"
_SIGNATURE_PACKET = 2  # RFC 4880, 5.2  # a detached signature; git's other PGP armor is not one
_STATUS = "[GNUPG:] "
_INSTALL = "install GnuPG (apt-get install gnupg; it brings gpgv)"

_ISSUER = (
    re.compile(r"\(issuer fpr v\d+ ([0-9A-F]+)\)"),
    re.compile(r":signature packet: algo \d+, keyid ([0-9A-F]+)"),
)

Outcome = Literal["good", "bad", "unknown-key", "expired", "revoked"]


@dataclass(frozen=True)
class Checked:
    """What gpgv says of one OpenPGP signature against a keyring file."""

    outcome: Outcome
    principal: str | None  # the key's user id, as GOODSIG names it
    fingerprint: str | None  # the primary key's fingerprint
    detail: str  # why it fails, in gpgv's terms


ENV_TIMEOUT = "CATALOGCTL_GPG_TIMEOUT"


def _binary(program: str, purpose: str) -> str:
    """The path of `program` (a name on PATH or a path); its absence is an environment problem."""
    found = shutil.which(os.path.expanduser(program))
    if found is None:
        raise EnvironmentProblem(f"{program} is not installed: OpenPGP signatures cannot be {purpose}", _INSTALL)
    return found


def _run(
    argv: list[str], payload: bytes, env: dict[str, str] | None = None, bounded: bool = True
) -> tuple[int, str, str]:
    """`argv` with `payload` on its stdin; exit status, stdout and stderr. `bounded`, it runs in a
    session of its own and is killed with its children when it does not answer in time."""
    timeout = bounded_run.seconds_from(ENV_TIMEOUT) if bounded else None
    stalled = bounded_run.Stalled(
        Path(argv[0]).name,
        "a gpg-agent that never answers, or a passphrase asked where no one can type it: "
        f"unlock the key (gpg-agent), or raise {ENV_TIMEOUT} (seconds)",
    )
    return bounded_run.run(argv, payload, timeout, stalled, env)


def _statuses(text: str) -> list[list[str]]:
    """The `[GNUPG:]` status lines of `text`, each split into its keyword and arguments."""
    return [line[len(_STATUS) :].split(" ") for line in text.splitlines() if line.startswith(_STATUS)]


def _words(text: str, default: str) -> str:
    """GnuPG's own words (not its status lines), one line, for a message."""
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith(_STATUS)]
    return "; ".join(lines) or default


def _gpgv(signed: Signed, keyring: Path) -> tuple[list[list[str]], str]:
    """gpgv's status lines and words for `signed` against `keyring`, in a GnuPG home of its own."""
    gpgv = _binary("gpgv", "checked")
    with tempfile.TemporaryDirectory(prefix="catalogctl-gpg-") as home:
        sig = Path(home) / "tag.sig"
        sig.write_bytes(signed.signature)
        env = {**os.environ, "GNUPGHOME": home, "LC_ALL": "C", "LANGUAGE": ""}  # its words are read below
        # SHA-1 is refused as weak (collisions), as gpg does for keys but not by default for signatures
        argv = [gpgv, "--homedir", home, "--keyring", str(keyring), "--weak-digest", "SHA1", "--status-fd", "1"]
        argv += [str(sig), "-"]
        _, out, err = _run(argv, signed.payload, env)
    return _statuses(out), err


def _dearmored(signature: bytes) -> bytes | None:
    """The bytes an ASCII-armored block encodes (RFC 4880, 6.2: header lines, a blank line, base64,
    an optional `=` checksum line), or None when it is no armor base64 can decode."""
    lines = signature.decode("ascii", errors="replace").splitlines()[1:]
    try:
        body = lines[lines.index("") + 1 :] if ": " in (lines[0] if lines else "") else lines
        text = "".join(line for line in body if not line.startswith(("=", "-----END")))
        return base64.b64decode(text, validate=True)
    except (ValueError, binascii.Error):
        return None


def _new_format_length(rest: bytes) -> tuple[int, int] | None:
    """A new-format packet's body length and the octets of its length field (RFC 4880, 4.2.2);
    None for a partial or truncated length."""
    if rest and rest[0] < 192:
        return rest[0], 1
    if len(rest) > 1 and rest[0] < 224:
        return ((rest[0] - 192) << 8) + rest[1] + 192, 2
    if len(rest) > 4 and rest[0] == 255:
        return int.from_bytes(rest[1:5], "big"), 5
    return None


def _packet(data: bytes) -> tuple[int, int] | str:
    """The first packet's tag and total size (header and body), or why it has none."""
    first = data[0]
    if not first & 0x80:
        return "its first byte is no OpenPGP packet header"
    if first & 0x40:  # new format: the tag in the low six bits, then the length
        sized = _new_format_length(data[1:])
        if sized is None:
            return "its packet has a partial or truncated length"
        return first & 0x3F, 1 + sized[1] + sized[0]
    size = first & 0x03  # old format: the tag in bits 2-5, the length's octets in bits 0-1
    if size == 3:
        return "its packet has an indeterminate length"
    octets = 1 << size
    return (first >> 2) & 0x0F, 1 + octets + int.from_bytes(data[1 : 1 + octets], "big")


def packet_problem(signature: bytes) -> str | None:
    """Why an armored block is not exactly one signature packet, or None. gpgv skips marker and
    other packets around a good signature and unpacks compressed ones: a tag pusher could make
    another object that still verifies, or a block that expands without bound in gpg's output.
    Only the packet framing is read here (RFC 4880, 4.2); the signature itself is gpgv's."""
    data = _dearmored(signature)
    if not data:
        return "its armor is not base64"
    packet = _packet(data)
    if isinstance(packet, str):
        return packet
    tag, size = packet
    if tag != _SIGNATURE_PACKET:
        return f"it holds an OpenPGP packet of type {tag}, not a signature"
    if size != len(data):
        return "it holds more than the one signature packet"
    return None


def _refused_unread(signed: Signed) -> Checked | None:
    """A block refused before gpgv reads it: not a detached signature, or not one signature packet."""
    if not signed.signature.startswith(ARMOR):
        return Checked("bad", None, None, "a PGP message, not a detached signature")
    framing = packet_problem(signed.signature)
    if framing is not None:
        return Checked("bad", None, None, f"the signature block is not one signature: {framing}")
    return None


def check(signed: Signed, keyring: Path) -> Checked:
    """Check an OpenPGP signature with gpgv against the keys of `keyring` only, and say why it
    fails: bad (not a detached signature of this payload, or no signature gpgv can read),
    unknown-key (no key of the keyring made it), expired (the key, or the signature, has
    expired), revoked (the key is revoked in the keyring). A keyring gpgv cannot read (an armored
    export, not a keyring) is an `EnvironmentProblem`, never an unknown key."""
    refused = _refused_unread(signed)
    if refused is not None:
        return refused
    statuses, err = _gpgv(signed, keyring)
    unreadable = [line.strip() for line in err.splitlines() if "keydb_search failed" in line]
    if unreadable:  # gpgv then says NO_PUBKEY of every key: not "unknown", but no keyring at all
        raise EnvironmentProblem(
            f"the GPG keyring {keyring} cannot be read: gpgv finds no OpenPGP keys in it ({unreadable[0]})",
            "pass a binary keyring: gpg --export KEYID > keyring.gpg (an armored export: gpg --dearmor it)",
        )
    seen = {words[0]: words[1:] for words in statuses}
    if [words[0] for words in statuses].count("NEWSIG") > 1:
        return Checked("bad", None, None, "more than one signature in the block")
    valid = seen.get("VALIDSIG")
    if valid and len(valid) > 8 and valid[8] != "00":  # git signs in binary mode: a text-mode one
        return Checked("bad", None, None, "a text-mode signature (it also matches a CRLF copy of the tag)")
    fingerprint = (valid[9] if len(valid) > 9 else valid[0]) if valid else None
    user = next((" ".join(seen[k][1:]) for k in ("GOODSIG", "EXPKEYSIG", "EXPSIG", "REVKEYSIG") if k in seen), None)
    if "BADSIG" in seen:
        return Checked("bad", None, None, "the signature does not match the tag")
    if "NO_PUBKEY" in seen:
        errsig = seen.get("ERRSIG", [])
        key = errsig[6] if len(errsig) > 6 and errsig[6] != "-" else seen["NO_PUBKEY"][0]
        return Checked("unknown-key", None, key, f"no key of {keyring} made it")
    if "EXPKEYSIG" in seen or "EXPSIG" in seen:
        what = "the key" if "EXPKEYSIG" in seen else "the signature"
        return Checked("expired", user, fingerprint, f"{what} has expired")
    if "REVKEYSIG" in seen:
        return Checked("revoked", user, fingerprint, f"the key is revoked in {keyring}")
    if "GOODSIG" in seen and fingerprint is not None and user:
        return Checked("good", user, fingerprint, "")
    return Checked("bad", None, None, _words(err, "gpgv cannot read the signature"))


def issuer(signed: Signed) -> str | None:
    """The fingerprint (else the key id) of the key an OpenPGP signature names as its maker, read
    by `gpg --list-packets` without any key: what the signature claims, not checked."""
    if packet_problem(signed.signature) is not None:
        return None  # nothing gpg should be asked to unpack
    gpg = _binary("gpg", "read")
    with tempfile.TemporaryDirectory(prefix="catalogctl-gpg-") as home:
        env = {**os.environ, "GNUPGHOME": home}
        _, out, _ = _run([gpg, "--homedir", home, "--batch", "--list-packets"], signed.signature, env)
    found = [match.group(1) for pattern in _ISSUER if (match := pattern.search(out))]
    return found[0] if found else None  # the fingerprint, else the key id of an older signature


def _program(program: str | None) -> str:
    """The gpg to sign with: git's `gpg.openpgp.program`/`gpg.program` when set, else `gpg`."""
    return _binary(program or "gpg", "made")


def key_fingerprint(key: str, program: str | None = None) -> str:
    """The primary key fingerprint of the secret key `key` (an id, fingerprint or user id) in the
    user's GnuPG keyring; a key gpg has no secret for is an `EnvironmentProblem`."""
    argv = [_program(program), "--batch", "--with-colons", "--list-secret-keys", "--", key]
    code, out, err = _run(argv, b"")
    records = [line.split(":") for line in out.splitlines()]
    after_sec = [r[9] for i, r in enumerate(records) if r[0] == "fpr" and i and records[i - 1][0] == "sec"]
    if code != 0 or not after_sec:
        raise EnvironmentProblem(
            f"cannot sign with gpg key {key}: gpg has no secret key for it ({_words(err, f'exit {code}')})",
            "pass --signing-key with a key of gpg --list-secret-keys, or git config user.signingKey KEYID",
        )
    return after_sec[0]


def sign(payload: bytes, key: str, program: str | None = None) -> bytes:
    """The armored detached signature of `payload` by `key`, made as git makes it
    (`gpg --status-fd=2 -bsau KEY`); no `SIG_CREATED` status is a failure, with gpg's reason.
    On a terminal, no timeout: a pinentry may be asking for the passphrase there."""
    on_terminal = sys.stdin is not None and sys.stdin.isatty()
    argv = [_program(program), "--status-fd=2", "-bsau", key]
    code, out, err = _run(argv, payload, bounded=not on_terminal)
    created = any(words[0] == "SIG_CREATED" for words in _statuses(err))
    if code != 0 or not created or not out.encode("ascii", errors="replace").startswith(ARMOR):
        raise EnvironmentProblem(
            f"gpg could not sign with {key}: {_words(err, f'gpg exited with {code}')}",
            "a key with a passphrase needs its gpg-agent unlocked (or a terminal for the pinentry)",
        )
    return out.encode("ascii")
