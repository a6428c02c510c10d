"""The output of lm-evaluation-harness 0.4.x (`lm_eval --output_path DIR --log_samples`), as
`check` reads it: which results file a path means, the samples files beside it, and what
recomputing from those samples gives.

lm-eval writes `DIR/<model_name_sanitized>/results_<timestamp>.json` (with `--output_path x.json`:
`x_<timestamp>.json`) and, with `--log_samples`, `samples_<task>_<timestamp>.jsonl` beside it, one
line per document and filter, in the order it logged them (lm-eval 0.4.13,
`lm_eval/loggers/evaluation_tracker.py`, `EvaluationTracker.save_results_aggregated` and
`save_results_samples`).

Task hashes. `save_results_aggregated` writes `task_hashes[task]` as
`hash_string("".join(s["doc_hash"] + s["prompt_hash"] + s["target_hash"] for s in samples))`
over that task's logged samples, in the order the samples file holds them; `hash_string` is the
sha256 hex digest of the UTF-8 text (`lm_eval/utils.py`); the three hashes of each sample are made
in `lm_eval/evaluator.py`, `evaluate` (the document as JSON, the prompt, the target). A results
file without samples was run without `--log_samples` and records no task hash.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from catalogctl.errors import Diagnostic, InputsUnusable, UsageError, error
from catalogctl.io.files import read_input
from catalogctl.io.jsonio import JsonProblem, parse_json
from catalogctl.model.documents.lmeval import LmEvalResults, SampleLine

# `<stem>_<timestamp>.json`, the timestamp as lm-eval makes it: datetime.now().isoformat() with
# every ':' made '-'.
RESULTS_NAME = re.compile(r"(?P<stem>.+)_(?P<stamp>\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?)\.json")
_SAMPLES_MAX = 512 * 1024 * 1024  # a samples file holds every prompt: larger than a document
HINT = (
    "check reads lm-eval's results_<timestamp>.json (the file, or the --output_path folder holding one run), "
    "with the samples_<task>_<timestamp>.jsonl that --log_samples writes beside it"
)


@dataclass(frozen=True)
class TaskSamples:
    """A task's samples file: its lines, in file order, and each line's metric values."""

    file: Path
    lines: list[SampleLine]
    values: list[dict[str, Any]]

    def task_hash(self) -> str:
        """The task hash lm-eval derives from these samples (see the module docstring)."""
        joined = "".join(line.doc_hash + line.prompt_hash + line.target_hash for line in self.lines)
        return hashlib.sha256(joined.encode("utf-8")).hexdigest()

    def mean(self, metric: str, filter_name: str) -> float | None:
        """The mean of `metric` over the lines of `filter_name` (lm-eval's `mean`: sum over count);
        None when no line has a numeric value of it, or one lacks it."""
        found = [v.get(metric) for line, v in zip(self.lines, self.values, strict=True) if line.filter == filter_name]
        numbers = [float(x) for x in found if isinstance(x, int | float) and not math.isnan(float(x))]
        if not found or len(numbers) != len(found):
            return None
        return sum(numbers) / len(numbers)


@dataclass(frozen=True)
class LmEvalRun:
    """A results file as read, the keys of its `config` it states, and its tasks' samples files."""

    file: Path
    data: LmEvalResults
    stamp: str | None
    config_keys: frozenset[str] = frozenset()
    samples: dict[str, TaskSamples] = field(default_factory=dict)

    def samples_name(self, task: str) -> str | None:
        """The samples file lm-eval writes for `task` beside this results file (None: unnamed)."""
        return None if self.stamp is None else f"samples_{task}_{self.stamp}.jsonl"


def results_files(folder: Path) -> list[Path]:
    """The lm-eval results files in `folder` and in the folders right below it (lm-eval's
    `<output_path>/<model_name_sanitized>/`)."""
    found = [p for p in folder.iterdir() if p.is_file() and _named_results(p)]
    for below in sorted(p for p in folder.iterdir() if p.is_dir()):
        found += [p for p in below.iterdir() if p.is_file() and _named_results(p)]
    return sorted(found)


def _named_results(path: Path) -> bool:
    match = RESULTS_NAME.fullmatch(path.name)
    return match is not None and not path.name.startswith("samples_")


def claims(path: Path) -> bool:
    """Whether `path` is lm-eval output: a results file (by its name, or a JSON object with
    `results` and `versions`), or a folder holding results files."""
    if path.is_dir():
        return bool(results_files(path))
    if not path.is_file() or path.suffix != ".json":
        return False
    if _named_results(path):
        return True
    try:
        data = parse_json(read_input(path))
    except (JsonProblem, UsageError):  # not JSON, or unreadable: the results reader says so
        return False
    return isinstance(data, dict) and isinstance(data.get("results"), dict) and "versions" in data


def results_file(path: Path) -> Path:
    """The one results file `path` means: itself, or the only one its folder holds."""
    if not path.is_dir():
        return path
    found = results_files(path)
    if len(found) != 1:
        shown = ", ".join(str(p.relative_to(path)) for p in found)
        raise InputsUnusable(
            f"{path} holds {len(found)} lm-eval results files ({shown}): which run to check is unknown",
            "check one run: name its results_<timestamp>.json, or give the folder of that run alone",
        )
    return found[0]


def read_lmeval(path: Path) -> LmEvalRun:
    """The lm-eval run at `path` (a results file or a folder holding one), with the samples file of
    each task it reports, where lm-eval wrote one."""
    file = results_file(path)
    try:
        parsed = parse_json(read_input(file), nan=True)  # lm-eval writes NaN for a metric with no value
    except JsonProblem as exc:
        raise InputsUnusable(f"{file}: not an lm-eval results file: {exc}", HINT) from None
    if not isinstance(parsed, dict):
        raise InputsUnusable(f"{file}: not an lm-eval results file: not a JSON object", HINT)
    try:
        data = LmEvalResults.model_validate(parsed)
    except ValidationError as exc:
        raise _refused(file, "not an lm-eval results file", exc) from None
    match = RESULTS_NAME.fullmatch(file.name)
    config = parsed.get("config")
    keys = frozenset(config) if isinstance(config, dict) else frozenset()
    run = LmEvalRun(file=file, data=data, stamp=match.group("stamp") if match else None, config_keys=keys)
    samples = {}
    for task in data.results:
        found = _beside(file, run.samples_name(task))
        if found is not None:
            samples[task] = read_samples(found)
    return LmEvalRun(file=file, data=data, stamp=run.stamp, config_keys=keys, samples=samples)


def _beside(file: Path, name: str | None) -> Path | None:
    """The file `name` beside `file`, if there is one: a task is any text, and a name no file in
    that folder can have (a separator, a NUL, too long for the file system) names none."""
    if name is None or "/" in name or "\0" in name:
        return None
    try:
        return file.parent / name if (file.parent / name).is_file() else None
    except OSError:  # ENAMETOOLONG: pathlib's is_file passes it on
        return None


def task_metrics(run: LmEvalRun) -> dict[str, dict[str, float | None]]:
    """Each task's (or group's) metric values by their verbatim `metric,filter` keys, stderrs left
    out, NaN and infinities (JSON's 1e999) as None; a group's subtasks are left out (the group scores them)."""
    inside = {task for tasks in run.data.group_subtasks.values() for task in tasks}
    blocks = {**{t: b for t, b in run.data.results.items() if t not in inside}, **run.data.groups}
    found: dict[str, dict[str, float | None]] = {}
    for task, block in blocks.items():
        found[task] = {
            key: float(value) if math.isfinite(value) else None
            for key, value in block.items()
            if "," in key and "_stderr," not in key and isinstance(value, int | float) and not isinstance(value, bool)
        }
    return found


def read_samples(path: Path) -> TaskSamples:
    """A samples file, line by line; a line that is not a sample is refused with its number."""
    lines, values = [], []
    for number, raw in enumerate(read_input(path, _SAMPLES_MAX).splitlines(), 1):
        if not raw.strip():
            continue
        try:
            parsed = parse_json(raw, nan=True)
        except JsonProblem as exc:
            raise InputsUnusable(f"{path}:{number}: not a sample: {exc.brief}", HINT) from None
        if not isinstance(parsed, dict):
            raise InputsUnusable(f"{path}:{number}: not a sample: not a JSON object", HINT)
        try:
            line = SampleLine.model_validate(parsed)
        except ValidationError as exc:
            raise _refused(f"{path}:{number}", "not a sample", exc) from None
        lines.append(line)
        values.append({name: parsed.get(name) for name in line.metrics})
    return TaskSamples(file=path, lines=lines, values=values)


def _refused(where: Path | str, problem: str, exc: ValidationError) -> InputsUnusable:
    """The keys of a harness's file that do not have their documented type, each named."""
    found: list[Diagnostic] = []
    for err in exc.errors(include_url=False):
        key = ".".join(str(part) for part in err["loc"]) or "document"
        found.append(error("schema-invalid-value", f"{key}: {err['msg']}", str(where)))
    first = found[0].message if found else problem
    return InputsUnusable(f"{where}: {problem}: {first}", HINT, found)


def parse_args_string(text: str) -> dict[str, Any]:
    """lm-eval's `key=value,key=value` (lm-eval 0.4.13 `lm_eval/utils.py`, `simple_parse_args_string`
    and `handle_arg_string`): numbers and booleans as such, the rest as text."""
    found: dict[str, Any] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        key, _, value = part.partition("=")
        found[key.strip()] = _typed(value.strip())
    return found


def _typed(value: str) -> Any:
    lowered = value.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            continue
    return value
