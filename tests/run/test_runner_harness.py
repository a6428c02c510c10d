"""`runner-config` for the harnesses that take a command line (lm-eval, evalscope, inspect) and for
`external`, which has nothing to configure: the command each gets, the script that holds it (run by
sh, its arguments read back), and what is refused."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path
from typing import Any

from tests.helpers import replace_in, run_cli, write
from tests.run_results import pin_all, resealed, resolved_config

GSM8K = "benchmark_suite/benchmarks/gsm8k.yaml"
LMEVAL_GSM8K = [
    "lm_eval",
    "--model",
    "local-completions",
    "--model_args",
    "model=meta-llama/Llama-3.1-8B-Instruct,base_url=http://127.0.0.1:8000/v1/completions,seed=42,num_concurrent=8",
    "--tasks",
    "gsm8k",
    "--num_fewshot",
    "5",
    "--batch_size",
    "auto",
    "--gen_kwargs",
    "temperature=0.0,max_gen_toks=256,do_sample=False",
    "--log_samples",
    "--output_path",
    "lm-eval",
]


def emit(
    tmp_path: Path, catalog_dir: Path, benchmark: str, *args: str, code: int = 0, **endpoint: Any
) -> tuple[Any, Path]:
    """runner-config on a resolved config of `benchmark` (concurrency 8): its JSON report, and the folder."""
    pin_all(catalog_dir)
    load = endpoint.pop("load", None)
    config = resolved_config(catalog_dir, benchmark, load, **endpoint)
    resolved = write(tmp_path, "resolved.json", json.dumps(config.to_data()))
    done = run_cli("runner-config", resolved, "-o", tmp_path / "out", "--format", "json", *args, code=code)
    return (json.loads(done.stdout) if code == 0 else done), tmp_path / "out"


def test_gsm8k_gets_the_lm_eval_command_of_its_contract(tmp_path: Path, catalog_dir: Path) -> None:
    report, out = emit(tmp_path, catalog_dir, "gsm8k")
    assert report["runner"] == "lm-eval"
    assert report["command"] == LMEVAL_GSM8K
    assert report["files"] == [{"path": str(out / "run-lm-eval.sh"), "role": "run-script"}]
    assert (report["results"], report["placeholders"]) == ("lm-eval", [])
    assert sorted(p.name for p in out.iterdir()) == ["run-lm-eval.sh"]  # no config.yaml, no point.yaml
    assert stat.S_IMODE((out / "run-lm-eval.sh").stat().st_mode) == 0o755


def test_the_text_output_prints_the_command_line(tmp_path: Path, catalog_dir: Path) -> None:
    emit(tmp_path, catalog_dir, "gsm8k")
    done = run_cli("runner-config", tmp_path / "resolved.json", "-o", tmp_path / "again")
    assert done.stdout.startswith("lm_eval --model local-completions --model_args model=meta-llama/")
    assert done.stderr.splitlines() == [
        f"wrote {tmp_path / 'again' / 'run-lm-eval.sh'}",
        "results: lm-eval/ beside the script (give it to `catalogctl check`)",
    ]


def _fake_harness(tmp_path: Path, name: str) -> Path:
    """A `name` on PATH that writes each argument it gets on a line of its own, and its folder."""
    folder = tmp_path / "bin"
    folder.mkdir(exist_ok=True)
    fake = folder / name
    fake.write_text('#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done > "$ARGS_OUT"\nenv > "$ENV_OUT"\n')
    fake.chmod(0o755)
    return folder


def _run_script(tmp_path: Path, script: Path, name: str, **env: str) -> tuple[list[str], dict[str, str]]:
    folder = _fake_harness(tmp_path, name)
    outputs = {"ARGS_OUT": str(tmp_path / "args.txt"), "ENV_OUT": str(tmp_path / "env.txt")}
    environment = {"PATH": f"{folder}:/usr/bin:/bin", **outputs, **env}
    subprocess.run(["sh", str(script)], env=environment, check=True, cwd=tmp_path, timeout=60)
    variables = dict(line.split("=", 1) for line in (tmp_path / "env.txt").read_text().splitlines() if "=" in line)
    return (tmp_path / "args.txt").read_text().splitlines(), variables


def test_the_script_hands_the_harness_each_argument_whole(tmp_path: Path, catalog_dir: Path) -> None:
    """A served model whose name has spaces and quotes reaches lm_eval as one argument, and the
    script runs from its own folder (the results land beside it)."""
    served = '/models/it\'s a "quoted" $HOME path'
    report, out = emit(tmp_path, catalog_dir, "gsm8k", served_model=served)
    args, variables = _run_script(tmp_path, out / "run-lm-eval.sh", "lm_eval")
    assert args == report["command"][1:]
    assert args[3].startswith(f"model={served},base_url=")
    assert variables["PWD"] == str(out)


def test_a_chat_endpoint_gets_lm_evals_chat_model_and_template(tmp_path: Path, catalog_dir: Path) -> None:
    replace_in(catalog_dir, GSM8K, "api_type: openai_completions", "api_type: openai")
    report, _ = emit(tmp_path, catalog_dir, "gsm8k")
    assert report["command"][1:5] == [
        "--model",
        "local-chat-completions",
        "--model_args",
        "model=meta-llama/Llama-3.1-8B-Instruct,base_url=http://127.0.0.1:8000/v1/chat/completions,seed=42,"
        "num_concurrent=8",
    ]
    assert "--apply_chat_template" in report["command"]


def test_a_poisson_load_sets_no_concurrency(tmp_path: Path, catalog_dir: Path) -> None:
    report, _ = emit(tmp_path, catalog_dir, "gsm8k", load={"type": "poisson", "target_qps": 3.0})
    assert report["command"][4].endswith(",seed=42")


def test_more_endpoints_than_one_are_said_in_the_script(tmp_path: Path, catalog_dir: Path) -> None:
    pin_all(catalog_dir)
    data = resolved_config(catalog_dir, "gsm8k").to_data()
    data["endpoint_config"]["endpoints"].append("http://127.0.0.2:8000/v1")
    resolved = write(tmp_path, "resolved.json", json.dumps(resealed(data)))
    run_cli("runner-config", resolved, "-o", tmp_path / "out")
    script = (tmp_path / "out" / "run-lm-eval.sh").read_text()
    assert "# The submission states 2 endpoints: the harness sends every request to the first.\n" in script


def test_a_setting_lm_eval_cannot_take_is_refused_not_dropped(tmp_path: Path, catalog_dir: Path) -> None:
    replace_in(catalog_dir, GSM8K, "    max_new_tokens: 256\n", "    max_new_tokens: 256\n    min_new_tokens: 1\n")
    done, out = emit(tmp_path, catalog_dir, "gsm8k", code=2)
    assert done.stderr == (
        "error: lm-eval has no setting for min_new_tokens, which the contract fixes\n"
        "hint: run the benchmark with a harness that takes it (the endpoints client does)\n"
    )
    assert not out.exists()


def test_ceval_gets_the_evalscope_command_of_its_contract(tmp_path: Path, catalog_dir: Path) -> None:
    report, out = emit(tmp_path, catalog_dir, "ceval")
    assert report["command"] == [
        "evalscope",
        "eval",
        "--model",
        "meta-llama/Llama-3.1-8B-Instruct",
        "--api-url",
        "http://127.0.0.1:8000/v1",
        "--api-key",
        "EMPTY",
        "--eval-type",
        "openai_api",
        "--datasets",
        "ceval",
        "--dataset-args",
        '{"ceval":{"few_shot_num":5}}',
        "--generation-config",
        '{"temperature":0.0,"max_tokens":1024,"seed":42}',
        "--eval-batch-size",
        "8",
        "--repeats",
        "1",
        "--work-dir",
        "evalscope",
        "--no-timestamp",
    ]
    assert (report["runner"], report["results"]) == ("evalscope", "evalscope")
    script = (out / "run-evalscope.sh").read_text()
    assert "# Runs evalscope as the contract fixes it; needs: pip install 'evalscope>=1.14,<2'\n" in script


INSPECT = """runner:
  name: inspect
  tasks: [inspect_evals/gsm8k]
  version: ">=0.3,<0.4"
  extra_args: ["-T", "fewshot=5"]
i18n:"""


def test_an_inspect_pack_gets_inspect_eval_with_a_json_log(tmp_path: Path, catalog_dir: Path) -> None:
    path = catalog_dir / GSM8K
    text = path.read_text()
    path.write_text(text[: text.index("runner:")] + INSPECT + text[text.index("i18n:") + 5 :])
    report, out = emit(tmp_path, catalog_dir, "gsm8k")
    assert report["command"] == [
        "inspect",
        "eval",
        "inspect_evals/gsm8k",
        "--model",
        "openai-api-completions/local/meta-llama/Llama-3.1-8B-Instruct",
        "--model-base-url",
        "http://127.0.0.1:8000/v1",
        "--temperature",
        "0.0",
        "--max-tokens",
        "256",
        "--seed",
        "42",
        "--max-connections",
        "8",
        "--epochs",
        "1",
        "--log-format",
        "json",
        "--log-dir",
        "inspect-logs",
        "-T",
        "fewshot=5",
    ]
    args, variables = _run_script(
        tmp_path, out / "run-inspect.sh", "inspect", INSPECT_EVAL_LIMIT="10", INSPECT_EVAL_SAMPLE_ID="3"
    )
    assert args == report["command"][1:]
    assert variables["LOCAL_API_KEY"] == "EMPTY"  # inspect's OpenAI-compatible provider needs a key
    assert "INSPECT_EVAL_LIMIT" not in variables
    assert "INSPECT_EVAL_SAMPLE_ID" not in variables


def test_a_key_the_submitter_exported_is_kept(tmp_path: Path, catalog_dir: Path) -> None:
    path = catalog_dir / GSM8K
    text = path.read_text()
    path.write_text(text[: text.index("runner:")] + INSPECT + text[text.index("i18n:") + 5 :])
    _, out = emit(tmp_path, catalog_dir, "gsm8k")
    _, variables = _run_script(tmp_path, out / "run-inspect.sh", "inspect", LOCAL_API_KEY="secret")
    assert variables["LOCAL_API_KEY"] == "secret"


def test_an_external_benchmark_has_nothing_to_configure(tmp_path: Path, catalog_dir: Path) -> None:
    path = catalog_dir / GSM8K
    text = path.read_text()
    path.write_text(
        text[: text.index("runner:")] + "runner:\n  name: external\ni18n:" + text[text.index("i18n:") + 5 :]
    )
    done, out = emit(tmp_path, catalog_dir, "gsm8k", code=2)
    assert done.stderr == (
        "error: gsm8k is run by `external`: its scores are measured elsewhere and reported back, so there is "
        "nothing for runner-config to configure\n"
        "hint: report the scores as a catalogctl/results/v1 file and give it to `catalogctl check RESOLVED RESULTS`\n"
    )
    assert not out.exists()


def test_an_explicit_endpoints_runner_gets_the_clients_files(tmp_path: Path, catalog_dir: Path) -> None:
    replace_in(
        catalog_dir,
        "benchmark_suite/benchmarks/deepseek-r1.yaml",
        "postprocessing:",
        "runner:\n  name: endpoints\npostprocessing:",
    )
    report, out = emit(tmp_path, catalog_dir, "deepseek-r1")
    assert (report["runner"], report["command"], report["results"]) == ("endpoints", [], None)
    assert [f["role"] for f in report["files"]] == ["client-config", "point-skeleton"]
    assert sorted(p.name for p in out.iterdir()) == ["config.yaml", "point.yaml"]
    assert os.access(out / "config.yaml", os.R_OK)
