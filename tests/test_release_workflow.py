"""The release workflow of catalogctl itself (.github/workflows/release.yml): its shape (triggers,
least privilege per job, actions pinned by commit, trusted publishing without a token), and its
own steps run with bash as the runner runs them: the tag is the built version, the release notes
are the changelog's section, the major tag moves only for a final release."""

from __future__ import annotations

import os
import re
import shutil
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from catalogctl.version import __version__
from tests.actions_runner import Runner, StepRun, load_yaml
from tests.helpers import REPO_ROOT, write

RELEASE = REPO_ROOT / ".github" / "workflows" / "release.yml"
CHANGELOG = "docs/development/changelog.md"
SHA = "0123456789abcdef0123456789abcdef01234567"


def workflow() -> dict[str, Any]:
    return dict(load_yaml(RELEASE))


def job(name: str) -> dict[str, Any]:
    return dict(workflow()["jobs"][name])


def step(job_name: str, step_id: str) -> dict[str, Any]:
    return dict(next(s for s in job(job_name)["steps"] if s.get("id") == step_id))


def uses(job_name: str) -> list[str]:
    return [str(s["uses"]) for s in job(job_name)["steps"] if "uses" in s]


def run_step(
    workspace: Path,
    tmp_path: Path,
    the_step: Mapping[str, Any],
    tag: str,
    path: str | None = None,
    steps: Mapping[str, Any] | None = None,
) -> StepRun:
    """One `run:` step of release.yml, on a push of `tag`, in `workspace`, after `steps` (their
    outputs by id)."""
    temp = tmp_path / "runner-temp"
    temp.mkdir(exist_ok=True)
    env = {
        "PATH": os.pathsep.join([*([path] if path else []), "/usr/bin", "/bin"]),
        "HOME": str(tmp_path),
        "RUNNER_TEMP": str(temp),
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_REPOSITORY": "o/r",
    }
    runner = Runner(env, workspace, lambda *_: {})
    github = {"ref_name": tag, "repository": "o/r", "token": "t"}
    context: dict[str, Any] = {"github": github, "runner": {"temp": str(temp)}, "steps": dict(steps or {})}
    runner.run_steps([the_step], context, {})
    [run] = runner.runs
    return run


def test_it_runs_on_a_version_tag_only_and_asks_for_no_permission_by_default() -> None:
    release = workflow()
    # A version tag, never the major tag it moves (`v0`): moving it by hand must not release.
    assert release["on"] == {"push": {"tags": ["v[0-9]+.[0-9]+.[0-9]+*"]}}
    assert release["permissions"] == {}
    assert release["concurrency"] == {"group": "release-${{ github.ref }}", "cancel-in-progress": False}


def test_each_job_has_the_least_privilege_it_needs_and_waits_for_the_one_before() -> None:
    jobs = workflow()["jobs"]
    assert {name: j["permissions"] for name, j in jobs.items()} == {
        "build": {"contents": "read"},
        "test": {"contents": "read"},
        "publish": {"id-token": "write"},  # trusted publishing: the OIDC token, nothing else
        "github-release": {"contents": "write"},  # the release and the major tag
    }
    assert jobs["test"]["needs"] == "build"
    assert jobs["publish"]["needs"] == ["build", "test"]  # nothing is published before the tests pass
    assert jobs["github-release"]["needs"] == ["build", "publish"]


def test_every_action_is_pinned_by_its_full_commit_id() -> None:
    text = RELEASE.read_text(encoding="utf-8")
    lines = [line.strip() for line in text.splitlines() if re.match(r"\s*(- )?uses:", line)]
    assert lines
    for line in lines:
        assert re.fullmatch(r"(- )?uses: [\w.-]+/[\w.-]+@[0-9a-f]{40}  # v\d+(\.\d+)*", line), line


def test_pypi_is_published_to_by_trusted_publishing_without_a_token() -> None:
    publish = job("publish")
    assert publish["environment"] == {"name": "pypi", "url": "https://pypi.org/project/catalogctl/"}
    [pypa] = [s for s in publish["steps"] if "pypa/gh-action-pypi-publish@" in str(s.get("uses"))]
    assert pypa["with"] == {"skip-existing": True}  # no password, no user, PyPI itself
    assert "secrets." not in RELEASE.read_text(encoding="utf-8")
    download = next(s for s in publish["steps"] if "download-artifact" in str(s.get("uses")))
    assert download["with"] == {"name": "dist", "path": "dist"}  # the build job's files, not a rebuild


def test_the_build_checks_what_it_built_with_the_release_groups_tools() -> None:
    build = job("build")
    assert build["steps"][0]["with"] == {"persist-credentials": False}
    run = step("build", "build")["run"]
    extras = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    release_group = extras["optional-dependencies"]["release"]
    assert re.findall(r'"([^"]+)"', run.splitlines()[0]) == release_group
    assert "python -m build" in run
    assert "python -m twine check --strict dist/*" in run
    upload = next(s for s in build["steps"] if "upload-artifact" in str(s.get("uses")))
    assert upload["with"] == {"name": "dist", "path": "dist/", "if-no-files-found": "error"}


def test_the_tests_run_against_the_installed_wheel_from_outside_the_checkout() -> None:
    test = job("test")
    matrix = load_yaml(REPO_ROOT / ".github" / "workflows" / "tests.yml")["jobs"]["tests"]["strategy"]["matrix"]
    assert test["strategy"]["matrix"] == matrix  # every Python the classifiers name
    assert test["container"] == "python:${{ matrix.python }}-bookworm"
    install = step("test", "install")["run"]
    assert 'cd "${RUNNER_TEMP:?}"' in install
    assert 'python3 -m venv "$RUNNER_TEMP/venv"' in install
    assert '"$RUNNER_TEMP/venv/bin/python" -I -m pip install -q "${wheel}[test]"' in install
    tests = step("test", "tests")
    assert tests["env"] == {"CATALOGCTL_TEST_INSTALLED": "1"}  # tests/test_packaging.py checks where from
    assert 'cd "${RUNNER_TEMP:?}"' in tests["run"]
    assert (
        "\"$RUNNER_TEMP/venv/bin/python\" -I -m pytest -q -m '' -p no:cacheprovider --import-mode=append "
        '"$GITHUB_WORKSPACE/tests"'
    ) in tests["run"]


def _built(workspace: Path, version: str) -> None:
    for name in (f"catalogctl-{version}-py3-none-any.whl", f"catalogctl-{version}.tar.gz"):
        write(workspace, f"dist/{name}", "")


def test_a_tag_that_is_the_built_version_passes(tmp_path: Path) -> None:
    _built(tmp_path, "0.2.0")
    run = run_step(tmp_path, tmp_path, step("build", "version"), "v0.2.0")
    assert run.outcome == "success", run.log


def test_a_tag_that_is_not_the_built_version_stops_the_release(tmp_path: Path) -> None:
    _built(tmp_path, "0.2.0")
    run = run_step(tmp_path, tmp_path, step("build", "version"), "v0.3.0")
    assert run.outcome == "failure"
    assert run.log == (
        "::error::the tag v0.3.0 is not the version built (catalogctl/version.py): "
        "dist/ holds catalogctl-0.2.0-py3-none-any.whl catalogctl-0.2.0.tar.gz\n"
    )


def test_the_release_notes_are_the_changelogs_section_of_the_tag(tmp_path: Path) -> None:
    write(tmp_path, CHANGELOG, (REPO_ROOT / CHANGELOG).read_text(encoding="utf-8"))
    run = run_step(tmp_path, tmp_path, step("build", "notes"), f"v{__version__}")
    assert run.outcome == "success", run.log
    notes = (tmp_path / "notes" / "notes.md").read_text(encoding="utf-8")
    text = (REPO_ROOT / CHANGELOG).read_text(encoding="utf-8")
    section = re.search(rf"^## {re.escape(__version__)} \(.*?\)\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    assert section
    assert notes.strip() == section.group(1).strip()
    assert notes.strip().startswith("### ")


def test_only_the_tags_section_goes_into_the_notes(tmp_path: Path) -> None:
    write(
        tmp_path,
        CHANGELOG,
        "# Changelog\n\n<!-- towncrier release notes start -->\n\n## 0.3.0rc1 (2030-01-03)\n\n### Fixed\n\n- c\n\n"
        "## 0.3.0 (2030-01-02)\n\n### Added\n\n- b\n\n## 0.2.0 (2030-01-01)\n\n### Added\n\n- a\n",
    )
    run = run_step(tmp_path, tmp_path, step("build", "notes"), "v0.3.0")
    assert run.outcome == "success", run.log
    assert (tmp_path / "notes" / "notes.md").read_text(encoding="utf-8").strip() == "### Added\n\n- b"


def test_a_version_without_a_changelog_section_stops_the_release(tmp_path: Path) -> None:
    write(tmp_path, CHANGELOG, (REPO_ROOT / CHANGELOG).read_text(encoding="utf-8"))
    run = run_step(tmp_path, tmp_path, step("build", "notes"), "v9.9.9")
    assert run.outcome == "failure"
    assert run.log == (
        f"::error file={CHANGELOG}::no section '## 9.9.9 (date)': "
        "run `towncrier build --version 9.9.9` and commit it before tagging\n"
    )


def fake_gh(tmp_path: Path, *, major_exists: bool) -> Path:
    """A `gh` that logs its arguments and answers the two questions the workflow asks."""
    folder = tmp_path / "fake-bin"
    log = tmp_path / "gh.log"
    exists = "exit 0" if major_exists else "exit 1"
    write(
        folder,
        "gh",
        "#!/bin/bash\n"
        f'printf "%s\\n" "$*" >> {str(log)!r}\n'
        f'case "$*" in\n  "api repos/o/r/commits/"*) echo {SHA} ;;\n'
        f'  "api repos/o/r/git/ref/tags/"*) {exists} ;;\nesac\n',
    )
    (folder / "gh").chmod(0o755)
    return folder


@pytest.mark.parametrize(
    ("major_exists", "call"),
    [
        (True, f"api --method PATCH repos/o/r/git/refs/tags/v0 -f sha={SHA} -F force=true"),
        (False, f"api --method POST repos/o/r/git/refs -f ref=refs/tags/v0 -f sha={SHA}"),
    ],
)
def test_a_final_release_moves_the_major_tag_to_its_commit(tmp_path: Path, major_exists: bool, call: str) -> None:
    steps = job("github-release")["steps"]
    kind = run_step(tmp_path, tmp_path, step("github-release", "kind"), "v0.2.0")
    assert kind.outputs == {"final": "true"}
    move = step("github-release", "major")
    assert move["if"] == "steps.kind.outputs.final == 'true'"
    assert steps.index(move) > steps.index(step("github-release", "release"))  # after the release exists
    gh = str(fake_gh(tmp_path, major_exists=major_exists))
    run = run_step(tmp_path, tmp_path, move, "v0.2.0", gh, {"kind": {"outputs": kind.outputs}})
    assert run.outcome == "success", run.log
    assert (tmp_path / "gh.log").read_text().splitlines() == [
        "api repos/o/r/commits/v0.2.0 --jq .sha",
        "api repos/o/r/git/ref/tags/v0",
        call,
    ]
    assert run.log == f"v0 -> {SHA}\n"


@pytest.mark.parametrize("tag", ["v0.3.0rc1", "v1.0.0b2", "v0.3.0.dev1"])
def test_a_pre_release_is_marked_so_and_moves_no_major_tag(tmp_path: Path, tag: str) -> None:
    kind = run_step(tmp_path, tmp_path, step("github-release", "kind"), tag)
    assert kind.outputs == {"final": "false"}
    gh = str(fake_gh(tmp_path, major_exists=True))
    move = run_step(tmp_path, tmp_path, step("github-release", "major"), tag, gh, {"kind": {"outputs": kind.outputs}})
    assert move.outcome == "skipped"
    assert not (tmp_path / "gh.log").exists()


def test_the_github_release_carries_the_notes_and_the_files_pypi_got(tmp_path: Path) -> None:
    _built(tmp_path, "0.3.0rc1")
    write(tmp_path, "notes/notes.md", "### Added\n\n- b\n")
    release = dict(step("github-release", "release"))
    release["env"] = {**release["env"], "FINAL": "false"}
    run = run_step(tmp_path, tmp_path, release, "v0.3.0rc1", str(fake_gh(tmp_path, major_exists=True)))
    assert run.outcome == "success", run.log
    [call] = (tmp_path / "gh.log").read_text().splitlines()
    assert call == (
        "release create v0.3.0rc1 dist/catalogctl-0.3.0rc1-py3-none-any.whl dist/catalogctl-0.3.0rc1.tar.gz "
        "--verify-tag --title catalogctl 0.3.0rc1 --notes-file notes/notes.md --prerelease"
    )
    downloads = [s["with"] for s in job("github-release")["steps"] if "download-artifact" in str(s.get("uses"))]
    assert downloads == [{"name": "dist", "path": "dist"}, {"name": "release-notes", "path": "notes"}]
    assert shutil.which("gh", path=str(tmp_path / "fake-bin"))
