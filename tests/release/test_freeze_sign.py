"""`freeze --sign`: a release tag signed as `git tag -s` signs it, with an SSH key or with OpenPGP
(gpg.format=openpgp), which real `git tag -v` verifies; the suite's policy that requires it;
signing that fails leaves everything as it was and says why. The cases both formats share run once
per format (the `signer` fixture); the rest are marked by the format they are about."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from catalogctl.errors import EnvironmentProblem
from catalogctl.release.freeze import FreezeRequest, freeze
from tests.gpgkeys import GpgHome
from tests.helpers import commit_all, git, replace_in, run_cli
from tests.release_repo import make_freezable
from tests.signers import Signer
from tests.signing import EMAIL, allowed_signers, fingerprint, make_key, retag, trusting

COHORT = "2026-09-C0"
UID = "Maintainer <m@example.org>"


@pytest.fixture
def repo(catalog_repo: Path) -> Path:
    return make_freezable(catalog_repo)


def verify_tag(root: Path, allowed: Path, tag: str) -> subprocess.CompletedProcess[str]:
    """Real `git tag -v`, with no gpg.format set: git tells an SSH signature by its armor."""
    return subprocess.run(
        ["git", "-c", f"gpg.ssh.allowedSignersFile={allowed}", "tag", "-v", tag],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )


def state(root: Path) -> tuple[str, str, str, str]:
    """HEAD, every ref, the porcelain status (ignored files included) and the index."""
    return (
        git(root, "rev-parse", "HEAD"),
        git(root, "for-each-ref", "--format=%(refname) %(objectname)"),
        git(root, "status", "--porcelain", "--ignored"),
        git(root, "ls-files", "-s"),
    )


# -- each signing format (the `signer` fixture: SSH, then OpenPGP) ---------------------------------

FREEZE = ("freeze", COHORT, "--add", "gsm8k")


def test_freeze_sign_makes_a_tag_git_tag_v_verifies(repo: Path, signer: Signer) -> None:
    key = signer.key()
    given = signer.key_id(key)
    done = run_cli(*FREEZE, "--sign", *signer.signing_flags(), "--signing-key", given, "-C", repo)
    assert done.stdout.endswith(f"signed with {signer.named(given, key)}\n")
    code, said = signer.git_tag_v(repo, COHORT, key)
    assert code == 0, said
    assert signer.good_from_git(key) in said
    assert git(repo, "rev-parse", f"{COHORT}^{{commit}}") == git(repo, "rev-parse", "HEAD")
    # git's own layout: the headers, the message with the digest, then the armored signature
    raw = git(repo, "cat-file", "tag", COHORT)
    assert raw.startswith(f"object {git(repo, 'rev-parse', 'HEAD')}\ntype commit\ntag {COHORT}\ntagger ")
    assert f"\n\nCohort {COHORT}\n\nruleset: rulesets/{COHORT}.yaml\nruleset-digest: sha256:" in raw
    assert raw.endswith(signer.armor)
    assert git(repo, "status", "--porcelain") == ""


def test_the_format_and_the_key_come_from_git_config(repo: Path, signer: Signer, tmp_path: Path) -> None:
    key = signer.key()
    signer.set_format(repo)
    git(repo, "config", "user.signingKey", signer.configured_key(key))
    trust = signer.trust(tmp_path / "trust", key)
    done = run_cli(*FREEZE, "--sign", *trust.flags, "-C", repo)  # the fresh tag is checked against it
    assert done.stdout.endswith(f"signed with {signer.named(signer.configured_key(key), key)}\n")
    assert signer.git_tag_v(repo, COHORT, key)[0] == 0
    lines = run_cli("verify", COHORT, "-C", repo, "--require-signature", *trust.flags).stdout
    assert f"ok    tag `{COHORT}` {signer.signed_by(key)}\n" in lines


def test_no_key_at_all_is_a_message_and_writes_nothing(repo: Path, signer: Signer) -> None:
    signer.set_format(repo)
    before = state(repo)
    done = run_cli(*FREEZE, "--sign", "-C", repo, code=2)
    assert done.stderr == (
        "error: freeze --sign has no key: no --signing-key, and git config user.signingKey is unset; "
        "nothing was written\n"
        f"hint: {signer.no_key_hint()}\n"
    )
    assert state(repo) == before


def test_dry_run_says_whether_it_would_sign_and_with_which_key(repo: Path, signer: Signer) -> None:
    key = signer.locked()  # SSH: an encrypted key, read, never used: no passphrase is asked
    given = signer.key_id(key, whole_uid=True)
    before = state(repo)
    signed = run_cli(*FREEZE, "--dry-run", *signer.signing_flags(), "--signing-key", given, "-C", repo)
    assert signed.stdout.endswith(f"\n\nthe tag would be signed with {signer.named(given, key)}\n")
    unsigned = run_cli(*FREEZE, "--dry-run", "-C", repo)
    assert unsigned.stdout.endswith("\n\nthe tag would not be signed (no --sign)\n")
    assert state(repo) == before


def test_a_key_the_trust_does_not_hold_signs_nothing(repo: Path, signer: Signer, tmp_path: Path) -> None:
    key = signer.key()
    trust = signer.trust(tmp_path / "trust", signer.key("other"))
    before = state(repo)
    signing = [*signer.signing_flags(), "--signing-key", key.signing_key, *trust.flags]
    done = run_cli(*FREEZE, "--sign", *signing, "-C", repo, code=2)
    assert done.stderr == (
        f"error: freeze --sign refuses to tag with a key its trust refuses: tag `{COHORT}` "
        f"{signer.not_trusted(key, trust)}; nothing was written\n"
        f"hint: sign with {signer.trusted_key}, valid now and not revoked (--signing-key), or have the "
        "maintainers publish this key first\n"
    )
    assert state(repo) == before


# -- SSH only, and cases of no format ---------------------------------------------------------------


def test_a_tag_signed_by_another_key_fails_git_tag_v(repo: Path, tmp_path: Path) -> None:
    key, other = make_key(tmp_path / "keys"), make_key(tmp_path / "keys", "other")
    run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--sign", "--signing-key", str(other), "-C", str(repo))
    assert verify_tag(repo, trusting(tmp_path, key), "2026-09-C0").returncode != 0


def test_a_gpg_format_other_than_ssh_or_openpgp_is_refused_writing_nothing(repo: Path, tmp_path: Path) -> None:
    key = make_key(tmp_path / "keys")
    git(repo, "config", "gpg.format", "x509")
    before = state(repo)
    done = run_cli(
        "freeze", "2026-09-C0", "--add", "gsm8k", "--sign", "--signing-key", str(key), "-C", str(repo), code=2
    )
    assert done.stderr == (
        "error: gpg.format is x509: freeze --sign signs with SSH or OpenPGP keys only; nothing was written\n"
        "hint: git config gpg.format ssh (an SSH key) or openpgp (a gpg key), or sign the tag with git tag -s "
        "yourself\n"
    )
    assert state(repo) == before


def require_signature(root: Path) -> None:
    replace_in(
        root,
        "benchmark_suite/suite.yaml",
        "  drafter_approval_lead_cohorts: 2\n",
        "  drafter_approval_lead_cohorts: 2\n  releases:\n    require_signature: true\n",
    )
    commit_all(root, "Require signed releases")


def test_the_policy_makes_freeze_refuse_to_tag_unsigned(repo: Path) -> None:
    require_signature(repo)
    before = state(repo)
    for extra in ([], ["--dry-run"]):
        done = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", *extra, "-C", str(repo), code=2)
        assert done.stderr == (
            "error: benchmark_suite/suite.yaml requires signed releases (policies.releases.require_signature): "
            "freeze does not tag unsigned; nothing was written\n"
            "hint: pass --sign (with --signing-key PATH, or git config user.signingKey)\n"
        )
        assert state(repo) == before


def test_the_policy_is_met_by_a_signed_freeze(repo: Path, tmp_path: Path) -> None:
    require_signature(repo)
    key = make_key(tmp_path / "keys")
    run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--sign", "--signing-key", str(key), "-C", str(repo))
    assert verify_tag(repo, trusting(tmp_path, key), "2026-09-C0").returncode == 0


def test_the_policy_must_be_a_boolean(repo: Path) -> None:
    replace_in(
        repo,
        "benchmark_suite/suite.yaml",
        "  drafter_approval_lead_cohorts: 2\n",
        '  drafter_approval_lead_cohorts: 2\n  releases:\n    require_signature: "always"\n',
    )
    done = run_cli("validate", str(repo), code=1)
    assert (
        "benchmark_suite/suite.yaml:20:24: error schema-wrong-type: policies.releases.require_signature: "
        "should be a valid boolean (got 'always')\n"
    ) in done.stdout


# -- item 3: a freeze that cannot sign writes nothing; reruns after crashes; --dry-run --------


class Crash(Exception):
    """A simulated crash."""


def crash_at(step: str) -> Callable[[str], None]:
    def failpoint(current: str) -> None:
        if current == step:
            raise Crash(step)

    return failpoint


def cannot_sign(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str) -> tuple[str, str]:
    """A key that cannot sign, and what ssh-keygen says of it."""
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)  # no agent
    if case == "missing":
        return str(tmp_path / "nothere"), f"cannot sign with {tmp_path / 'nothere'}: no such file"
    if case == "public-without-agent":
        key = make_key(tmp_path / "keys")
        alone = tmp_path / "public" / "maintainer.pub"
        alone.parent.mkdir()
        alone.write_bytes(Path(f"{key}.pub").read_bytes())
        return str(alone), f'ssh-keygen could not sign with {alone}: No private key found for public key "{alone}"'
    # an encrypted key, and no way to give its passphrase: askpass answers nothing
    key = make_key(tmp_path / "keys", passphrase="secret")
    monkeypatch.setenv("SSH_ASKPASS", "/bin/false")
    monkeypatch.setenv("SSH_ASKPASS_REQUIRE", "force")
    return str(key), (
        f'ssh-keygen could not sign with {key}: Load key "{key}": incorrect passphrase supplied to decrypt private key'
    )


SIGN_HINT = (
    "hint: a public key signs only when its private key is in ssh-agent (ssh-add); an encrypted key needs its "
    "passphrase (ssh-add it, or run in a terminal)\n"
)


@pytest.mark.parametrize("case", ["missing", "public-without-agent", "encrypted"])
def test_a_key_that_cannot_sign_leaves_everything_as_it_was(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    key, why = cannot_sign(tmp_path, monkeypatch, case)
    before, changelog = state(repo), (repo / "CHANGELOG.md").exists()
    done = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--sign", "--signing-key", key, "-C", str(repo), code=2)
    hint = (
        "hint: pass --signing-key PATH (a private key, or a public key whose private key is in ssh-agent), "
        "or set git config user.signingKey\n"
        if case == "missing"
        else SIGN_HINT
    )
    assert done.stderr == f"error: {why}\n{hint}"
    assert state(repo) == before
    assert (repo / "CHANGELOG.md").exists() == changelog
    assert not (repo / "rulesets").exists()


def test_a_key_that_cannot_sign_is_found_at_the_last_step_and_still_leaves_nothing(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key that can be read (its fingerprint) but not used: signing itself fails, after the
    commit's id was computed and before anything a user sees was written."""
    key, why = cannot_sign(tmp_path, monkeypatch, "encrypted")
    before = state(repo)
    with pytest.raises(EnvironmentProblem) as caught:
        freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k"], sign=True, signing_key=key))
    assert str(caught.value) == why
    assert state(repo) == before


@pytest.fixture
def remote(tmp_path: Path, repo: Path) -> Path:
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "push", "-q", "origin", "main")
    return bare


@pytest.mark.parametrize("sign_again", [True, False])
def test_a_rerun_after_a_crash_between_tag_and_push_ends_with_one_signed_tag_on_the_remote(
    repo: Path, remote: Path, tmp_path: Path, sign_again: bool
) -> None:
    key = make_key(tmp_path / "keys")
    with pytest.raises(Crash):
        freeze(
            repo,
            FreezeRequest("2026-09-C0", add=["gsm8k"], push="origin", sign=True, signing_key=str(key)),
            crash_at("tag"),
        )
    assert git(remote, "tag", "--list") == ""
    signed_tag = git(repo, "rev-parse", "2026-09-C0")
    result = freeze(repo, FreezeRequest("2026-09-C0", push="origin", sign=sign_again, signing_key=str(key)))
    assert (result.state, result.pushed) == ("already-frozen", True)
    assert git(remote, "tag", "--list") == "2026-09-C0"
    assert git(remote, "rev-parse", "2026-09-C0") == signed_tag  # the tag object signed before the crash
    verified = verify_tag(remote, trusting(tmp_path, key), "2026-09-C0")
    assert verified.returncode == 0, verified.stderr


def test_a_rerun_after_a_crash_between_commit_and_tag_signs_the_tag(
    repo: Path, remote: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = make_key(tmp_path / "keys")
    with pytest.raises(Crash):
        freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k"], sign=True, signing_key=str(key)), crash_at("commit"))
    after_crash = state(repo)
    locked, _ = cannot_sign(tmp_path / "other", monkeypatch, "encrypted")  # a rerun that cannot sign writes nothing
    with pytest.raises(EnvironmentProblem):
        freeze(repo, FreezeRequest("2026-09-C0", sign=True, signing_key=locked))
    assert state(repo) == after_crash
    result = freeze(repo, FreezeRequest("2026-09-C0", push="origin", sign=True, signing_key=str(key)))
    assert (result.state, result.tagged, result.signed, result.pushed) == ("resumed", True, True, True)
    assert verify_tag(remote, trusting(tmp_path, key), "2026-09-C0").returncode == 0


def test_under_the_policy_a_commit_without_its_tag_is_tagged_only_signed(repo: Path, tmp_path: Path) -> None:
    require_signature(repo)
    key = make_key(tmp_path / "keys")
    run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--no-tag", "-C", str(repo))  # no tag: nothing unsigned
    before = state(repo)
    done = run_cli("freeze", "2026-09-C0", "-C", str(repo), code=2)
    assert done.stderr.startswith("error: benchmark_suite/suite.yaml requires signed releases")
    assert state(repo) == before
    run_cli("freeze", "2026-09-C0", "--sign", "--signing-key", str(key), "-C", str(repo))
    assert verify_tag(repo, trusting(tmp_path, key), "2026-09-C0").returncode == 0


def test_sign_never_replaces_a_tag_that_exists_unsigned(repo: Path, tmp_path: Path) -> None:
    key = make_key(tmp_path / "keys")
    run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "-C", str(repo))
    before = state(repo)
    done = run_cli("freeze", "2026-09-C0", "--sign", "--signing-key", str(key), "-C", str(repo), code=1)
    assert done.stderr == (
        "error: tag `2026-09-C0` exists and is not signed: --sign cannot sign a tag that exists\n"
        "hint: a tag never pushed may be deleted (git tag -d 2026-09-C0) and frozen again with --sign; "
        "a published one never changes\n"
    )
    assert state(repo) == before


# -- a key the configured trust refuses: checked before anything is written ----------------------


def untrusted(tmp_path: Path, repo: Path, monkeypatch: pytest.MonkeyPatch, case: str) -> tuple[Path, list[str], str]:
    """A signing key, the flags (if any) that configure trust, and why that trust refuses it."""
    monkeypatch.setenv("TZ", "UTC")  # ssh-keygen shows its times in local time
    key, other = make_key(tmp_path / "keys"), make_key(tmp_path / "keys", "other")
    (tmp_path / "trust").mkdir()
    allowed = tmp_path / "trust" / "allowed_signers"
    if case == "unknown":  # trust from git config
        trusting(tmp_path / "trust", other)
        git(repo, "config", "gpg.ssh.allowedSignersFile", str(allowed))
        why = f"is signed by key {fingerprint(key)}, which is not in the allowed-signers file {allowed}"
        return key, [], why
    if case == "expired":  # trust from the flag
        allowed_signers(allowed, (EMAIL, key, 'valid-before="20200101"'))
        why = f"was signed at {{at}} by key {fingerprint(key)}, outside the key's validity: key has expired"
        return key, ["--allowed-signers", str(allowed)], why
    trusting(tmp_path / "trust", key)  # revoked: trust and revocations from the environment
    revoked = tmp_path / "trust" / "revoked.krl"
    subprocess.run(["ssh-keygen", "-q", "-k", "-f", str(revoked), f"{key}.pub"], check=True)
    monkeypatch.setenv("CATALOGCTL_ALLOWED_SIGNERS", str(allowed))
    monkeypatch.setenv("CATALOGCTL_SSH_REVOKED", str(revoked))
    return key, [], f"is signed by key {fingerprint(key)} of {EMAIL}, which is revoked ({revoked})"


@pytest.mark.parametrize("case", ["unknown", "expired", "revoked"])
def test_a_key_the_configured_trust_refuses_signs_nothing_and_writes_nothing(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    key, flags, why = untrusted(tmp_path, repo, monkeypatch, case)
    before = state(repo)
    args = ("freeze", "2026-09-C0", "--add", "gsm8k", "--sign", "--signing-key", str(key), *flags, "-C", str(repo))
    for dry_run in (["--dry-run"], []):  # a dry run says what the real run would: it refuses
        done = run_cli(*args, *dry_run, code=2)
        first, hint = done.stderr.splitlines()
        assert first.startswith("error: freeze --sign refuses to tag with a key its trust refuses: tag `2026-09-C0` ")
        prefix, _, rest = why.partition("{at}")
        assert prefix in first
        assert rest in first
        assert first.endswith("; nothing was written")
        assert hint == (
            "hint: sign with a key the allowed-signers file names, valid now and not revoked (--signing-key), "
            "or have the maintainers publish this key first"
        )
        assert state(repo) == before
    assert not (repo / "CHANGELOG.md").exists()
    assert not (repo / "rulesets").exists()


def test_a_key_the_configured_trust_names_signs(repo: Path, tmp_path: Path) -> None:
    key = make_key(tmp_path / "keys")
    allowed = trusting(tmp_path, key)
    args = ("freeze", "2026-09-C0", "--add", "gsm8k", "--sign", "--signing-key", str(key), "-C", str(repo))
    run_cli(*args, "--allowed-signers", str(allowed))
    assert verify_tag(repo, allowed, "2026-09-C0").returncode == 0


def test_a_configured_trust_file_that_is_not_there_signs_nothing(repo: Path, tmp_path: Path) -> None:
    key = make_key(tmp_path / "keys")
    before = state(repo)
    missing = tmp_path / "gone"
    args = ("freeze", "2026-09-C0", "--add", "gsm8k", "--sign", "--signing-key", str(key), "-C", str(repo))
    done = run_cli(*args, "--allowed-signers", str(missing), code=2)
    assert done.stderr.startswith(
        f"error: the allowed-signers file {missing} (from --allowed-signers) does not exist\n"
    )
    assert state(repo) == before


def test_under_the_policy_a_rerun_refuses_an_unsigned_tag_and_never_pushes_it(
    repo: Path, remote: Path, tmp_path: Path
) -> None:
    """A tag made unsigned (by an older version, or by hand) fails the policy: a rerun says so."""
    require_signature(repo)
    key = make_key(tmp_path / "keys")
    run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--sign", "--signing-key", str(key), "-C", str(repo))
    retag(repo, "2026-09-C0", None)
    before = state(repo)
    for extra in ([], ["--dry-run"]):
        done = run_cli("freeze", "2026-09-C0", "--push", "origin", *extra, "-C", str(repo), code=1)
        assert done.stderr == (
            "error: tag `2026-09-C0` exists and is not signed, but benchmark_suite/suite.yaml at the release requires "
            "signed releases (policies.releases.require_signature): it is no release, and freeze does not push it\n"
            "hint: a tag never pushed may be deleted (git tag -d 2026-09-C0) and frozen again with --sign; "
            "a published one never changes\n"
        )
        assert done.stdout == ""
    assert state(repo) == before
    assert git(remote, "tag", "--list") == ""


def test_a_rerun_never_pushes_an_existing_tag_whose_signature_its_trust_refuses(
    repo: Path, remote: Path, tmp_path: Path
) -> None:
    """The first run would have refused to make it: a rerun refuses to publish it."""
    key, other = make_key(tmp_path / "keys"), make_key(tmp_path / "keys", "other")
    allowed = trusting(tmp_path, key)
    run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--sign", "--signing-key", str(key), "-C", str(repo))
    rerun = ["freeze", "2026-09-C0", "--sign", "--signing-key", str(key), "--push", "origin", "-C", str(repo)]
    retag(repo, "2026-09-C0", other, date=None)  # after its commit, made now
    redo = (
        "hint: a tag never pushed may be deleted (git tag -d 2026-09-C0) and frozen again with --sign; "
        "a published one never changes\n"
    )
    done = run_cli(*rerun, "--allowed-signers", str(allowed), code=1)
    assert done.stderr == (
        f"error: tag `2026-09-C0` exists, but its signature is refused, and freeze does not push it: tag `2026-09-C0` "
        f"is signed by key {fingerprint(other)}, which is not in the allowed-signers file {allowed}\n" + redo
    )
    raw = git(repo, "cat-file", "tag", "2026-09-C0") + "\n"
    garbage = raw.split("-----BEGIN SSH", 1)[0] + "-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----\n"
    made = subprocess.run(["git", "mktag"], cwd=repo, input=garbage, capture_output=True, text=True, check=True)
    git(repo, "update-ref", "refs/tags/2026-09-C0", made.stdout.strip())
    done = run_cli(*rerun, code=1)  # no allowed-signers file: a signature that matches nothing is still refused
    assert done.stderr == (
        "error: tag `2026-09-C0` exists, but its signature is refused, and freeze does not push it: "
        "tag `2026-09-C0`'s signature does not match the tag\n" + redo
    )
    assert git(remote, "tag", "--list") == ""


def test_a_rerun_without_sign_never_tags_unsigned_what_the_crashed_run_meant_to_sign(
    repo: Path, tmp_path: Path
) -> None:
    """The first run's commit records that it signs its tag: a rerun that forgot --sign refuses."""
    key = make_key(tmp_path / "keys")
    with pytest.raises(Crash):
        freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k"], sign=True, signing_key=str(key)), crash_at("commit"))
    after_crash = state(repo)
    for extra in ([], ["--dry-run"]):
        done = run_cli("freeze", "2026-09-C0", *extra, "-C", str(repo), code=2)
        assert done.stderr == (
            f"error: the run that committed {after_crash[0][:12]} asked to sign tag `2026-09-C0` (--sign): "
            "this rerun would tag it unsigned; nothing was written\n"
            "hint: rerun with --sign (and the same --signing-key)\n"
        )
    assert state(repo) == after_crash
    run_cli("freeze", "2026-09-C0", "--sign", "--signing-key", str(key), "-C", str(repo))
    assert verify_tag(repo, trusting(tmp_path, key), "2026-09-C0").returncode == 0


# -- OpenPGP only ----------------------------------------------------------------------------------


@pytest.fixture
def gpg_key(gnupg: GpgHome) -> str:
    return gnupg.make_key(UID)


def test_gpg_program_is_honoured(repo: Path, gpg_key: str, tmp_path: Path) -> None:
    called = tmp_path / "called"
    program = tmp_path / "my-gpg"
    program.write_text(f'#!/bin/sh\necho "$@" >> {called}\nexec gpg "$@"\n')
    program.chmod(0o755)
    git(repo, "config", "gpg.program", str(program))
    run_cli(*FREEZE, "--sign", "--signing-format", "openpgp", "--signing-key", gpg_key, "-C", repo)
    assert called.read_text().splitlines()[-1] == f"--status-fd=2 -bsau {gpg_key}"  # git's own arguments
    assert git_tag_v(repo, COHORT).returncode == 0


def test_an_unknown_gpg_key_writes_nothing_and_says_why(repo: Path, gpg_key: str) -> None:
    before = state(repo)
    done = run_cli(
        *FREEZE, "--sign", "--signing-format", "openpgp", "--signing-key", "nobody@example.org", "-C", repo, code=2
    )
    assert done.stderr == (
        "error: cannot sign with gpg key nobody@example.org: gpg has no secret key for it "
        "(gpg: error reading key: No secret key)\n"
        "hint: pass --signing-key with a key of gpg --list-secret-keys, or git config user.signingKey KEYID\n"
    )
    assert state(repo) == before


def test_a_missing_gpg_is_an_install_hint(repo: Path, gpg_key: str) -> None:
    git(repo, "config", "gpg.openpgp.program", "/nonexistent/gpg")
    done = run_cli(*FREEZE, "--sign", "--signing-format", "openpgp", "--signing-key", gpg_key, "-C", repo, code=2)
    assert done.stderr == (
        "error: /nonexistent/gpg is not installed: OpenPGP signatures cannot be made\n"
        "hint: install GnuPG (apt-get install gnupg; it brings gpgv)\n"
    )


def test_a_gpg_that_cannot_sign_at_the_last_step_leaves_nothing(repo: Path, gpg_key: str, tmp_path: Path) -> None:
    program = tmp_path / "refusing-gpg"  # lists the key, then refuses to sign (a locked card, say)
    refuse = 'case "$1" in --status-fd*) echo "gpg: signing failed: Card removed" >&2; exit 2;; esac'
    program.write_text(f'#!/bin/sh\n{refuse}\nexec gpg "$@"\n')
    program.chmod(0o755)
    git(repo, "config", "gpg.program", str(program))
    before = state(repo)
    done = run_cli(*FREEZE, "--sign", "--signing-format", "openpgp", "--signing-key", gpg_key, "-C", repo, code=2)
    assert done.stderr.splitlines()[0] == f"error: gpg could not sign with {gpg_key}: gpg: signing failed: Card removed"
    assert state(repo) == before
    assert not (repo / "rulesets").exists()


def test_signing_format_ssh_overrides_gpg_format_openpgp(repo: Path, tmp_path: Path) -> None:
    ssh_key = make_key(tmp_path / "keys")
    git(repo, "config", "gpg.format", "openpgp")
    done = run_cli(*FREEZE, "--sign", "--signing-format", "ssh", "--signing-key", ssh_key, "-C", repo)
    assert done.stdout.endswith(f"signed with {ssh_key} ({fingerprint(ssh_key)})\n")
    assert git(repo, "cat-file", "tag", COHORT).endswith("-----END SSH SIGNATURE-----")


def git_tag_v(root: Path, tag: str) -> subprocess.CompletedProcess[str]:
    """Real `git tag -v`, with the environment's GNUPGHOME (the key's home): git tells the kind by the armor."""
    return subprocess.run(["git", "tag", "-v", tag], cwd=root, capture_output=True, text=True, check=False)
