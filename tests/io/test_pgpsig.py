"""gpgv's verdicts on OpenPGP signatures of a tag payload, read from its status lines; a gpg or
gpgv that is missing or never answers is an environment problem, its children killed."""

from __future__ import annotations

import io
import os
import shutil
import zlib
from pathlib import Path

import pytest

from catalogctl.errors import EnvironmentProblem
from catalogctl.io import pgpsig, sshsig
from tests.gpgkeys import GpgHome
from tests.io.test_sshsig import gone

PAYLOAD = b"object 0123\ntype commit\ntag 2026-09-C0\ntagger T <t@example.invalid> 1788000000 +0000\n\nCohort\n"
UID = "Maintainer <m@example.org>"


@pytest.fixture
def key(gnupg: GpgHome) -> str:
    return gnupg.make_key(UID)


@pytest.fixture
def keyring(gnupg: GpgHome, key: str, tmp_path: Path) -> Path:
    return gnupg.export(tmp_path / "keyring.gpg", key)


def signed(payload: bytes, signature: bytes) -> sshsig.Signed:
    """A tag object split as git splits it (the module's own split)."""
    return sshsig.split(payload + signature)


def test_a_good_signature_names_the_user_id_and_primary_fingerprint(key: str, keyring: Path) -> None:
    checked = pgpsig.check(signed(PAYLOAD, pgpsig.sign(PAYLOAD, key)), keyring)
    assert checked == pgpsig.Checked("good", UID, key, "")


def test_the_signature_block_starts_at_the_last_armor_line(key: str, keyring: Path) -> None:
    tricked = PAYLOAD.replace(b"Cohort\n", b"Cohort\n-----BEGIN PGP SIGNATURE-----\nnot one\n")
    split = signed(tricked, pgpsig.sign(tricked, key))
    assert split.payload == tricked
    assert pgpsig.check(split, keyring).outcome == "good"


def test_a_signature_of_other_data_is_bad(key: str, keyring: Path) -> None:
    other = pgpsig.sign(PAYLOAD + b"more\n", key)
    assert pgpsig.check(signed(PAYLOAD, other), keyring) == pgpsig.Checked(
        "bad", None, None, "the signature does not match the tag"
    )


def test_a_key_not_in_the_keyring_is_unknown(gnupg: GpgHome, keyring: Path) -> None:
    stranger = gnupg.make_key("Stranger <s@example.org>")
    checked = pgpsig.check(signed(PAYLOAD, pgpsig.sign(PAYLOAD, stranger)), keyring)
    assert checked == pgpsig.Checked("unknown-key", None, stranger, f"no key of {keyring} made it")


def test_garbage_is_bad_in_gpgv_s_words(keyring: Path) -> None:
    garbage = b"-----BEGIN PGP SIGNATURE-----\n\nabc\n-----END PGP SIGNATURE-----\n"
    checked = pgpsig.check(signed(PAYLOAD, garbage), keyring)
    assert checked == pgpsig.Checked(
        "bad", None, None, "the signature block is not one signature: its armor is not base64"
    )
    assert pgpsig.issuer(signed(PAYLOAD, garbage)) is None


def test_the_issuer_is_the_key_the_signature_names(gnupg: GpgHome, key: str) -> None:
    stranger = gnupg.make_key("Stranger <s@example.org>")
    assert pgpsig.issuer(signed(PAYLOAD, pgpsig.sign(PAYLOAD, stranger))) == stranger


def test_a_pgp_message_is_not_a_detached_signature(keyring: Path) -> None:
    message = b"-----BEGIN PGP MESSAGE-----\n\nabc\n-----END PGP MESSAGE-----\n"
    split = signed(PAYLOAD, message)
    assert split.kind == "gpg"
    assert pgpsig.check(split, keyring) == pgpsig.Checked("bad", None, None, "a PGP message, not a detached signature")


def _armored(gnupg: GpgHome, binary: bytes) -> bytes:
    """`binary` OpenPGP packets armored, the armor labelled a signature whatever they hold."""
    armored = gnupg.gpg("--enarmor", stdin=binary).decode()
    return armored.replace("PGP ARMORED FILE", "PGP SIGNATURE").encode()


def test_a_signed_message_labelled_a_signature_is_bad(gnupg: GpgHome, key: str, keyring: Path) -> None:
    inside = gnupg.gpg("--batch", "-s", "-u", key, stdin=b"other data\n")  # its own data, good by itself
    checked = pgpsig.check(signed(PAYLOAD, _armored(gnupg, inside)), keyring)
    assert checked == pgpsig.Checked(
        "bad", None, None, "the signature block is not one signature: its packet has an indeterminate length"
    )


def test_two_signatures_in_one_block_are_bad(gnupg: GpgHome, key: str, keyring: Path) -> None:
    one = gnupg.gpg("--batch", "-bs", "-u", key, stdin=PAYLOAD)
    checked = pgpsig.check(signed(PAYLOAD, _armored(gnupg, one + one)), keyring)
    assert checked == pgpsig.Checked(
        "bad", None, None, "the signature block is not one signature: it holds more than the one signature packet"
    )


def test_a_missing_gpgv_is_an_environment_problem(key: str, keyring: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = signed(PAYLOAD, pgpsig.sign(PAYLOAD, key))
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(EnvironmentProblem) as caught:
        pgpsig.check(good, keyring)
    assert str(caught.value) == "gpgv is not installed: OpenPGP signatures cannot be checked"
    assert caught.value.hint == "install GnuPG (apt-get install gnupg; it brings gpgv)"


def hanging(folder: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A `name` first on PATH that never answers: it starts a child that sleeps, whose pid it
    writes to `folder/child`."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / name
    script.write_text(f'#!/bin/sh\nsleep 300 & echo $! > "{folder}/child"; wait\n')
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("CATALOGCTL_GPG_TIMEOUT", "0.5")
    return folder / "child"


def test_a_hanging_gpgv_is_stopped_with_its_children(
    key: str, keyring: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = signed(PAYLOAD, pgpsig.sign(PAYLOAD, key))
    child = hanging(tmp_path / "bin", "gpgv", monkeypatch)
    with pytest.raises(EnvironmentProblem) as caught:
        pgpsig.check(good, keyring)
    assert str(caught.value) == "gpgv did not answer within 0.5 s: stopped it"
    assert caught.value.hint == (
        "a gpg-agent that never answers, or a passphrase asked where no one can type it: unlock the key "
        "(gpg-agent), or raise CATALOGCTL_GPG_TIMEOUT (seconds)"
    )
    assert gone(int(child.read_text()))


def test_signing_times_out_when_no_terminal_can_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    child = hanging(tmp_path / "bin", "gpg", monkeypatch)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # not a terminal
    with pytest.raises(EnvironmentProblem, match=r"^gpg did not answer within 0\.5 s: stopped it$"):
        pgpsig.sign(PAYLOAD, "m@example.org")
    assert gone(int(child.read_text()))


def test_a_timeout_that_is_not_a_number_is_refused(key: str, keyring: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = signed(PAYLOAD, pgpsig.sign(PAYLOAD, key))
    monkeypatch.setenv("CATALOGCTL_GPG_TIMEOUT", "0")
    with pytest.raises(EnvironmentProblem) as caught:
        pgpsig.check(good, keyring)
    assert str(caught.value) == "CATALOGCTL_GPG_TIMEOUT is '0': not a number of seconds"
    monkeypatch.setenv("CATALOGCTL_GPG_TIMEOUT", "soon")
    with pytest.raises(EnvironmentProblem, match="'soon': not a number"):
        pgpsig.key_fingerprint("m@example.org")


def test_the_user_s_own_keyring_never_decides(gnupg: GpgHome, key: str, tmp_path: Path) -> None:
    stranger = gnupg.make_key("Stranger <s@example.org>")  # in the user's GNUPGHOME, ultimately trusted there
    keyring = gnupg.export(tmp_path / "keyring.gpg", key)
    assert shutil.which("gpgv") is not None
    assert pgpsig.check(signed(PAYLOAD, pgpsig.sign(PAYLOAD, stranger)), keyring).outcome == "unknown-key"


@pytest.mark.parametrize("content", ["armored", "junk"])
def test_a_keyring_gpgv_cannot_read_is_said_to_be_unreadable(
    gnupg: GpgHome, key: str, tmp_path: Path, content: str
) -> None:
    keyring = tmp_path / "keyring.asc"
    keyring.write_bytes(gnupg.gpg("--export", "--armor", key) if content == "armored" else b"not a keyring\n")
    with pytest.raises(EnvironmentProblem) as caught:
        pgpsig.check(signed(PAYLOAD, pgpsig.sign(PAYLOAD, key)), keyring)
    assert str(caught.value) == (
        f"the GPG keyring {keyring} cannot be read: gpgv finds no OpenPGP keys in it (gpgv: keydb_search failed: "
        "Invalid packet)"
    )
    assert caught.value.hint == (
        "pass a binary keyring: gpg --export KEYID > keyring.gpg (an armored export: gpg --dearmor it)"
    )


def _dearmor(gnupg: GpgHome, armored: bytes) -> bytes:
    return gnupg.gpg("--dearmor", stdin=armored)


@pytest.mark.parametrize("extra", ["marker after", "compressed"])
def test_a_good_signature_among_other_packets_is_refused_before_gpg_reads_it(
    gnupg: GpgHome, key: str, keyring: Path, extra: str
) -> None:
    """gpgv finds the good signature among marker packets, or inside a compressed packet (which
    can expand without bound in gpg --list-packets): the block must be that one packet alone."""
    binary = _dearmor(gnupg, pgpsig.sign(PAYLOAD, key))
    marker = b"\xa8\x03PGP"  # an old-format marker packet (RFC 4880, 5.8)
    if extra == "marker after":
        block, why = binary + marker, "it holds more than the one signature packet"
    else:
        compressed = zlib.compressobj(9, zlib.DEFLATED, -15)
        body = b"\x01" + compressed.compress(binary + marker * 1000) + compressed.flush()  # 1: ZIP
        block = b"\xc8" + _new_length(len(body)) + body
        why = "it holds an OpenPGP packet of type 8, not a signature"
    checked = pgpsig.check(signed(PAYLOAD, _armored(gnupg, block)), keyring)
    assert checked == pgpsig.Checked("bad", None, None, f"the signature block is not one signature: {why}")
    assert pgpsig.issuer(signed(PAYLOAD, _armored(gnupg, block))) is None


def _new_length(length: int) -> bytes:
    """A new-format packet length (RFC 4880, 4.2.2)."""
    if length < 192:
        return bytes([length])
    if length < 8384:
        length -= 192
        return bytes([(length >> 8) + 192, length & 0xFF])
    return b"\xff" + length.to_bytes(4, "big")


@pytest.mark.parametrize(
    ("option", "why"),
    [
        (("--digest-algo", "SHA1"), None),
        (("--textmode",), "a text-mode signature (it also matches a CRLF copy of the tag)"),
    ],
)
def test_weak_or_text_mode_signatures_are_bad(
    gnupg: GpgHome, key: str, keyring: Path, option: tuple[str, ...], why: str | None
) -> None:
    """SHA-1 is open to collisions; a text-mode signature also matches the tag with CRLF lines."""
    signature = gnupg.gpg("--batch", "--armor", *option, "-bs", "-u", key, stdin=PAYLOAD)
    checked = pgpsig.check(signed(PAYLOAD, signature), keyring)
    assert checked.outcome == "bad"
    if why is not None:
        assert checked.detail == why
