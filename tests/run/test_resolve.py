"""`resolve` of a training submission: what the submitter owns for a training run, no endpoint block."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from catalogctl.model.documents.resolved import ResolvedConfig
from catalogctl.release.freeze import FreezeRequest, freeze
from catalogctl.run.resolve import resolve
from tests.helpers import git, run_cli, write
from tests.release_repo import NOW, SEEDS_A, SUBMISSION, TRAINING_SUBMISSION, make_training_freezable


@pytest.fixture
def training_release(catalog_repo: Path, tmp_path: Path) -> Path:
    """Cohort 2026-09-C0 (llm-post-training, seed set A) frozen, pushed to a bare `origin`."""
    repo = make_training_freezable(catalog_repo)
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A)
    freeze(repo, FreezeRequest("2026-09-C0", add=["llm-post-training"], seeds_file=seeds, now=NOW, push="origin"))
    return repo


def test_a_training_submission_resolves_without_an_endpoint(training_release: Path, tmp_path: Path) -> None:
    submission = write(tmp_path, "submission.yaml", TRAINING_SUBMISSION)
    config = resolve(training_release, submission)
    assert config.contract["kind"] == "training"
    assert config.endpoint_config is None
    assert config.settings is None
    assert config.training is not None
    assert config.training.model_dump() == {"system": "64xGB300", "global_batch_size": 512}
    output = tmp_path / "out" / "resolved.json"
    run_cli("preflight", str(submission), "-C", str(training_release), "-o", str(output))
    assert '"global_batch_size": 512' in output.read_text()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            SUBMISSION.replace("benchmark: gsm8k", "benchmark: llm-post-training"),
            "error [submission-mismatch]: benchmark `llm-post-training` is a training benchmark: "
            "it has no endpoint_config or settings\n"
            "hint: state `training: {system: ..., global_batch_size: ...}` instead\n",
        ),
        (
            TRAINING_SUBMISSION.replace("global_batch_size: 512", "global_batch_size: 500"),
            "error [submission-mismatch]: training.global_batch_size is 500, "
            "but benchmark `llm-post-training` needs prompts per step"
            " x 16 generations per prompt\nhint: a multiple of 16: 496 or 512\n",
        ),
    ],
)
def test_a_submission_of_the_wrong_kind_of_run_is_refused(
    training_release: Path, tmp_path: Path, text: str, message: str
) -> None:
    submission = write(tmp_path, "submission.yaml", text)
    assert run_cli("resolve", str(submission), "-C", str(training_release), code=7).stderr == message


def test_a_training_submission_to_an_inference_benchmark_is_refused(release: Path, tmp_path: Path) -> None:
    submission = write(tmp_path, "submission.yaml", TRAINING_SUBMISSION.replace("llm-post-training", "gsm8k"))
    assert run_cli("resolve", str(submission), "-C", str(release), code=7).stderr == (
        "error [submission-mismatch]: benchmark `gsm8k` is an inference benchmark: "
        "the submission needs endpoint_config and settings\n"
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            SUBMISSION.split("submission_ref")[1].split("\n", 1)[1].split("submitter")[0],
            "a training submission states `training`, without endpoint_config or settings",
        ),
        ("", ""),
    ],
)
def test_a_submission_states_one_kind_of_run(tmp_path: Path, extra: str, message: str) -> None:
    text = TRAINING_SUBMISSION.replace("submitter:", extra + "submitter:") if extra else TRAINING_SUBMISSION
    if not message:
        text = text.replace("training:\n  system: 64xGB300\n  global_batch_size: 512\n", "")
        message = "state endpoint_config and settings (an inference benchmark) or training (a training benchmark)"
    submission = write(tmp_path, "submission.yaml", text)
    stderr = run_cli("resolve", str(submission), "-C", str(tmp_path), code=1).stderr
    where = f"{submission}:1:1: error schema-invalid-value: document"
    assert stderr == f"error: {submission} is not a valid submission\n  {where}: {message}\n"


def test_runner_config_refuses_a_training_config(training_release: Path, tmp_path: Path) -> None:
    submission = write(tmp_path, "submission.yaml", TRAINING_SUBMISSION)
    resolved = tmp_path / "resolved.json"
    run_cli("resolve", str(submission), "-C", str(training_release), "-o", str(resolved))
    assert run_cli("runner-config", str(resolved), "-o", str(tmp_path / "run"), code=2).stderr == (
        "error: llm-post-training is a training benchmark: runner-config writes the endpoints client's files, "
        "and a training run has no endpoint\n"
        "hint: a training run writes MLLOG result files: `catalogctl check RESOLVED RESULT_FILE` reads them\n"
    )


def test_a_resolved_config_holds_one_kind_of_run(training_release: Path, tmp_path: Path) -> None:
    data = resolve(training_release, write(tmp_path, "submission.yaml", TRAINING_SUBMISSION)).to_data()
    del data["training"]
    with pytest.raises(ValidationError) as raised:
        ResolvedConfig.model_validate(data)
    assert raised.value.errors()[0]["msg"] == (
        "Value error, hold endpoint_config and settings (an inference run) or training (a training run)"
    )
