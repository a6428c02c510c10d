"""Two checkers, one outcome: each submission below goes through the official `SubmissionChecker`
(PyPI `endpoints-submission-cli`, as a library, with the seed sets and drafters `export mlperf`
wrote from the frozen cohort) and through `catalogctl check` (the resolved config of the same
cohort, the same tree). On every rule both evaluate (`ROWS`: the checker's rule id, catalogctl's
gate and row) they must give the same verdict; every known difference is pinned here, with each
side's actual verdict, and in docs/explanation/official-checkers.md."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from catalogctl.io.yamlio import read_foreign_yaml
from catalogctl.release.freeze import FreezeRequest, freeze
from tests.helpers import commit_all, copy_catalog, git, init_repo, run_cli, write
from tests.release_repo import NOW, make_freezable
from tests.run_results import DEEPSEEK_SERVED
from tests.submission_points import Accuracy, Point, run_checker, submission_tree, valid_curve

SEEDSET = Path(__file__).parent.parent / "fixtures" / "mlperf" / "seed_sets.yaml"
COHORT = "2026-10-C1"
OTHER = {"scheduler_rng_seed": 1, "sample_index_rng_seed": 2, "model_seed": 3}

# (row, the checker's rule or None, catalogctl's gate, the start of its check's `what`, or a part of it
# for point_declaration). The checker's point-duration fails as a warning (§9.1: "flag"), the others as errors.
ROWS: tuple[tuple[str, str | None, str, str], ...] = (
    ("declared seeds are the set's", "seed-runtime-match", "point_declaration", "declared vs seed set"),
    ("the set is published", "seed-set-membership", "point_declaration", "seed_set declared vs"),
    ("the target cohort is the submission's", "seed-set-adoption", "point_declaration", "target_cohort declared vs"),
    ("recorded seeds are the declared", None, "point_declaration", "recorded in"),
    ("accuracy (exact_match)", "accuracy-gate", "accuracy_gate", "exact_match"),
    ("output length (TOKENS_PER_SAMPLE)", None, "accuracy_gate", "TOKENS_PER_SAMPLE"),
    ("accuracy samples", "accuracy-sample-count", "requirements", "accuracy samples scored"),
    ("minimum duration", "point-duration", "requirements", "duration_ms"),
    ("performance samples", "min-query-count", "requirements", "sample_count"),
    # model-name-valid reads point.yaml's model_name (against its allowed models), never the model the
    # client served: catalogctl's row of it is point_declaration's, as model-name-consistency's.
    ("model_name is an allowed model", "model-name-valid", "point_declaration", "model_name declared vs"),
    ("model_name is the model folder's", "model-name-consistency", "point_declaration", "model_name declared vs"),
)
# What each side says on every case: the checker has no row for these (`none`), catalogctl does.
ALWAYS = {"recorded seeds are the declared", "output length (TOKENS_PER_SAMPLE)", "performance samples"}


pytestmark = pytest.mark.conformance


@dataclass(frozen=True)
class Cohort:
    """A frozen cohort, what `export mlperf` wrote of it and a resolved DeepSeek-R1 config of it."""

    seeds: dict[str, int]
    export: Path
    resolved: Path
    base: Path


@pytest.fixture(scope="module")
def cohort(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cohort]:
    """2026-10-C1 frozen with the published set A, then 2026-11-C0 and 2026-11-C1 (which rotates in
    B); the export of 2026-11-C1 (A's window ends with 2026-12-C0); a submission resolved at 2026-10-C1."""
    from submission_checker.seed_sets import load_seed_sets

    base = tmp_path_factory.mktemp("conformance")
    repo = copy_catalog(init_repo(base / "repo"))
    commit_all(repo, "Add the catalog")
    git(repo, "tag", "-a", "v1", "-m", "first")
    make_freezable(repo)
    freeze(repo, FreezeRequest(COHORT, add=["gsm8k", "deepseek-r1"], seeds_file=SEEDSET, now=NOW))
    freeze(repo, FreezeRequest("2026-11-C0", now=NOW))
    freeze(repo, FreezeRequest("2026-11-C1", now=NOW))
    run_cli("export", "mlperf", "2026-11-C1", "-o", base / "mlperf", "-C", repo)
    submission = write(base, "submission.yaml", SUBMISSION)
    run_cli("resolve", submission, "-C", repo, "-o", base / "resolved.json")
    [published] = load_seed_sets(SEEDSET).values()
    with pytest.MonkeyPatch.context() as env:  # no registry from the environment, a home of our own
        env.setenv("HOME", str(base / "home"))
        env.delenv("MLPERF_ENDPOINTS_SEED_SETS", raising=False)
        env.delenv("MLPERF_ENDPOINTS_APPROVED_DRAFTERS", raising=False)
        yield Cohort(dict(published.seeds), base / "mlperf", base / "resolved.json", base)


SUBMISSION = f"""\
type: submission
submission_ref: {{cohort: {COHORT}, seed_set_id: A, benchmark: deepseek-r1}}
endpoint_config:
  endpoints: ["http://127.0.0.1:8000/v1"]
  api_type: openai_completions
  served_model: {DEEPSEEK_SERVED}
settings:
  load_pattern: {{type: concurrency, target_concurrency: 1}}
"""


def _case(name: str, seeds: dict[str, int]) -> list[Point]:
    """The points of case `name`: the valid curve, bound to set A at 2026-10-C1, with one change."""
    curve = valid_curve(seeds, "A", COHORT)
    accuracy = {
        "accuracy below the gate": Accuracy(score=70.0),
        "a 0.9 % score": Accuracy(score=0.9),
        "too few accuracy samples": Accuracy(samples=3000, inline_samples=1388),
        "output longer than the reference": Accuracy(tokens_per_sample=5000.0),
    }
    if name in accuracy:
        return [replace(p, accuracy=accuracy[name]) if p.accuracy else p for p in curve]
    changes: dict[str, dict[str, Any]] = {
        "valid": {},
        "declared seeds not the published set": {"declared": OTHER},
        "recorded seeds not the declared": {"recorded": OTHER, "record_model_seed": True},
        "a set never published": {"declared": OTHER, "seed_set": "Z"},
        "a set past its window": {"target_cohort": "2026-12-C1"},
        "points under the minimum duration": {"duration_s": 900.0},  # 600 s up to 32, 1,200 s above
        "a model not the benchmark's": {"model_name": "deepseek-r1-distill", "served_model": "deepseek-r1-distill"},
        "a model_name not the model folder's": {"model_name": "llama3_1-8b"},
    }
    return [replace(p, **changes[name]) for p in curve]


# Per case, the rows whose verdicts are not both `pass` (or, for ALWAYS rows, not none/pass):
# (the checker's, catalogctl's). An unequal pair is a known difference (the table of
# docs/explanation/official-checkers.md).
EXPECTED: dict[str, dict[str, tuple[str, str]]] = {
    "valid": {},
    "declared seeds not the published set": {"declared seeds are the set's": ("fail", "fail")},
    # The checker never compares the declaration with what ran; catalogctl does.
    "recorded seeds not the declared": {"recorded seeds are the declared": ("none", "fail")},
    # Of a set it does not know, the checker checks neither the seeds nor the window; catalogctl
    # compares the seeds with the ruleset's set, and the cohort declared is the submission's.
    "a set never published": {
        "declared seeds are the set's": ("none", "fail"),
        "the set is published": ("fail", "fail"),
        "the target cohort is the submission's": ("none", "pass"),
    },
    "a set past its window": {"the target cohort is the submission's": ("fail", "fail")},
    "accuracy below the gate": {"accuracy (exact_match)": ("fail", "fail")},
    # The checker multiplies a score in [0, 1] by 100: 0.9 % passes as 90 %.
    "a 0.9 % score": {"accuracy (exact_match)": ("pass", "fail")},
    # The checker counts the inline performance entry: 3000 + 1388 = 4388; catalogctl 3000 < 4388.
    "too few accuracy samples": {"accuracy samples": ("pass", "fail")},
    "output longer than the reference": {"output length (TOKENS_PER_SAMPLE)": ("none", "fail")},
    "points under the minimum duration": {"minimum duration": ("fail", "fail")},
    # llama3_1-8b is an allowed model, of another benchmark: catalogctl's one row of the model fails.
    "a model_name not the model folder's": {
        "model_name is an allowed model": ("pass", "fail"),
        "model_name is the model folder's": ("fail", "fail"),
    },
    "a model not the benchmark's": {row: ("pass", "refused") for row, rule, _, _ in ROWS if rule}
    | dict.fromkeys(ALWAYS, ("none", "refused"))
    | {
        "model_name is an allowed model": ("fail", "refused"),
        "performance samples": ("none", "refused"),
        "model_name is the model folder's": ("fail", "refused"),
    },
}


def _checker_verdicts(report: Any) -> dict[str, str]:
    found = {}
    for row, rule, _, _ in ROWS:
        results = [r for r in report.results if r.rule == rule]
        failing = ("error", "warning") if rule == "point-duration" else ("error",)
        bad = any(r.severity.value in failing for r in results)
        found[row] = "fail" if bad else "pass" if results else "none"
    return found


def _catalog_verdicts(report: dict[str, Any]) -> dict[str, str]:
    """A row fails when a check of it fails at any point, passes when one passes and none fails
    (catalogctl grades accuracy only where an accuracy run is: elsewhere it is not evaluable)."""
    found = {}
    for row, _, gate, what in ROWS:
        checks = [
            c
            for p in report["points"]
            for g in p["gates"]
            if g["name"] == gate
            for c in g["checks"]
            if (what in c["what"] if gate == "point_declaration" else c["what"].startswith(what))
        ]
        statuses = {c["status"] for c in checks}
        found[row] = "fail" if "fail" in statuses else "pass" if "pass" in statuses else "none"
    return found


@pytest.mark.parametrize("case", list(EXPECTED))
def test_both_checkers_give_the_same_verdict_but_where_a_difference_is_known(cohort: Cohort, case: str) -> None:
    tree = submission_tree(cohort.base / case.replace(" ", "-"), _case(case, cohort.seeds))
    official = run_checker(
        tree, seed_sets=cohort.export / "seed_sets.yaml", drafters=cohort.export / "approved_drafters.yaml"
    )
    theirs = _checker_verdicts(official)
    done = run_cli("check", cohort.resolved, tree, "-f", "json", code=2 if case.startswith("a model not") else 1)
    if done.code == 2:
        assert done.stderr.startswith("error: this run is of model `deepseek-r1-distill`; the contract is of model ")
        ours = dict.fromkeys(theirs, "refused")
    else:
        ours = _catalog_verdicts(json.loads(done.stdout))
    expected = {row: EXPECTED[case].get(row, ("none" if row in ALWAYS else "pass", "pass")) for row, _, _, _ in ROWS}
    assert {row: (theirs[row], ours[row]) for row, _, _, _ in ROWS} == expected
    if case == "valid":
        assert [(r.rule, r.message) for r in official.errors] == []  # the whole submission: no error


def test_the_valid_submission_differs_only_where_the_clients_files_say_nothing(cohort: Cohort) -> None:
    # catalogctl's submission verdict is INVALID: the client records no dataset sha256, no model
    # revision and (in v6.1) no model seed, so dataset_integrity, model_integrity (a warning) and
    # seeds are not evaluable. The checker checks none of these.
    tree = submission_tree(cohort.base / "valid-verdict", _case("valid", cohort.seeds))
    report = json.loads(run_cli("check", cohort.resolved, tree, "-f", "json", code=1).stdout)
    verdicts = {p["concurrency"]: {g["name"]: g["verdict"] for g in p["gates"]} for p in report["points"]}
    assert verdicts[16] == {
        "dataset_integrity": "not-evaluable",
        "model_integrity": "not-evaluable",
        "generation_integrity": "pass",
        "seeds": "not-evaluable",
        "requirements": "pass",
        "accuracy_gate": "pass",
        "point_declaration": "pass",
    }
    # A point without an accuracy run (§4.3: accuracy at a fixed number of points) has no
    # accuracy to grade: its accuracy rows are not applicable, and block nothing.
    assert (verdicts[8]["accuracy_gate"], verdicts[8]["requirements"]) == ("not-applicable", "pass")
    assert [(g["name"], g["verdict"]) for g in report["gates"]] == [("accuracy_runs", "pass")]
    assert report["valid"] is False


def _catalog(name: str) -> dict[str, Any]:
    root = Path(__file__).resolve().parents[2] / "benchmark_suite"
    found: dict[str, Any] = read_foreign_yaml((root / name).read_bytes())
    return found


def test_the_checkers_constants_against_the_catalog() -> None:
    from submission_checker.accuracy_targets import get_thresholds
    from submission_checker.checker import _ALLOWED_MODEL_NAMES
    from submission_checker.models.aggregate.point_result import MIN_QUERY_COUNT

    # Dataset names: the checker keys gpt_oss_perf by its mlperf_name, with the catalog's count.
    perf = _catalog("datasets/gpt_oss_perf.yaml")
    assert MIN_QUERY_COUNT[perf["mlperf_name"]] == perf["samples"] == 6396
    # mlperf_deepseek_r1 has no entry: the checker skips min-query-count; the catalog keeps its id.
    assert "mlperf_deepseek_r1" not in MIN_QUERY_COUNT
    # livecodebench: the checker's 880 contradicts its own 4395 = 8x30 + 5x198 + 3x1055.
    lcb = _catalog("datasets/livecodebench.yaml")
    assert (MIN_QUERY_COUNT["livecodebench"], lcb["samples"]) == (880, 1055)
    gpt_oss = get_thresholds("gpt-oss-120b")
    assert gpt_oss is not None
    assert gpt_oss[1] == 8 * MIN_QUERY_COUNT["aime25"] + 5 * MIN_QUERY_COUNT["gpqa"] + 3 * lcb["samples"] == 4395
    # Model names: the checker's directory name is the model's mlperf_name.
    assert _catalog("models/llama3-1-8b.yaml")["mlperf_name"] in _ALLOWED_MODEL_NAMES
    # Latency bounds and minimum context: the catalog states them; the checker has no such threshold.
    requirements = _catalog("benchmarks/gpt-oss-120b.yaml")["performance"]["requirements"]
    assert (requirements["max_ttft_latency_ms"], requirements["max_tpot_latency_ms"]) == (3000, 80)
    assert requirements["min_context_length"] == 65536
    assert set(gpt_oss[0]) == {"exact_match"}
    # TOKENS_PER_SAMPLE: the checker gates exact_match only for deepseek-r1.
    deepseek = get_thresholds("deepseek-r1")
    assert deepseek is not None
    assert set(deepseek[0]) == {"exact_match"}
