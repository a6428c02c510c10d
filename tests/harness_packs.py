"""The harness test packs (tests/fixtures/harness-packs/) in a copy of the shipped catalog, their
resolved configs, and the harnesses' committed runs they grade (tests/fixtures/evalscope/,
tests/fixtures/inspect/), with the edits the tests make to copies of them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.helpers import REPO_ROOT, copy_catalog, replace_in, run_cli, write
from tests.run_results import resolved_config

FIXTURES = REPO_ROOT / "tests" / "fixtures"
PACKS = FIXTURES / "harness-packs"
EVALSCOPE_RUN = FIXTURES / "evalscope" / "run"  # the output folder evalscope wrote
EVALSCOPE_REPORT = Path("reports") / "mock-gsm8k" / "gsm8k.json"  # in it
EVALSCOPE_CONFIG = Path("configs") / "task_config.yaml"
INSPECT_LOG = FIXTURES / "inspect" / "gsm8k-mini.json"
# The name both mock models served under: the submission declares it (endpoint_config.served_model).
SERVED = "mock-gsm8k"


def add_packs(root: Path) -> Path:
    """The catalog at `root` with the test packs: dataset gsm8k-mini, benchmarks gsm8k-evalscope and
    gsm8k-inspect, and their metrics appended to the registry (each harness's, unless the registry
    has them already: a shipped pack may name the same metric)."""
    suite = root / "benchmark_suite"
    shutil.copy(PACKS / "gsm8k-mini.yaml", suite / "datasets")
    registry = suite / "metrics.yaml"
    for harness, key in (("evalscope", "accuracy:mean"), ("inspect", "match/accuracy")):
        shutil.copy(PACKS / f"gsm8k-{harness}.yaml", suite / "benchmarks")
        if f"  - key: {key}\n" not in registry.read_text(encoding="utf-8"):
            with registry.open("a", encoding="utf-8") as out:
                out.write((PACKS / f"metrics-{harness}.yaml").read_text(encoding="utf-8"))
    return root


def pack_catalog(tmp_path: Path) -> Path:
    """A copy of the shipped catalog with the test packs."""
    return add_packs(copy_catalog(tmp_path / "catalog"))


def resolved_file(tmp_path: Path, benchmark: str, catalog: Path | None = None) -> Path:
    """A resolved config of `benchmark` (a pack of `catalog`, else of a fresh pack catalog) serving
    the mock models' name, as `resolve` writes one."""
    root = catalog or pack_catalog(tmp_path)
    config = resolved_config(root, benchmark, None, served_model=SERVED)
    return write(tmp_path, f"{benchmark}.resolved.json", json.dumps(config.to_data()))


def evalscope_copy(tmp_path: Path) -> Path:
    """A copy of the committed evalscope output folder, to edit."""
    return Path(shutil.copytree(EVALSCOPE_RUN, tmp_path / "evalscope-run"))


def inspect_copy(tmp_path: Path) -> Path:
    """A copy of the committed inspect_ai log, to edit."""
    return Path(shutil.copy(INSPECT_LOG, tmp_path / "gsm8k-mini.json"))


def edit_json(path: Path, change: Any) -> Path:
    """Rewrite a JSON file after `change(data)` edits it in place."""
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def edit_text(path: Path, old: str, new: str) -> Path:
    """Replace exactly one occurrence of `old` in a text file."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def gate_rows(report: dict[str, Any], name: str) -> tuple[str, list[tuple[str, str, Any, Any]]]:
    """A gate of `check --format json`: its verdict, and (what, status, expected, observed) per check."""
    gate = next(g for g in report["gates"] if g["name"] == name)
    return gate["verdict"], [(c["what"], c["status"], c["expected"], c["observed"]) for c in gate["checks"]]


def check_report(resolved: Path, path: Path, code: int = 1) -> dict[str, Any]:
    """`check RESOLVED PATH --format json`, exiting `code`: its report."""
    return json.loads(run_cli("check", resolved, path, "--format", "json", code=code).stdout)  # type: ignore[no-any-return]


# The gates of a pack's run by a harness's mock model, before the harness's own gate: nothing the
# mock records proves the data, the model or an API.
MOCK_GATES = [
    ("dataset_integrity", "not-evaluable"),
    ("model_integrity", "not-evaluable"),
    ("generation_integrity", "not-evaluable"),
    ("requirements", "pass"),
    ("accuracy_gate", "pass"),
]
MOCK_GENERATION = [
    ("api_type", "unknown", "openai", None),  # a mock model has no API: never taken for one
    ("accuracy gsm8k-mini temperature", "pass", 0.0, 0.0),
    ("accuracy gsm8k-mini max_new_tokens", "pass", 256, 256),
]


def without_integrity_gates(tmp_path: Path, benchmark: str) -> Path:
    """The resolved config of pack `benchmark` once its dataset, model and generation integrity
    gates are dropped: the gates a harness's mock run can show."""
    catalog = pack_catalog(tmp_path)
    gates = "    - dataset_integrity\n    - model_integrity\n    - generation_integrity\n"
    replace_in(catalog, f"benchmark_suite/benchmarks/{benchmark}.yaml", gates, "")
    return resolved_file(tmp_path, benchmark, catalog)


def regenerate(script: str, output: Path) -> Path:
    """`output`, written by the fixture script `script` of tests/fixtures (a harness's mock model,
    offline): what the harness writes today, beside what it wrote when the fixture was made."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    subprocess.run([sys.executable, str(FIXTURES / script), str(output)], check=True, capture_output=True, env=env)
    return output
