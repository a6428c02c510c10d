"""The signature clause of a release: `verify` and `cohorts` with real keys and `git tag -s` tags,
SSH (checked by ssh-keygen against an allowed-signers file) and OpenPGP (checked by gpgv against a
keyring file); where trust comes from, that it never comes from the tree under check, and that a
trust of one format accepts no signature of the other. The cases both formats share run once per
format (the `signer` fixture); the rest are marked by the format they are about."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from catalogctl.catalog.layout import DEFAULT
from catalogctl.io import gitrepo
from catalogctl.release.trust import policy_requires
from tests.gpgkeys import GpgHome, retag_gpg
from tests.helpers import commit_all, git, init_repo, run_cli, write
from tests.prebuilt import Prebuilt
from tests.signers import Signer
from tests.signing import allowed_signers, fingerprint, make_key, retag

COHORT = "2026-09-C0"
KEYS = "maint@example.org"
UID = "Maintainer <m@example.org>"


@pytest.fixture
def release(catalog_repo: Path, prebuilt: Prebuilt, tmp_path: Path) -> Path:
    """Cohort 2026-09-C0 frozen and pushed to a bare `origin` (unsigned: freeze does not sign here)."""
    return prebuilt.install("release", tmp_path)


@pytest.fixture
def key(tmp_path: Path) -> Path:
    return make_key(tmp_path / "keys", "maint")


@pytest.fixture
def allowed(tmp_path: Path, key: Path) -> Path:
    return allowed_signers(tmp_path / "allowed_signers", (KEYS, key, ""))


def verify(release: Path, *extra: str, code: int = 0) -> list[str]:
    """`verify --require-signature` of the cohort, its output lines."""
    return run_cli("verify", COHORT, "-C", release, "--require-signature", *extra, code=code).stdout.splitlines()


# -- each signing format (the `signer` fixture: SSH, then OpenPGP) ---------------------------------


def test_a_git_tag_s_tag_verifies_as_git_tag_v_verifies_it(release: Path, signer: Signer, tmp_path: Path) -> None:
    key = signer.key()
    trust = signer.trust(tmp_path / "trust", key)
    signer.sign_tag(release, COHORT, key)
    code, said = signer.git_tag_v(release, COHORT, key)
    assert code == 0, said
    assert signer.good_from_git(key) in said
    lines = verify(release, *trust.flags)
    assert f"ok    tag `{COHORT}` {signer.signed_by(key)}" in lines
    assert lines[-1].startswith(f"{COHORT}: verified")
    result = json.loads(run_cli("verify", COHORT, "-C", release, *trust.flags, "-f", "json").stdout)
    assert result["signature"] == {
        "state": "good",
        "required": False,
        "principal": key.principal,
        "fingerprint": key.fingerprint,
        "message": f"tag `{COHORT}` {signer.signed_by(key)}",
        "hint": "",
    }
    shown = run_cli("cohorts", "-C", release, *trust.flags).stdout.splitlines()[1]
    assert shown.endswith(f"{key.principal} ({key.fingerprint})")


def test_the_trust_comes_from_the_environment(
    release: Path, signer: Signer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = signer.key()
    trust = signer.trust(tmp_path / "trust", key)
    signer.sign_tag(release, COHORT, key)
    monkeypatch.setenv(signer.trust_env, str(trust.file))
    assert verify(release)[-1].startswith(f"{COHORT}: verified")


def test_without_trust_a_required_signature_fails_closed(release: Path, signer: Signer) -> None:
    key = signer.key()
    signer.sign_tag(release, COHORT, key)
    assert f"FAIL  tag `{COHORT}` {signer.no_trust(key)}" in verify(release, code=1)
    expected = signer.unchecked_in_cohorts(key)
    assert run_cli("cohorts", "-C", release).stdout.splitlines()[1].split()[-len(expected) :] == expected


def test_a_trust_of_the_other_format_checks_nothing(
    release: Path, signer: Signer, other_signer: Signer, tmp_path: Path
) -> None:
    key = signer.key()
    signer.sign_tag(release, COHORT, key)
    other = other_signer.trust(tmp_path / "other-trust", other_signer.key())
    assert (
        f"FAIL  tag `{COHORT}` {signer.no_trust(key)} (the {other_signer.trust_words} {other.file} trusts "
        f"{other_signer.kind} keys only)"
    ) in verify(release, *other.flags, code=1)


def test_a_trust_file_in_the_tree_under_check_is_refused(release: Path, signer: Signer) -> None:
    inside = signer.trust(release, signer.key()).file
    result = run_cli("verify", COHORT, "-C", release, signer.trust_flag, inside, code=2)
    assert result.stderr == (
        f"error: the {signer.trust_words} {inside.resolve()} (from {signer.trust_flag}) is inside the repository "
        "under check: whoever can change the repository could trust their own key\n"
        "hint: keep it outside the clone: a copy the maintainers publish, installed by you\n"
    )


def test_text_after_a_good_signature_is_refused(release: Path, signer: Signer, tmp_path: Path) -> None:
    """ssh-keygen and gpgv read the armor and ignore what follows it: those bytes are signed by no one."""
    key = signer.key()
    trust = signer.trust(tmp_path / "trust", key)
    signer.sign_tag(release, COHORT, key)
    good = git(release, "cat-file", "tag", COHORT) + "\n"
    put_tag(release, COHORT, good + "x\n")
    lines = verify(release, *trust.flags, code=1)
    assert [line for line in lines if line.startswith("FAIL")] == [
        f"FAIL  tag `{COHORT}`'s signature is not the end of the tag object: 2 bytes follow its END line, "
        "signed by no one"
    ]
    assert verify(release, code=1)[-2:] == lines[-2:]  # the same without trust: no key is needed to see it


# -- OpenPGP only ----------------------------------------------------------------------------------


def test_a_missing_gpg_keyring_says_how_to_make_one(release: Path) -> None:
    missing = release.parent / "no-such-keyring"
    assert run_cli("verify", COHORT, "-C", release, "--require-signature", "--gpg-keyring", missing, code=2).stderr == (
        f"error: the GPG keyring {missing} (from --gpg-keyring) does not exist\n"
        "hint: pass --gpg-keyring FILE or set CATALOGCTL_GPG_KEYRING (the maintainers' public keys, gpg --export, "
        "in a file outside the repository)\n"
    )


def test_an_armored_keyring_is_refused_as_unreadable_not_as_an_unknown_key(
    release: Path, gnupg: GpgHome, tmp_path: Path
) -> None:
    key = gnupg.make_key(UID)
    retag_gpg(release, COHORT, key)
    armored = tmp_path / "trust" / "keyring.asc"
    armored.parent.mkdir(exist_ok=True)
    armored.write_bytes(gnupg.gpg("--export", "--armor", key))
    done = run_cli("verify", COHORT, "-C", release, "--require-signature", "--gpg-keyring", armored, code=2)
    assert done.stderr == (
        f"error: the GPG keyring {armored} cannot be read: gpgv finds no OpenPGP keys in it (gpgv: keydb_search "
        "failed: Invalid packet)\n"
        "hint: pass a binary keyring: gpg --export KEYID > keyring.gpg (an armored export: gpg --dearmor it)\n"
    )
    shown = run_cli("cohorts", "-C", release, "--gpg-keyring", armored).stdout.splitlines()[1]
    assert shown.split()[-1] == "not-checked"  # not required: said, not fatal


# -- SSH only, and cases of no format (checked with SSH trust) -------------------------------------


def test_an_unsigned_release_fails_when_a_signature_is_required(release: Path, allowed: Path) -> None:
    lines = verify(release, "--allowed-signers", str(allowed), code=1)
    assert f"FAIL  tag `{COHORT}` is not signed" in lines
    assert lines[-1] == f"{COHORT}: NOT verified: 1 problem (contracts at {COHORT} ({lines[-1][-14:-2]}))"
    cohorts = run_cli("cohorts", "-C", release, "--require-signature", "--allowed-signers", allowed, code=1)
    assert cohorts.stdout.splitlines()[1].split()[-3:] == ["matches", "unsigned", "REQUIRED"]


def test_the_ssh_trust_comes_from_git_config(release: Path, key: Path, allowed: Path) -> None:
    retag(release, COHORT, key)
    git(release, "config", "gpg.ssh.allowedSignersFile", str(allowed))
    assert verify(release)[-1].startswith(f"{COHORT}: verified")
    revoked = allowed.with_name("revoked_keys")
    revoked.write_text(key.with_name("maint.pub").read_text())
    git(release, "config", "gpg.ssh.revocationKeyring", str(revoked))
    assert f"FAIL  tag `{COHORT}` is signed by key {fingerprint(key)} of {KEYS}, which is revoked ({revoked})" in (
        verify(release, code=1)
    )


def test_a_missing_ssh_revocation_list_is_an_error_only_when_a_signature_is_required(release: Path) -> None:
    git(release, "config", "gpg.ssh.revocationKeyring", "~/no-such-file")
    missing = Path("~/no-such-file").expanduser()
    assert run_cli("cohorts", "-C", release).stdout.splitlines()[1].split()[-1] == "not-checked"  # not required
    assert run_cli("cohorts", "-C", release, "--require-signature", code=2).stderr.startswith(
        f"error: the revocation list {missing} (from git config gpg.ssh.revocationKeyring) does not exist\n"
    )


def test_a_tag_signed_after_its_key_s_valid_before_fails(release: Path, key: Path, tmp_path: Path) -> None:
    retired = allowed_signers(tmp_path / "retired", (KEYS, key, 'valid-before="20260901"'))
    retag(release, COHORT, key, date="2026-09-28T12:00:00Z")
    lines = verify(release, "--allowed-signers", str(retired), code=1)
    assert [line for line in lines if line.startswith("FAIL")] == [
        f"FAIL  tag `{COHORT}` was signed at 2026-09-28T12:00:00+00:00 by key {fingerprint(key)}, outside the "
        f"key's validity: key has expired: verify time {_local('20260928120000')} > valid-before "
        f"{_local('20260901000000', utc=False)}"
    ]
    retag(release, COHORT, key, date="2026-08-30T12:00:00Z")  # before the end date: still good
    assert verify(release, "--allowed-signers", str(retired))[-1].startswith(f"{COHORT}: verified")


def _local(stamp: str, utc: bool = True) -> str:
    """A time as ssh-keygen shows it: in local time (the tests run with the machine's zone)."""
    import datetime as dt

    when = dt.datetime.strptime(stamp, "%Y%m%d%H%M%S")
    if utc:
        when = when.replace(tzinfo=dt.UTC).astimezone().replace(tzinfo=None)
    return when.isoformat()


def test_an_x509_signed_tag_is_refused_with_a_reason(release: Path, allowed: Path) -> None:
    fake = (
        git(release, "cat-file", "tag", COHORT)
        + "\n-----BEGIN SIGNED MESSAGE-----\nabc\n-----END SIGNED MESSAGE-----\n"
    )
    done = subprocess.run(["git", "mktag"], cwd=release, input=fake, capture_output=True, text=True, check=True)
    git(release, "update-ref", f"refs/tags/{COHORT}", done.stdout.strip())
    assert f"FAIL  tag `{COHORT}` has an X.509 signature: catalogctl checks SSH and OpenPGP signatures only" in verify(
        release, "--allowed-signers", str(allowed), code=1
    )


def test_the_policy_is_read_from_the_suite_at_the_release_commit(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "r")
    write(root, "benchmark_suite/suite.yaml", "policies:\n  releases:\n    require_signature: true\n")
    on = gitrepo.commit_by_id(gitrepo.open_repository(root), commit_all(root, "on"))
    write(root, "benchmark_suite/suite.yaml", "policies:\n  releases: {require_signature: 'yes'}\n")
    odd = gitrepo.commit_by_id(gitrepo.open_repository(root), commit_all(root, "not a bool"))
    write(root, "benchmark_suite/suite.yaml", "policies: [\n")
    broken = gitrepo.commit_by_id(gitrepo.open_repository(root), commit_all(root, "broken"))
    git(root, "rm", "-q", "benchmark_suite/suite.yaml")
    gone = gitrepo.commit_by_id(gitrepo.open_repository(root), commit_all(root, "gone"))
    assert [policy_requires(c, DEFAULT) for c in (on, odd, broken, gone)] == [True, False, False, False]


def forge(repo: Path, tag: str, tagger: str | None) -> None:
    """Point `tag` at a hand-made copy of its tag object whose tagger line is `tagger` (none when None)."""
    head, body = (git(repo, "cat-file", "tag", tag) + "\n").split("\n\n", 1)
    lines = [line for line in head.splitlines() if not line.startswith("tagger ")]
    lines += [f"tagger {tagger}"] if tagger is not None else []
    raw = "\n".join(lines) + "\n\n" + body
    done = subprocess.run(
        ["git", "hash-object", "-t", "tag", "-w", "--literally", "--stdin"],
        cwd=repo,
        input=raw,
        capture_output=True,
        text=True,
        check=True,
    )
    git(repo, "update-ref", f"refs/tags/{tag}", done.stdout.strip())


@pytest.mark.parametrize(
    ("tagger", "why"),
    [
        (None, "it has no tagger line"),
        ("M <m@x> 253402300800 +0000", "its tagger date 253402300800 +0000 is not a date"),
        ("M <m@x> 99999999999999999 +0000", "its tagger date 99999999999999999 +0000 is not a date"),
        ("M <m@x> 99999999999999999999 +0000", "its tagger date 99999999999999999999 +0000 is not a date"),
        ("M <m@x> 0 +0000", "its tagger date 0 +0000 cannot be checked: ssh-keygen takes no time before 1970"),
    ],
)
def test_a_tag_object_without_a_readable_tagger_date_is_a_finding(
    release: Path, allowed: Path, tagger: str | None, why: str
) -> None:
    forge(release, COHORT, tagger)
    problem = f"FAIL  tag `{COHORT}` is not a tag git makes: {why}"
    for extra in ((), ("--allowed-signers", str(allowed))):
        lines = run_cli("verify", COHORT, "-C", release, *extra, code=1).stdout.splitlines()
        assert problem in lines
    cohorts = run_cli("cohorts", "-C", release, "--allowed-signers", allowed).stdout.splitlines()
    assert cohorts[1].split()[-2:] == ["present", "bad"]  # there, but not the release (as a lightweight tag)


def test_when_no_signature_is_required_a_missing_ssh_keygen_or_signers_file_is_a_note(
    release: Path, key: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    retag(release, COHORT, key)
    git(release, "config", "gpg.ssh.allowedSignersFile", str(tmp_path / "gone"))  # a stale setting
    lines = run_cli("verify", COHORT, "-C", release).stdout.splitlines()
    assert lines[-1].startswith(f"{COHORT}: verified")
    git(release, "config", "--unset", "gpg.ssh.allowedSignersFile")
    bare = tmp_path / "bin"
    bare.mkdir()
    (bare / "git").symlink_to(subprocess.run(["which", "git"], capture_output=True, text=True).stdout.strip())
    monkeypatch.setenv("PATH", str(bare))  # no ssh-keygen
    lines = run_cli("verify", COHORT, "-C", release).stdout.splitlines()
    assert lines[-1].startswith(f"{COHORT}: verified")
    run_cli("cohorts", "-C", release)
    assert "REQUIRED" not in run_cli("verify", COHORT, "-C", release, "--require-signature", code=2).stdout


def test_trust_files_are_refused_for_their_own_reason(release: Path, key: Path, tmp_path: Path) -> None:
    """A folder is not a file; a file in .git is refused as such (whoever controls the checkout
    controls .git too); a revocation list ssh-keygen cannot read is not "revoked"."""
    folder = tmp_path / "a-folder"
    folder.mkdir()
    result = run_cli("verify", COHORT, "-C", release, "--require-signature", "--allowed-signers", folder, code=2)
    assert result.stderr.startswith(
        f"error: the allowed-signers file {folder.resolve()} (from --allowed-signers) is a folder, not a file\n"
    )
    in_git = allowed_signers(release / ".git" / "allowed", (KEYS, key, ""))
    result = run_cli("verify", COHORT, "-C", release, "--allowed-signers", in_git, code=2)
    assert result.stderr == (
        f"error: the allowed-signers file {in_git.resolve()} (from --allowed-signers) is inside the .git folder of "
        "the repository under check: whoever controls the checkout controls its .git folder too\n"
        "hint: keep it outside the clone: a copy the maintainers publish, installed by you\n"
    )


def test_a_revocation_list_that_cannot_be_read_is_said_so(release: Path, key: Path, tmp_path: Path) -> None:
    retag(release, COHORT, key)
    allowed = allowed_signers(tmp_path / "allowed_signers", (KEYS, key, ""))
    garbage = write(tmp_path, "revoked.krl", "not a revocation list\n")
    flags = ["--require-signature", "--allowed-signers", str(allowed), "--revocation-list", str(garbage)]
    result = run_cli("verify", COHORT, "-C", release, *flags, code=2)
    assert result.stderr == (
        f"error: the revocation list {garbage} cannot be read: it is neither a KRL nor a file of public keys\n"
        "hint: pass a KRL made by ssh-keygen -k, or a file of public keys (--revocation-list FILE)\n"
    )


def put_tag(repo: Path, tag: str, raw: str) -> None:
    """Point `tag` at the tag object `raw`, written as is (`git hash-object --literally`)."""
    done = subprocess.run(
        ["git", "hash-object", "-t", "tag", "-w", "--literally", "--stdin"],
        cwd=repo,
        input=raw,
        capture_output=True,
        text=True,
        check=True,
    )
    git(repo, "update-ref", f"refs/tags/{tag}", done.stdout.strip())


def test_a_signed_tag_of_another_name_with_a_digest_appended_is_not_the_release(
    release: Path, key: Path, allowed: Path
) -> None:
    """A maintainer's signed tool tag `v1.0` at the release commit, the digest appended after its
    signature and put under the cohort's name: the digest is unsigned, the name is not the cohort's."""
    good = git(release, "cat-file", "tag", COHORT) + "\n"
    digest = next(line for line in good.splitlines() if line.startswith("ruleset-digest: "))
    commit = git(release, "rev-parse", f"{COHORT}^{{commit}}")
    sign = ["-c", "gpg.format=ssh", "-c", f"user.signingKey={key}"]
    subprocess.run(["git", *sign, "tag", "-s", "v1.0", "-m", "tool release 1.0", commit], cwd=release, check=True)
    put_tag(release, COHORT, git(release, "cat-file", "tag", "v1.0") + "\n" + digest + "\n")
    lines = verify(release, "--allowed-signers", str(allowed), code=1)
    assert [line for line in lines if line.startswith("FAIL")] == [
        f"FAIL  tag `{COHORT}` is not a tag git makes: it is tag `v1.0` (its tag header) under refs/tags/{COHORT}",
        f"FAIL  tag `{COHORT}` carries ruleset digest none, but the ruleset's is {digest.split(': ')[1]}",
        f"FAIL  tag `{COHORT}`'s signature is not the end of the tag object: {len(digest) + 1} bytes follow its "
        "END line, signed by no one",
    ]


def test_an_unsigned_tag_of_another_name_is_not_the_release(release: Path) -> None:
    """git itself never checks a tag's header against its ref (only `git describe` warns)."""
    raw = git(release, "cat-file", "tag", COHORT) + "\n"
    put_tag(release, COHORT, raw.replace(f"\ntag {COHORT}\n", "\ntag v1.0\n", 1))
    lines = run_cli("verify", COHORT, "-C", release, code=1).stdout.splitlines()
    assert (
        f"FAIL  tag `{COHORT}` is not a tag git makes: it is tag `v1.0` (its tag header) under refs/tags/{COHORT}"
        in lines
    )


def test_a_tagger_date_before_its_commit_or_in_the_future_is_not_a_signing_time(
    release: Path, key: Path, tmp_path: Path
) -> None:
    """The key's validity is checked at the tagger date, the signer's claim: a retired key cannot
    backdate a tag to before its commit, and a key not yet valid cannot postdate one."""
    retired = allowed_signers(tmp_path / "retired", (KEYS, key, 'valid-before="20260801"'))
    retag(release, COHORT, key, date="2025-06-01T12:00:00Z")  # the release commit is of 2026-08-28
    lines = verify(release, "--allowed-signers", str(retired), code=1)
    assert [line for line in lines if line.startswith("FAIL")] == [
        f"FAIL  tag `{COHORT}` is dated 2025-06-01T12:00:00+00:00, before its commit (2026-08-28T12:00:00+00:00): "
        "the tagger date is not when it was signed"
    ]
    future = allowed_signers(tmp_path / "future", (KEYS, key, 'valid-after="20300101"'))
    retag(release, COHORT, key, date="2031-01-01T12:00:00Z")
    lines = verify(release, "--allowed-signers", str(future), code=1)
    assert [line for line in lines if line.startswith("FAIL")] == [
        f"FAIL  tag `{COHORT}` is dated 2031-01-01T12:00:00+00:00, more than a day after this machine's clock: "
        "a signing time not yet come"
    ]


def test_a_trust_file_in_a_bare_repository_or_another_worktree_of_it_is_refused(
    release: Path, key: Path, tmp_path: Path
) -> None:
    """Whoever controls the repository controls every worktree of it, and a bare one's folder."""
    git(release, "worktree", "add", "-q", str(tmp_path / "other"))
    in_other = allowed_signers(tmp_path / "other" / "allowed", (KEYS, key, ""))
    result = run_cli("verify", COHORT, "-C", release, "--allowed-signers", in_other, code=2)
    assert result.stderr.startswith(
        f"error: the allowed-signers file {in_other.resolve()} (from --allowed-signers) is inside the repository "
        "under check: whoever can change the repository could trust their own key\n"
    )
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(release), str(bare))
    in_bare = allowed_signers(bare / "allowed", (KEYS, key, ""))
    result = run_cli("verify", COHORT, "-C", bare, "--allowed-signers", in_bare, code=2)
    assert result.stderr.startswith(
        f"error: the allowed-signers file {in_bare.resolve()} (from --allowed-signers) is inside the .git folder of "
        "the repository under check: whoever controls the checkout controls its .git folder too\n"
    )


def test_cohorts_under_a_signature_policy_without_allowed_signers_says_why_and_how(
    catalog_repo: Path, tmp_path: Path
) -> None:
    # It exited 1 with nothing on stderr: the table's "not-checked … REQUIRED" was all.
    from tests.release_repo import make_freezable

    repo = make_freezable(catalog_repo)
    policy = "policies:\n  releases:\n    require_signature: true\n"
    (repo / "benchmark_suite/suite.yaml").write_text(
        (repo / "benchmark_suite/suite.yaml").read_text().replace("policies:\n", policy, 1)
    )
    commit_all(repo, "Require signed releases")
    key = make_key(tmp_path / "keys", "maint")
    run_cli("freeze", COHORT, "--add", "gsm8k", "--signing-key", str(key), "-C", repo)
    done = run_cli("cohorts", "-C", repo, code=1)
    assert done.stdout.splitlines()[1].split()[-3:] == ["not-checked", f"({fingerprint(key)})", "REQUIRED"]
    assert done.stderr == (
        f"error: {COHORT}: tag `{COHORT}` is signed by key {fingerprint(key)}, not checked: no allowed-signers file "
        "is configured; a good signature is required (policies.releases.require_signature in the release's "
        "suite.yaml)\n"
        "hint: pass --allowed-signers FILE, set CATALOGCTL_ALLOWED_SIGNERS, or git config "
        "gpg.ssh.allowedSignersFile FILE (a file outside the repository, from the maintainers)\n"
    )
    allowed = allowed_signers(tmp_path / "allowed", ("tester@example.invalid", key, ""))
    trusted = run_cli("cohorts", "-C", repo, "--allowed-signers", allowed)
    assert trusted.stderr == ""


@pytest.mark.parametrize("where", ["allowed_signers", ".git/allowed_signers"])
def test_a_hard_link_to_a_file_in_the_repository_is_refused(
    release: Path, key: Path, tmp_path: Path, where: str
) -> None:
    # The check was by path: a second name outside the clone for a file inside it was trusted.
    inside = allowed_signers(release / where, (KEYS, key, ""))
    outside = tmp_path / "trusted" / "allowed_signers"
    outside.parent.mkdir()
    os.link(inside, outside)
    retag(release, COHORT, key)
    result = run_cli("verify", COHORT, "-C", release, "--allowed-signers", outside, code=2)
    assert result.stderr == (
        f"error: the allowed-signers file {outside} (from --allowed-signers) is a hard link to {inside}, inside the "
        "repository under check: whoever can change the repository could change it\n"
        "hint: keep a copy outside the clone (cp, not ln): a copy the maintainers publish, installed by you\n"
    )
    copied = tmp_path / "copied"
    copied.write_bytes(inside.read_bytes())  # a copy is not the same file
    assert verify(release, "--allowed-signers", str(copied))[-1].startswith(f"{COHORT}: verified")
