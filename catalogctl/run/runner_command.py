"""What the harnesses that take a command line share: the contract's generation, few-shot count and
repeats read once, the submission's endpoint, and the run script that holds the command.

A harness's script is plain POSIX sh: the command is quoted argument by argument (`shlex`), so a
served model's name or an extra argument with spaces or quotes reaches the harness as one
argument, and the script runs from its own folder so the results land beside it.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any

from catalogctl.errors import InputsUnusable
from catalogctl.model.documents.resolved import ContractGeneration, ResolvedConfig, accuracy_datasets, contract_terms
from catalogctl.model.documents.submission import load_concurrency
from catalogctl.model.reports.runner import HarnessName


@dataclass(frozen=True)
class RunCommand:
    """A harness's command line for a resolved config, and what the script around it needs."""

    runner: HarnessName
    argv: list[str]
    results: str  # the folder the harness writes into, relative to the script's
    install: str  # the pip requirement that brings the harness
    environment: dict[str, str] = field(default_factory=dict)  # defaults the script exports, if unset
    notes: list[str] = field(default_factory=list)  # comment lines for the person who runs it
    unset: list[str] = field(default_factory=list)  # variables the harness would read a partial run from


def runner_block(config: ResolvedConfig) -> dict[str, Any]:
    """The contract's `runner` (`{name: endpoints}` when it names none)."""
    block = config.contract.get("runner")
    return dict(block) if isinstance(block, dict) else {"name": "endpoints"}


def generation(config: ResolvedConfig, runner: str) -> ContractGeneration:
    """The generation every accuracy dataset runs with: a harness takes one for the whole run, so
    datasets whose merged generations differ cannot be run by one command."""
    entries = accuracy_datasets(contract_terms(config.contract))
    if not entries:
        raise InputsUnusable(
            f"{config.contract['id']} has no accuracy phase: {runner} scores answers, and the contract states none",
            "give the benchmark an accuracy phase, or run it with the endpoints client",
        )
    first = entries[0]["generation"]
    for entry in entries[1:]:
        if entry["generation"] != first:
            raise InputsUnusable(
                f"the accuracy datasets of {config.contract['id']} run with different generation settings "
                f"({entries[0]['dataset']['id']}: {first}; {entry['dataset']['id']}: {entry['generation']}), "
                f"and {runner} takes one for the whole run",
                "split the benchmark into one per generation setting",
            )
    return first


def unsupported(runner: str, found: ContractGeneration, supported: set[str]) -> None:
    """Refuse a generation setting the harness has no option for: dropping it would run another
    contract than the one resolved."""
    left = sorted(set(found) - supported)
    if left:
        raise InputsUnusable(
            f"{runner} has no setting for {', '.join(left)}, which the contract fixes",
            "run the benchmark with a harness that takes it (the endpoints client does)",
        )


def num_fewshot(config: ResolvedConfig) -> int | None:
    """The few-shot count the contract fixes (`preprocessing.num_fewshot`), if it states one."""
    value = (config.contract.get("preprocessing") or {}).get("num_fewshot")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def repeats(config: ResolvedConfig) -> int:
    """How many times each accuracy sample is run (the same for every dataset, or refused)."""
    counts = {e["num_repeats"] for e in accuracy_datasets(contract_terms(config.contract))}
    if len(counts) > 1:
        raise InputsUnusable(
            f"the accuracy datasets of {config.contract['id']} repeat {sorted(counts)} times: a harness repeats "
            "the whole run",
            "split the benchmark into one per repeat count",
        )
    return counts.pop() if counts else 1


def served_model(config: ResolvedConfig) -> str:
    """The model name the endpoint serves: the submission's `served_model`, else the contract's
    model (its hub id, else its catalog id), as the endpoints client's config names it."""
    endpoint = config.endpoint_config or {}
    model = contract_terms(config.contract)["model"]
    return str(endpoint.get("served_model") or model.get("reference_id") or model["id"])


def endpoint_url(config: ResolvedConfig) -> tuple[str, list[str]]:
    """The submission's first endpoint (without a final `/`), and a note when it states more:
    a harness sends every request to one address."""
    urls = [str(u) for u in (config.endpoint_config or {}).get("endpoints", [])]
    if not urls:
        raise InputsUnusable(f"the resolved config of {config.contract['id']} has no endpoint to send requests to")
    notes = [f"The submission states {len(urls)} endpoints: the harness sends every request to the first."]
    return urls[0].rstrip("/"), notes if len(urls) > 1 else []


def concurrency(config: ResolvedConfig) -> int | None:
    """The submission's concurrency (None under a Poisson load, which has none)."""
    return load_concurrency(config.settings.load_pattern.model_dump()) if config.settings else None


def script_text(config: ResolvedConfig, command: RunCommand) -> str:
    """The run script: a header saying where it comes from, the defaults it exports, then the
    command, one option per line."""
    contract = config.contract
    lines = [
        "#!/bin/sh",
        f"# Written by catalogctl runner-config from the resolved config of {contract['id']} "
        f"({config.provenance.cohort}, contract {config.provenance.contract_digest}).",
        f"# Runs {command.runner} as the contract fixes it; needs: pip install {shlex.quote(command.install)}",
        f"# Then: catalogctl check RESOLVED {command.results}/ (from this folder).",
        *(f"# {note}" for note in command.notes),
        "set -eu",
        'cd -- "$(dirname -- "$0")"',
    ]
    if command.unset:
        lines.append("unset " + " ".join(command.unset))
    for name, value in command.environment.items():
        lines.append(f': "${{{name}:={value}}}"')
        lines.append(f"export {name}")
    words = [shlex.quote(a) for a in command.argv]
    body: list[str] = [words[0]]
    option: list[str] = []
    for word in words[1:]:  # an option starts a line, its values follow it
        if word.startswith("-") and option:
            body.append(" ".join(option))
            option = []
        option.append(word)
    if option:
        body.append(" ".join(option))
    return "\n".join(lines) + "\nexec " + " \\\n  ".join(body) + "\n"
