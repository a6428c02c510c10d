"""`diff` between two cohorts names who signed each release tag, and a change of signer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.gpgkeys import gpg_home
from tests.helpers import git, run_cli
from tests.release_repo import make_freezable
from tests.signing import fingerprint, make_key


@pytest.fixture
def repo(catalog_repo: Path) -> Path:
    return make_freezable(catalog_repo)


def freeze(repo: Path, cohort: str, key: Path | None, *extra: str) -> None:
    signing = ["--sign", "--signing-key", str(key)] if key else []
    run_cli("freeze", cohort, *extra, *signing, "-C", str(repo))


def signer_line(repo: Path) -> list[str]:
    done = run_cli("diff", "2026-09-C0", "2026-09-C1", "-C", str(repo))
    return [line for line in done.stdout.splitlines() if line.startswith("  signer:")]


def test_a_change_of_signer_is_named(repo: Path, tmp_path: Path) -> None:
    alice, bob = make_key(tmp_path / "keys", "alice"), make_key(tmp_path / "keys", "bob")
    freeze(repo, "2026-09-C0", alice, "--add", "gsm8k")
    freeze(repo, "2026-09-C1", bob)
    assert signer_line(repo) == [f"  signer: {fingerprint(alice)} -> {fingerprint(bob)} (changed)"]
    done = run_cli("diff", "2026-09-C0", "2026-09-C1", "--format", "json", "-C", str(repo))
    assert json.loads(done.stdout)["cohorts"]["signers"] == {
        "old": fingerprint(alice),
        "new": fingerprint(bob),
        "changed": True,
    }
    markdown = run_cli("diff", "2026-09-C0", "2026-09-C1", "--format", "markdown", "-C", str(repo)).stdout
    assert f"| Signer | {fingerprint(alice)} -> {fingerprint(bob)} (changed) |" in markdown


def test_the_same_signer_is_unchanged(repo: Path, tmp_path: Path) -> None:
    alice = make_key(tmp_path / "keys", "alice")
    freeze(repo, "2026-09-C0", alice, "--add", "gsm8k")
    freeze(repo, "2026-09-C1", alice)
    assert signer_line(repo) == [f"  signer: {fingerprint(alice)} (unchanged)"]


def test_a_first_signed_release_after_an_unsigned_one(repo: Path, tmp_path: Path) -> None:
    alice = make_key(tmp_path / "keys", "alice")
    freeze(repo, "2026-09-C0", None, "--add", "gsm8k")
    freeze(repo, "2026-09-C1", alice)
    assert signer_line(repo) == [f"  signer: unsigned -> {fingerprint(alice)} (changed)"]


def test_a_signature_that_does_not_check_is_named_bad(repo: Path, tmp_path: Path) -> None:
    alice = make_key(tmp_path / "keys", "alice")
    freeze(repo, "2026-09-C0", alice, "--add", "gsm8k")
    freeze(repo, "2026-09-C1", alice)
    # Replace C1's tag with one whose message was edited after signing (the signature is kept).
    raw = git(repo, "cat-file", "tag", "2026-09-C1").replace("Cohort 2026-09-C1", "Cohort 2026-09-C1 (edited)") + "\n"
    forged = tmp_path / "forged"
    forged.write_text(raw)
    oid = git(repo, "hash-object", "-t", "tag", "-w", str(forged))
    git(repo, "update-ref", "refs/tags/2026-09-C1", oid)
    assert signer_line(repo) == [f"  signer: {fingerprint(alice)} -> bad signature (changed)"]


def test_unsigned_cohorts_show_no_signer_line(repo: Path) -> None:
    freeze(repo, "2026-09-C0", None, "--add", "gsm8k")
    freeze(repo, "2026-09-C1", None)
    assert signer_line(repo) == []
    git(repo, "tag", "-d", "2026-09-C1")  # a clone without the tag: the commit that added the ruleset
    assert signer_line(repo) == []


def test_a_change_from_an_ssh_to_an_openpgp_signer_is_named(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = make_key(tmp_path / "keys", "alice")
    freeze(repo, "2026-09-C0", alice, "--add", "gsm8k")
    with gpg_home(monkeypatch) as home:
        bob = home.make_key("Bob <bob@example.org>")
        run_cli("freeze", "2026-09-C1", "--sign", "--signing-format", "openpgp", "--signing-key", bob, "-C", repo)
        assert signer_line(repo) == [f"  signer: {fingerprint(alice)} -> {bob} (changed)"]
