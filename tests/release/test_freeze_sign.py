"""`freeze --sign`: a release tag signed as `git tag -s` signs it (SSH), which real `git tag -v`
verifies; the suite's policy that requires it; signing that fails leaves everything as it was."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.helpers import commit_all, git, replace_in, run_cli
from tests.release_repo import make_freezable

EMAIL = "tester@example.invalid"


@pytest.fixture
def repo(catalog_repo: Path) -> Path:
    return make_freezable(catalog_repo)


def make_key(folder: Path, name: str = "maintainer", passphrase: str = "") -> Path:
    """A real ed25519 key pair made by ssh-keygen; returns the private key's path."""
    folder.mkdir(parents=True, exist_ok=True)
    key = folder / name
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", passphrase, "-C", name, "-f", str(key)],
        check=True,
        capture_output=True,
    )
    return key


def fingerprint(key: Path) -> str:
    done = subprocess.run(["ssh-keygen", "-l", "-f", str(key)], check=True, capture_output=True, text=True)
    return done.stdout.split()[1]


def allowed_signers(folder: Path, *keys: Path) -> Path:
    """An allowed-signers file (outside any repository) naming each key's public half."""
    path = folder / "allowed_signers"
    lines = [f'{EMAIL} namespaces="git" {Path(f"{k}.pub").read_text().strip()}' for k in keys]
    path.write_text("\n".join(lines) + "\n")
    return path


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


def test_freeze_sign_makes_a_tag_git_tag_v_verifies(repo: Path, tmp_path: Path) -> None:
    key = make_key(tmp_path / "keys")
    done = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--sign", "--signing-key", str(key), "-C", str(repo))
    assert done.stdout.endswith(f"signed with {key} ({fingerprint(key)})\n")
    verified = verify_tag(repo, allowed_signers(tmp_path, key), "2026-09-C0")
    assert verified.returncode == 0, verified.stderr
    assert f'Good "git" signature for {EMAIL} with ED25519 key {fingerprint(key)}' in verified.stderr
    assert git(repo, "rev-parse", "2026-09-C0^{commit}") == git(repo, "rev-parse", "HEAD")
    # git's own layout: the headers, the message with the digest, then the armored signature
    raw = git(repo, "cat-file", "tag", "2026-09-C0")
    assert raw.startswith(f"object {git(repo, 'rev-parse', 'HEAD')}\ntype commit\ntag 2026-09-C0\ntagger ")
    assert "\n\nCohort 2026-09-C0\n\nruleset: rulesets/2026-09-C0.yaml\nruleset-digest: sha256:" in raw
    assert raw.endswith("-----END SSH SIGNATURE-----")
    assert git(repo, "status", "--porcelain") == ""


def test_the_key_comes_from_user_signingkey(repo: Path, tmp_path: Path) -> None:
    key = make_key(tmp_path / "keys")
    git(repo, "config", "user.signingKey", f"{key}.pub")  # the public half: its private key sits beside it
    run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--sign", "-C", str(repo))
    assert verify_tag(repo, allowed_signers(tmp_path, key), "2026-09-C0").returncode == 0


def test_a_tag_signed_by_another_key_fails_git_tag_v(repo: Path, tmp_path: Path) -> None:
    key, other = make_key(tmp_path / "keys"), make_key(tmp_path / "keys", "other")
    run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--sign", "--signing-key", str(other), "-C", str(repo))
    assert verify_tag(repo, allowed_signers(tmp_path, key), "2026-09-C0").returncode != 0


def test_a_gpg_format_other_than_ssh_is_refused_writing_nothing(repo: Path, tmp_path: Path) -> None:
    key = make_key(tmp_path / "keys")
    git(repo, "config", "gpg.format", "openpgp")
    before = state(repo)
    done = run_cli(
        "freeze", "2026-09-C0", "--add", "gsm8k", "--sign", "--signing-key", str(key), "-C", str(repo), code=2
    )
    assert done.stderr == (
        "error: gpg.format is openpgp: freeze --sign signs with SSH keys only; nothing was written\n"
        "hint: git config gpg.format ssh (an SSH key), or sign the tag with git tag -s yourself\n"
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
    assert verify_tag(repo, allowed_signers(tmp_path, key), "2026-09-C0").returncode == 0


def test_the_policy_must_be_a_boolean(repo: Path) -> None:
    replace_in(
        repo,
        "benchmark_suite/suite.yaml",
        "  drafter_approval_lead_cohorts: 2\n",
        '  drafter_approval_lead_cohorts: 2\n  releases:\n    require_signature: "always"\n',
    )
    done = run_cli("validate", str(repo), code=1)
    assert (
        "benchmark_suite/suite.yaml:20:24: schema-wrong-type policies.releases.require_signature: "
        "should be a valid boolean (got 'always')\n"
    ) in done.stdout
