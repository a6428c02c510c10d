"""Who signed a release, and whether that signer is trusted: the signature clause of the release
statement (see `statement`).

Trust is never read from the tree under check. The allowed-signers file (and the revocation
list) come from, in order: the command line, the environment (`CATALOGCTL_ALLOWED_SIGNERS`,
`CATALOGCTL_SSH_REVOKED`), git config (`gpg.ssh.allowedSignersFile`,
`gpg.ssh.revocationKeyring`); a path inside the repository's working tree is refused, since
whoever can change the tree (a pull request) could then trust their own key, and so is a hard
link to a file there (the same file under another name). An OpenPGP-signed tag
is checked against a public keyring file from the command line or `CATALOGCTL_GPG_KEYRING`, with
the same rule; an SSH trust accepts no OpenPGP signature, nor a keyring an SSH one.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from catalogctl.catalog.layout import Layout
from catalogctl.errors import EnvironmentProblem, UsageError
from catalogctl.io import gitrepo, gittags, pgpsig, sshsig
from catalogctl.io.files import other_name_in
from catalogctl.io.yamlbuild import YamlProblem
from catalogctl.io.yamlio import read_foreign_yaml
from catalogctl.model.reports.release import SignatureState

ENV_ALLOWED = "CATALOGCTL_ALLOWED_SIGNERS"
ENV_REVOKED = "CATALOGCTL_SSH_REVOKED"
ENV_KEYRING = "CATALOGCTL_GPG_KEYRING"
_CONFIGURE = (
    f"pass --allowed-signers FILE, set {ENV_ALLOWED}, or git config gpg.ssh.allowedSignersFile FILE "
    "(a file outside the repository, from the maintainers)"
)
_CONFIGURE_GPG = (
    f"pass --gpg-keyring FILE or set {ENV_KEYRING} (the maintainers' public keys, gpg --export, "
    "in a file outside the repository)"
)
_DO_NOT_RUN = "do not run it: ask the maintainers for the signed release"


@dataclass(frozen=True)
class Trust:
    """What a signature is checked against, and whether the caller asks for one."""

    required: bool = False  # asked for (`--require-signature`); the release's suite policy may require it too
    allowed_signers: Path | None = None
    revocation: Path | None = None
    problem: EnvironmentProblem | None = None  # a configured trust file that is not there: fatal only when required
    gpg_keyring: Path | None = None  # the public keys OpenPGP signatures are checked against


@dataclass(frozen=True)
class SignatureFlags:
    """What the caller said: `--require-signature`, `--allowed-signers`, `--revocation-list`,
    `--gpg-keyring`."""

    require: bool = False
    allowed_signers: str | None = None
    revocation_list: str | None = None
    gpg_keyring: str | None = None


@dataclass(frozen=True)
class SignatureCheck:
    """A release tag's signature: its state, the signer when known, in words."""

    state: SignatureState
    required: bool
    message: str
    hint: str = ""
    principal: str | None = None
    fingerprint: str | None = None

    @property
    def ok(self) -> bool:
        """Good, or not required."""
        return self.state == "good" or not self.required


def _trusted_file(repo: gitrepo.Repository, value: str, named_by: str, what: str, hint: str = _CONFIGURE) -> Path:
    """A trust file that exists and is not in the working tree under check."""
    path = Path(value).expanduser().resolve()
    git_folders = [folder.resolve() for folder in gitrepo.git_dirs(repo)]  # a bare repository's too
    if any(path.is_relative_to(folder) for folder in git_folders):
        raise UsageError(
            f"the {what} {path} (from {named_by}) is inside the .git folder of the repository under check: "
            "whoever controls the checkout controls its .git folder too",
            "keep it outside the clone: a copy the maintainers publish, installed by you",
        )
    if any(path.is_relative_to(tree.resolve()) for tree in gitrepo.worktree_dirs(repo)):  # each worktree
        raise UsageError(
            f"the {what} {path} (from {named_by}) is inside the repository under check: "
            "whoever can change the repository could trust their own key",
            "keep it outside the clone: a copy the maintainers publish, installed by you",
        )
    if path.is_dir():
        raise EnvironmentProblem(f"the {what} {path} (from {named_by}) is a folder, not a file", hint)
    if not path.is_file():
        raise EnvironmentProblem(f"the {what} {path} (from {named_by}) does not exist", hint)
    # The checks above compare paths: a hard link's other name inside the repository is the same file.
    inside = other_name_in(path, [*git_folders, *gitrepo.worktree_dirs(repo)])
    if inside is not None:
        raise UsageError(
            f"the {what} {path} (from {named_by}) is a hard link to {inside}, inside the repository under check: "
            "whoever can change the repository could change it",
            "keep a copy outside the clone (cp, not ln): a copy the maintainers publish, installed by you",
        )
    return path


def _source(
    repo: gitrepo.Repository, flag: str | None, flag_name: str, env: Mapping[str, str], var: str, key: str | None
) -> tuple[str, str] | None:
    """The first of flag, environment variable and git config that names a file, and its name."""
    if flag:
        return flag, flag_name
    if env.get(var):
        return env[var], f"${var}"
    configured = gitrepo.config_path(repo, key) if key else None
    return (configured, f"git config {key}") if configured else None


def trust_for(
    repo: gitrepo.Repository, flags: SignatureFlags | None = None, env: Mapping[str, str] | None = None
) -> Trust:
    """The trust of this invocation: the flags, else the environment, else git config."""
    flags = flags or SignatureFlags()
    env = os.environ if env is None else env
    allowed, revocation = flags.allowed_signers, flags.revocation_list
    found = _source(repo, allowed, "--allowed-signers", env, ENV_ALLOWED, "gpg.ssh.allowedSignersFile")
    try:
        signers = _trusted_file(repo, *found, "allowed-signers file") if found else None
        found = _source(repo, revocation, "--revocation-list", env, ENV_REVOKED, "gpg.ssh.revocationKeyring")
        revoked = _trusted_file(repo, *found, "revocation list") if found else None
        found = _source(repo, flags.gpg_keyring, "--gpg-keyring", env, ENV_KEYRING, None)
        keyring = _trusted_file(repo, *found, "GPG keyring", _CONFIGURE_GPG) if found else None
    except EnvironmentProblem as exc:  # a stale global setting must not fail a check that needs no signature
        return Trust(flags.require, None, None, exc)
    return Trust(flags.require, signers, revoked, gpg_keyring=keyring)


def policy_requires(commit: gitrepo.Commit, layout: Layout) -> bool:
    """Whether the suite at the release commit says `policies.releases.require_signature: true`
    (read as plain data: the field is optional, and older suites lack it)."""
    text = gitrepo.read_blob_or_none(commit, layout.suite_file)
    try:
        data = read_foreign_yaml(text) if text is not None else None
    except YamlProblem:
        return False  # an unreadable suite is refused by the release's own validation
    policies = data.get("policies") if isinstance(data, dict) else None
    releases = policies.get("releases") if isinstance(policies, dict) else None
    return isinstance(releases, dict) and releases.get("require_signature") is True


def _ssh(cohort: str, signed_at: dt.datetime, signed: sshsig.Signed, trust: Trust, required: bool) -> SignatureCheck:
    """The check of an SSH signature: against the allowed signers, or only read when none is set."""
    if trust.allowed_signers is None:
        fingerprint = sshsig.fingerprint(signed)
        if fingerprint is None:
            return SignatureCheck("bad", required, f"tag `{cohort}`'s signature does not match the tag", _DO_NOT_RUN)
        only_gpg = f" (the GPG keyring {trust.gpg_keyring} trusts OpenPGP keys only)" if trust.gpg_keyring else ""
        return SignatureCheck(
            "not-checked",
            required,
            f"tag `{cohort}` is signed by key {fingerprint}, not checked: no allowed-signers file is configured"
            + only_gpg,
            _CONFIGURE,
            fingerprint=fingerprint,
        )
    checked = sshsig.check(signed, trust.allowed_signers, trust.revocation, signed_at)
    key = checked.fingerprint
    at = signed_at.isoformat()
    message, hint = {
        "good": (f"tag `{cohort}` is signed by {checked.principal} (key {key})", ""),
        "bad": (f"tag `{cohort}`'s signature is bad: {checked.detail}", _DO_NOT_RUN),
        "unknown-key": (
            f"tag `{cohort}` is signed by key {key}, which is not in the allowed-signers file {trust.allowed_signers}",
            "a key the maintainers did not publish: " + _DO_NOT_RUN,
        ),
        "expired": (
            f"tag `{cohort}` was signed at {at} by key {key}, outside the key's validity: {checked.detail}",
            "a retired key signs no new release: " + _DO_NOT_RUN,
        ),
        "revoked": (
            f"tag `{cohort}` is signed by key {key} of {checked.principal}, which is revoked ({trust.revocation})",
            _DO_NOT_RUN,
        ),
    }[checked.outcome]
    principal = checked.principal if checked.outcome == "good" else None
    return SignatureCheck(checked.outcome, required, message, hint, principal, key)


def _gpg(cohort: str, signed: sshsig.Signed, trust: Trust, required: bool) -> SignatureCheck:
    """The check of an OpenPGP signature: by gpgv against the GPG keyring; none, not checked."""
    if trust.gpg_keyring is None:
        only_ssh = f" (the allowed-signers file {trust.allowed_signers} trusts SSH keys only)"
        return SignatureCheck(
            "not-checked",
            required,
            f"tag `{cohort}` has an OpenPGP signature, not checked: no GPG keyring is configured"
            + (only_ssh if trust.allowed_signers else ""),
            _CONFIGURE_GPG,
        )
    checked = pgpsig.check(signed, trust.gpg_keyring)
    key, user = checked.fingerprint, checked.principal
    message, hint = {
        "good": (f"tag `{cohort}` is signed by {user} (OpenPGP key {key})", ""),
        "bad": (f"tag `{cohort}`'s OpenPGP signature is bad: {checked.detail}", _DO_NOT_RUN),
        "unknown-key": (
            f"tag `{cohort}` is signed by OpenPGP key {key}, which is not in the GPG keyring {trust.gpg_keyring}",
            "a key the maintainers did not publish: " + _DO_NOT_RUN,
        ),
        "expired": (
            f"tag `{cohort}` is signed by OpenPGP key {key} of {user}, but {checked.detail}",
            "a retired key signs no new release: " + _DO_NOT_RUN,
        ),
        "revoked": (f"tag `{cohort}` is signed by OpenPGP key {key} of {user}, which is revoked", _DO_NOT_RUN),
    }[checked.outcome]
    return SignatureCheck(checked.outcome, required, message, hint, user if checked.outcome == "good" else None, key)


def _check_kind(
    cohort: str, signed_at: dt.datetime, signed: sshsig.Signed, trust: Trust, required: bool
) -> SignatureCheck:
    """A signature checked by the tool of its kind: ssh-keygen, or gpgv. Unsigned bytes after the
    armor are refused before either: no key is needed to see them."""
    problem = signed.layout_problem
    if problem is not None:
        return SignatureCheck(
            "bad", required, f"tag `{cohort}`'s signature is not the end of the tag object: {problem}", _DO_NOT_RUN
        )
    if signed.kind == "gpg":
        return _gpg(cohort, signed, trust, required)
    return _ssh(cohort, signed_at, signed, trust, required)


def check_signed(cohort: str, signed_at: dt.datetime, raw: bytes, trust: Trust) -> SignatureCheck:
    """A signed tag object's text (not yet in any repository) checked against `trust`, required."""
    return _check_kind(cohort, signed_at, sshsig.split(raw), trust, True)


def check_signature(repo: gitrepo.Repository, cohort: str, trust: Trust, required: bool) -> SignatureCheck:
    """The signature of the release tag `cohort` (which exists), checked as `git tag -v` would;
    when no signature is required, a check the environment cannot make is `not-checked`."""
    try:
        if trust.problem is not None:
            raise trust.problem
        return _check_signature(repo, cohort, trust, required)
    except EnvironmentProblem as exc:
        if required:
            raise
        return SignatureCheck("not-checked", False, f"tag `{cohort}`'s signature is not checked: {exc}", exc.hint)


def _check_signature(repo: gitrepo.Repository, cohort: str, trust: Trust, required: bool) -> SignatureCheck:
    """`check_signature`, with the environment's problems raised."""
    tag = gittags.tag_object(repo, cohort)
    if tag is None:
        return SignatureCheck(
            "unsigned", required, f"tag `{cohort}` is lightweight: it carries no signature", _DO_NOT_RUN
        )
    signed = sshsig.split(tag.raw)
    if tag.tagged_at is None:  # the statement's "annotated" clause says why; no signing time to check at
        return SignatureCheck(
            "bad", required, f"tag `{cohort}` has no tagger date to check its signature at", _DO_NOT_RUN
        )
    if signed.kind is None:
        return SignatureCheck("unsigned", required, f"tag `{cohort}` is not signed", _DO_NOT_RUN)
    if signed.kind == "x509":
        return SignatureCheck(
            "unsupported",
            required,
            f"tag `{cohort}` has an X.509 signature: catalogctl checks SSH and OpenPGP signatures only",
            f"check it yourself with git tag -v {cohort}, or ask the maintainers to sign with SSH (gpg.format=ssh)",
        )
    dated = _date_problem(repo, cohort, tag.tagged_at)
    if dated is not None:
        return SignatureCheck("bad", required, dated, _DO_NOT_RUN)
    return _check_kind(cohort, tag.tagged_at, signed, trust, required)


CLOCK_SKEW = dt.timedelta(days=1)  # how far ahead of this machine's clock a signer's clock may be


def _date_problem(repo: gitrepo.Repository, cohort: str, tagged_at: dt.datetime) -> str | None:
    """Why the tagger date cannot be the signing time, or None. The key's validity is checked at
    that date, which is the signer's claim: a retired key could backdate, a key not yet valid
    could postdate. A tag is made after its commit, and not in the future."""
    state = gittags.tag_state(repo, cohort)
    assert state is not None
    committed = gitrepo.committed_at(gitrepo.commit_by_id(repo, state.commit))
    if tagged_at < committed:
        return (
            f"tag `{cohort}` is dated {tagged_at.isoformat()}, before its commit ({committed.isoformat()}): "
            "the tagger date is not when it was signed"
        )
    if tagged_at > dt.datetime.now(dt.UTC) + CLOCK_SKEW:
        return (
            f"tag `{cohort}` is dated {tagged_at.isoformat()}, more than a day after this machine's clock: "
            "a signing time not yet come"
        )
    return None
