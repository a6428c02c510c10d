"""One edit of the shipped catalog per diagnostic code: the diagnostics page runs each on a copy
and shows what catalogctl really says (severity, message, position and hint).

An edit is a list of steps on the copy's files (paths from the repository's root):
("replace", path, old, new), ("write", path, text), ("bytes", path, data), ("symlink", path,
target) or ("remove", path). A code without an edit is in NO_EXAMPLE, with the reason.
"""

from __future__ import annotations

Step = tuple[str, ...] | tuple[str, str, bytes]

GPT = "benchmark_suite/benchmarks/gpt-oss-120b.yaml"
GSM = "benchmark_suite/datasets/gsm8k.yaml"
MODEL = "benchmark_suite/models/gpt-oss-120b.yaml"
TRAINING = "benchmark_suite/benchmarks/llm-post-training.yaml"
R2E = "benchmark_suite/datasets/r2e-gym-subset.yaml"
METRICS = "benchmark_suite/metrics.yaml"
NEW_MODEL = "benchmark_suite/models/tiny.yaml"
TINY = "id: tiny\ntitle: tiny\nreference_id: org/tiny\nsha: b5c939de8f754692c1647ca79fbf85e8c1e70f8a\nlicense: MIT\n"

RULESET = """\
cohort: 2026-09-C0
submission_date: 2026-09-02
previous: null
frozen_at: 2026-08-28T12:00:00Z
catalog_tree: 4b825dc642cb6eb9a060e54bf8d69288fbee4904
benchmarks:
  - id: deepseek-r1
    digest: sha256:5089b11ca6b36a2428dc149f4157f599f36677c7d5f6055fd01bf90c5898ec17
seed_sets:
  - id: A
    scheduler_rng_seed: 16159082839903944936
    sample_index_rng_seed: 2747215439041700203
    model_seed: 42
    introduced_in: 2026-09-C0
    valid_through: 2026-10-C1
"""

EXAMPLES: dict[str, list[Step]] = {
    "yaml-syntax": [("replace", MODEL, "title: gpt-oss-120b", "title: [gpt-oss-120b")],
    "yaml-encoding": [("bytes", MODEL, b"id: gpt-oss-120b\ntitle: caf\xe9\n")],
    "yaml-too-large": [("write", NEW_MODEL, TINY + "# " + "x" * (1 << 20) + "\n")],
    "yaml-too-deep": [("write", NEW_MODEL, TINY + "extra: " + "[" * 70 + "]" * 70 + "\n")],
    "yaml-integer-too-long": [("write", NEW_MODEL, TINY.replace("license: MIT", "license: " + "9" * 50))],
    "yaml-duplicate-key": [("replace", MODEL, "license: Apache-2.0", "license: Apache-2.0\ntitle: again")],
    "yaml-anchor": [("replace", MODEL, "title: gpt-oss-120b", "title: &name gpt-oss-120b")],
    "yaml-alias": [("replace", MODEL, "license: Apache-2.0", "license: *name")],
    "yaml-tag": [("replace", MODEL, "title: gpt-oss-120b", "title: !!str gpt-oss-120b")],
    "yaml-directive": [("write", NEW_MODEL, "%YAML 1.2\n---\n" + TINY)],
    "yaml-multiple-documents": [("write", NEW_MODEL, TINY + "---\n" + TINY)],
    "yaml-non-string-key": [("replace", MODEL, "license: Apache-2.0", "license: Apache-2.0\n1: one")],
    "yaml-ambiguous-scalar": [("replace", MODEL, "license: Apache-2.0", "license: yes")],
    "yaml-reserved-scalar": [("replace", MODEL, "license: Apache-2.0", "license: =")],
    "yaml-invalid-scalar": [("replace", MODEL, "license: Apache-2.0", "license: 2026-02-30")],
    "yaml-empty": [("write", NEW_MODEL, "# nothing yet\n")],
    "schema-unknown-key": [("replace", MODEL, "license: Apache-2.0", "licence: Apache-2.0")],
    "schema-missing-key": [("replace", MODEL, "reference_id: openai/gpt-oss-120b\n", "")],
    "schema-wrong-type": [("replace", GSM, "samples: 1319", "samples: [1319]")],
    "schema-invalid-value": [("replace", GSM, "samples: 1319", "samples: -1")],
    "schema-quote-needed": [("replace", MODEL, "license: Apache-2.0", "license: 2.0")],
    "schema-pending-not-allowed": [("replace", MODEL, "license: Apache-2.0", "license: <TBD>")],
    "file-name-mismatch": [("write", NEW_MODEL, TINY.replace("id: tiny", "id: small"))],
    "file-symlink": [("symlink", NEW_MODEL, "gpt-oss-120b.yaml")],
    "file-unexpected": [("write", "benchmark_suite/models/notes.txt", "to do\n")],
    "file-missing": [("remove", METRICS)],
    "file-name-encoding": [("bytes", "benchmark_suite/models/tin\udcffy.yaml", TINY.encode())],
    "id-collision": [("replace", METRICS, "  - key: pass_at_4", "  - key: EXACT_MATCH")],
    "alias-ambiguous": [("replace", GSM, "title: GSM8K", "aliases: [aime25]\ntitle: GSM8K")],
    "ref-unknown-model": [("replace", GPT, "model: gpt-oss-120b", "model: gpt-oss-12b")],
    "ref-unknown-dataset": [("replace", GPT, "- dataset: gpqa", "- dataset: gpqaa")],
    "ref-unknown-recipe": [("replace", GPT, "evaluation_recipe: mlperf_code_tests", "evaluation_recipe: code")],
    "ref-unknown-metric": [("replace", GPT, "    exact_match:", "    exact_mach:")],
    "ref-unknown-gate": [("replace", GPT, "    - accuracy_gate", "    - acuracy_gate")],
    "ref-unknown-split": [("replace", TRAINING, "  split: validation", "  split: validaton")],
    "override-key-not-in-base": [
        (
            "replace",
            GPT,
            "        reasoning_effort: high\n        max_new_tokens: 32768\n    - dataset: gpqa",
            "        reasoning_effort: high\n        min_new_tokens: 5\n    - dataset: gpqa",
        )
    ],
    "figure-mismatch": [("replace", GPT, "min_accuracy_sample_count: 4395", "min_accuracy_sample_count: 4396")],
    "formula-invalid": [
        (
            "replace",
            TRAINING,
            "first_evaluation_samples: gbs * ceil(2.5 + 3840 / gbs)",
            "first_evaluation_samples: gbs * round(3840 / gbs)",
        )
    ],
    "contract-inconsistent": [("replace", GPT, "    - accuracy_gate", "    - accuracy_gate\n    - quality_target")],
    "pending-value": [],  # the shipped catalog has pending values
    "ruleset-name-mismatch": [("write", "rulesets/2026-09-C1.yaml", RULESET)],
    "config-syntax": [("write", "catalogctl.toml", 'catalog = "benchmark_suite\n')],
    "config-unknown-key": [("write", "catalogctl.toml", 'never-acept = ["ruleset-cohort-gap"]\n')],
    "config-invalid-value": [("write", "catalogctl.toml", 'catalog = "../elsewhere"\n')],
}

NO_EXAMPLE: dict[str, str] = {
    "file-unreadable": "the operating system must refuse to read a file that is there, which an edit cannot arrange",
}
