"""The `inspect eval` command line that runs an inspect pack's contract against the submission's
endpoint.

Written for inspect_ai 0.3 (read in 0.3.285, inspect_ai/_cli/eval.py): the tasks as positional
arguments, the endpoint through inspect's OpenAI-compatible providers (`openai-api/<service>/<model>`
for chat, `openai-api-completions/...` for completions: inspect_ai/model/_providers/providers.py),
which read the key from `<SERVICE>_API_KEY` (openai_compatible.py); the service here is `local`,
so the script exports `LOCAL_API_KEY=EMPTY` unless it is set. The generation as `--temperature`,
`--top-p`, `--top-k`, `--max-tokens`, `--reasoning-effort`, the seed set's model seed as `--seed`,
the submission's concurrency as `--max-connections`, the repeats as `--epochs`, and
`--log-format json --log-dir` (the default `.eval` format is a zstd zip). inspect also reads a
limit and a sample selection from the environment (`INSPECT_EVAL_LIMIT`, `INSPECT_EVAL_SAMPLE_ID`):
the script unsets them, so no partial run starts by accident.

inspect has no few-shot option of its own: a task takes its count as a task argument (inspect_evals'
gsm8k: `fewshot`), which a pack states in `extra_args` (`-T fewshot=5`).
"""

from __future__ import annotations

from catalogctl.model.documents.resolved import ResolvedConfig
from catalogctl.run.runner_command import (
    RunCommand,
    concurrency,
    endpoint_url,
    generation,
    repeats,
    runner_block,
    served_model,
    unsupported,
)

RESULTS = "inspect-logs"
_OPTIONS = {
    "temperature": "--temperature",
    "top_p": "--top-p",
    "top_k": "--top-k",
    "max_new_tokens": "--max-tokens",
    "reasoning_effort": "--reasoning-effort",
}
_PROVIDERS = {"openai": "openai-api", "openai_completions": "openai-api-completions"}
# What inspect would take from the environment to run part of the data.
PARTIAL_RUN_VARIABLES = ("INSPECT_EVAL_LIMIT", "INSPECT_EVAL_SAMPLE_ID")


def inspect_command(config: ResolvedConfig) -> RunCommand:
    """The inspect eval command line of an inspect pack's resolved config."""
    runner = runner_block(config)
    url, notes = endpoint_url(config)
    found = generation(config, "inspect")
    unsupported("inspect", found, set(_OPTIONS))
    provider = _PROVIDERS[str(config.contract.get("api_type"))]
    argv = ["inspect", "eval", *runner["tasks"], "--model", f"{provider}/local/{served_model(config)}"]
    argv += ["--model-base-url", url]
    for key, value in found.items():
        argv += [_OPTIONS[key], str(value)]
    argv += ["--seed", str(config.seeds.model_seed)]
    in_flight = concurrency(config)
    if in_flight is not None:
        argv += ["--max-connections", str(in_flight)]
    argv += ["--epochs", str(repeats(config)), "--log-format", "json", "--log-dir", RESULTS]
    argv += runner.get("extra_args", [])
    return RunCommand(
        "inspect",
        argv,
        RESULTS,
        f"inspect-ai{runner.get('version', '')}",
        environment={"LOCAL_API_KEY": "EMPTY"},
        notes=notes,
        unset=list(PARTIAL_RUN_VARIABLES),
    )
