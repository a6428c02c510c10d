"""`export mlperf`: the official checker's own loaders read what catalogctl exports from a
frozen cohort, and find the ruleset's seed sets, windows, drafters and models."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalogctl.io.yamlio import read_foreign_yaml
from catalogctl.release.freeze import FreezeRequest, freeze
from tests.helpers import commit_all, git, replace_in, run_cli
from tests.release.test_freeze import NOW, ruleset_at
from tests.release_repo import make_freezable
from tests.submission_points import errors, outcomes, run_checker, submission_tree, valid_curve

SEEDSET = Path(__file__).parent.parent / "fixtures" / "mlperf" / "seed_sets.yaml"
BUNDLED_DRAFTERS = Path(__file__).parent.parent / "fixtures" / "mlperf" / "approved_drafters.yaml"


pytestmark = pytest.mark.conformance


@pytest.fixture
def released(catalog_repo: Path) -> Path:
    """Cohort 2026-10-C1 frozen (gsm8k, deepseek-r1) with the published set A, then 2026-11-C0,
    then 2026-11-C1, which rotates in a set B of its own."""
    repo = make_freezable(catalog_repo)
    freeze(repo, FreezeRequest("2026-10-C1", add=["gsm8k", "deepseek-r1"], seeds_file=SEEDSET, now=NOW))
    freeze(repo, FreezeRequest("2026-11-C0", now=NOW))
    freeze(repo, FreezeRequest("2026-11-C1", now=NOW))
    return repo


def test_the_checker_reads_the_published_cohorts_set_and_window(released: Path, tmp_path: Path) -> None:
    from submission_checker.seed_sets import load_seed_sets

    out = tmp_path / "mlperf"
    result = run_cli("export", "mlperf", "2026-10-C1", "-o", str(out), "-C", str(released))
    assert result.stdout.splitlines()[:3] == [
        f"{out / name}: written" for name in ("seed_sets.yaml", "approved_drafters.yaml", "models.yaml")
    ]
    sets = load_seed_sets(out / "seed_sets.yaml")
    [published] = load_seed_sets(SEEDSET).values()
    assert sets == {"A": published}  # the same seeds, and the window the checker derives
    text = (out / "seed_sets.yaml").read_text(encoding="utf-8")
    assert "cohorts:" not in text  # one window, the derived one: the file is shaped as published
    assert read_foreign_yaml(text.encode())["cohort"]["version"] == 1.0


def test_sets_with_different_windows_each_list_theirs(released: Path, tmp_path: Path) -> None:
    from submission_checker.seed_sets import load_seed_sets

    out = tmp_path / "mlperf"
    run_cli("export", "mlperf", "2026-11-C1", "-o", str(out), "-C", str(released))
    ruleset = ruleset_at(released, "2026-11-C1")
    sets = load_seed_sets(out / "seed_sets.yaml")
    assert sorted(sets) == ["A", "B"]
    assert sets["A"].cohorts == ("2026-10-C1", "2026-11-C0", "2026-11-C1", "2026-12-C0")
    assert sets["B"].cohorts == ("2026-11-C1", "2026-12-C0", "2026-12-C1", "2027-01-C0")
    for seed_set in ruleset.seed_sets:
        assert sets[seed_set.id].seeds == seed_set.seed_values().model_dump()


def test_the_checker_reads_the_drafters_and_the_models(released: Path, tmp_path: Path) -> None:
    from submission_checker.drafters import load_approved_drafters

    out = tmp_path / "mlperf"
    result = run_cli("export", "mlperf", "2026-10-C1", "-o", str(out), "-C", str(released), "--format", "json")
    summary = json.loads(result.stdout)
    drafters = load_approved_drafters(out / "approved_drafters.yaml")
    # The shipped entries are the checker's own for deepseek-r1; gpt-oss-120b is not in the cohort.
    assert drafters == {"deepseek-r1": load_approved_drafters(BUNDLED_DRAFTERS)["deepseek-r1"]}
    assert summary["drafters"] == 2
    assert summary["models"] == [
        {
            "name": "deepseek-r1",
            "checkpoint": "deepseek-ai/DeepSeek-R1",
            "revision": "56d4cbbb4d29f4355bab4b9a39ccb717a14ad5ad",
            "benchmarks": ["deepseek-r1"],
        },
        {
            "name": "llama3_1-8b",
            "checkpoint": "meta-llama/Llama-3.1-8B-Instruct",
            "revision": "0e9e39f249a16976918f6564b8830bc894c89659",
            "benchmarks": ["gsm8k"],
        },
    ]
    models = read_foreign_yaml((out / "models.yaml").read_bytes())
    assert models == {"cohort": "2026-10-C1", "models": summary["models"]}
    assert [s["id"] for s in summary["seed_sets"]] == ["A"]


def test_a_different_file_is_replaced_only_with_force(released: Path, tmp_path: Path) -> None:
    out = tmp_path / "mlperf"
    args = ("export", "mlperf", "2026-10-C1", "-o", str(out), "-C", str(released))
    run_cli(*args)
    again = run_cli(*args)
    assert again.stdout.splitlines()[0] == f"{out / 'seed_sets.yaml'}: unchanged"
    (out / "models.yaml").write_text("models: []\n", encoding="utf-8")
    refused = run_cli(*args, code=2)
    assert refused.stderr == (
        f"error: {out / 'models.yaml'} already exists with other content: nothing was exported\n"
        "hint: pass --force to replace them, or name another folder with -o\n"
    )
    assert (out / "models.yaml").read_text(encoding="utf-8") == "models: []\n"
    forced = run_cli(*args, "--force")
    assert f"{out / 'models.yaml'}: replaced" in forced.stdout.splitlines()


def test_only_a_release_is_exported(catalog_repo: Path, tmp_path: Path) -> None:
    repo = make_freezable(catalog_repo)
    freeze(repo, FreezeRequest("2026-10-C1", add=["gsm8k"], seeds_file=SEEDSET, now=NOW, tag=False))
    result = run_cli("export", "mlperf", "2026-10-C1", "-o", str(tmp_path / "out"), "-C", str(repo), code=5)
    assert result.stderr == (
        "error [tag-invalid]: the release tag `2026-10-C1` is missing\nhint: fetch it: git fetch --tags origin\n"
    )
    assert not (tmp_path / "out").exists()


def test_ref_exports_another_commit_whose_contracts_must_be_the_frozen_ones(released: Path, tmp_path: Path) -> None:
    out = str(tmp_path / "out")
    replace_in(
        released, "benchmark_suite/suite.yaml", "drafter_approval_lead_cohorts: 2", "drafter_approval_lead_cohorts: 3"
    )
    commit_all(released, "A lead time of three cohorts")
    result = run_cli("export", "mlperf", "2026-10-C1", "-o", out, "--ref", "HEAD", "-C", str(released), code=1)
    assert result.stderr == (
        "error: the suite's drafter_approval_lead_cohorts is 3, but the checker applies §2.9.4's 2: its "
        "approved_drafters.yaml cannot state another\n"
    )
    replace_in(released, "benchmark_suite/datasets/gsm8k.yaml", "samples: 1319", "samples: 1320")
    commit_all(released, "An invalid catalog")
    result = run_cli("export", "mlperf", "2026-10-C1", "-o", out, "--ref", "HEAD", "-C", str(released), code=1)
    assert result.stderr.splitlines()[1].endswith(
        "error figure-mismatch: min_accuracy_sample_count is 1319, but num_repeats "
        "x samples gives 1320 = 1x1320 (write 1320, or fix the repeats)"
    )
    replace_in(released, "benchmark_suite/datasets/gsm8k.yaml", "samples: 1320", "samples: 1319")
    replace_in(released, "benchmark_suite/models/llama3-1-8b.yaml", "sha: 0e9e39f2", "sha: 1e9e39f2")
    commit_all(released, "Edit a frozen contract")
    result = run_cli("export", "mlperf", "2026-10-C1", "-o", out, "--ref", "HEAD", "-C", str(released), code=8)
    assert result.stderr.startswith("error [contract-mismatch]: the contract of `gsm8k` at ")
    assert result.stderr.endswith("hint: export the release commit (drop --ref)\n")
    assert run_cli("export", "mlperf", "2026-10-C1", "-o", out, "-C", str(released)).stdout


def test_a_link_in_place_of_a_file_is_refused(released: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "models.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    result = run_cli("export", "mlperf", "2026-10-C1", "-o", str(out), "-C", str(released), code=2)
    assert result.stderr == (
        f"error: {out / 'models.yaml'} is not a regular file: nothing was exported\nhint: name another folder with -o\n"
    )
    assert not (out / "seed_sets.yaml").exists()


# -- the official checker on a submission bound to what catalogctl froze --------------------


@pytest.fixture
def checker_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No registry from the environment, and a home of the test's own."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("MLPERF_ENDPOINTS_SEED_SETS", raising=False)
    monkeypatch.delenv("MLPERF_ENDPOINTS_APPROVED_DRAFTERS", raising=False)
    return tmp_path


def test_a_submission_bound_to_a_set_catalogctl_drew_passes_with_the_export_only(
    released: Path, checker_env: Path
) -> None:
    out = checker_env / "mlperf"
    run_cli("export", "mlperf", "2026-11-C1", "-o", str(out), "-C", str(released))
    drawn = next(s for s in ruleset_at(released, "2026-11-C1").seed_sets if s.id == "B")  # drawn at freeze
    tree = submission_tree(checker_env / "tree", valid_curve(drawn.seed_values().model_dump(), "B", "2026-11-C1"))
    exported = run_checker(tree, seed_sets=out / "seed_sets.yaml", drafters=out / "approved_drafters.yaml")
    assert errors(exported) == []  # a whole valid submission: no rule of the checker fails
    assert outcomes(exported, "seed-set-membership") == [("info", "seed_set 'B' is a published set")]
    assert outcomes(exported, "seed-runtime-match") == [("info", "RNG seeds match seed set 'B'")]
    assert outcomes(exported, "seed-set-adoption") == [("info", "Seed set 'B' was published for cohort 2026-11-C1")]
    bundled = run_checker(tree)  # its own mirror of seedset.yaml knows set A only
    assert errors(bundled) == [("seed-set-membership", "seed_set 'B' is not a published set (known: A)")]


def test_a_set_used_past_its_window_fails_adoption(released: Path, checker_env: Path) -> None:
    from submission_checker.seed_sets import load_seed_sets

    out = checker_env / "mlperf"
    run_cli("export", "mlperf", "2026-11-C1", "-o", str(out), "-C", str(released))
    [published] = load_seed_sets(SEEDSET).values()
    # A's window ends with 2026-12-C0; B's (2026-11-C1 on) still covers 2026-12-C1.
    tree = submission_tree(checker_env / "tree", valid_curve(published.seeds, "A", "2026-12-C1"))
    report = run_checker(tree, seed_sets=out / "seed_sets.yaml")
    assert errors(report) == [
        (
            "seed-set-adoption",
            "Seed set 'A' was not published for cohort 2026-12-C1 (published for: 2026-10-C1, 2026-11-C0, "
            "2026-11-C1, 2026-12-C0)",
        )
    ]
    within = submission_tree(checker_env / "tree2", valid_curve(published.seeds, "A", "2026-12-C0"))
    assert errors(run_checker(within, seed_sets=out / "seed_sets.yaml")) == []


def test_ref_exports_the_released_ruleset_only(released: Path, tmp_path: Path) -> None:
    # Was exported from the ruleset at REF, edited after the freeze, and for a cohort never released.
    out = str(tmp_path / "out")
    replace_in(released, "rulesets/2026-10-C1.yaml", "valid_through: ", "valid_through: 2027-09-C0\n# was: ")
    commit_all(released, "Edit a frozen ruleset")
    result = run_cli("export", "mlperf", "2026-10-C1", "-o", out, "--ref", "HEAD", "-C", str(released), code=8)
    assert result.stderr.startswith("error [contract-mismatch]: rulesets/2026-10-C1.yaml at ")
    assert result.stderr.endswith(
        " is not the one released at tag 2026-10-C1: only its contracts may be read at another commit\n"
        "hint: export the release commit (drop --ref)\n"
    )
    assert not (tmp_path / "out").exists()
    git(released, "tag", "-d", "2026-11-C1")
    result = run_cli("export", "mlperf", "2026-11-C1", "-o", out, "--ref", "HEAD", "-C", str(released), code=5)
    assert result.stderr == (
        "error [tag-invalid]: the release tag `2026-11-C1` is missing\nhint: fetch it: git fetch --tags origin\n"
    )
