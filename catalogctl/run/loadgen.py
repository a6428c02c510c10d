"""The output folder of the MLPerf LoadGen (`mlcommons-loadgen`), as `check` reads it, and the
settings a runner gives LoadGen from a resolved config.

A LoadGen run writes `mlperf_log_detail.txt` (one `:::MLLOG {json}` line per fact) and
`mlperf_log_summary.txt` (the same facts for people). The detail log is the source of truth; the
summary is cross-checked wherever it states a value the detail log states too, and a folder whose
two files disagree is refused.

Seeds. A seed set has three seeds; LoadGen has three random streams, and no model seed:

- `schedule_rng_seed` (when queries arrive) is the set's `scheduler_rng_seed`;
- `sample_index_rng_seed` (which loaded sample each query carries) is the set's
  `sample_index_rng_seed`;
- `qsl_rng_seed` (which samples are loaded, when the performance set is smaller than the library)
  is the set's own `qsl_rng_seed` when it has one (a set imported from a LoadGen release's
  mlperf.conf, `freeze --loadgen-seeds`), else its `sample_index_rng_seed`: both choose the
  samples, as the endpoints client's one `dataloader_random_seed` does, and a seed the set does
  not fix is one a submitter could tune;
- `model_seed` is the SUT's: LoadGen never sees it, so from a LoadGen folder the `seeds` gate's
  `model_seed` check is `unknown` and the gate is not evaluable -- never a pass.

LoadGen's embedded `mlperf.conf` pins `*.*.qsl_rng_seed` and the other two, and a `user.conf`
cannot override them, so `apply_settings` sets them on the `TestSettings` after `FromConfig`.

Duration. LoadGen logs no duration, only its minimum (`effective_min_duration_ms`) and whether
the run met it (`result_min_duration_met`). The run lasted at least that minimum when met, which
is what the `requirements` gate compares with the contract's (as MLPerf's own submission checker
holds the configured minimum to the rules); a run that did not meet it reports no duration.

Load. A contract's minimum duration may be tiered by concurrency (`run/gates.per_load`). A Server
run is a Poisson load at `effective_target_qps` (compared with the submission's, as any run's
load is); an Offline run has every sample in flight at once, no concurrency bound, and takes the
open last tier, as a Poisson load does; SingleStream is concurrency 1 and MultiStream the samples
of its one query in flight.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalogctl.errors import InputsUnusable
from catalogctl.io.files import read_input
from catalogctl.io.jsonio import JsonProblem, parse_json
from catalogctl.model.documents.resolved import ResolvedConfig
from catalogctl.model.documents.results import LoadUsed, PerformanceResult, RunResults, SeedsUsed
from catalogctl.model.reports.check import Check, GateResult
from catalogctl.run.gates import per_load

DETAIL = "mlperf_log_detail.txt"
SUMMARY = "mlperf_log_summary.txt"
_PREFIX = ":::MLLOG "
_HINT = "check reads a LoadGen output folder as LoadGen wrote it (mlperf_log_detail.txt and mlperf_log_summary.txt)"
_UINT = "uint"
# What `check` reads from the detail log, and the JSON type of each: every LoadGen run in
# performance mode logs all of them once; a log lacking one is not a complete run.
_KEYS: dict[str, str] = {
    "effective_scenario": "str",
    "effective_test_mode": "str",
    "effective_samples_per_query": _UINT,
    "effective_target_qps": "number",
    "effective_min_duration_ms": _UINT,
    "effective_min_query_count": _UINT,
    "effective_min_sample_count": _UINT,
    "effective_qsl_rng_seed": _UINT,
    "effective_sample_index_rng_seed": _UINT,
    "effective_schedule_rng_seed": _UINT,
    "generated_samples_per_query": _UINT,
    "result_validity": "str",
    "result_min_duration_met": "bool",
    "result_min_queries_met": "bool",
    "result_query_count": _UINT,
    "num_errors": _UINT,
}
_OPTIONAL = {"result_invalid_reason": "str"}  # logged only when the run is invalid
# The summary's label of each value it states that the detail log states too.
_SUMMARY_LABELS: dict[str, str] = {
    "Scenario": "effective_scenario",
    "Mode": "effective_test_mode",
    "Result is": "result_validity",
    "Min duration satisfied": "result_min_duration_met",
    "Min queries satisfied": "result_min_queries_met",
    "min_duration (ms)": "effective_min_duration_ms",
    "min_query_count": "effective_min_query_count",
    "qsl_rng_seed": "effective_qsl_rng_seed",
    "sample_index_rng_seed": "effective_sample_index_rng_seed",
    "schedule_rng_seed": "effective_schedule_rng_seed",
}
_ERRORS = re.compile(r"(No|\d+) ERRORS? encountered\..*", re.IGNORECASE)


@dataclass(frozen=True)
class LoadGenRun:
    """A LoadGen output folder as read: each fact of `_KEYS` with the detail log's line of it."""

    folder: Path
    facts: dict[str, Any]
    lines: dict[str, int]

    @property
    def scenario(self) -> str:
        """LoadGen's scenario: Offline, Server, SingleStream or MultiStream."""
        return str(self.facts["effective_scenario"])


def is_loadgen_folder(path: Path) -> bool:
    """Whether `path` holds a LoadGen log (either file: a folder lacking the other is told so)."""
    return (path / DETAIL).is_file() or (path / SUMMARY).is_file()


def read_loadgen(folder: Path) -> LoadGenRun:
    """The facts of a LoadGen output folder, its summary cross-checked against its detail log."""
    missing = [name for name in (DETAIL, SUMMARY) if not (folder / name).is_file()]
    if missing:
        raise InputsUnusable(f"{folder} is not a complete LoadGen output folder: no {', '.join(missing)}", _HINT)
    facts, lines = _detail(folder / DETAIL)
    run = LoadGenRun(folder=folder, facts=facts, lines=lines)
    _cross_check(run, folder / SUMMARY)
    return run


def _detail(path: Path) -> tuple[dict[str, Any], dict[str, int]]:
    """Each fact `check` reads from the detail log, and the line it is on."""
    facts: dict[str, Any] = {}
    lines: dict[str, int] = {}
    wanted = {**_KEYS, **_OPTIONAL}
    for number, line in enumerate(read_input(path).decode("utf-8", "replace").splitlines(), 1):
        if not line.strip():
            continue
        if not line.startswith(_PREFIX):
            raise InputsUnusable(f"{path}:{number}: not a `{_PREFIX.strip()} {{json}}` line", _HINT)
        try:
            entry = parse_json(line[len(_PREFIX) :].encode())
        except JsonProblem as exc:
            raise InputsUnusable(f"{path}:{number}: the MLLOG payload is not JSON: {exc}", _HINT) from None
        if not isinstance(entry, dict) or not isinstance(entry.get("key"), str) or "value" not in entry:
            raise InputsUnusable(f"{path}:{number}: an MLLOG entry is an object with a `key` and a `value`", _HINT)
        key = entry["key"]
        if key not in wanted:
            continue
        if key in facts:
            raise InputsUnusable(f"{path}:{number}: {key} is logged again (first at line {lines[key]})", _HINT)
        if not _fits(entry["value"], wanted[key]):
            raise InputsUnusable(f"{path}:{number}: {key} is {entry['value']!r}, not {_kind(wanted[key])}", _HINT)
        facts[key], lines[key] = entry["value"], number
    absent = [key for key in _KEYS if key not in facts]
    if absent:
        raise InputsUnusable(f"{path} is not the log of a complete LoadGen run: no {', '.join(absent)}", _HINT)
    return facts, lines


def _fits(value: Any, kind: str) -> bool:
    if kind == _UINT:
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**64
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, {"str": str, "bool": bool}[kind])


def _kind(kind: str) -> str:
    return {_UINT: "an unsigned 64-bit integer", "number": "a number", "str": "a string", "bool": "a boolean"}[kind]


def _cross_check(run: LoadGenRun, path: Path) -> None:
    """Refuse a summary that states another value than the detail log for one of its facts."""
    detail = run.folder / DETAIL
    for number, line in enumerate(read_input(path).decode("utf-8", "replace").splitlines(), 1):
        errors = _ERRORS.fullmatch(line.strip())
        label, _, text = line.partition(":")
        key = "num_errors" if errors else _SUMMARY_LABELS.get(label.strip())
        if key is None:
            continue
        stated = (errors.group(1) if errors else text).strip()
        if _summary_value(stated, run.facts[key]) != run.facts[key]:
            raise InputsUnusable(
                f"{path}:{number}: the summary states {label.strip() if not errors else 'errors'} {stated}, "
                f"but {detail}:{run.lines[key]} logs {key} {run.facts[key]!r}",
                "the detail log is the source of truth; a summary that disagrees with it is not LoadGen's",
            )


def _summary_value(text: str, like: Any) -> Any:
    """The summary's text as a value of the detail log's type (`Yes`/`NO`, `No` errors)."""
    if isinstance(like, bool):
        return {"yes": True, "no": False}.get(text.lower(), text)
    if isinstance(like, int):
        return 0 if text.lower() == "no" else int(text) if text.isdigit() else text
    return text


def scenario_load(scenario: str, target_qps: float | None, samples_per_query: int) -> dict[str, Any]:
    """The load of a LoadGen scenario, as `per_load` reads loads (see the module docstring)."""
    if scenario == "Server":
        return {"type": "poisson", "target_qps": None if target_qps is None else float(target_qps)}
    if scenario == "SingleStream":
        return {"type": "concurrency", "target_concurrency": 1}
    if scenario == "MultiStream":
        return {"type": "concurrency", "target_concurrency": samples_per_query}
    return {"type": scenario.lower()}  # Offline: every sample at once, no concurrency


def run_load(run: LoadGenRun) -> dict[str, Any]:
    """The load this run was driven at."""
    facts = run.facts
    return scenario_load(run.scenario, facts["effective_target_qps"], facts["effective_samples_per_query"])


def loadgen_results(run: LoadGenRun, contract: Mapping[str, Any]) -> RunResults:
    """What a LoadGen run reports, as results of `contract` (LoadGen names no benchmark, model or
    dataset: the run is taken to be of the contract it is checked against)."""
    facts = run.facts
    met = facts["result_min_duration_met"]
    load = run_load(run)
    return RunResults(
        benchmark=contract["id"],
        source=f"LoadGen output {run.folder} ({run.scenario})",
        seeds=SeedsUsed(
            scheduler_rng_seed=facts["effective_schedule_rng_seed"],
            sample_index_rng_seed=facts["effective_sample_index_rng_seed"],
            qsl_rng_seed=facts["effective_qsl_rng_seed"],
        ),
        load_pattern=LoadUsed(type="poisson", target_qps=load["target_qps"]) if run.scenario == "Server" else None,
        performance=PerformanceResult(
            duration_ms=float(facts["effective_min_duration_ms"]) if met else None,
            sample_count=facts["result_query_count"] * facts["generated_samples_per_query"],
        ),
    )


def loadgen_gate(run: LoadGenRun) -> GateResult:
    """LoadGen's own verdict on the run: a hard gate of its own."""
    facts = run.facts

    def equal(what: str, expected: Any, note: str = "") -> Check:
        observed = facts[what]
        return Check(
            what=what,
            expected=expected,
            observed=observed,
            status="pass" if observed == expected else "fail",
            note=note,
        )

    reason = facts.get("result_invalid_reason", "").strip()
    return GateResult(
        name="loadgen_run",
        severity="hard",
        description="LoadGen's verdict: a valid performance run that met its minimum duration and queries, no errors",
        checks=[
            equal("effective_test_mode", "PerformanceOnly"),
            equal("result_validity", "VALID", reason),
            equal("result_min_duration_met", True),
            equal("result_min_queries_met", True),
            equal("num_errors", 0, "" if facts["num_errors"] == 0 else f"see {run.folder / DETAIL}"),
        ],
    )


def _scenario_name(settings: Any) -> str:
    scenario = settings.scenario
    return str(getattr(scenario, "name", scenario)).rsplit(".", 1)[-1]


def apply_settings(config: ResolvedConfig, settings: Any) -> Any:
    """Set a LoadGen `TestSettings` from a resolved config: the three seeds, the minimum duration at
    the settings' scenario (set `scenario` first) and the minimum sample count when the contract
    has one. Call it after `FromConfig`, which would put back mlperf.conf's seeds."""
    seeds = config.seeds
    settings.qsl_rng_seed = seeds.sample_index_rng_seed if seeds.qsl_rng_seed is None else seeds.qsl_rng_seed
    settings.sample_index_rng_seed = seeds.sample_index_rng_seed
    settings.schedule_rng_seed = seeds.scheduler_rng_seed
    scenario = _scenario_name(settings)
    samples_per_query = int(settings.multi_stream_samples_per_query) if scenario == "MultiStream" else 1
    load = scenario_load(scenario, float(settings.server_target_qps), samples_per_query)
    requirements = (config.contract.get("performance") or {}).get("requirements") or {}
    duration, _ = per_load(requirements.get("min_duration_ms"), load, "min_duration_ms")
    if isinstance(duration, int):
        settings.min_duration_ms = duration
    count = requirements.get("min_sample_count")
    if isinstance(count, int):  # LoadGen counts queries: Offline's one query carries them all
        settings.min_query_count = math.ceil(count / samples_per_query)
    return settings
