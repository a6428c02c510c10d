"""How `freeze --sign` signs a release tag: as `git tag -s` does, with SSH or OpenPGP.

The key is `--signing-key`, else git config `user.signingKey`: for SSH a private key file, a
public key file whose private key is in ssh-agent, or a `key::` literal; for OpenPGP a key id,
fingerprint or user id of the user's GnuPG keyring. The format is `--signing-format`, else git
config `gpg.format`; unset signs with SSH (git's own default is openpgp, but `git tag -v` tells a
signature's kind by its armor, so a tag verifies whatever `gpg.format` says). `openpgp` signs with
gpg (`gpg.openpgp.program`, else `gpg.program`, else `gpg`); `x509` is refused rather than
silently signing another way.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

from catalogctl.catalog.layout import Layout
from catalogctl.errors import EnvironmentProblem, UsageError
from catalogctl.io import gitrepo, gittags, pgpsig, sshsig
from catalogctl.model.documents.suite import Suite
from catalogctl.release.trust import Trust, check_signed

SigningFormat = Literal["ssh", "openpgp"]


@dataclass(frozen=True)
class Signer:
    """The key a freeze signs with, its fingerprint, and the trust its tag must pass."""

    key: str
    fingerprint: str
    trust: Trust | None = None
    format: SigningFormat = "ssh"
    program: str | None = None  # the gpg git would run (gpg.openpgp.program, gpg.program)

    def _checking(self) -> Trust | None:
        """The trust to check the new tag with: one with a trust file of this signature's kind."""
        if self.trust is None:
            return None
        kind = self.trust.gpg_keyring if self.format == "openpgp" else self.trust.allowed_signers
        return self.trust if kind is not None else None

    def sign_tag(self, name: str, commit: str, message: str, tagger: gitrepo.Signature) -> bytes:
        """The raw text of the signed tag object: the payload with its signature appended,
        checked against the configured trust of its kind (so that no tag is made that it refuses)."""
        payload = gittags.tag_payload(name, commit, message, tagger)
        if self.format == "openpgp":
            raw = payload + pgpsig.sign(payload, self.key, self.program)
        else:
            raw = payload + sshsig.sign(payload, self.key)
        trust = self._checking()
        if trust is not None:
            checked = check_signed(name, dt.datetime.fromtimestamp(tagger.time, dt.UTC), raw, trust)
            if checked.state != "good":
                trusted = "of the GPG keyring" if self.format == "openpgp" else "the allowed-signers file names"
                raise EnvironmentProblem(
                    f"freeze --sign refuses to tag with a key its trust refuses: {checked.message}; "
                    "nothing was written",
                    f"sign with a key {trusted}, valid now and not revoked (--signing-key), "
                    "or have the maintainers publish this key first",
                )
        return raw

    def probe(self, name: str, tagger: gitrepo.Signature) -> None:
        """What `sign_tag` would refuse, found by a dry run: a throwaway payload is signed and
        checked against the configured trust (signing writes nothing)."""
        if self._checking() is not None:
            self.sign_tag(name, "0" * 40, "a dry run's probe, never written", tagger)


def _format(repo: gitrepo.Repository, asked: str | None) -> SigningFormat:
    """`--signing-format`, else git config `gpg.format`, else ssh; another format is refused."""
    fmt = asked or gitrepo.config_value(repo, "gpg.format")
    if fmt in (None, "ssh"):
        return "ssh"
    if fmt == "openpgp":
        return "openpgp"
    named_by = "--signing-format" if asked else "gpg.format"
    raise EnvironmentProblem(
        f"{named_by} is {fmt}: freeze --sign signs with SSH or OpenPGP keys only; nothing was written",
        "git config gpg.format ssh (an SSH key) or openpgp (a gpg key), or sign the tag with git tag -s yourself",
    )


def signer(
    repo: gitrepo.Repository, key: str | None, trust: Trust | None = None, signing_format: str | None = None
) -> Signer:
    """The signer of `freeze --sign`: the format and key asked for or configured, checked usable;
    its tag is checked against `trust` when a trust file of its kind is configured (a configured
    one that cannot be read is refused: a freeze that cannot check its signature writes nothing)."""
    fmt = _format(repo, signing_format)
    chosen = key or gitrepo.config_value(repo, "user.signingKey")
    if not chosen:
        kind = "a gpg key id" if fmt == "openpgp" else "PATH"
        raise EnvironmentProblem(
            "freeze --sign has no key: no --signing-key, and git config user.signingKey is unset; nothing was written",
            f"pass --signing-key {kind}, or git config user.signingKey {kind}",
        )
    if trust is not None and trust.problem is not None:
        raise trust.problem
    if fmt == "openpgp":
        program = gitrepo.config_value(repo, "gpg.openpgp.program") or gitrepo.config_value(repo, "gpg.program")
        return Signer(chosen, pgpsig.key_fingerprint(chosen, program), trust, "openpgp", program)
    return Signer(chosen, sshsig.key_fingerprint(chosen), trust)


def require_signed(suite: Suite | None, signing: bool, layout: Layout) -> None:
    """Refuse to tag unsigned when the suite's policy requires signed releases."""
    if suite is not None and suite.policies.releases.require_signature and not signing:
        raise UsageError(
            f"{layout.suite_file} requires signed releases (policies.releases.require_signature): "
            "freeze does not tag unsigned; nothing was written",
            "pass --sign (with --signing-key PATH, or git config user.signingKey)",
        )
