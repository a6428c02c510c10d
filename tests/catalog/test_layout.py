"""The catalog and rulesets folders a repository configures (`catalog`, `rulesets`): every verb
reads and writes there, the default layout stays as it was, and a bad folder names its key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalogctl import load_catalog
from catalogctl.api import diff_refs
from catalogctl.catalog.config import layout_for
from catalogctl.catalog.layout import DEFAULT, Layout
from tests.helpers import commit_all, git, replace_in, run_cli, write
from tests.release_repo import SEEDS_A, SUBMISSION, make_freezable

CONFIG = 'catalog = "suite/catalog"\nrulesets = "releases"\n'
COHORT = "2026-09-C0"


@pytest.fixture
def moved(catalog_repo: Path) -> Path:
    """The shipped catalog, freezable, under suite/catalog with its rulesets to go in releases/."""
    root = make_freezable(catalog_repo)
    (root / "suite").mkdir()
    git(root, "mv", "benchmark_suite", "suite/catalog")
    write(root, "catalogctl.toml", CONFIG)
    commit_all(root, "Move the catalog to suite/catalog")
    return root


@pytest.fixture
def frozen(moved: Path, tmp_path: Path) -> Path:
    """Cohort 2026-09-C0 frozen in the moved layout."""
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A)
    args = ["freeze", COHORT, "--add", "gsm8k", "--add", "deepseek-r1", "--seeds", str(seeds), "-C", str(moved)]
    assert run_cli(*args).stdout.startswith(f"note: seed set A imported, valid through 2026-10-C1\nfroze {COHORT}: ")
    return moved


def test_the_default_layout_is_the_one_before_configuration(catalog_dir: Path) -> None:
    assert layout_for(catalog_dir) == DEFAULT == Layout("benchmark_suite", "rulesets")
    assert DEFAULT.entity_dirs == {
        "model": "benchmark_suite/models",
        "dataset": "benchmark_suite/datasets",
        "benchmark": "benchmark_suite/benchmarks",
    }
    assert (DEFAULT.suite_file, DEFAULT.metrics_file) == ("benchmark_suite/suite.yaml", "benchmark_suite/metrics.yaml")
    assert DEFAULT.catalog_paths == ("benchmark_suite/", "rulesets/")
    assert DEFAULT.entity_path("ruleset", COHORT) == "rulesets/2026-09-C0.yaml"


def test_the_configured_layout_names_every_path(moved: Path) -> None:
    configured = layout_for(moved / "suite")  # found at the root, from below
    assert configured == Layout("suite/catalog", "releases")
    assert configured.ruleset_path(COHORT) == "releases/2026-09-C0.yaml"
    assert configured.entity_path("benchmark", "gsm8k") == "suite/catalog/benchmarks/gsm8k.yaml"


def test_validate_and_ls_read_the_configured_folder(moved: Path) -> None:
    done = run_cli("validate", str(moved), "-f", "json")
    report = json.loads(done.stdout)
    assert report["valid"] is True
    assert {d["file"].split("/", 2)[1] for d in report["diagnostics"]} == {"catalog"}
    listed = json.loads(run_cli("ls", "-C", str(moved), "-f", "json").stdout)
    assert "gsm8k" in [b["id"] for b in listed["benchmarks"]]
    assert load_catalog(moved).ok  # the library reads it too


def test_a_catalog_not_in_its_configured_folder_is_not_found(moved: Path) -> None:
    write(moved, "catalogctl.toml", 'catalog = "elsewhere"\n')
    assert run_cli("validate", str(moved), code=2).stderr == (
        f"error: no catalog at or above {moved.resolve()}: `elsewhere/` not found\n"
        "hint: run in the catalog repository, or pass its path\n"
    )


def test_freeze_writes_the_ruleset_in_the_configured_folder(frozen: Path) -> None:
    assert git(frozen, "show", "--name-only", "--format=", "HEAD").splitlines() == [
        "CHANGELOG.md",
        "releases/2026-09-C0.yaml",
    ]
    assert not (frozen / "rulesets").exists()
    message = git(frozen, "tag", "-l", "--format=%(contents)", COHORT)
    assert "\nruleset: releases/2026-09-C0.yaml\n" in message
    ruleset = (frozen / "releases/2026-09-C0.yaml").read_text()
    assert f"catalog_tree: {git(frozen, 'rev-parse', 'HEAD~1:suite/catalog')}\n" in ruleset
    cohorts = json.loads(run_cli("cohorts", "-C", str(frozen), "-f", "json").stdout)
    assert [c["cohort"] for c in cohorts["cohorts"]] == [COHORT]


def test_verify_resolve_and_diff_in_the_configured_layout(frozen: Path, tmp_path: Path) -> None:
    verified = run_cli("verify", COHORT, "-C", str(frozen)).stdout.splitlines()
    assert "the commit that added releases/2026-09-C0.yaml" in verified[1]
    assert verified[-1].startswith(f"{COHORT}: verified (contracts at {COHORT} (")
    submission = write(tmp_path, "submission.yaml", SUBMISSION)
    resolved = tmp_path / "resolved.json"
    run_cli("resolve", str(submission), "-C", str(frozen), "-o", str(resolved), "-f", "json")
    config = json.loads(resolved.read_text())
    assert (config["submission_ref"]["cohort"], config["contract"]["id"]) == (COHORT, "gsm8k")
    replace_in(frozen, "suite/catalog/benchmarks/gsm8k.yaml", "num_fewshot: 5", "num_fewshot: 8")
    report = json.loads(run_cli("diff", COHORT, "-C", str(frozen), "-f", "json").stdout)
    assert [(c["kind"], c["id"]) for c in report["changes"]] == [("benchmark", "gsm8k")]
    assert diff_refs(frozen, COHORT).changes[0].id == "gsm8k"  # the library's entry point too


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('catalog = "../catalog"\n', "1:1: error config-invalid-value: catalog: `../catalog` is not a folder"),
        ('catalog = "/srv/catalog"\n', "1:1: error config-invalid-value: catalog: `/srv/catalog` is not a folder"),
        ('\nrulesets = "a/./b"\n', "2:1: error config-invalid-value: rulesets: `a/./b` is not a folder"),
        ('rulesets = ".git/rulesets"\n', "1:1: error config-invalid-value: rulesets: `.git/rulesets` is not a folder"),
        ('rulesets = ""\n', "1:1: error config-invalid-value: rulesets: `` is not a folder"),
    ],
)
def test_a_folder_outside_the_repository_is_refused_naming_its_key(catalog_dir: Path, text: str, line: str) -> None:
    write(catalog_dir, "catalogctl.toml", text)
    assert run_cli("ls", "-C", str(catalog_dir), code=2).stderr.splitlines() == [
        "error: catalogctl.toml: the catalogctl configuration is not valid",
        f"  catalogctl.toml:{line} inside the repository: a relative path, without `..` or `.git` "
        '(a folder relative to the repository root, e.g. catalog = "benchmarks/catalog")',
        "hint: fix the configuration (documentation: reference/configuration)",
    ]


@pytest.mark.parametrize("rulesets", ["benchmark_suite", "benchmark_suite/rulesets"])
def test_the_rulesets_folder_apart_from_the_catalog(catalog_dir: Path, rulesets: str) -> None:
    write(catalog_dir, "pyproject.toml", f'[tool.catalogctl]\nrulesets = "{rulesets}"\n')
    assert run_cli("validate", str(catalog_dir), code=2).stderr.splitlines()[1] == (
        f"  pyproject.toml:2:1: error config-invalid-value: tool.catalogctl.rulesets: `{rulesets.rstrip('/')}` and "
        "the catalog folder `benchmark_suite` overlap: give them separate folders "
        '(a folder relative to the repository root, e.g. catalog = "benchmarks/catalog")'
    )


def test_a_trailing_slash_is_the_same_folder(moved: Path) -> None:
    write(moved, "catalogctl.toml", 'catalog = "suite/catalog/"\nrulesets = "releases/"\n')
    assert layout_for(moved) == Layout("suite/catalog", "releases")


def test_the_pr_gate_guards_the_configured_rulesets_folder(frozen: Path) -> None:
    git(frozen, "checkout", "-q", "-b", "pr")
    replace_in(frozen, "releases/2026-09-C0.yaml", "model_seed: 42", "model_seed: 43")
    done = run_cli("ci", "--base", "main", "-C", str(frozen), "--today", "2026-08-30", code=1)
    assert done.stdout.splitlines()[0].startswith(
        "releases/2026-09-C0.yaml:17:3: error ruleset-modified: frozen ruleset 2026-09-C0 was modified: "
        "seed_sets.A.model_seed changed"
    )
