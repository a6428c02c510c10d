"""The gsm8k lm-eval pack run on the tests' own task (tests/fixtures/lmeval), and its resolved config."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.catalog_edit import problems
from tests.helpers import copy_catalog, replace_in, write
from tests.run_results import resolved_config

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "lmeval"
DUMMY = FIXTURES / "dummy"  # lm-eval's dummy model, the pack's invocation (regenerate.py)
LIMITED = FIXTURES / "dummy-limit"  # the same with --limit 5
PUBLISHED = FIXTURES / "published"  # a results file someone published (see its README)
# The task hash lm-eval recorded for tinymath, 5-shot over its 20 documents (it covers documents,
# prompts and targets, not the model's answers: every run of regenerate.py records it).
TINYMATH_HASH = "7c46b2b525d423fe4870662739fa34a16de06285eba1de5123262c8639806196"
BENCHMARK = "benchmark_suite/benchmarks/gsm8k.yaml"


def pack_catalog(root: Path, task: str = "tinymath", version: str = "1.0", pin: str = TINYMATH_HASH) -> Path:
    """The shipped catalog with gsm8k's pack run on `task` (its version and hash pinned), over a
    dataset of 20 documents, thresholded (the dummy model answers nothing right: at most 0.05)
    and gated on its sample count and thresholds too."""
    copy_catalog(root)
    replace_in(root, BENCHMARK, "tasks: [gsm8k]", f"tasks: [{task}]")
    replace_in(root, BENCHMARK, '    gsm8k: "3.0"', f'    {task}: "{version}"\n  task_hashes:\n    {task}: "{pin}"')
    replace_in(root, BENCHMARK, "min_accuracy_sample_count: 1319", "min_accuracy_sample_count: 20")
    replace_in(
        root,
        BENCHMARK,
        "  primary_metric: exact_match,strict-match\n",
        "  primary_metric: exact_match,strict-match\n  thresholds:\n"
        "    exact_match,strict-match: {reference: 0.05, upper_factor: 1.0, scale: fraction}\n",
    )
    replace_in(
        root,
        BENCHMARK,
        "    - generation_integrity\n",
        "    - generation_integrity\n    - requirements\n    - accuracy_gate\n",
    )
    replace_in(root, "benchmark_suite/datasets/gsm8k.yaml", "samples: 1319", "samples: 20")
    assert problems(root) == [], problems(root)
    return root


def resolved_pack(folder: Path, **kwargs: str) -> Path:
    """A sealed resolved config of the pack (`pack_catalog`'s arguments), written into `folder`."""
    catalog = pack_catalog(folder / "catalog", **kwargs)
    return write(folder, "resolved.json", json.dumps(resolved_config(catalog, "gsm8k").to_data()))


def copied(run: Path, into: Path) -> Path:
    """A copy of an lm-eval output folder, to edit; the copy of its results file."""
    shutil.copytree(run, into)
    return next(into.glob("*/results_*.json"))
