"""Rulesets, submissions, the suite and the metric registry as documents."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalogctl.catalog.validation import validate_document
from catalogctl.io.yamlio import parse_document
from catalogctl.model import Submission
from catalogctl.render.common import diagnostic_line
from tests.catalog_edit import load, problems, problems_after
from tests.helpers import write

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


def test_ruleset_loads_with_exact_64_bit_seeds(catalog_dir: Path) -> None:
    write(catalog_dir, "rulesets/2026-09-C0.yaml", RULESET)
    result = load(catalog_dir)
    assert problems(catalog_dir) == []
    seeds = result.catalog.rulesets["2026-09-C0"].seed_sets[0]
    assert (seeds.scheduler_rng_seed, seeds.sample_index_rng_seed, seeds.model_seed) == (
        16159082839903944936,
        2747215439041700203,
        42,
    )


def test_ruleset_file_must_be_named_after_its_cohort(catalog_dir: Path) -> None:
    write(catalog_dir, "rulesets/2026-09-C1.yaml", RULESET)
    assert problems(catalog_dir) == [
        "rulesets/2026-09-C1.yaml:1:9: error ruleset-name-mismatch: file is named `2026-09-C1.yaml` but its cohort is "
        "`2026-09-C0` (rename the file to `2026-09-C0.yaml`)"
    ]


def test_ruleset_rejects_a_bad_cohort_id(catalog_dir: Path) -> None:
    write(catalog_dir, "rulesets/2026-09-C0.yaml", RULESET.replace("previous: null", "previous: 2026-13-C0"))
    assert problems(catalog_dir) == [
        "rulesets/2026-09-C0.yaml:3:11: error schema-invalid-value: previous: `2026-13-C0` is not a cohort id: "
        "write YYYY-MM-C0 or YYYY-MM-C1",
    ]


def test_ruleset_rejects_a_benchmark_listed_twice(catalog_dir: Path) -> None:
    twice = "  - id: deepseek-r1\n    digest: sha256:" + "0" * 64 + "\nseed_sets:"
    write(catalog_dir, "rulesets/2026-09-C0.yaml", RULESET.replace("seed_sets:", twice))
    assert problems(catalog_dir) == [
        "rulesets/2026-09-C0.yaml:1:1: error schema-invalid-value: document: benchmark listed twice: deepseek-r1",
    ]


def test_seed_out_of_64_bit_range(catalog_dir: Path) -> None:
    write(catalog_dir, "rulesets/2026-09-C0.yaml", RULESET.replace("model_seed: 42", f"model_seed: {2**64}"))
    assert problems(catalog_dir) == [
        "rulesets/2026-09-C0.yaml:13:17: error schema-invalid-value: seed_sets[0].model_seed: should be less than or "
        "equal to 18446744073709551615 (got 18446744073709551616)"
    ]


SUBMISSION = """\
type: submission
submission_ref: {cohort: 2026-09-C0, seed_set_id: B, benchmark: deepseek-r1}
endpoint_config:
  endpoints: ["http://127.0.0.1:8000/v1"]
  api_type: openai_completions
settings:
  load_pattern: {type: concurrency, target_concurrency: 512}
"""


def submission_problems(text: str) -> list[str]:
    doc = parse_document("submission.yaml", text.encode())
    value, found = validate_document(doc, Submission)
    assert (value is None) == bool(found)
    return [diagnostic_line(d) for d in found]


def test_submission_validates() -> None:
    assert submission_problems(SUBMISSION) == []


def test_submission_unknown_key_and_bad_seed_set() -> None:
    text = SUBMISSION.replace("seed_set_id: B", "seed_set_id: b").replace(
        "  load_pattern", "  concurency: 4\n  load_pattern"
    )
    assert submission_problems(text) == [
        "submission.yaml:2:51: error schema-invalid-value: submission_ref.seed_set_id: `b` is not a seed set id: "
        "1-3 capital letters",
        "submission.yaml:7:3: error schema-unknown-key: unknown key `concurency` in settings "
        "(allowed keys: load_pattern)",
    ]


def test_seed_rotation_without_gaps(catalog_dir: Path) -> None:
    assert problems_after(catalog_dir, "suite.yaml", "valid_for: 4", "valid_for: 1") == [
        "benchmark_suite/suite.yaml:14:5: error schema-invalid-value: policies.seed_rotation: valid_for (1) is shorter "
        "than rotate_every (2): some cohorts would have no valid seed set"
    ]


def test_ratio_metric_needs_unit_fraction(catalog_dir: Path) -> None:
    found = problems_after(
        catalog_dir,
        "metrics.yaml",
        "    unit: fraction\n    direction: higher\n    ratio: true\n    description: Share of tasks",
        "    unit: percent\n    direction: higher\n    ratio: true\n    description: Share of tasks",
    )
    assert found[-1] == (
        "benchmark_suite/metrics.yaml:20:5: error schema-invalid-value: metrics[2]: ratio is true but unit is percent: "
        "a ratio (a 0-1 proportion) has unit fraction, and only a ratio does"
    )


def test_submission_poisson_load_as_the_client_spells_it() -> None:
    # The v6.1 DeepSeek-R1 Interactive run (tests/fixtures/endpoints): Poisson at 170 QPS.
    poisson = SUBMISSION.replace("{type: concurrency, target_concurrency: 512}", "{type: poisson, target_qps: 170.0}")
    assert submission_problems(poisson) == []


@pytest.mark.parametrize(
    ("load", "said"),
    [
        (
            "{type: burst, target_qps: 3}",
            [
                "submission.yaml:7:24: error schema-invalid-value: settings.load_pattern.type: "
                "should be 'concurrency' or "
                "'poisson' (got 'burst')"
            ],
        ),
        (
            "{target_qps: 3}",
            ["submission.yaml:7:3: error schema-missing-key: missing key `type` in settings.load_pattern"],
        ),
        (
            "{type: poisson, target_concurrency: 3}",
            [
                "submission.yaml:7:3: error schema-missing-key: missing key `target_qps` in settings.load_pattern",
                # the keys of the pattern named, not of both: it once said "did you mean `target_concurrency`?"
                "submission.yaml:7:33: error schema-unknown-key: unknown key `target_concurrency` in "
                "settings.load_pattern "
                "(allowed keys: target_qps, type)",
            ],
        ),
        (
            "{type: poisson, target_qps: 0}",
            [
                "submission.yaml:7:45: error schema-invalid-value: settings.load_pattern.target_qps: "
                "should be greater than 0 "
                "(got 0)"
            ],
        ),
    ],
)
def test_a_load_pattern_that_is_neither(load: str, said: list[str]) -> None:
    text = SUBMISSION.replace("{type: concurrency, target_concurrency: 512}", load)
    assert submission_problems(text) == said


TIERS = "{by_concurrency: [{up_to: 32, value: 600000}, {value: 1200000}]}"


@pytest.mark.parametrize(
    ("tiers", "said"),
    [
        (
            "{by_concurrency: [{up_to: 32, value: 600000}, {up_to: 64, value: 1200000}]}",
            "24:22: error schema-invalid-value: performance.requirements.min_duration_ms: the last tier has up_to 64: "
            "end with a tier without up_to (above all)",
        ),
        (
            "{by_concurrency: [{up_to: 64, value: 600000}, {up_to: 32, value: 9}, {value: 1200000}]}",
            "24:22: error schema-invalid-value: performance.requirements.min_duration_ms: up_to must "
            "ascend, tier by tier "
            "(got 64, 32)",
        ),
        (
            "{by_concurrency: [{value: 600000}, {value: 1200000}]}",
            "24:22: error schema-invalid-value: performance.requirements.min_duration_ms: only the "
            "last tier may leave out "
            "up_to",
        ),
        (
            "{by_concurrency: [{up_to: 32, value: 0}, {value: 1200000}]}",
            "24:59: error schema-invalid-value: "
            "performance.requirements.min_duration_ms.by_concurrency[0].value: should be "
            "greater than or equal to 1 (got 0)",
        ),
        (
            "{by_concurency: []}",
            [
                "24:5: error schema-missing-key: missing key `by_concurrency` in "
                "performance.requirements.min_duration_ms",
                "24:23: error schema-unknown-key: unknown key `by_concurency` in "
                "performance.requirements.min_duration_ms "
                "(did you mean `by_concurrency`?)",
            ],
        ),
    ],
)
def test_a_requirement_by_concurrency_is_validated_with_positions(
    catalog_dir: Path, tiers: str, said: str | list[str]
) -> None:
    found = problems_after(catalog_dir, "benchmarks/deepseek-r1.yaml", TIERS, tiers)
    assert found == [
        f"benchmark_suite/benchmarks/deepseek-r1.yaml:{s}" for s in ([said] if isinstance(said, str) else said)
    ]


def test_the_tiers_are_part_of_the_contract_digest(catalog_dir: Path) -> None:
    from catalogctl.catalog.contract import contract_digest

    before = contract_digest(load(catalog_dir).catalog, "deepseek-r1")
    assert problems_after(catalog_dir, "benchmarks/deepseek-r1.yaml", "value: 1200000}", "value: 1800000}") == []
    assert contract_digest(load(catalog_dir).catalog, "deepseek-r1") != before
