"""One run of the real MLPerf LoadGen with a trivial SUT and QSL, in a process of its own.

LoadGen keeps global state between runs in one process (a second `FromConfig` logs "Multiple conf
files are used" as an error and leaves the seeds at 0), so each test run is a subprocess:

    python tests/loadgen_run.py OUTDIR RESOLVED [--scenario Offline] [--min-duration MS] [--seeds Q,S,C]
                                                [--conf-seeds]

The settings come from `FromConfig` (LoadGen's embedded mlperf.conf and an empty user.conf), then
catalogctl's `loadgen_settings` applies the resolved config; `--min-duration` and `--seeds` (qsl,
sample index, schedule) then override what it set, as a runner that ignores the contract would,
and `--conf-seeds` puts back the seeds `FromConfig` set, as a runner that keeps mlperf.conf's would.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import mlperf_loadgen as lg

from catalogctl.api import loadgen_settings


def main() -> None:
    """Run LoadGen once, writing its logs into OUTDIR."""
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir", type=Path)
    parser.add_argument("resolved", type=Path)
    parser.add_argument("--scenario", default="Offline")
    parser.add_argument("--min-duration", type=int)
    parser.add_argument("--seeds")
    parser.add_argument("--conf-seeds", action="store_true")
    args = parser.parse_args()
    args.outdir.mkdir(parents=True, exist_ok=True)
    settings = lg.TestSettings()
    (args.outdir / "user.conf").write_text("")
    # A model name mlperf.conf does not know: only its `*.*` and `*.<scenario>` keys apply (its
    # deepseek-r1 keys ask for token latencies, which this trivial SUT does not report).
    settings.FromConfig(str(args.outdir / "user.conf"), "catalogctl-trivial", args.scenario)
    conf_seeds = settings.qsl_rng_seed, settings.sample_index_rng_seed, settings.schedule_rng_seed
    settings.scenario = getattr(lg.TestScenario, args.scenario)
    settings.mode = lg.TestMode.PerformanceOnly
    settings.server_target_qps = 5000
    loadgen_settings(args.resolved, settings)
    if args.min_duration is not None:
        settings.min_duration_ms = args.min_duration
    if args.conf_seeds:
        settings.qsl_rng_seed, settings.sample_index_rng_seed, settings.schedule_rng_seed = conf_seeds
    if args.seeds:
        settings.qsl_rng_seed, settings.sample_index_rng_seed, settings.schedule_rng_seed = (
            int(s) for s in args.seeds.split(",")
        )
    run(settings, args.outdir, args.scenario)


def run(settings: lg.TestSettings, outdir: Path, scenario: str) -> None:
    """The test itself: an Offline query is answered after the minimum duration, so that it is met."""
    delay = (settings.min_duration_ms + 20) / 1000 if scenario == "Offline" else 0

    def issue(samples: list[lg.QuerySample]) -> None:
        time.sleep(delay)
        lg.QuerySamplesComplete([lg.QuerySampleResponse(s.id, 0, 0) for s in samples])

    sut = lg.ConstructSUT(issue, lambda: None)
    qsl = lg.ConstructQSL(100, 100, lambda _: None, lambda _: None)
    log_settings = lg.LogSettings()
    output = lg.LogOutputSettings()
    output.outdir = str(outdir)
    output.copy_summary_to_stdout = False
    log_settings.log_output = output
    lg.StartTestWithLogSettings(sut, qsl, settings, log_settings)
    lg.DestroyQSL(qsl)
    lg.DestroySUT(sut)


if __name__ == "__main__":
    main()
