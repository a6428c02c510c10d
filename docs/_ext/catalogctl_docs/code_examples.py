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

# drand quicknet's chain (tests/fixtures/drand/README.md cites its sources), pinned in suite.yaml.
QUICKNET_KEY = (
    "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d106451"
    "0d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a"
)
BEACON_POLICY = f"""\
    valid_for: 4
  seed_beacon:
    name: drand quicknet
    chain_hash: 52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971
    public_key: {QUICKNET_KEY}
    genesis_time: 1692803367
    period: 3
    genesis_seed: f477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e
    beacon_id: quicknet
    scheme: bls-unchained-g1-rfc9380
    source: https://api.drand.sh/52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971/info
"""

# A release that names round 12040883 for the next set, and the next ruleset: its new set B
# drawn, recording no round.
NAMING = RULESET.replace(
    "frozen_at: 2026-08-28T12:00:00Z",
    "frozen_at: 2024-10-14T09:00:00Z",
) + (
    "next_seed_round:\n"
    "  chain_hash: 52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971\n"
    "  round: 12040883\n"
    "  due: 2024-10-14T17:13:33Z\n"
)
UNDERIVED = (
    RULESET.replace("cohort: 2026-09-C0", "cohort: 2026-09-C1")
    .replace("submission_date: 2026-09-02", "submission_date: 2026-09-16")
    .replace("previous: null", "previous: 2026-09-C0")
    .replace("frozen_at: 2026-08-28T12:00:00Z", "frozen_at: 2024-10-15T09:00:00Z")
    + "  - id: B\n"
    "    scheduler_rng_seed: 11\n"
    "    sample_index_rng_seed: 12\n"
    "    model_seed: 13\n"
    "    introduced_in: 2026-09-C1\n"
    "    valid_through: 2026-11-C0\n"
)

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
    "ruleset-seeds-underived": [
        ("replace", "benchmark_suite/suite.yaml", "    valid_for: 4\n", BEACON_POLICY),
        ("write", "rulesets/2026-09-C0.yaml", NAMING),
        ("write", "rulesets/2026-09-C1.yaml", UNDERIVED),
    ],
    "config-syntax": [("write", "catalogctl.toml", 'catalog = "benchmark_suite\n')],
    "config-unknown-key": [("write", "catalogctl.toml", 'never-acept = ["ruleset-cohort-gap"]\n')],
    "config-invalid-value": [("write", "catalogctl.toml", 'catalog = "../elsewhere"\n')],
}

NO_EXAMPLE: dict[str, str] = {
    "file-unreadable": "the operating system must refuse to read a file that is there, which an edit cannot arrange",
}
