"""One signing format behind one interface: the `signer` fixture (tests/conftest.py) runs a test
once with SSH keys (`ssh-keygen`, an allowed-signers file, a KRL) and once with OpenPGP keys (`gpg`
in a GnuPG home of its own, a public keyring file). Each signer makes keys, signs release tags as
`git tag -s` does, writes the trust a runner is given, and says the words its messages use."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import pytest

from tests.gpgkeys import GpgHome, retag_gpg
from tests.signing import allowed_signers, fingerprint, make_key, retag

SIGNED_AT = "2026-08-28T12:00:00Z"  # the tagger date of a re-signed release tag (its commit's date)


@dataclass(frozen=True)
class Key:
    """A key made for a test: `signing_key` is what `--signing-key` and `user.signingKey` take."""

    name: str
    signing_key: str
    fingerprint: str
    principal: str  # who the trust names it for, as messages show it
    expired: bool = False  # SSH: past the valid-before its trust gives it; OpenPGP: the key itself expired


@dataclass(frozen=True)
class Trust:
    """What a runner is given: the trust file, the revocations when apart from it, and the flags."""

    file: Path
    flags: list[str]
    revocations: Path | None = None


@dataclass
class Signer:
    """The part of a signing format the tests share; `SshSigner` and `PgpSigner` fill it in."""

    format: ClassVar[str]
    key_words: ClassVar[str]  # how a message names a key of this format
    trust_words: ClassVar[str]  # how a message names the trust file
    trust_flag: ClassVar[str]
    trust_env: ClassVar[str]  # the environment variable that names the trust file
    armor: ClassVar[str]  # the signature block's last line
    kind: ClassVar[str]  # the keys its trust holds, as a message says it
    trusted_key: ClassVar[str]  # how a hint names a key the trust holds
    principals: ClassVar[dict[str, str]]
    folder: Path
    monkeypatch: pytest.MonkeyPatch
    keys: dict[str, Key] = field(default_factory=dict)

    def key(self, name: str = "maint") -> Key:
        """The key `name` (made on first use): `maint`, `unknown`, `revoked`, `expired` or `other`."""
        if name not in self.keys:
            self.keys[name] = self._make(name)
        return self.keys[name]

    def _make(self, name: str) -> Key:
        raise NotImplementedError

    def trust(self, folder: Path, *keys: Key, revoked: tuple[Key, ...] = ()) -> Trust:
        """The trust the maintainers publish: `keys` and `revoked` (revoked), in `folder`."""
        raise NotImplementedError

    def sign_tag(self, repo: Path, tag: str, key: Key | None, date: str = SIGNED_AT) -> str:
        """Replace `tag` by the same tag signed by `key` (unsigned when None); the new tag object."""
        raise NotImplementedError

    def not_trusted(self, key: Key, trust: Trust) -> str:
        """Why a tag signed by `key`, which `trust` does not name, is refused."""
        return f"is signed by {self.key_words} {key.fingerprint}, which is not in the {self.trust_words} {trust.file}"

    def revoked(self, key: Key, trust: Trust) -> str:
        """Why a tag signed by `key`, which `trust` revokes, is refused."""
        raise NotImplementedError

    def expired(self, key: Key, at: str) -> str:
        """Why a tag signed at `at` by the expired `key` is refused."""
        raise NotImplementedError

    def signed_by(self, key: Key) -> str:
        """How `verify` names the signer of a good signature."""
        return f"is signed by {key.principal} ({self.key_words} {key.fingerprint})"

    def no_trust(self, key: Key) -> str:
        """Why a tag signed by `key` is not checked when no trust of this format is configured."""
        raise NotImplementedError

    def unchecked_in_cohorts(self, key: Key) -> list[str]:
        """The last words of `cohorts`' row for a release signed by `key` that no trust checks."""
        return ["not-checked"]

    def key_id(self, key: Key, whole_uid: bool = False) -> str:
        """How a user names `key` to `--signing-key`: SSH, its path; OpenPGP, its user id's email (or
        the whole user id)."""
        return key.signing_key

    def configured_key(self, key: Key) -> str:
        """What a user sets git config `user.signingKey` to for `key`."""
        return key.signing_key

    def signing_flags(self) -> list[str]:
        """The `--signing-format` a user passes (none for SSH: the default)."""
        return []

    def locked(self) -> Key:
        """A key `freeze --dry-run` may name but must never use (SSH: encrypted, no passphrase given)."""
        return self.key()

    def named(self, given: str, key: Key) -> str:
        """How `freeze` names the key it signs (or would sign) with, given as `given`."""
        raise NotImplementedError

    def no_key_hint(self) -> str:
        """The hint of `freeze --sign` without a key."""
        raise NotImplementedError

    def set_format(self, repo: Path) -> None:
        """Make this format git config's `gpg.format` where it is not the default (SSH is)."""

    def git_tag_v(self, repo: Path, tag: str, key: Key) -> tuple[int, str]:
        """Real `git tag -v` trusting `key`; its exit code and what it says of the signer."""
        raise NotImplementedError

    def good_from_git(self, key: Key) -> str:
        """What `git tag -v` says of a good signature by `key`."""
        raise NotImplementedError


@dataclass
class SshSigner(Signer):
    format: ClassVar[str] = "ssh"
    key_words: ClassVar[str] = "key"
    trust_words: ClassVar[str] = "allowed-signers file"
    trust_flag: ClassVar[str] = "--allowed-signers"
    trust_env: ClassVar[str] = "CATALOGCTL_ALLOWED_SIGNERS"
    armor: ClassVar[str] = "-----END SSH SIGNATURE-----"
    kind: ClassVar[str] = "SSH"
    trusted_key: ClassVar[str] = "a key the allowed-signers file names"
    principals: ClassVar[dict[str, str]] = {
        "maint": "maint@example.org",
        "unknown": "unknown@example.org",
        "revoked": "old@example.org",
        "expired": "retired@example.org",
        "other": "other@example.org",
    }

    def __post_init__(self) -> None:
        self.monkeypatch.setenv("TZ", "UTC")  # ssh-keygen shows the times of its messages in local time

    def _make(self, name: str) -> Key:
        path = make_key(self.folder / "keys", name)
        return Key(name, str(path), fingerprint(path), self.principals[name], expired=name == "expired")

    def trust(self, folder: Path, *keys: Key, revoked: tuple[Key, ...] = ()) -> Trust:
        folder.mkdir(parents=True, exist_ok=True)
        # the expired key retired before the release was signed (2026-08-28)
        entries = [(k.principal, Path(k.signing_key), 'valid-before="20260801"' if k.expired else "") for k in keys]
        file = allowed_signers(
            folder / "allowed_signers", *entries, *((k.principal, Path(k.signing_key), "") for k in revoked)
        )
        if not revoked:
            return Trust(file, [self.trust_flag, str(file)])
        krl = folder / "revoked.krl"
        publics = [f"{k.signing_key}.pub" for k in revoked]
        subprocess.run(["ssh-keygen", "-q", "-k", "-f", str(krl), *publics], check=True)
        return Trust(file, [self.trust_flag, str(file), "--revocation-list", str(krl)], krl)

    def sign_tag(self, repo: Path, tag: str, key: Key | None, date: str = SIGNED_AT) -> str:
        return retag(repo, tag, Path(key.signing_key) if key else None, date)

    def revoked(self, key: Key, trust: Trust) -> str:
        return f"is signed by key {key.fingerprint} of {key.principal}, which is revoked ({trust.revocations})"

    def expired(self, key: Key, at: str) -> str:
        return (
            f"was signed at {at} by key {key.fingerprint}, outside the key's validity: key has expired: verify time "
            f"{at.removesuffix('+00:00')} > valid-before 2026-08-01T00:00:00"
        )

    def no_trust(self, key: Key) -> str:
        return f"is signed by key {key.fingerprint}, not checked: no allowed-signers file is configured"

    def unchecked_in_cohorts(self, key: Key) -> list[str]:
        return ["not-checked", f"({key.fingerprint})"]

    def configured_key(self, key: Key) -> str:
        return f"{key.signing_key}.pub"  # the public half: its private key sits beside it

    def locked(self) -> Key:
        if "locked" not in self.keys:
            path = make_key(self.folder / "keys", "locked", passphrase="secret")
            self.keys["locked"] = Key("locked", str(path), fingerprint(path), "locked@example.org")
        return self.keys["locked"]

    def named(self, given: str, key: Key) -> str:
        return f"{given} ({key.fingerprint})"

    def no_key_hint(self) -> str:
        return "pass --signing-key PATH, or git config user.signingKey PATH"

    def git_tag_v(self, repo: Path, tag: str, key: Key) -> tuple[int, str]:
        trusted = self.trust(self.folder / "git-tag-v", key).file
        done = subprocess.run(
            ["git", "-c", f"gpg.ssh.allowedSignersFile={trusted}", "tag", "-v", tag],
            cwd=repo,
            capture_output=True,
            text=True,
            check=False,
        )
        return done.returncode, done.stderr

    def good_from_git(self, key: Key) -> str:
        return f'Good "git" signature for {key.principal} with ED25519 key {key.fingerprint}'


SIGNED_IN_2020 = "20200601T000000"  # when the expired OpenPGP key was still valid


@dataclass
class PgpSigner(Signer):
    format: ClassVar[str] = "openpgp"
    key_words: ClassVar[str] = "OpenPGP key"
    trust_words: ClassVar[str] = "GPG keyring"
    trust_flag: ClassVar[str] = "--gpg-keyring"
    trust_env: ClassVar[str] = "CATALOGCTL_GPG_KEYRING"
    armor: ClassVar[str] = "-----END PGP SIGNATURE-----"
    kind: ClassVar[str] = "OpenPGP"
    trusted_key: ClassVar[str] = "a key of the GPG keyring"
    principals: ClassVar[dict[str, str]] = {
        "maint": "Maintainer <m@example.org>",
        "unknown": "Stranger <s@example.org>",
        "revoked": "Revoked <r@example.org>",
        "expired": "Retired <old@example.org>",
        "other": "Other <o@example.org>",
    }
    gnupg: GpgHome | None = None

    @property
    def home(self) -> GpgHome:
        assert self.gnupg is not None
        return self.gnupg

    def _make(self, name: str) -> Key:
        uid = self.principals[name]
        # the expired key was made in 2020, valid for a year
        made = self.home.make_key(uid, "1y", at="20200101T000000") if name == "expired" else self.home.make_key(uid)
        return Key(name, made, made, uid, expired=name == "expired")

    def trust(self, folder: Path, *keys: Key, revoked: tuple[Key, ...] = ()) -> Trust:
        published = [k.fingerprint for k in (*keys, *revoked)]
        file = self.home.export(folder / "keyring.gpg", *published, revoked=tuple(k.fingerprint for k in revoked))
        return Trust(file, [self.trust_flag, str(file)])

    def sign_tag(self, repo: Path, tag: str, key: Key | None, date: str = SIGNED_AT) -> str:
        if key is None:
            return retag(repo, tag, None, date)
        # an expired key signs only at a time it was valid: the signer's clock says 2020
        program = self.home.program_at(SIGNED_IN_2020) if key.expired else None
        return retag_gpg(repo, tag, key.signing_key, program, date)

    def revoked(self, key: Key, trust: Trust) -> str:
        return f"is signed by OpenPGP key {key.fingerprint} of {key.principal}, which is revoked"

    def expired(self, key: Key, at: str) -> str:
        return f"is signed by OpenPGP key {key.fingerprint} of {key.principal}, but the key has expired"

    def no_trust(self, key: Key) -> str:
        return "has an OpenPGP signature, not checked: no GPG keyring is configured"

    def key_id(self, key: Key, whole_uid: bool = False) -> str:
        return key.principal if whole_uid else key.principal.split("<")[1].rstrip(">")

    def signing_flags(self) -> list[str]:
        return ["--signing-format", "openpgp"]

    def named(self, given: str, key: Key) -> str:
        return f"gpg key {given} ({key.fingerprint})"

    def no_key_hint(self) -> str:
        return "pass --signing-key a gpg key id, or git config user.signingKey a gpg key id"

    def set_format(self, repo: Path) -> None:
        subprocess.run(["git", "config", "gpg.format", "openpgp"], cwd=repo, check=True)

    def git_tag_v(self, repo: Path, tag: str, key: Key) -> tuple[int, str]:
        # the environment's GNUPGHOME holds the key: git tells the kind by the armor
        done = subprocess.run(["git", "tag", "-v", tag], cwd=repo, capture_output=True, text=True, check=False)
        return done.returncode, done.stderr

    def good_from_git(self, key: Key) -> str:
        return f'Good signature from "{key.principal}"'
