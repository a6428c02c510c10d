"""`runner-config`: what runs a resolved config's contract, for the harness the contract names.

- endpoints (a contract without `runner`, or `runner: {name: endpoints}`): the client's
  `config.yaml` and a §8.3 `point.yaml` skeleton (`run.runner`);
- lm-eval, evalscope, inspect: a shell script `run-<runner>.sh` holding the harness's command line
  (`run.runner_lmeval`, `run.runner_evalscope`, `run.runner_inspect`), and nothing of the endpoints
  client's: its BenchmarkConfig refuses a scorer it does not have (`eval_method: lm_eval`);
- external: nothing to configure (the scores are measured elsewhere and reported back), exit 2.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from catalogctl import words
from catalogctl.errors import InputsUnusable
from catalogctl.io.files import write_atomic, write_state
from catalogctl.model.documents.resolved import ResolvedConfig
from catalogctl.model.reports.runner import RunnerConfigReport, WrittenFile, WrittenRole
from catalogctl.run.check import read_resolved
from catalogctl.run.integrity import verify_config
from catalogctl.run.runner import runner_files
from catalogctl.run.runner_command import RunCommand, runner_block, script_text
from catalogctl.run.runner_evalscope import evalscope_command
from catalogctl.run.runner_inspect import inspect_command
from catalogctl.run.runner_lmeval import lmeval_command

COMMANDS: dict[str, Callable[[ResolvedConfig], RunCommand]] = {
    "lm-eval": lmeval_command,
    "evalscope": evalscope_command,
    "inspect": inspect_command,
}


@dataclass(frozen=True)
class Planned:
    """A file to write: its name in the output folder, its text, its role and permissions."""

    name: str
    text: str
    role: WrittenRole
    mode: int = 0o644


def plan(config: ResolvedConfig) -> tuple[list[Planned], RunCommand | None, list[str]]:
    """The files for the contract's runner, the command they run (none for the endpoints client)
    and the placeholders left in them."""
    name = str(runner_block(config)["name"])
    if name == "external":
        raise InputsUnusable(
            f"{config.contract['id']} is run by `external`: its scores are measured elsewhere and reported back, "
            "so there is nothing for runner-config to configure",
            "report the scores as a catalogctl/results/v1 file and give it to `catalogctl check RESOLVED RESULTS`",
        )
    if name == "endpoints":
        files = runner_files(config)
        planned = [
            Planned("config.yaml", files.config_yaml, "client-config"),
            Planned("point.yaml", files.point_yaml, "point-skeleton"),
        ]
        return planned, None, list(files.placeholders)
    command = COMMANDS[name](config)
    return [Planned(f"run-{name}.sh", script_text(config, command), "run-script", 0o755)], command, []


def write_runner_config(resolved: Path, folder: Path, *, force: bool = False) -> RunnerConfigReport:
    """Read and prove `resolved` as `check` does, then write the files of its contract's runner
    into `folder` atomically; a different existing file is refused unless `force`."""
    config, written = read_resolved(resolved)
    verify_config(config, str(resolved), written)
    planned, command, placeholders = plan(config)
    targets = [(folder / p.name, p.text.encode("utf-8"), p.mode) for p in planned]
    # A symlink is refused, never followed (as `export mlperf`), even with --force, before any write.
    hint = "remove it, or write into another folder (-o)"
    states = [write_state(path, data, "nothing was written", hint) for path, data, _ in targets]
    if not force:
        clash = [str(path) for (path, _, _), state in zip(targets, states, strict=True) if state == "replaced"]
        if clash:
            raise InputsUnusable(
                f"{words.listed(clash)} already {words.noun(len(clash), 'exists', 'exist')} with other content",
                "pass --force to replace them, or write into another folder (-o)",
            )
    for path, data, mode in targets:
        write_atomic(path, data, mode)
    return RunnerConfigReport(
        benchmark=str(config.contract["id"]),
        cohort=config.provenance.cohort,
        runner=command.runner if command else "endpoints",
        files=[WrittenFile(path=str(path), role=p.role) for (path, _, _), p in zip(targets, planned, strict=True)],
        command=command.argv if command else [],
        results=command.results if command else None,
        placeholders=placeholders,
    )
