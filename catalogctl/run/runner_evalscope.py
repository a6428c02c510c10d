"""The `evalscope eval` command line that runs an evalscope pack's contract against the submission's
endpoint.

Written for evalscope 1.x (read in 1.14.1, evalscope/arguments.py): `--eval-type openai_api` with
`--api-url` the endpoint's base (its OpenAI client adds `/chat/completions` itself,
evalscope/models/openai_compatible.py), the tasks as `--datasets`, the few-shot count per dataset
in `--dataset-args` (`few_shot_num`, a field of every benchmark's BenchmarkMeta), the generation
in `--generation-config` (GenerateConfig's `max_tokens`, `temperature`, `top_p`, `top_k`,
`reasoning_effort`, and `seed`: the seed set's model seed), the submission's concurrency as
`--eval-batch-size` (the requests in flight of a remote model), the repeats as `--repeats`, and
`--work-dir` without a timestamp so the reports land in a known folder. Never `--limit`.
"""

from __future__ import annotations

import json

from catalogctl.model.documents.resolved import ResolvedConfig
from catalogctl.run.runner_command import (
    RunCommand,
    concurrency,
    endpoint_url,
    generation,
    num_fewshot,
    repeats,
    runner_block,
    served_model,
    unsupported,
)

RESULTS = "evalscope"
_GENERATION = {
    "temperature": "temperature",
    "top_p": "top_p",
    "top_k": "top_k",
    "max_new_tokens": "max_tokens",
    "reasoning_effort": "reasoning_effort",
}


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def evalscope_command(config: ResolvedConfig) -> RunCommand:
    """The evalscope command line of an evalscope pack's resolved config."""
    runner = runner_block(config)
    tasks: list[str] = runner["tasks"]
    url, notes = endpoint_url(config)
    found = generation(config, "evalscope")
    unsupported("evalscope", found, set(_GENERATION))
    settings: dict[str, object] = {_GENERATION[k]: v for k, v in found.items()}
    settings["seed"] = config.seeds.model_seed
    argv = ["evalscope", "eval", "--model", served_model(config), "--api-url", url, "--api-key", "EMPTY"]
    argv += ["--eval-type", "openai_api", "--datasets", *tasks]
    shots = num_fewshot(config)
    if shots is not None:
        argv += ["--dataset-args", _json({task: {"few_shot_num": shots} for task in tasks})]
    argv += ["--generation-config", _json(settings)]
    in_flight = concurrency(config)
    batch = in_flight if in_flight is not None else runner.get("batch_size")
    if batch is not None:
        argv += ["--eval-batch-size", str(batch)]
    argv += ["--repeats", str(repeats(config)), "--work-dir", RESULTS, "--no-timestamp"]
    argv += runner.get("extra_args", [])
    return RunCommand("evalscope", argv, RESULTS, f"evalscope{runner.get('version', '')}", notes=notes)
