"""`freeze --loadgen-seeds`: a new seed set adopts the seeds the installed LoadGen release ships,
recorded with that release; `verify` and `preflight` read the release again where it is installed.

The installations are stand-ins (`tests.loadgen_install`) holding the real mlperf.conf of
mlcommons-loadgen 6.0.17; tests/run/test_loadgen_seeds.py freezes with the real wheel."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from catalogctl.errors import UsageError
from catalogctl.release.freeze import FreezeRequest, freeze
from tests.helpers import git, run_cli, write
from tests.loadgen_install import CONF, CONF_SHA256, MODULE, SHIPPED, install, use
from tests.release.test_freeze import NOW, ruleset_at, snapshot
from tests.release_repo import SEEDS_A, SUBMISSION, make_freezable

FREEZE = ("freeze", "2026-09-C0", "--add", "gsm8k", "--loadgen-seeds")


@pytest.fixture
def repo(catalog_repo: Path) -> Path:
    return make_freezable(catalog_repo)


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where catalogctl looks for LoadGen: mlcommons-loadgen 6.0.17 installed there."""
    root = tmp_path / "site-packages"
    use(monkeypatch, install(root))
    return root


def reinstall(monkeypatch: pytest.MonkeyPatch, root: Path, version: str | None, conf: bytes = CONF) -> None:
    """Replace the installation catalogctl sees by `version` (None: no LoadGen at all)."""
    use(monkeypatch, root)
    if version is not None:
        install(root, version, conf)


def test_the_new_set_holds_the_releases_seeds_and_records_it(repo: Path, site: Path) -> None:
    done = run_cli(*FREEZE, "-C", repo)
    assert done.stdout.splitlines()[0] == (
        f"note: seed set A imported from mlperf.conf of mlcommons-loadgen 6.0.17 (built into {MODULE}); its "
        "model_seed drawn, valid through 2026-10-C1"
    )
    [seed_set] = ruleset_at(repo, "2026-09-C0").seed_sets
    assert {name: getattr(seed_set, name) for name in SHIPPED} == SHIPPED
    assert seed_set.model_seed not in (0, *SHIPPED.values())
    assert seed_set.imported_from_loadgen is not None
    assert seed_set.imported_from_loadgen.model_dump() == {
        "package": "mlcommons-loadgen",
        "version": "6.0.17",
        "file": MODULE,
        "sha256": CONF_SHA256,
    }
    text = git(repo, "show", "HEAD:rulesets/2026-09-C0.yaml")
    assert f"  model_seed: {seed_set.model_seed}\n  qsl_rng_seed: 2085463073848966840\n  introduced_in:" in text
    run_cli("validate", "-C", repo)
    [provenance] = json.loads(run_cli("cohorts", "-C", repo, "--format", "json").stdout)["cohorts"][0]["provenance"]
    assert (provenance["kind"], provenance["version"], provenance["sha256"]) == ("loadgen", "6.0.17", CONF_SHA256)
    assert provenance["statement"].startswith(
        "scheduler_rng_seed, sample_index_rng_seed and qsl_rng_seed imported by `catalogctl freeze --loadgen-seeds` "
        f"from the mlperf.conf of mlcommons-loadgen 6.0.17 (built into {MODULE}, sha256 f6fe8510fde7…)"
    )
    checked = run_cli("verify", "2026-09-C0", "-C", repo).stdout.splitlines()
    assert "ok    seed set A: the seeds of mlcommons-loadgen 6.0.17's mlperf.conf (sha256 f6fe8510fde7…), read again " \
        "here" in checked  # fmt: skip


def test_without_loadgen_installed_nothing_is_frozen(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use(monkeypatch, tmp_path / "empty")
    before = snapshot(repo)
    refused = run_cli(*FREEZE, "-C", repo, code=2)
    assert refused.stderr == (
        "error: --loadgen-seeds reads the seeds of the installed mlcommons-loadgen, and it is not installed here: "
        "nothing was frozen\n"
        "hint: pip install mlcommons-loadgen (its wheels are built for Linux x86_64), the release whose mlperf.conf "
        "the cohort adopts\n"
    )
    assert snapshot(repo) == before


def test_one_import_at_a_time(repo: Path, site: Path, tmp_path: Path) -> None:
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A)
    refused = run_cli(*FREEZE, "--seeds", seeds, "-C", repo, code=2)
    assert refused.stderr == (
        "error: --seeds and --loadgen-seeds both import the new seed set\nhint: pass one of them\n"
    )
    refused = run_cli(*FREEZE, "--seed-set", "A", "-C", repo, code=2)
    assert refused.stderr == (
        "error: --seed-set picks a set of a published seedset.yaml, not of LoadGen\nhint: drop --seed-set\n"
    )


def test_no_set_is_imported_when_none_is_due(repo: Path, site: Path) -> None:
    run_cli(*FREEZE, "-C", repo)
    refused = run_cli("freeze", "2026-09-C1", "--loadgen-seeds", "-C", repo, code=2)
    assert refused.stderr == (
        "error: no new seed set is due at 2026-09-C1: the policy rotates every 2 cohorts\n"
        "hint: drop --loadgen-seeds; the sets still valid are carried over\n"
    )


@pytest.mark.parametrize(
    ("version", "note"),
    [
        (None, "it is not installed here"),
        ("6.0.20", "mlcommons-loadgen 6.0.20 is installed"),
    ],
)
def test_verify_says_what_it_could_not_compare(
    repo: Path, site: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, version: str | None, note: str
) -> None:
    run_cli(*FREEZE, "-C", repo)
    reinstall(monkeypatch, tmp_path / "elsewhere", version)
    checked = run_cli("verify", "2026-09-C0", "-C", repo).stdout.splitlines()
    assert checked[-2:] == [
        f"note  seed set A: not compared with the mlperf.conf of mlcommons-loadgen 6.0.17 ({note}; "
        "`pip install mlcommons-loadgen==6.0.17` to compare)",
        "2026-09-C0: verified (contracts at 2026-09-C0 (" + checked[-1].rsplit("(", 1)[1],
    ]
    report = json.loads(run_cli("verify", "2026-09-C0", "-C", repo, "--format", "json").stdout)
    assert (report["ok"], len(report["unchecked"]), report.get("failed_check")) == (True, 1, None)


def test_verify_and_preflight_refuse_a_set_the_release_does_not_ship(
    repo: Path, site: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The same release number installed here ships other seeds: the set records what it is not."""
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(tmp_path / "origin.git"))
    git(repo, "remote", "add", "origin", str(tmp_path / "origin.git"))
    run_cli(*FREEZE, "--push", "origin", "-C", repo)
    other = CONF.replace(b"schedule_rng_seed = 16159082839903944936", b"schedule_rng_seed = 7")
    reinstall(monkeypatch, tmp_path / "rebuilt", "6.0.17", other)
    digest = hashlib.sha256(other).hexdigest()
    problem = (
        f"seed set A, imported from mlcommons-loadgen 6.0.17: the mlperf.conf that release ships here (built into "
        f"{MODULE}) has sha256 {digest[:12]}…, but the set records f6fe8510fde7…"
    )
    checked = run_cli("verify", "2026-09-C0", "-C", repo, code=12).stdout.splitlines()
    assert f"FAIL  {problem}" in checked
    assert checked[-1].startswith("2026-09-C0: NOT verified: 1 problem")
    submission = write(tmp_path, "submission.yaml", SUBMISSION)
    output = tmp_path / "resolved.json"
    refused = run_cli("preflight", submission, "-C", repo, "-o", output, code=12)
    assert refused.stderr.splitlines()[0] == f"error [seeds-not-shipped]: {problem}"
    assert not output.exists()


def test_a_rerun_finishes_an_interrupted_import_only_with_the_same_release(
    repo: Path, site: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def crash(step: str) -> None:
        if step == "files":
            raise KeyboardInterrupt

    asked = FreezeRequest("2026-09-C0", add=["gsm8k"], loadgen_seeds=True, now=NOW)
    with pytest.raises(KeyboardInterrupt):
        freeze(repo, asked, crash)
    reinstall(monkeypatch, tmp_path / "newer", "6.0.20")
    with pytest.raises(UsageError) as caught:
        freeze(repo, asked)
    assert str(caught.value) == (
        "the interrupted freeze left rulesets/2026-09-C0.yaml with seed set A imported from mlcommons-loadgen "
        "6.0.17, but 6.0.20 is installed now"
    )
    reinstall(monkeypatch, tmp_path / "none", None)
    with pytest.raises(UsageError, match=r"6\.0\.17, and it is not installed now$"):
        freeze(repo, asked)
    reinstall(monkeypatch, tmp_path / "again", "6.0.17")
    assert freeze(repo, asked).state == "resumed"
