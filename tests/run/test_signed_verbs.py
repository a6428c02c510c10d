"""`resolve`, `export mlperf` and `check --catalog` hold a release to its signature as `preflight`
does: under a suite policy that requires signed releases (or `--require-signature`), an unsigned
or forged release tag is refused; `check --catalog` also refuses a resolved config whose recorded
signer is not the tag's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalogctl.release.freeze import FreezeRequest, freeze
from tests.helpers import commit_all, replace_in, run_cli, write
from tests.release_repo import NOW, SEEDS_A, SUBMISSION, make_freezable
from tests.run.test_integrity import GSM8K_RUN
from tests.signing import allowed_signers, fingerprint, make_key, retag

COHORT = "2026-09-C0"
HINT = "hint: do not run it: ask the maintainers for the signed release\n"


@pytest.fixture
def keys(tmp_path: Path) -> dict[str, Path]:
    return {name: make_key(tmp_path / "keys", name) for name in ("maint", "other", "stranger")}


@pytest.fixture
def trust(tmp_path: Path, keys: dict[str, Path]) -> list[str]:
    (tmp_path / "trust").mkdir()
    allowed = allowed_signers(
        tmp_path / "trust" / "allowed_signers",
        ("maint@example.org", keys["maint"], ""),
        ("other@example.org", keys["other"], ""),
    )
    return ["--allowed-signers", str(allowed)]


@pytest.fixture
def signed(catalog_repo: Path, keys: dict[str, Path], tmp_path: Path) -> Path:
    """Cohort 2026-09-C0 frozen and signed by the maintainer, under a suite policy requiring it."""
    repo = make_freezable(catalog_repo)
    replace_in(
        repo,
        "benchmark_suite/suite.yaml",
        "  drafter_approval_lead_cohorts: 2\n",
        "  drafter_approval_lead_cohorts: 2\n  releases:\n    require_signature: true\n",
    )
    commit_all(repo, "Require signed releases")
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A)
    request = FreezeRequest(
        COHORT, add=["gsm8k", "deepseek-r1"], seeds_file=seeds, now=NOW, sign=True, signing_key=str(keys["maint"])
    )
    freeze(repo, request)
    return repo


@pytest.fixture
def submission(tmp_path: Path) -> Path:
    return write(tmp_path, "submission.yaml", SUBMISSION)


def test_resolve_records_the_signer_of_a_signed_release(
    signed: Path, submission: Path, trust: list[str], keys: dict[str, Path]
) -> None:
    done = run_cli("resolve", submission, "-C", signed, "--format", "json", *trust)
    signer = json.loads(done.stdout)["provenance"]["signer"]
    assert signer == {"principal": "maint@example.org", "key_fingerprint": fingerprint(keys["maint"])}


def test_resolve_refuses_an_unsigned_tag_the_policy_requires_signed(
    signed: Path, submission: Path, trust: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CATALOGCTL_ALLOWED_SIGNERS", trust[1])
    retag(signed, COHORT, None)
    output = tmp_path / "out.json"
    done = run_cli("resolve", submission, "-C", signed, "-o", output, code=10)
    assert done.stderr == f"error [signature-invalid]: tag `{COHORT}` is not signed\n{HINT}"
    assert not output.exists()


def test_resolve_refuses_a_tag_signed_by_an_unknown_key(
    signed: Path, submission: Path, trust: list[str], keys: dict[str, Path]
) -> None:
    retag(signed, COHORT, keys["stranger"])
    done = run_cli("resolve", submission, "-C", signed, *trust, code=10)
    assert done.stderr == (
        f"error [signature-invalid]: tag `{COHORT}` is signed by key {fingerprint(keys['stranger'])}, which is not "
        f"in the allowed-signers file {trust[1]}\nhint: a key the maintainers did not publish: {HINT[6:]}"
    )


def test_resolve_require_signature_holds_a_release_without_the_policy(
    catalog_repo: Path, submission: Path, trust: list[str], tmp_path: Path
) -> None:
    repo = make_freezable(catalog_repo)
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A)
    freeze(repo, FreezeRequest(COHORT, add=["gsm8k", "deepseek-r1"], seeds_file=seeds, now=NOW))
    run_cli("resolve", submission, "-C", repo)  # nothing asks for a signature
    done = run_cli("resolve", submission, "-C", repo, "--require-signature", *trust, code=10)
    assert done.stderr == f"error [signature-invalid]: tag `{COHORT}` is not signed\n{HINT}"


def test_export_mlperf_refuses_a_forged_tag(
    signed: Path, trust: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_cli("export", "mlperf", COHORT, "-o", tmp_path / "mlperf", "-C", signed, *trust)
    monkeypatch.setenv("CATALOGCTL_ALLOWED_SIGNERS", trust[1])
    retag(signed, COHORT, None)
    again = tmp_path / "again"
    done = run_cli("export", "mlperf", COHORT, "-o", again, "-C", signed, code=10)
    assert done.stderr == f"error [signature-invalid]: tag `{COHORT}` is not signed\n{HINT}"
    assert not again.exists()


@pytest.fixture
def resolved(signed: Path, submission: Path, trust: list[str], tmp_path: Path) -> tuple[Path, Path]:
    """A config resolved at the signed release (its signer recorded), and a run's results."""
    config = tmp_path / "resolved.json"
    run_cli("resolve", submission, "-C", signed, "-o", config, *trust)
    return config, write(tmp_path, "results.json", json.dumps(GSM8K_RUN))


def test_check_catalog_grades_a_config_of_the_signed_release(
    signed: Path, resolved: tuple[Path, Path], trust: list[str]
) -> None:
    config, results = resolved
    done = run_cli("check", config, results, "--catalog", signed, "--format", "json", *trust, code=1)
    assert json.loads(done.stdout)["proven_against"] == f"the release {COHORT} in {signed}"


def test_check_catalog_refuses_a_release_whose_tag_was_forged(
    signed: Path, resolved: tuple[Path, Path], trust: list[str]
) -> None:
    config, results = resolved
    retag(signed, COHORT, None)
    done = run_cli("check", config, results, "--catalog", signed, *trust, code=2)
    assert done.stderr == (
        f"error: {config} could not be proven against the release of {COHORT} in {signed}: tag `{COHORT}` is not "
        f"signed\n{HINT}"
    )


def test_check_catalog_refuses_a_config_whose_signer_is_not_the_tags(
    signed: Path, resolved: tuple[Path, Path], trust: list[str], keys: dict[str, Path]
) -> None:
    config, results = resolved
    retag(signed, COHORT, keys["other"])  # a trusted key, but not the one the config recorded
    done = run_cli("check", config, results, "--catalog", signed, *trust, code=2)
    assert done.stderr == (
        f"error: {config}: its signer is not the release's: maint@example.org ({fingerprint(keys['maint'])}) in "
        f"the resolved config, other@example.org ({fingerprint(keys['other'])}) signed tag `{COHORT}`\n"
        "hint: resolve it again (catalogctl resolve or preflight) and rerun the check on that file\n"
    )


def test_check_catalog_under_the_policy_fails_closed_without_allowed_signers(
    signed: Path, resolved: tuple[Path, Path], keys: dict[str, Path]
) -> None:
    config, results = resolved
    done = run_cli("check", config, results, "--catalog", signed, code=2)
    assert done.stderr == (
        f"error: {config} could not be proven against the release of {COHORT} in {signed}: tag `{COHORT}` is "
        f"signed by key {fingerprint(keys['maint'])}, not checked: no allowed-signers file is configured\n"
        "hint: pass --allowed-signers FILE, set CATALOGCTL_ALLOWED_SIGNERS, or git config gpg.ssh.allowedSignersFile "
        "FILE (a file outside the repository, from the maintainers)\n"
    )


def test_check_catalog_refuses_a_config_resolved_without_the_required_signer(
    signed: Path, submission: Path, trust: list[str], tmp_path: Path, keys: dict[str, Path]
) -> None:
    config = tmp_path / "by-ref.json"
    run_cli("resolve", submission, "-C", signed, "--ref", COHORT, "-o", config)  # --ref: no release check
    results = write(tmp_path, "results.json", json.dumps(GSM8K_RUN))
    done = run_cli("check", config, results, "--catalog", signed, *trust, code=2)
    assert done.stderr == (
        f"error: {config}: it records no signer, but tag `{COHORT}` must be signed: tag `{COHORT}` is signed by "
        f"maint@example.org (key {fingerprint(keys['maint'])})\n"
        "hint: resolve it again (catalogctl resolve or preflight) and rerun the check on that file\n"
    )


def test_without_allowed_signers_the_recorded_key_is_still_compared(
    catalog_repo: Path, submission: Path, trust: list[str], keys: dict[str, Path], tmp_path: Path
) -> None:
    """No policy, no allowed-signers file at check time: the tag's key must still be the recorded one."""
    repo = make_freezable(catalog_repo)
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A)
    request = FreezeRequest(
        COHORT, add=["gsm8k", "deepseek-r1"], seeds_file=seeds, now=NOW, sign=True, signing_key=str(keys["maint"])
    )
    freeze(repo, request)
    config = tmp_path / "resolved.json"
    run_cli("resolve", submission, "-C", repo, "-o", config, *trust)
    results = write(tmp_path, "results.json", json.dumps(GSM8K_RUN))
    run_cli("check", config, results, "--catalog", repo, code=1)  # the same key: proven, then graded
    retag(repo, COHORT, keys["stranger"])
    done = run_cli("check", config, results, "--catalog", repo, code=2)
    assert done.stderr == (
        f"error: {config}: its signer is not the release's: maint@example.org ({fingerprint(keys['maint'])}) in the "
        f"resolved config, tag `{COHORT}` is signed by key {fingerprint(keys['stranger'])}, not checked: no "
        "allowed-signers file is configured\n"
        "hint: resolve it again (catalogctl resolve or preflight) and rerun the check on that file\n"
    )
