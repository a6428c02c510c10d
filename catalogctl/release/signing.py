"""How `freeze --sign` signs a release tag: as `git tag -s` does with `gpg.format=ssh`.

The key is `--signing-key`, else git config `user.signingKey` (a private key file, a public key
file whose private key is in ssh-agent, or a `key::` literal). catalogctl signs with SSH keys
only: `gpg.format` unset or `ssh` signs with SSH (git's own default is openpgp, but `git tag -v`
tells a signature's kind by its armor, so an SSH-signed tag verifies whatever `gpg.format` says);
`openpgp` or `x509` is refused rather than silently signing another way.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from catalogctl.catalog.layout import SUITE_FILE
from catalogctl.errors import EnvironmentProblem, UsageError
from catalogctl.io import gitrepo, sshsig
from catalogctl.model.suite import Suite
from catalogctl.release.signers import Trust, check_signed


@dataclass(frozen=True)
class Signer:
    """The key a freeze signs with, its fingerprint, and the trust its tag must pass."""

    key: str
    fingerprint: str
    trust: Trust | None = None

    def sign_tag(self, name: str, commit: str, message: str, tagger: gitrepo.Signature) -> bytes:
        """The raw text of the signed tag object: the payload with its SSH signature appended,
        checked against the configured allowed signers (so that no tag is made that they refuse)."""
        payload = gitrepo.tag_payload(name, commit, message, tagger)
        raw = payload + sshsig.sign(payload, self.key)
        if self.trust is not None and self.trust.allowed_signers is not None:
            checked = check_signed(name, dt.datetime.fromtimestamp(tagger.time, dt.UTC), raw, self.trust)
            if checked.state != "good":
                raise EnvironmentProblem(
                    f"freeze --sign refuses to tag with a key its trust refuses: {checked.message}; "
                    "nothing was written",
                    "sign with a key the allowed-signers file names, valid now and not revoked (--signing-key), "
                    "or have the maintainers publish this key first",
                )
        return raw

    def probe(self, name: str, tagger: gitrepo.Signature) -> None:
        """What `sign_tag` would refuse, found by a dry run: a throwaway payload is signed and
        checked against the configured trust (signing writes nothing)."""
        if self.trust is not None and self.trust.allowed_signers is not None:
            self.sign_tag(name, "0" * 40, "a dry run's probe, never written", tagger)


def signer(repo: gitrepo.Repository, key: str | None, trust: Trust | None = None) -> Signer:
    """The signer of `freeze --sign`: the key asked for or configured, checked readable; its tag
    is checked against `trust` when an allowed-signers file is configured (a configured one that
    cannot be read is refused: a freeze that cannot check its signature writes nothing)."""
    fmt = gitrepo.config_value(repo, "gpg.format")
    if fmt not in (None, "ssh"):
        raise EnvironmentProblem(
            f"gpg.format is {fmt}: freeze --sign signs with SSH keys only; nothing was written",
            "git config gpg.format ssh (an SSH key), or sign the tag with git tag -s yourself",
        )
    chosen = key or gitrepo.config_value(repo, "user.signingKey")
    if not chosen:
        raise EnvironmentProblem(
            "freeze --sign has no key: no --signing-key, and git config user.signingKey is unset; nothing was written",
            "pass --signing-key PATH, or git config user.signingKey PATH",
        )
    if trust is not None and trust.problem is not None:
        raise trust.problem
    return Signer(chosen, sshsig.key_fingerprint(chosen), trust)


def require_signed(suite: Suite | None, signing: bool) -> None:
    """Refuse to tag unsigned when the suite's policy requires signed releases."""
    if suite is not None and suite.policies.releases.require_signature and not signing:
        raise UsageError(
            f"{SUITE_FILE} requires signed releases (policies.releases.require_signature): "
            "freeze does not tag unsigned; nothing was written",
            "pass --sign (with --signing-key PATH, or git config user.signingKey)",
        )
