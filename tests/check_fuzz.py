"""The fuzzer of `check`: a real input of every layout `check` reads, mutated at random (a key of a
JSON or YAML file deleted, given another type or another value, or one of the values readers
trip on; an MLLOG or LoadGen line's event mutated, dropped or doubled; bytes cut, inserted,
deleted; a file removed or made a folder; the resolved config mutated, with or without a new
seal), then `check_files` and every reporter of `check`.

An outcome is a report, a refusal (a `CatalogError`: a message and an exit code), or a crash (any
other exception: the CLI's exit 70). A forged verdict is a report that passes on an input that
cannot pass: the layouts whose files cannot carry a fact a hard gate needs (no runner's own files
name a dataset's sha256), and a results file of a failing run whose config was mutated without a
new seal (the property of `tests/run/test_check_mutations.py`, at random). A config given a new
seal is taken as it is, without `--catalog` (docs/explanation/trust.md: "Seals are not signatures"), so its verdict
is not judged.

Used by `tests/run/test_check_fuzz.py` (a bounded, derandomized property) and by the campaign
`bench/fuzz_check.py` (as many cases as asked).
"""

from __future__ import annotations

import copy
import json
import random
import shutil
import subprocess
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from catalogctl.errors import CatalogError
from catalogctl.io.yamlio import YamlProblem, read_foreign_yaml
from catalogctl.render.check import REPORTERS
from catalogctl.run.check import check_files
from tests.harness_packs import EVALSCOPE_RUN, INSPECT_LOG, SERVED, add_packs
from tests.helpers import copy_catalog, write
from tests.run.test_check_mutations import other_type, other_value, paths
from tests.run_results import gpt_oss_results, pin_all, resealed, resolved_config, run_folder, set_deepseek_sample_count
from tests.submission_points import Point, point_folder, submission_tree, valid_curve

# Values the readers index, compare, convert or print: each has ended a reader before.
NASTY: list[Any] = [
    None,
    True,
    0,
    -1,
    2**64,
    2**70,
    10**400,
    1e308,
    -0.0,
    "",
    "\ud800",
    "<TBD>",
    "x" * 5000,
    [],
    {},
    [[[[[[[[]]]]]]]],
    {"a": {"b": {"c": None}}},
]
BYTES: list[bytes] = [b"\xff", b"\x00", b"{", b"[", b"NaN", b"Infinity", b"\n", b'"', b":::MLLOG ", b"\xef\xbb\xbf"]
Outcome = str  # "report", "refused", "crash", "forged"


@dataclass(frozen=True)
class Seed:
    """A resolved config and a run of one layout; `can_pass`: whether any input of it may pass."""

    name: str
    resolved: Path
    results: Path
    can_pass: bool
    results_mutable: bool = True  # False: only the resolved config is mutated (the failing-run seed)


@dataclass
class Tally:
    """What a campaign found: outcomes by layout, and the first inputs of each crash or forgery."""

    cases: int = 0
    outcomes: dict[str, dict[str, int]] = field(default_factory=dict)
    findings: list[str] = field(default_factory=list)

    def add(self, seed: str, outcome: Outcome, detail: str) -> None:
        self.cases += 1
        counts = self.outcomes.setdefault(seed, {})
        counts[outcome] = counts.get(outcome, 0) + 1
        if outcome in ("crash", "forged") and len(self.findings) < 20:
            self.findings.append(f"{seed}: {outcome}: {detail}")

    def count(self, outcome: Outcome) -> int:
        return sum(counts.get(outcome, 0) for counts in self.outcomes.values())


def make_seeds(root: Path, *, loadgen: bool = True) -> list[Seed]:
    """A valid input of every layout under `root` (a LoadGen run only when `loadgen` and its wheel
    is installed: it runs the real LoadGen once)."""
    catalog = add_packs(copy_catalog(root / "catalog"))
    pin_all(catalog)
    set_deepseek_sample_count(catalog)
    resolved = {b: write(root, f"{b}.json", json.dumps(resolved_config(catalog, b).to_data())) for b in _BENCHMARKS}
    failing = gpt_oss_results(accuracy=[{"dataset": "aime25", "scale": "fraction", "repeat_scores": [0.1] * 8}])
    seeds = [
        Seed(
            "results", resolved["gpt-oss-120b"], write(root, "results.json", gpt_oss_results().model_dump_json()), True
        ),
        Seed(
            "results-failing", resolved["gpt-oss-120b"], write(root, "failing.json", failing.model_dump_json()), False
        ),
        Seed("run-folder", resolved["deepseek-r1"], run_folder(root, "interactive"), False),
        Seed("point", resolved["deepseek-r1"], point_folder(root / "r32", Point(32)), False),
        Seed("submission", resolved["deepseek-r1"], _submission(root), False),
        *_training_seeds(root, resolved["llm-post-training"]),
        _lmeval_seed(root),
        *_harness_seeds(root, catalog),
    ]
    if loadgen:
        seeds += _loadgen_seed(root)
    return seeds


_BENCHMARKS = ("gpt-oss-120b", "deepseek-r1", "llm-post-training")


def _submission(root: Path) -> Path:
    from tests.run_results import SET_A

    return submission_tree(root / "tree", valid_curve(dict(SET_A), "A", "2026-09-C0")[:3])


def _training_seeds(root: Path, resolved: Path) -> list[Seed]:
    from tests.run.test_mllog import write_log

    runs = root / "runs"
    runs.mkdir()
    for index in range(3):
        write_log(runs / f"result_{index}.txt", seed=42 + index)
    return [
        Seed("mllog", resolved, write_log(root / "result_0.txt"), False),
        Seed("mllog-runs", resolved, runs, False),
    ]


def _harness_seeds(root: Path, catalog: Path) -> list[Seed]:
    """evalscope's output folder and inspect_ai's log (tests/fixtures/): neither records a dataset's
    sha256, so no input of theirs may pass the test packs' dataset_integrity."""
    config = {
        b: write(root, f"{b}.json", json.dumps(resolved_config(catalog, b, None, served_model=SERVED).to_data()))
        for b in ("gsm8k-evalscope", "gsm8k-inspect")
    }
    return [
        Seed("evalscope", config["gsm8k-evalscope"], Path(shutil.copytree(EVALSCOPE_RUN, root / "evalscope")), False),
        Seed("inspect", config["gsm8k-inspect"], Path(shutil.copy(INSPECT_LOG, root / "inspect.json")), False),
    ]


def _lmeval_seed(root: Path) -> Seed:
    """lm-eval's dummy model run by the gsm8k pack on the tests' task: it calls no API, so no
    input of it may pass (generation_integrity's api_type is unknown)."""
    from tests.lmeval_pack import DUMMY, resolved_pack

    return Seed("lm-eval", resolved_pack(root / "lmeval"), DUMMY, False)


def _loadgen_seed(root: Path) -> list[Seed]:
    try:
        import mlperf_loadgen  # noqa: F401
    except ImportError:  # the wheel exists for Linux x86_64 only
        return []
    from tests.run.test_loadgen import RUNNER, short_deepseek

    resolved = short_deepseek(root / "loadgen")
    out = root / "loadgen" / "out"
    subprocess.run([sys.executable, str(RUNNER), str(out), str(resolved)], check=True, timeout=120, capture_output=True)
    for extra in out.iterdir():  # LoadGen's trace and accuracy logs: check reads neither
        if extra.name not in ("mlperf_log_detail.txt", "mlperf_log_summary.txt"):
            extra.unlink()
    return [Seed("loadgen", resolved, out, False)]


# -- mutations -------------------------------------------------------------------------------------


def _mutate_data(rng: random.Random, data: Any) -> Any:
    """`data` with one key or item deleted, given another type, another value, or a nasty one."""
    found = list(paths(data))
    if not found:
        return rng.choice(NASTY)
    path = rng.choice(found)
    mutated = copy.deepcopy(data)
    parent = mutated
    for key in path[:-1]:
        parent = parent[key]
    kind = rng.choice(["delete", "type", "value", "nasty", "nasty"])
    if kind == "delete":
        del parent[path[-1]]
    else:
        old = parent[path[-1]]
        parent[path[-1]] = {"type": other_type, "value": other_value}.get(kind, lambda _: rng.choice(NASTY))(old)
    return mutated


def _dump(data: Any) -> bytes:
    return json.dumps(data, allow_nan=True).encode("utf-8", "surrogatepass")


def _mutate_lines(rng: random.Random, data: bytes) -> bytes:
    """An MLLOG or LoadGen log with one `:::MLLOG` event mutated, dropped or doubled."""
    lines = data.split(b"\n")
    events = [i for i, line in enumerate(lines) if b":::MLLOG " in line]
    if not events:
        return _mutate_bytes(rng, data)
    at = rng.choice(events)
    kind = rng.choice(["event", "event", "event", "drop", "double"])
    if kind == "drop":
        del lines[at]
    elif kind == "double":
        lines.insert(at, lines[at])
    else:
        prefix, _, payload = lines[at].partition(b":::MLLOG ")
        try:
            event = json.loads(payload)
        except (ValueError, RecursionError):  # a line mutated before: its bytes then
            return _mutate_bytes(rng, data)
        if rng.random() < 0.3 and isinstance(event, dict):
            event["value"] = rng.choice([float("nan"), float("inf"), *NASTY])
        else:
            event = _mutate_data(rng, event)
        lines[at] = prefix + b":::MLLOG " + _dump(event)
    return b"\n".join(lines)


def _mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    at = rng.randrange(len(data) + 1)
    kind = rng.choice(["cut", "insert", "delete"])
    if kind == "cut":
        return data[:at]
    if kind == "insert":
        return data[:at] + rng.choice(BYTES) + data[at:]
    return data[:at] + data[at + rng.randint(1, 16) :]


def _mutate_file(rng: random.Random, path: Path) -> None:
    """One mutation of one file, by what it holds."""
    kind = rng.random()
    if kind < 0.04:
        path.unlink()
        if rng.random() < 0.5:
            path.mkdir()
        return
    data = path.read_bytes()
    structured = _structured(path, data) if kind >= 0.25 and b":::MLLOG " not in data[:65536] else None
    if kind < 0.25 or not data:
        path.write_bytes(_mutate_bytes(rng, data))
    elif structured is None:
        path.write_bytes(_mutate_lines(rng, data))
    else:
        path.write_bytes(_dump(_mutate_data(rng, structured[0])))


def _structured(path: Path, data: bytes) -> tuple[Any] | None:
    """The data of a JSON or YAML file (a mutated one may be neither: None)."""
    try:
        return (json.loads(data),) if path.suffix == ".json" else (read_foreign_yaml(data),)
    except (ValueError, YamlProblem, RecursionError):
        return None


def mutate_case(rng: random.Random, seed: Seed, scratch: Path) -> tuple[Path, Path, bool, str]:
    """A mutated copy of the seed under `scratch` (emptied first): its resolved config, its
    results, whether the config carries a new seal, and what was done."""
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    results = scratch / seed.results.name
    if seed.results.is_dir():
        shutil.copytree(seed.results, results, symlinks=True)
    else:
        shutil.copy(seed.results, results)
    done: list[str] = []
    files = sorted(p for p in ([results] if results.is_file() else results.rglob("*")) if p.is_file())
    if seed.results_mutable:
        for _ in range(rng.randint(1, 3)):
            files = [p for p in files if p.is_file()]
            if files:
                target = rng.choice(files)
                _mutate_file(rng, target)
                done.append(str(target.relative_to(scratch)))
    resolved = scratch / "resolved.json"
    data = json.loads(seed.resolved.read_bytes())
    resealing = False
    if not seed.results_mutable or rng.random() < 0.3:
        data = _mutate_data(rng, data)
        resealing = seed.results_mutable and rng.random() < 0.5
        if resealing:
            try:
                data = resealed(data)
            except Exception:  # a config the model refuses: written as it is, unsealed
                resealing = False
        done.append("resolved.json" + (" (resealed)" if resealing else ""))
    resolved.write_bytes(_dump(data))
    return resolved, results, resealing, ", ".join(done)


def run_case(resolved: Path, results: Path) -> tuple[Outcome, bool, str]:
    """`check` on one input and every reporter on its report: the outcome, whether it passed,
    and a crash's traceback."""
    try:
        report = check_files(resolved, results)
        for render in REPORTERS.values():
            render(report)
    except CatalogError:
        return "refused", False, ""
    except Exception as exc:  # anything else is what the CLI reports as an internal error (exit 70)
        return "crash", False, "".join(traceback.format_exception(exc))[-1500:]
    return "report", report.passed, ""


def fuzz_one(rng: random.Random, seed: Seed, scratch: Path, tally: Tally) -> None:
    """One case of `seed`, judged and counted."""
    resolved, results, resealing, done = mutate_case(rng, seed, scratch)
    outcome, passed, why = run_case(resolved, results)
    if outcome == "report" and passed and not seed.can_pass and not resealing:
        outcome, why = "forged", "passed"
    tally.add(seed.name, outcome, f"{done}\n{why}")


def campaign(seeds: list[Seed], cases: int, scratch: Path, rng_seed: int = 0) -> Tally:
    """`cases` cases spread over the seeds in turn, from a seeded generator (reproducible)."""
    rng = random.Random(rng_seed)
    tally = Tally()
    for number in range(cases):
        fuzz_one(rng, seeds[number % len(seeds)], scratch, tally)
    return tally
