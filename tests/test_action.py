"""The gate job run from its own files (catalog-gate.yml, action.yml, catalog-gate-comment.yml), as
the runner runs them, on a pull request's checkout that tries to take the gate over: nothing the
pull request holds runs, and the comment job posts only what the gate wrote."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from catalogctl.io.tree import blob_id
from tests.actions_runner import Runner, load_yaml, substitute, uploaded
from tests.helpers import REPO_ROOT, commit_all, git, write
from tests.offline_install import clean_copy, fresh_python
from tests.review_repo import RULESET, make_frozen

WORKFLOWS = REPO_ROOT / ".github" / "workflows"
TRUSTED = ".trusted-catalogctl"
PR_NUMBER = "7"
FORGED = "<!-- catalogctl-gate -->\n## ✅ Catalog gate passed\n\nApproved.\n"
# Files a pull request may commit at its root so that Python runs them: a module found before
# the real one on an import path (`python -m` puts the current folder first), the modules `site`
# imports at start-up, a path configuration file. Each leaves a marker if it ever runs.
HOSTILE = (
    "pip/__init__.py",
    "pip/__main__.py",
    "catalogctl/__init__.py",
    "catalogctl/__main__.py",
    "setuptools/__init__.py",
    "sitecustomize.py",
    "usercustomize.py",
    "hostile.pth",
)


def plant_hostile_files(checkout: Path, markers: Path) -> None:
    """The pull request's takeover attempt: every file writes its marker when Python runs it."""
    for name in HOSTILE:
        code = f"import pathlib; pathlib.Path({str(markers / name.replace('/', '-'))!r}).write_text('ran')"
        write(checkout, name, code + "\n")


def runner_env(tmp_path: Path, checkout: Path, bin_folder: Path | None) -> dict[str, str]:
    """The environment a step gets on the runner, sealed: no index, no proxy that answers."""
    temp = tmp_path / "runner-temp"
    temp.mkdir(exist_ok=True)
    (tmp_path / "summary.md").touch()
    git_folder = str(Path(shutil.which("git") or "/usr/bin/git").parent)
    path = [str(bin_folder)] if bin_folder else []
    path += list(dict.fromkeys([git_folder, "/usr/bin", "/bin"]))
    env = {key: value for key, value in os.environ.items() if key.startswith(("GIT_", "XDG_"))}
    env |= {
        "PATH": os.pathsep.join(path),
        "HOME": os.environ["HOME"],
        "LANG": "C.UTF-8",
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        "GITHUB_WORKSPACE": str(checkout),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "RUNNER_TEMP": str(temp),
        # Offline: pip reads no configuration and no index, and builds with what is installed.
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_NO_INDEX": "1",
        "PIP_NO_BUILD_ISOLATION": "0",  # pip reads "0" as --no-build-isolation
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    for proxy in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        env[proxy] = "http://127.0.0.1:9"
    return env


class GateJob:
    """The gate job of catalog-gate.yml on a checkout: the two checkouts are already made (the
    pull request's, and catalogctl's source at `.trusted-catalogctl`), setup-python is the
    Python on PATH, the artifact is kept here."""

    def __init__(self, checkout: Path, env: dict[str, str]) -> None:
        self.checkout = checkout
        self.runner = Runner(env, checkout, self._uses)
        self.gate_outputs: dict[str, str] = {}
        self.artifact: dict[str, bytes] | None = None
        base = git(checkout, "rev-parse", "origin/main")
        self.github = {"base_ref": "main", "event": {"pull_request": {"number": PR_NUMBER, "base": {"sha": base}}}}

    def _uses(self, step: Mapping[str, Any], context: dict[str, Any], workspace: Path) -> dict[str, str]:
        used = str(step["uses"])
        given = {key: substitute(str(value), context) for key, value in step.get("with", {}).items()}
        if used.startswith(("actions/checkout@", "actions/setup-python@")):
            return {}
        if used == f"./{TRUSTED}":
            self.gate_outputs = self.runner.run_action(workspace / TRUSTED, given, self.github)
            return self.gate_outputs
        if used.startswith("actions/upload-artifact@"):
            self.artifact = uploaded(given["path"], workspace)
            return {}
        raise AssertionError(f"no stand-in for {used}")

    def run(self) -> bool:
        """Run the job; whether it failed."""
        job = load_yaml(WORKFLOWS / "catalog-gate.yml")["jobs"]["gate"]
        context = {"github": self.github, "runner": {"temp": self.runner.env["RUNNER_TEMP"]}}
        return self.runner.run_steps(job["steps"], context, {})


def pull_request(catalog_repo: Path, tmp_path: Path) -> Path:
    """The checkout of a pull request: `origin/main` the base, catalogctl's source beside it."""
    checkout = make_frozen(catalog_repo, tmp_path)
    git(checkout, "update-ref", "refs/remotes/origin/main", "main")
    clean_copy(checkout / TRUSTED)
    return checkout


def comment_job_says(tmp_path: Path, artifact: dict[str, bytes]) -> str:
    """What the comment job's last step does with the artifact, downloaded where the job says."""
    job = load_yaml(WORKFLOWS / "catalog-gate-comment.yml")["jobs"]["comment"]
    workspace = tmp_path / "comment-workspace"
    workspace.mkdir()
    temp = tmp_path / "comment-temp"
    temp.mkdir()
    context = {"runner": {"temp": str(temp)}, "github": {"repository": "o/r"}, "secrets": {}}
    download = next(s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/download-artifact@"))
    folder = workspace / substitute(download["with"]["path"], context)
    folder.mkdir(parents=True)
    for name, data in artifact.items():
        (folder / name).write_bytes(data)
    last = job["steps"][-1]
    env = {"PATH": os.environ["PATH"], "RUNNER_TEMP": str(temp), "REPOSITORY": "o/r", "RUN_HEAD_SHA": "0" * 40}
    env |= {key: substitute(str(value), context) for key, value in last.get("env", {}).items()}
    done = subprocess.run(
        ["bash", "-eo", "pipefail", "-c", last["run"]], cwd=workspace, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.slow  # builds and installs catalogctl
def test_nothing_the_pull_request_holds_runs_in_the_gate(catalog_repo: Path, tmp_path: Path) -> None:
    checkout = pull_request(catalog_repo, tmp_path)
    markers = tmp_path / "markers"
    markers.mkdir()
    plant_hostile_files(checkout, markers)
    write(checkout, RULESET, (checkout / RULESET).read_text() + "# edited\n")  # the gate must fail it
    commit_all(checkout, "Edit a frozen ruleset, and take the gate over")
    bin_folder = fresh_python(tmp_path / "setup-python")
    env = runner_env(tmp_path, checkout, bin_folder)
    assert shutil.which("catalogctl", path=env["PATH"]) is None  # only what the action installs runs
    job = GateJob(checkout, env)
    failed = job.run()
    log = "\n".join(f"{r.name}: {r.outcome}\n{r.log}" for r in job.runner.runs)
    assert sorted(p.name for p in markers.iterdir()) == [], log
    # The gate itself ran and judged: the edit of a frozen ruleset fails it.
    assert job.gate_outputs["ran"] == "true"
    assert job.gate_outputs["exit-code"] == "1", log
    assert failed
    assert [r.name for r in job.runner.runs if r.outcome == "failure"] == ["Fail on errors not accepted"]
    assert "ruleset-modified" in (tmp_path / "summary.md").read_text()
    # Its comment body is where the action says, out of the checkout's reach, and it is uploaded.
    body = Path(job.gate_outputs["comment-file"])
    assert body.parent == Path(job.gate_outputs["report-dir"])
    assert body.is_relative_to(env["RUNNER_TEMP"])
    assert body.read_text().startswith("<!-- catalogctl-gate -->\n")
    assert "ruleset-modified" in body.read_text()
    assert job.artifact == {"catalogctl-comment.md": body.read_bytes(), "pr-number.txt": b"7\n"}


def test_a_skipped_gate_uploads_no_comment_body_the_pull_request_committed(catalog_repo: Path, tmp_path: Path) -> None:
    checkout = pull_request(catalog_repo, tmp_path)
    write(checkout, "docs/notes.md", "not the catalog\n")
    write(checkout, "catalogctl-comment.md", FORGED)
    commit_all(checkout, "Docs, and a comment for the bot to post")
    env = runner_env(tmp_path, checkout, None)
    first = GateJob(checkout, env)
    assert not first.run()
    assert first.gate_outputs["ran"] == "false"
    assert first.artifact == {"pr-number.txt": b"7\n"}
    # The report folder is made afresh on each run: a body left in it from before is gone.
    write(Path(first.gate_outputs["report-dir"]), "catalogctl-comment.md", FORGED)
    again = GateJob(checkout, env)
    assert not again.run()
    assert again.artifact == {"pr-number.txt": b"7\n"}
    assert comment_job_says(tmp_path, again.artifact) == "no catalog file changed: no comment\n"


def run_gate_on(checkout: Path, tmp_path: Path) -> tuple[GateJob, str]:
    """The gate job on a pull request's checkout, with the Python setup-python gives: the job
    and the log of the gate's own step."""
    env = runner_env(tmp_path, checkout, fresh_python(tmp_path / "setup-python"))
    job = GateJob(checkout, env)
    job.run()
    log = "\n".join(r.log for r in job.runner.runs if r.name == "Run the gate")
    return job, log


@pytest.mark.slow  # builds and installs catalogctl
def test_the_gate_judges_the_commit_not_the_files_checkout_wrote_from_it(catalog_repo: Path, tmp_path: Path) -> None:
    # `working-tree-encoding` makes checkout write a file other than the blob: here the frozen
    # ruleset's own bytes on disk, for a blob the pull request replaced (what the merge keeps).
    checkout = pull_request(catalog_repo, tmp_path)
    # IBM037 (EBCDIC) decodes any bytes: UTF-16LE refused a ruleset of an odd length (git add: 128).
    write(checkout, ".gitattributes", f"{RULESET} working-tree-encoding=IBM037\n")
    git(checkout, "add", "--renormalize", ".")
    commit_all(checkout, "Replace a frozen ruleset's blob, its checkout unchanged")
    (checkout / RULESET).unlink()
    git(checkout, "checkout", "--", RULESET)  # as actions/checkout writes it
    # On disk the file is the base's, byte for byte; the commit holds another blob.
    assert blob_id((checkout / RULESET).read_bytes()) == git(checkout, "rev-parse", f"main:{RULESET}")
    assert git(checkout, "rev-parse", f"HEAD:{RULESET}") != git(checkout, "rev-parse", f"main:{RULESET}")
    job, log = run_gate_on(checkout, tmp_path)
    assert job.gate_outputs["ran"] == "true"
    assert job.gate_outputs["exit-code"] == "1", log
    assert "ruleset-modified" in (tmp_path / "summary.md").read_text()


@pytest.mark.slow  # builds and installs catalogctl
@pytest.mark.parametrize(
    ("tag", "target"),
    [
        ("origin/main", "HEAD"),  # the base as a short name: git and catalogctl take the tag
        ("refs/remotes/origin/main", "HEAD"),  # the base's full name, as a tag's: catalogctl took it
        ("HEAD", "main"),  # the head: catalogctl took the tag
    ],
)
def test_a_tag_named_after_the_base_or_head_stands_in_for_neither(
    catalog_repo: Path, tmp_path: Path, tag: str, target: str
) -> None:
    # Whoever may push a tag (`fetch-depth: 0` fetches them all) names one after a ref the gate
    # reads, pointing where the pull request looks unchanged.
    checkout = pull_request(catalog_repo, tmp_path)
    write(checkout, RULESET, (checkout / RULESET).read_text() + "# edited\n")  # the gate must fail it
    commit_all(checkout, "Edit a frozen ruleset")
    git(checkout, "update-ref", f"refs/tags/{tag}", git(checkout, "rev-parse", target))
    job, log = run_gate_on(checkout, tmp_path)
    assert job.gate_outputs["ran"] == "true"
    assert job.gate_outputs["exit-code"] == "1", log
    assert "ruleset-modified" in (tmp_path / "summary.md").read_text()


@pytest.mark.slow  # builds and installs catalogctl
def test_the_pull_request_writes_no_workflow_command_through_an_error(catalog_repo: Path, tmp_path: Path) -> None:
    # The runner reads a workflow command from any line of the step's output: a name the
    # pull request chose, quoted in an error, must keep its one line.
    checkout = pull_request(catalog_repo, tmp_path)
    write(checkout, "catalogctl.toml", '"x\\n::warning title=gate::passed\\n::set-output name=exit-code::0" = 1\n')
    commit_all(checkout, "A configuration key that holds workflow commands")
    job, log = run_gate_on(checkout, tmp_path)
    assert job.gate_outputs["exit-code"] == "2", log
    assert "config-unknown-key" in log
    assert [line for line in log.splitlines() if line.lstrip().startswith("::")] == []
