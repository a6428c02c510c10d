"""What `runner-config` returns (`catalogctl/runner-config/v1`): the files it wrote for the harness
that runs the contract, the command line they hold, and what is left for the submitter to fill."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from catalogctl.model.reports.base import Report

RUNNER_CONFIG_SCHEMA: Literal["catalogctl/runner-config/v1"] = "catalogctl/runner-config/v1"
WrittenRole = Literal["client-config", "point-skeleton", "run-script"]
HarnessName = Literal["lm-eval", "evalscope", "inspect"]  # the runners runner-config writes a command line for


class WrittenFile(Report):
    """One file runner-config wrote."""

    path: str
    role: WrittenRole = Field(
        description="client-config (the endpoints client's config.yaml), point-skeleton (a §8.3 point.yaml), "
        "run-script (a shell script that runs the harness)"
    )


class RunnerConfigReport(Report):
    """The documented JSON shape of `catalogctl runner-config --format json`."""

    schema_: Literal["catalogctl/runner-config/v1"] = Field(RUNNER_CONFIG_SCHEMA, alias="schema")
    benchmark: str
    cohort: str
    runner: Literal["endpoints", "lm-eval", "evalscope", "inspect"] = Field(
        description="the harness the contract names (endpoints when it names none)"
    )
    files: list[WrittenFile]
    command: list[str] = Field(
        description="the harness's command line the run script executes, one argument per item; empty for the "
        "endpoints client, which reads config.yaml"
    )
    results: str | None = Field(
        description="where the harness writes its results, relative to the output folder (give it to `check`); "
        "null for the endpoints client"
    )
    placeholders: list[str] = Field(description="what only the submitter knows, left for them to fill: FILE KEY")
