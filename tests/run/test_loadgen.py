"""LoadGen output folders, as `check` reads them, from real runs of the MLPerf LoadGen (each in a
subprocess: tests/loadgen_run.py), and the settings `loadgen_settings` gives LoadGen."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from catalogctl.api import loadgen_settings
from catalogctl.errors import InputsUnusable
from catalogctl.run.loadgen import DETAIL, SUMMARY, read_loadgen
from tests.helpers import copy_catalog, run_cli, write
from tests.run_results import SET_A, resolved_config

RUNNER = Path(__file__).resolve().parents[1] / "loadgen_run.py"
SCHEDULE, SAMPLE_INDEX = SET_A["scheduler_rng_seed"], SET_A["sample_index_rng_seed"]
# deepseek-r1 with minimum durations a test can wait for, tiered as the shipped ones are, and a
# sample count (pending in the shipped catalog).
TIERS = "min_duration_ms: {by_concurrency: [{up_to: 32, value: 200}, {value: 300}]}"


pytestmark = pytest.mark.conformance


def short_deepseek(folder: Path) -> Path:
    """A sealed resolved config of deepseek-r1, its minimum durations cut to 200 and 300 ms and its
    sample count to 500."""
    catalog = copy_catalog(folder / "catalog")
    path = catalog / "benchmark_suite/benchmarks/deepseek-r1.yaml"
    text = path.read_text()
    text = text.replace("min_duration_ms: {by_concurrency: [{up_to: 32, value: 600000}, {value: 1200000}]}", TIERS)
    # 500 samples, not the 4388 of the shipped contract: a trivial SUT's run is then a fraction of a second.
    path.write_text(re.sub(r"min_sample_count: 4388\b", "min_sample_count: 500", text))
    return write(folder, "resolved.json", json.dumps(resolved_config(catalog, "deepseek-r1").to_data()))


@pytest.fixture
def resolved(tmp_path: Path) -> Path:
    return short_deepseek(tmp_path)


@pytest.fixture(scope="module")
def one_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """One real Offline run with the contract's settings, and its resolved config: for the tests
    that edit its files (each on a copy)."""
    folder = tmp_path_factory.mktemp("one-run")
    resolved = short_deepseek(folder)
    return resolved, loadgen(folder, resolved)


@pytest.fixture
def output(one_run: tuple[Path, Path], tmp_path: Path) -> Path:
    """A copy of the real run's output folder."""
    copy = tmp_path / "output"
    copy.mkdir()
    for name in (DETAIL, SUMMARY):
        (copy / name).write_bytes((one_run[1] / name).read_bytes())
    return copy


def edit(path: Path, old: str, new: str) -> int:
    """Replace the first `old` in `path` with `new`; the line it was on."""
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return text[: text.index(old)].count("\n") + 1


def line_of(path: Path, key: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if f'"key": "{key}"' in line)


def loadgen(tmp_path: Path, resolved: Path, *args: str) -> Path:
    """Run the real LoadGen once (in a process of its own) into a fresh folder; its output folder."""
    pytest.importorskip("mlperf_loadgen", reason="the mlcommons-loadgen wheel exists for Linux x86_64 only")
    out = tmp_path / f"loadgen-{len(list(tmp_path.glob('loadgen-*')))}"
    subprocess.run([sys.executable, str(RUNNER), str(out), str(resolved), *args], check=True, timeout=60)
    return out


def gates(resolved: Path, folder: Path) -> dict[str, Any]:
    """`check --format json`'s gates, by name (a LoadGen folder never proves every gate: exit 1)."""
    report = json.loads(run_cli("check", resolved, folder, "--format", "json", code=1).stdout)
    assert report["layout"] == "loadgen"
    return {gate["name"]: gate for gate in report["gates"]}


def rows(gate: dict[str, Any]) -> list[tuple[str, str, Any, Any]]:
    return [(c["what"], c["status"], c["expected"], c["observed"]) for c in gate["checks"]]


def test_a_run_with_the_rulesets_seeds_passes_each_seed_loadgen_has(resolved: Path, tmp_path: Path) -> None:
    found = gates(resolved, loadgen(tmp_path, resolved))
    assert rows(found["seeds"]) == [
        ("scheduler_rng_seed", "pass", SCHEDULE, SCHEDULE),
        ("sample_index_rng_seed", "pass", SAMPLE_INDEX, SAMPLE_INDEX),
        ("qsl_rng_seed (the set's sample_index_rng_seed)", "pass", SAMPLE_INDEX, SAMPLE_INDEX),
        ("model_seed", "not-applicable", 42, None),  # LoadGen has no model seed: the SUT's own
    ]
    assert found["seeds"]["verdict"] == "pass"
    assert rows(found["loadgen_run"]) == [
        ("effective_test_mode", "pass", "PerformanceOnly", "PerformanceOnly"),
        ("result_validity", "pass", "VALID", "VALID"),
        ("result_min_duration_met", "pass", True, True),
        ("result_min_queries_met", "pass", True, True),
        ("num_errors", "pass", 0, 0),
    ]
    # Offline has no concurrency: the open last tier (300 ms), LoadGen's minimum as loadgen_settings set it
    assert rows(found["requirements"])[:2] == [
        ("duration_ms at offline (min_duration_ms above 32)", "pass", 300, 300.0),
        ("sample_count", "pass", 500, 500),
    ]


def test_a_run_with_another_schedule_seed_fails_naming_it(resolved: Path, tmp_path: Path) -> None:
    folder = loadgen(tmp_path, resolved, "--seeds", f"{SAMPLE_INDEX},{SAMPLE_INDEX},7")
    found = gates(resolved, folder)
    assert found["seeds"]["verdict"] == "fail"
    assert [r for r in rows(found["seeds"]) if r[1] == "fail"] == [("scheduler_rng_seed", "fail", SCHEDULE, 7)]


def test_a_run_with_mlperf_confs_qsl_seed_fails_it(resolved: Path, tmp_path: Path) -> None:
    folder = loadgen(tmp_path, resolved, "--seeds", f"2085463073848966840,{SAMPLE_INDEX},{SCHEDULE}")
    failed = [r for r in rows(gates(resolved, folder)["seeds"]) if r[1] == "fail"]
    assert failed == [("qsl_rng_seed (the set's sample_index_rng_seed)", "fail", SAMPLE_INDEX, 2085463073848966840)]


def test_a_run_shorter_than_the_contract_fails_requirements(resolved: Path, tmp_path: Path) -> None:
    found = gates(resolved, loadgen(tmp_path, resolved, "--min-duration", "100"))
    assert found["requirements"]["verdict"] == "fail"
    assert rows(found["requirements"])[0] == ("duration_ms at offline (min_duration_ms above 32)", "fail", 300, 100.0)
    assert found["loadgen_run"]["verdict"] == "pass"  # LoadGen met its own (too short) minimum


def test_a_server_run_is_a_poisson_load_the_submission_must_declare(resolved: Path, tmp_path: Path) -> None:
    folder = loadgen(tmp_path, resolved, "--scenario", "Server")
    result = run_cli("check", resolved, folder, code=2)
    assert result.stderr.splitlines()[0] == (
        "error: this run is of load `poisson 5000.0 QPS`; the submission is of load `poisson 170.0 QPS`"
    )


class FakeSettings:
    """The TestSettings attributes loadgen_settings reads and writes (the real one is tested below)."""

    def __init__(self, scenario: str, samples_per_query: int = 8) -> None:
        self.scenario = scenario
        self.multi_stream_samples_per_query = samples_per_query
        self.server_target_qps = 1.0
        self.min_duration_ms = self.min_query_count = 0
        self.qsl_rng_seed = self.sample_index_rng_seed = self.schedule_rng_seed = 0


def test_loadgen_settings_sets_the_seeds_over_mlperf_conf_and_the_contracts_minimums(resolved: Path) -> None:
    lg = pytest.importorskip("mlperf_loadgen", reason="the mlcommons-loadgen wheel exists for Linux x86_64 only")
    settings = lg.TestSettings()
    settings.scenario = lg.TestScenario.Offline
    assert loadgen_settings(resolved, settings) is settings
    assert (settings.qsl_rng_seed, settings.sample_index_rng_seed, settings.schedule_rng_seed) == (
        SAMPLE_INDEX,
        SAMPLE_INDEX,
        SCHEDULE,
    )
    assert (settings.min_duration_ms, settings.min_query_count) == (300, 500)


@pytest.mark.parametrize(
    ("scenario", "duration", "queries"),
    [("SingleStream", 200, 500), ("MultiStream", 200, 63), ("Server", 300, 500)],
)
def test_loadgen_settings_take_the_tier_of_the_scenarios_load(
    resolved: Path, scenario: str, duration: int, queries: int
) -> None:
    """SingleStream is concurrency 1 and MultiStream its query's 8 samples (both up to 32); Server
    is a Poisson load (the last tier); MultiStream's 500 samples are 63 queries of 8."""
    from catalogctl.run.check import load_resolved

    settings = loadgen_settings(load_resolved(resolved), FakeSettings(f"TestScenario.{scenario}"))
    assert (settings.min_duration_ms, settings.min_query_count) == (duration, queries)


def test_loadgen_settings_refuses_an_edited_config(resolved: Path) -> None:
    resolved.write_text(resolved.read_text().replace('"model_seed": 42', '"model_seed": 43'))
    with pytest.raises(InputsUnusable, match="seal"):
        loadgen_settings(str(resolved), FakeSettings("Offline"))


def test_a_malformed_detail_line_is_named_by_file_and_line(output: Path) -> None:
    line = edit(output / DETAIL, '{"key": "effective_min_duration_ms"', '{"key": "effective_min_duration_ms",,')
    with pytest.raises(InputsUnusable) as raised:
        read_loadgen(output)
    assert str(raised.value).startswith(f"{output / DETAIL}:{line}: the MLLOG payload is not JSON: ")


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        (":::MLLOG {", "MLLOG {", "not a `:::MLLOG {json}` line"),
        (':::MLLOG {"key": "loadgen_version", "value": "6.0.17 @ d6147c7eb7"', ":::MLLOG [1", None),
    ],
)
def test_a_line_that_is_no_mllog_entry_is_refused(output: Path, old: str, new: str, problem: str | None) -> None:
    if problem is None:  # an array is JSON, but no entry
        text = (output / DETAIL).read_text().splitlines()
        text[0] = ":::MLLOG [1]"
        (output / DETAIL).write_text("\n".join(text) + "\n")
        problem, line = "an MLLOG entry is an object with a `key` and a `value`", 1
    else:
        line = edit(output / DETAIL, old, new)
    with pytest.raises(InputsUnusable) as raised:
        read_loadgen(output)
    assert str(raised.value) == f"{output / DETAIL}:{line}: {problem}"


def test_a_detail_log_without_a_key_check_reads_is_refused(output: Path) -> None:
    detail = output / DETAIL
    detail.write_text("".join(x for x in detail.read_text().splitlines(True) if '"key": "num_errors"' not in x))
    with pytest.raises(InputsUnusable) as raised:
        read_loadgen(output)
    assert str(raised.value) == f"{detail} is not the log of a complete LoadGen run: no num_errors"


def test_a_key_logged_twice_or_of_another_type_is_refused(output: Path) -> None:
    detail = output / DETAIL
    first = line_of(detail, "result_validity")
    lines = detail.read_text().splitlines(True)
    (output / "twice").mkdir()
    write(output / "twice", DETAIL, "".join([*lines, lines[first - 1]]))
    write(output / "twice", SUMMARY, (output / SUMMARY).read_text())
    with pytest.raises(InputsUnusable) as raised:
        read_loadgen(output / "twice")
    assert str(raised.value) == (
        f"{output / 'twice' / DETAIL}:{len(lines) + 1}: result_validity is logged again (first at line {first})"
    )
    line = edit(detail, '"key": "effective_qsl_rng_seed", "value": ', '"key": "effective_qsl_rng_seed", "value": -')
    with pytest.raises(InputsUnusable) as raised:
        read_loadgen(output)
    assert str(raised.value) == (
        f"{detail}:{line}: effective_qsl_rng_seed is -{SAMPLE_INDEX}, not an unsigned 64-bit integer"
    )


@pytest.mark.parametrize(
    ("old", "new", "stated", "key", "logged"),
    [
        ("Result is : VALID", "Result is : INVALID", "Result is INVALID", "result_validity", "'VALID'"),
        ("Min duration satisfied : Yes", "Min duration satisfied : NO", "Min duration satisfied NO",
         "result_min_duration_met", "True"),
        (f"schedule_rng_seed : {SCHEDULE}", "schedule_rng_seed : 7", "schedule_rng_seed 7",
         "effective_schedule_rng_seed", str(SCHEDULE)),
        ("No errors encountered during test.", "2 ERRORS encountered. See detailed log.", "errors 2",
         "num_errors", "0"),
    ],
)  # fmt: skip
def test_a_summary_that_disagrees_with_the_detail_log_is_refused(
    output: Path, old: str, new: str, stated: str, key: str, logged: str
) -> None:
    line = edit(output / SUMMARY, old, new)
    with pytest.raises(InputsUnusable) as raised:
        read_loadgen(output)
    assert str(raised.value) == (
        f"{output / SUMMARY}:{line}: the summary states {stated}, "
        f"but {output / DETAIL}:{line_of(output / DETAIL, key)} logs {key} {logged}"
    )


def test_a_folder_with_one_of_the_two_logs_is_refused(output: Path, resolved: Path) -> None:
    (output / SUMMARY).unlink()
    result = run_cli("check", resolved, output, code=2)
    assert result.stderr.splitlines()[0] == (f"error: {output} is not a complete LoadGen output folder: no {SUMMARY}")


def test_an_invalid_run_fails_loadgen_run_with_its_reason(output: Path, one_run: tuple[Path, Path]) -> None:
    """A run LoadGen judged invalid (here: its log says so, in both files) fails the gate, with
    LoadGen's reason beside it; a run that did not meet its minimum reports no duration."""
    edit(output / DETAIL, '"result_validity", "value": "VALID"', '"result_validity", "value": "INVALID"')
    edit(output / DETAIL, '"result_min_duration_met", "value": true', '"result_min_duration_met", "value": false')
    reason = ':::MLLOG {"key": "result_invalid_reason", "value": "Reduce target QPS. "}\n'
    (output / DETAIL).write_text((output / DETAIL).read_text() + reason)
    edit(output / SUMMARY, "Result is : VALID", "Result is : INVALID")
    edit(output / SUMMARY, "Min duration satisfied : Yes", "Min duration satisfied : NO")
    found = gates(one_run[0], output)
    gate = found["loadgen_run"]
    assert [(c["what"], c["status"], c["note"]) for c in gate["checks"] if c["status"] == "fail"] == [
        ("result_validity", "fail", "Reduce target QPS."),
        ("result_min_duration_met", "fail", ""),
    ]
    assert rows(found["requirements"])[0] == ("duration_ms at offline (min_duration_ms above 32)", "unknown", 300, None)
