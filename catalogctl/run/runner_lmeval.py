"""The `lm_eval` command line that runs an lm-eval pack's contract against the submission's endpoint.

Written for lm-evaluation-harness 0.4.x (read in 0.4.13, lm_eval/_cli/run.py): the flat form
`lm_eval --model ...` (0.4.13 inserts its `run` subcommand itself; older 0.4 releases have none),
and `key=value` lists for `--model_args` and `--gen_kwargs`, which every 0.4 release parses.

- `--model local-completions` (an `openai_completions` benchmark) or `local-chat-completions`
  with `--apply_chat_template` (`openai`): both post to `base_url` as given
  (lm_eval/models/api_models.py), so the URL names the route. `seed` is the seed set's model
  seed, sent with every request (TemplateAPI's `seed`); `num_concurrent` the submission's
  concurrency.
- `--gen_kwargs` from the contract's accuracy generation: `max_new_tokens` is lm-eval's
  `max_gen_toks`, and `do_sample` is false exactly when the temperature is 0 (the convention of
  lm-eval's own task files: gsm8k.yaml has `do_sample: false, temperature: 0.0`); lm-eval merges
  them over the task's `generation_kwargs`, so the task's stop sequences stay.
- `--num_fewshot` from `preprocessing.num_fewshot`; `--log_samples` always (the samples files
  are what `check` recomputes the task hashes from); never `--limit`.
"""

from __future__ import annotations

from catalogctl.errors import InputsUnusable
from catalogctl.model.documents.resolved import ContractGeneration, ResolvedConfig
from catalogctl.run.runner_command import (
    RunCommand,
    concurrency,
    endpoint_url,
    generation,
    num_fewshot,
    runner_block,
    served_model,
    unsupported,
)

RESULTS = "lm-eval"
# The contract's sampling keys lm-eval's API models take, in lm-eval's words.
_GEN_KWARGS = {"temperature": "temperature", "top_p": "top_p", "top_k": "top_k", "max_new_tokens": "max_gen_toks"}
# api_type -> (lm-eval's model, the route its base_url names, whether prompts are chat messages)
_MODELS = {
    "openai_completions": ("local-completions", "/completions", False),
    "openai": ("local-chat-completions", "/chat/completions", True),
}


def _text(value: object) -> str:
    return "True" if value is True else "False" if value is False else str(value)


def key_values(arguments: dict[str, object], option: str) -> str:
    """`k=v,k2=v2` as lm-eval splits it; a value holding a comma or an `=` would be cut in two."""
    for key, value in arguments.items():
        if any(c in _text(value) for c in ",="):
            raise InputsUnusable(
                f"lm-eval cannot take {key}={_text(value)!r} in {option}: its `key=value` lists split on ',' and '='",
                "serve the model under a name without them (endpoint_config.served_model)",
            )
    return ",".join(f"{k}={_text(v)}" for k, v in arguments.items())


def gen_kwargs(found: ContractGeneration) -> dict[str, object]:
    """The contract's generation in lm-eval's words (refused when it fixes one lm-eval lacks)."""
    unsupported("lm-eval", found, set(_GEN_KWARGS))
    out: dict[str, object] = {_GEN_KWARGS[k]: v for k, v in found.items()}
    if "temperature" in found:
        out["do_sample"] = found["temperature"] > 0
    return out


def lmeval_command(config: ResolvedConfig) -> RunCommand:
    """The lm_eval command line of an lm-eval pack's resolved config."""
    runner = runner_block(config)
    api_type = str(config.contract.get("api_type"))
    model, route, chat = _MODELS[api_type]
    url, notes = endpoint_url(config)
    model_args: dict[str, object] = {"model": served_model(config), "base_url": url + route}
    model_args["seed"] = config.seeds.model_seed
    in_flight = concurrency(config)
    if in_flight is not None:
        model_args["num_concurrent"] = in_flight
    argv = ["lm_eval", "--model", model, "--model_args", key_values(model_args, "--model_args")]
    argv += ["--tasks", ",".join(runner["tasks"])]
    shots = num_fewshot(config)
    if shots is not None:
        argv += ["--num_fewshot", str(shots)]
    if "batch_size" in runner:
        argv += ["--batch_size", str(runner["batch_size"])]
    argv += ["--gen_kwargs", key_values(gen_kwargs(generation(config, "lm-eval")), "--gen_kwargs")]
    if chat:
        argv.append("--apply_chat_template")
    argv += ["--log_samples", "--output_path", RESULTS, *runner.get("extra_args", [])]
    version = runner.get("version", "")
    return RunCommand("lm-eval", argv, RESULTS, f"lm-eval[api]{version}", notes=notes)
