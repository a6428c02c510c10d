"""The committed lm-eval runs are runs of what `runner-config` writes for the pack: its command
line, the model aside, is the invocation `tests/fixtures/lmeval/regenerate.py` ran."""

from __future__ import annotations

import json
from pathlib import Path

from tests.fixtures.lmeval.regenerate import INVOCATION
from tests.helpers import run_cli
from tests.lmeval_pack import resolved_pack

# What the submitter's deployment decides: which model lm-eval talks to and how, how many requests
# at a time, and where the outputs go. regenerate.py puts lm-eval's offline `dummy` model there.
DEPLOYMENT = {"--model", "--model_args", "--batch_size", "--output_path"}


def options(command: list[str]) -> dict[str, str]:
    """`--name value` pairs (a flag alone maps to "")."""
    found: dict[str, str] = {}
    for i, word in enumerate(command):
        if word.startswith("--"):
            following = command[i + 1] if i + 1 < len(command) else ""
            found[word] = "" if following.startswith("--") else following
    return found


def gen_kwargs(text: str) -> dict[str, str]:
    return dict(pair.split("=", 1) for pair in text.split(","))


def test_runner_config_writes_the_invocation_the_committed_runs_were_made_with(tmp_path: Path) -> None:
    resolved = resolved_pack(tmp_path / "pack")
    report = json.loads(run_cli("runner-config", resolved, "-o", tmp_path / "out", "--format", "json").stdout)
    assert report["runner"] == "lm-eval"
    assert report["command"][0] == "lm_eval"
    written, ran = options(report["command"][1:]), options(INVOCATION)
    assert {k: v for k, v in written.items() if k not in DEPLOYMENT | {"--gen_kwargs"}} == {
        k: v for k, v in ran.items() if k not in DEPLOYMENT | {"--gen_kwargs"}
    }
    # runner-config also says do_sample=False, which a temperature of 0 already means to lm-eval.
    assert gen_kwargs(written["--gen_kwargs"]) == {**gen_kwargs(ran["--gen_kwargs"]), "do_sample": "False"}
    assert "--limit" not in written
