"""Repositories ready to freeze, remotes to push to (a bare repository, a git daemon)."""

from __future__ import annotations

import datetime as dt
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

from tests.helpers import commit_all, git, replace_in

SHA = "ab" * 32
# The proposal's example set A, not the published one (tests/fixtures/mlperf/seed_sets.yaml, endpoints_policies'
# seedset.yaml): its first two seeds are LoadGen's mlperf.conf seeds, which the v6.1 endpoints runs of
# tests/fixtures/endpoints/ recorded, so a release that grades those runs carries this set.
SEEDS_A = """\
id: A
scheduler_rng_seed: 16159082839903944936
sample_index_rng_seed: 2747215439041700203
model_seed: 42
"""


def make_freezable(root: Path) -> Path:
    """Decide the pending values of gsm8k and commit: gsm8k and deepseek-r1 can be frozen."""
    path = "benchmark_suite/datasets/gsm8k.yaml"
    replace_in(root, path, "  url: <TBD>", "  url: https://example.org/gsm8k.parquet")
    replace_in(root, path, "  sha256: <TBD>", f"  sha256: {SHA}")
    commit_all(root, "Decide the pending values of gsm8k")
    git(root, "tag", "-d", "v1")
    return root


def bare_origin(tmp_path: Path) -> Path:
    """A bare repository `tmp_path/origin.git` on `main`: the protected remote of a release."""
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    return bare


def frozen_and_pushed(catalog_repo: Path, origin: Path, tmp_path: Path) -> Path:
    """Cohort 2026-09-C0 (gsm8k and deepseek-r1, seed set A) frozen on main and pushed to the bare
    repository `origin` (added as the remote `origin`): the release most run-side tests start from."""
    from catalogctl.release.freeze import FreezeRequest, freeze

    repo = make_freezable(catalog_repo)
    git(repo, "remote", "add", "origin", str(origin))
    seeds = tmp_path / "seeds.yaml"
    seeds.write_text(SEEDS_A)
    freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k", "deepseek-r1"], seeds_file=seeds, now=NOW, push="origin"))
    return repo


def commit_count(root: Path) -> int:
    return int(git(root, "rev-list", "--count", "HEAD"))


def tags(root: Path) -> list[str]:
    return git(root, "tag", "--list").split()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def git_daemon(base: Path) -> Iterator[str]:
    """A git daemon on 127.0.0.1 serving (and accepting pushes to) the repositories in `base`."""
    base.mkdir(parents=True, exist_ok=True)
    port = free_port()
    process = subprocess.Popen(
        [
            "git",
            "daemon",
            "--reuseaddr",
            "--export-all",
            "--enable=receive-pack",
            f"--base-path={base}",
            "--listen=127.0.0.1",
            f"--port={port}",
            str(base),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("git daemon did not start") from None
                time.sleep(0.05)
        yield f"git://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


REFUSE_TAGS_HOOK = """#!/bin/sh
case "$1" in
  refs/tags/*) echo "tags are refused here" >&2; exit 1 ;;
esac
exit 0
"""


# The moment the test freezes happen, and a gsm8k submission to cohort 2026-09-C0 (seed set A).
NOW = dt.datetime(2026, 8, 28, 12, 0, tzinfo=dt.UTC)
SUBMISSION = """\
type: submission
submission_ref: {cohort: 2026-09-C0, seed_set_id: A, benchmark: gsm8k}
endpoint_config:
  endpoints: ["http://127.0.0.1:8000/v1"]
  api_type: openai_completions
settings:
  load_pattern: {type: concurrency, target_concurrency: 512}
submitter: {organization: Example Labs}
"""

# A training submission: what the submitter owns for a training run, no endpoint block.
TRAINING_SUBMISSION = """\
type: submission
submission_ref: {cohort: 2026-09-C0, seed_set_id: A, benchmark: llm-post-training}
training:
  system: 64xGB300
  global_batch_size: 512
submitter: {organization: Example Labs}
"""


def make_training_freezable(root: Path) -> Path:
    """Decide the pending values of llm-post-training's dataset and model and commit: it can be frozen."""
    path = root / "benchmark_suite/datasets/r2e-gym-subset.yaml"
    text = path.read_text(encoding="utf-8")
    for old, new in (("url: <TBD>", "url: https://example.org/r2e-gym-subset"), ("sha256: <TBD>", f"sha256: {SHA}")):
        text = text.replace(old, new)  # the tasks' and the images' alike
    text = text.replace("column: <TBD>", "column: problem_statement", 1).replace("column: <TBD>", "column: tests")
    path.write_text(text, encoding="utf-8")  # the model's checkpoint is pinned in the shipped catalog
    commit_all(root, "Decide the pending values of llm-post-training")
    git(root, "tag", "-d", "v1")
    return root
