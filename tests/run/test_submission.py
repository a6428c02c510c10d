"""The official submission layout (§8.1/§8.3) as `check` reads it: a point folder, a whole
submission tree, the seeds a point declares against what ran, and folders of no layout."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from catalogctl.errors import InputsUnusable
from catalogctl.model.reports.check import CheckReport
from catalogctl.run.submission import submission_points
from tests.helpers import run_cli, write
from tests.run_results import SET_A, pin_all, resolved_config, set_deepseek_sample_count
from tests.submission_points import Accuracy, Point, point_folder, seed_sets_file, submission_tree, valid_curve


@pytest.fixture
def resolved(catalog_dir: Path, tmp_path: Path) -> Path:
    """A resolved deepseek-r1 config (set A of the tests, cohort 2026-09-C0)."""
    set_deepseek_sample_count(catalog_dir)
    pin_all(catalog_dir)
    return write(tmp_path, "resolved.json", json.dumps(resolved_config(catalog_dir, "deepseek-r1").to_data()))


def test_a_point_folder_is_read_as_one(resolved: Path, tmp_path: Path) -> None:
    # Was read as a run folder missing performance/ and accuracy/: "not reported" row after row.
    folder = point_folder(tmp_path / "r32", Point(32))
    done = run_cli("check", resolved, folder, code=1)
    lines = done.stdout.splitlines()
    assert lines[0] == f"source: submission point {folder}"
    verdicts = [line.split()[:3] for line in lines if "(hard)" in line or "(soft)" in line]
    assert verdicts == [
        ["dataset_integrity", "(hard)", "NOT"],  # the client writes no sha256
        ["model_integrity", "(soft)", "NOT"],
        ["generation_integrity", "(hard)", "pass"],
        ["seeds", "(hard)", "NOT"],  # no model seed in the client's files
        ["requirements", "(hard)", "pass"],  # duration and samples read from result_summary.json
        ["accuracy_gate", "(hard)", "pass"],  # scores read from accuracy_results.json
        ["point_declaration", "(hard)", "pass"],
    ]
    report = json.loads(run_cli("check", resolved, folder, "-f", "json", code=1).stdout)
    assert (report["layout"], report["points"]) == ("point", [])


def test_a_folder_of_no_layout_is_refused_naming_the_layouts(resolved: Path, tmp_path: Path) -> None:
    folder = write(tmp_path, "stuff/notes.txt", "hello\n").parent
    assert run_cli("check", resolved, folder, code=2).stderr == (
        f"error: {folder} is of no layout `check` reads\n"
        "hint: check reads a catalogctl/results/v1 JSON file; an endpoints run folder (config.yaml, "
        "performance/result_summary.json, accuracy/accuracy_results.json); a submission point folder r<N>/ "
        "(point.yaml, config.yaml, result_summary.json, accuracy_results.json, system_desc.json); a "
        "submission tree (<org>/<submission_id>/ or its results/, results/<system>/ or "
        "results/<system>/<model>/ folder); a LoadGen output folder (mlperf_log_detail.txt, "
        "mlperf_log_summary.txt); or an MLPerf Training MLLOG result file (`:::MLLOG {json}` lines), "
        "or a folder of them (one run each); and of the evaluation harnesses: lm-eval's "
        "results_<timestamp>.json, or the --output_path folder of one run; an evalscope output folder "
        "(configs/task_config.yaml, reports/) or report JSON; an inspect_ai JSON log (--log-format json)\n"
    )


OTHER = {"scheduler_rng_seed": 1, "sample_index_rng_seed": 2, "model_seed": 3}


def _declaration(report: dict[str, Any]) -> list[tuple[str, Any, Any, str]]:
    gate = next(g for g in report["gates"] if g["name"] == "point_declaration")
    return [(c["what"], c["expected"], c["observed"], c["status"]) for c in gate["checks"] if c["status"] != "pass"]


@pytest.mark.conformance
def test_seeds_that_ran_are_not_the_declared_ones_the_checker_passes_check_fails(
    resolved: Path, tmp_path: Path
) -> None:
    from submission_checker import SubmissionChecker

    # The official checker compares point.yaml with the published set only, never with what ran.
    tree = submission_tree(tmp_path / "sub", [Point(32, recorded=OTHER, record_model_seed=True)])
    official = SubmissionChecker(
        tree, seed_sets_path=seed_sets_file(tmp_path / "seeds.yaml"), approved_drafters_path=None
    ).run()
    seed_rules = {(r.rule, r.severity.name) for r in official.results if r.rule.startswith("seed-")}
    assert seed_rules == {
        ("seed-set-consistency", "INFO"),
        ("seed-set-membership", "INFO"),
        ("seed-runtime-match", "INFO"),
        ("seed-set-adoption", "INFO"),
    }
    done = run_cli("check", resolved, tree / "results/sys-8x/deepseek-r1/r32", "-f", "json", code=1)
    assert _declaration(json.loads(done.stdout)) == [
        ("scheduler_rng_seed recorded in config.yaml vs declared", SET_A["scheduler_rng_seed"], 1, "fail"),
        ("scheduler_rng_seed recorded in result_summary.json vs declared", SET_A["scheduler_rng_seed"], 1, "fail"),
        ("sample_index_rng_seed recorded in config.yaml vs declared", SET_A["sample_index_rng_seed"], 2, "fail"),
        (
            "sample_index_rng_seed recorded in result_summary.json vs declared",
            SET_A["sample_index_rng_seed"],
            2,
            "fail",
        ),
        # config.yaml's model_params.seed 3 is no row: deepseek-r1's openai_completions adapter never sends
        # it (tests/run/test_point_declarations.py), so it says nothing of the seed that ran.
    ]
    text = run_cli("check", resolved, tree / "results/sys-8x/deepseek-r1/r32", code=1).stdout
    row = next(line for line in text.splitlines() if line.startswith("  scheduler_rng_seed recorded in config.yaml"))
    assert re.split(r"  +", row.strip()) == [
        "scheduler_rng_seed recorded in config.yaml vs declared",
        "FAIL",
        str(SET_A["scheduler_rng_seed"]),
        "1",
    ]
    assert text.splitlines()[-1] == (
        "deepseek-r1: INVALID (hard gates not passed: dataset_integrity, seeds, point_declaration); "
        "warnings: model_integrity"
    )


def test_a_declaration_other_than_the_resolved_config_fails(resolved: Path, tmp_path: Path) -> None:
    declared = {**SET_A, "model_seed": 7}
    point = Point(8, declared=declared, recorded=declared, seed_set="B", target_cohort="2026-10-C1")
    folder = point_folder(tmp_path / "r8", point)
    report = json.loads(run_cli("check", resolved, folder, "-f", "json", code=1).stdout)
    assert _declaration(report) == [
        ("model_seed declared vs seed set A", 42, 7, "fail"),
        ("seed_set declared vs submission_ref.seed_set_id", "A", "B", "fail"),
        ("target_cohort declared vs submission_ref.cohort", "2026-09-C0", "2026-10-C1", "fail"),
    ]
    undeclared = point_folder(tmp_path / "r9", Point(9, seed_set=None, target_cohort=None))
    report = json.loads(run_cli("check", resolved, undeclared, "-f", "json", code=1).stdout)
    assert _declaration(report) == [
        ("seed_set declared vs submission_ref.seed_set_id", "A", None, "unknown"),
        ("target_cohort declared vs submission_ref.cohort", "2026-09-C0", None, "unknown"),
    ]


def test_a_submission_tree_has_a_verdict_per_point_and_one_for_the_submission(resolved: Path, tmp_path: Path) -> None:
    tree = submission_tree(tmp_path, [Point(256), Point(32, recorded=OTHER)])
    report = json.loads(run_cli("check", resolved, tree, "-f", "json", code=1).stdout)
    assert (report["layout"], report["valid"]) == ("submission", False)
    # The submission's own gate: its accuracy runs (both points carry one, and both passed).
    assert [(g["name"], g["verdict"], g["checks"][0]["observed"]) for g in report["gates"]] == [
        ("accuracy_runs", "pass", 2)
    ]
    assert [(p["point"], p["concurrency"], p["valid"]) for p in report["points"]] == [
        ("results/sys-8x/deepseek-r1/r32", 32, False),
        ("results/sys-8x/deepseek-r1/r256", 256, False),  # numeric order: r256 after r32
    ]
    verdicts = {p["concurrency"]: {g["name"]: g["verdict"] for g in p["gates"]} for p in report["points"]}
    assert (verdicts[32]["point_declaration"], verdicts[256]["point_declaration"]) == ("fail", "pass")
    text = run_cli("check", resolved, tree, code=1).stdout.splitlines()
    assert text[0] == f"source: submission tree {tree}"
    assert [line for line in text if line.startswith("point ")] == [
        "point results/sys-8x/deepseek-r1/r32 (concurrency 32): INVALID (hard gates not passed: dataset_integrity, "
        "seeds, point_declaration); warnings: model_integrity",
        "point results/sys-8x/deepseek-r1/r256 (concurrency 256): INVALID (hard gates not passed: dataset_integrity, "
        "seeds); warnings: model_integrity",
    ]
    assert text[-1] == (
        "deepseek-r1 submission (2 points): INVALID (points not valid: results/sys-8x/deepseek-r1/r32, "
        "results/sys-8x/deepseek-r1/r256)"
    )
    markdown = run_cli("check", resolved, tree, "-f", "markdown", code=1).stdout
    assert "#### point results/sys-8x/deepseek-r1/r32 (concurrency 32): INVALID" in markdown
    # The organisation's folder, results/ and a model folder name the same points.
    for path, prefix in ((tmp_path / "acme", "results/sys-8x/deepseek-r1/"), (tree / "results/sys-8x/deepseek-r1", "")):
        again = json.loads(run_cli("check", resolved, path, "-f", "json", code=1).stdout)
        assert [p["point"] for p in again["points"]] == [f"{prefix}r32", f"{prefix}r256"]
    system = json.loads(run_cli("check", resolved, tree / "results/sys-8x", "-f", "json", code=1).stdout)
    assert [p["point"] for p in system["points"]] == ["deepseek-r1/r32", "deepseek-r1/r256"]


def test_a_valid_submission_is_valid(resolved: Path, tmp_path: Path) -> None:
    report = CheckReport.model_validate(
        {
            "benchmark": "deepseek-r1",
            "source": "submission tree t",
            "layout": "submission",
            "gates": [],
            "points": [{"point": "r8", "concurrency": 8, "source": "s", "gates": []}],
        }
    )
    assert report.passed
    assert not report.model_copy(update={"points": []}).passed  # no point: no submission


def test_a_tree_without_the_benchmark_or_with_a_broken_point_is_refused(resolved: Path, tmp_path: Path) -> None:
    tree = submission_tree(tmp_path, [Point(8)], model="llama3_1-8b")
    assert run_cli("check", resolved, tree, code=2).stderr == (
        f"error: {tree} holds no points of deepseek-r1: its model folders are results/sys-8x/llama3_1-8b\n"
        "hint: a submission keeps a benchmark's points in results/<system>/deepseek-r1/r<N>/ "
        "(its model's MLPerf name)\n"
    )
    point = tree / "results/sys-8x/llama3_1-8b/r8"
    (point / "system_desc.json").unlink()
    (point / "result_summary.json").unlink()
    assert run_cli("check", resolved, point, code=2).stderr.splitlines()[0] == (
        f"error: {point} is not a complete submission point folder: no result_summary.json, system_desc.json"
    )
    other = point_folder(tmp_path / "r4", Point(4))
    (other / "point.yaml").write_text("concurrency: 0\nruntime_settings: {runtime: {}}\n")
    assert run_cli("check", resolved, other, code=2).stderr == (
        f"error: {other / 'point.yaml'} is not a point.yaml (§8.3): concurrency is not a positive integer\n"
    )
    (other / "point.yaml").write_text("concurrency: 4\nruntime_settings: {runtime: {model_seed: x}}\n")
    assert run_cli("check", resolved, other, code=2).stderr == (
        f"error: {other / 'point.yaml'}: runtime_settings.runtime.model_seed is not an integer\n"
    )
    (other / "point.yaml").write_text("concurrency: 4\nruntime_settings: [\n")
    assert run_cli("check", resolved, other, code=2).stderr.startswith(f"error: {other / 'point.yaml'}:")
    (other / "point.yaml").write_text("concurrency: 4\n")
    assert run_cli("check", resolved, other, code=2).stderr == (
        f"error: {other / 'point.yaml'} is not a point.yaml (§8.3): runtime_settings is missing\n"
    )


def test_each_point_of_a_curve_is_graded_at_its_own_concurrency(resolved: Path, tmp_path: Path) -> None:
    # Was refused at the first point: "this run is of load `concurrency 1`; the submission is of
    # load `poisson 170.0 QPS`". A Pareto curve runs every point at its own concurrency (§5).
    points = valid_curve(SET_A, "A", "2026-09-C0")
    tree = submission_tree(tmp_path, points)
    report = json.loads(run_cli("check", resolved, tree, "-f", "json", code=1).stdout)
    tiers = {
        p["concurrency"]: next(
            c["what"] for g in p["gates"] if g["name"] == "requirements" for c in g["checks"] if "duration" in c["what"]
        )
        for p in report["points"]
    }
    assert tiers[32] == "duration_ms at concurrency 32 (min_duration_ms up to 32)"
    assert tiers[128] == "duration_ms at concurrency 128 (min_duration_ms above 32)"
    # What ran is held to what point.yaml declares: a point run at another load is refused.
    other = point_folder(tmp_path / "r8", replace(points[2], load={"type": "concurrency", "target_concurrency": 9}))
    assert run_cli("check", resolved, other, code=2).stderr == (
        "error: this run is of load `concurrency 9`; the point is of load `concurrency 8`\n"
        "hint: run each point at the concurrency its point.yaml declares\n"
    )


def test_a_point_without_an_accuracy_run_blocks_nothing_but_a_tree_needs_one(resolved: Path, tmp_path: Path) -> None:
    # Accuracy runs at a fixed number of a curve's points (§4.3), not at every point.
    tree = submission_tree(tmp_path / "some", [Point(256), Point(32, accuracy=None)])
    report = json.loads(run_cli("check", resolved, tree, "-f", "json", code=1).stdout)
    [r32] = [p for p in report["points"] if p["concurrency"] == 32]
    gates = {g["name"]: g for g in r32["gates"]}
    assert gates["accuracy_gate"]["verdict"] == "not-applicable"
    assert {c["status"] for c in gates["accuracy_gate"]["checks"]} == {"not-applicable"}
    assert [c["note"] for c in gates["requirements"]["checks"] if c["what"].startswith("accuracy samples")] == [
        "no accuracy run at this point (§4.3: accuracy runs at a fixed number of points)"
    ]
    assert (
        "accuracy_gate" not in run_cli("check", resolved, tree, code=1).stdout.split("point results")[1].split("\n")[0]
    )
    none = submission_tree(tmp_path / "none", [Point(256, accuracy=None), Point(32, accuracy=None)])
    text = run_cli("check", resolved, none, code=1).stdout
    assert "\nthe submission\n" in text
    assert text.splitlines()[-1].endswith("; hard gates not passed: accuracy_runs)")
    found = json.loads(run_cli("check", resolved, none, "-f", "json", code=1).stdout)["gates"]
    assert [(g["name"], g["verdict"], g["checks"][0]["note"]) for g in found] == [
        ("accuracy_runs", "fail", "no point of this curve has an accuracy_results.json")
    ]
    assert "#### The submission" in run_cli("check", resolved, none, "-f", "markdown", code=1).stdout


def test_a_scorer_other_than_the_contracts_is_refused(resolved: Path, tmp_path: Path) -> None:
    # Was graded on the renamed scorer's scale: a 0.9 % score read as the fraction 0.9 passed as 90 %.
    folder = point_folder(tmp_path / "r32", Point(32, accuracy=Accuracy(score=0.9)))
    config = folder / "config.yaml"
    config.write_text(config.read_text().replace("eval_method: legacy_mlperf_deepseek_r1", "eval_method: pass_at_1"))
    assert run_cli("check", resolved, folder, code=2).stderr == (
        f"error: {config}: accuracy dataset `deepseek_r1_accuracy` was scored by `pass_at_1`; the contract scores "
        "it by `legacy_mlperf_deepseek_r1`\n"
        "hint: a score is read on the scale of the contract's scorer: run the accuracy phase with its eval_method\n"
    )


def test_a_tree_with_another_layouts_files_at_its_root_is_refused(resolved: Path, tmp_path: Path) -> None:
    # Was graded as the one point (or run folder) the stray files make: the tree's failing points ignored.
    tree = submission_tree(tmp_path, [Point(32, accuracy=Accuracy(score=10.0))])
    point_folder(tree, Point(1))
    assert run_cli("check", resolved, tree, code=2).stderr == (
        f"error: {tree} is both a submission tree (results/) and a submission point folder (point.yaml): "
        "which one to check is unknown\n"
        "hint: move the stray files out of the submission, or check the folder you mean\n"
    )
    (tree / "point.yaml").unlink()
    assert run_cli("check", resolved, tree, code=2).stderr.startswith(
        f"error: {tree} is both a submission tree (results/) and an endpoints run folder (config.yaml): "
    )


def test_a_point_folder_without_point_yaml_is_refused_not_dropped(resolved: Path, tmp_path: Path) -> None:
    # Was left out of the curve: a failing point vanished, the others graded.
    tree = submission_tree(tmp_path, [Point(256), Point(32, duration_s=10.0)])
    point = tree / "results/sys-8x/deepseek-r1/r32"
    (point / "point.yaml").unlink()
    assert run_cli("check", resolved, tree, code=2).stderr.splitlines()[0] == (
        f"error: {point} is not a complete submission point folder: no point.yaml"
    )


def test_a_load_the_two_files_record_differently_is_refused(resolved: Path, tmp_path: Path) -> None:
    # Was graded on config.yaml's load alone: a run the summary records at 512 passed as concurrency 256.
    folder = point_folder(tmp_path / "r256", Point(256))
    summary = json.loads((folder / "result_summary.json").read_text())
    summary["run_config"]["load_pattern"]["target_concurrency"] = 512
    (folder / "result_summary.json").write_text(json.dumps(summary))
    assert run_cli("check", resolved, folder, code=2).stderr == (
        f"error: {folder}: config.yaml records load `concurrency 256`, result_summary.json load `concurrency 512`: "
        "which one ran is unknown\n"
        "hint: the two files of one run record one load: grade the run's own files\n"
    )


def test_the_model_folder_is_the_models_mlperf_name(catalog_dir: Path, tmp_path: Path) -> None:
    # Was looked for under the benchmark's id: gsm8k's points in results/<system>/llama3_1-8b/ (the
    # checker's and the export's name of its model) were "no points of gsm8k".
    contract = resolved_config(catalog_dir, "gsm8k").contract
    tree = submission_tree(tmp_path / "named", [Point(8)], model="llama3_1-8b")
    assert submission_points(tree, contract) == [
        ("results/sys-8x/llama3_1-8b/r8", tree / "results/sys-8x/llama3_1-8b/r8")
    ]
    by_id = submission_tree(tmp_path / "by-id", [Point(8)], model="gsm8k")
    with pytest.raises(InputsUnusable) as refused:
        submission_points(by_id, contract)
    assert str(refused.value) == (f"{by_id} holds no points of gsm8k: its model folders are results/sys-8x/gsm8k")


def test_each_curve_needs_its_accuracy_run(resolved: Path, tmp_path: Path) -> None:
    # Was one gate over the tree: a second system's curve with no accuracy run passed on the first's.
    tree = submission_tree(tmp_path, [Point(256)])
    submission_tree(tmp_path, [Point(256, accuracy=None)], system="sys-4x")
    report = json.loads(run_cli("check", resolved, tree, "-f", "json", code=1).stdout)
    [gate] = report["gates"]
    assert (gate["name"], gate["verdict"]) == ("accuracy_runs", "fail")
    assert [(c["what"], c["observed"], c["status"], c["note"]) for c in gate["checks"]] == [
        (
            "points of results/sys-4x/deepseek-r1 with an accuracy run that passed its gate",
            0,
            "fail",
            "no point of this curve has an accuracy_results.json",
        ),
        ("points of results/sys-8x/deepseek-r1 with an accuracy run that passed its gate", 1, "pass", ""),
    ]


def test_a_model_name_other_than_the_model_folders_fails(resolved: Path, tmp_path: Path) -> None:
    # Was never read: the checker's model-name-consistency failed, check passed the point.
    tree = submission_tree(tmp_path, [Point(32, model_name="llama3_1-8b")])
    report = json.loads(run_cli("check", resolved, tree, "-f", "json", code=1).stdout)
    [point] = report["points"]
    assert _declaration(point) == [
        ("model_name declared vs the contract's model", "deepseek-r1", "llama3_1-8b", "fail")
    ]
    unnamed = point_folder(tmp_path / "r8", Point(8, extra={"model_name": None}))
    assert _declaration(json.loads(run_cli("check", resolved, unnamed, "-f", "json", code=1).stdout)) == [
        ("model_name declared vs the contract's model", "deepseek-r1", None, "unknown")
    ]


def test_seeds_the_client_did_not_record_are_not_evaluable(resolved: Path, tmp_path: Path) -> None:
    # Was a pass: with no seed in config.yaml nor result_summary.json, the rows comparing them vanished.
    folder = point_folder(tmp_path / "r32", Point(32))
    config = folder / "config.yaml"
    config.write_text(re.sub(r"\n\s*(scheduler|dataloader)_random_seed: \d+", "", config.read_text()))
    summary = json.loads((folder / "result_summary.json").read_text())
    del summary["run_config"]["scheduler_random_seed"], summary["run_config"]["dataloader_random_seed"]
    (folder / "result_summary.json").write_text(json.dumps(summary))
    report = json.loads(run_cli("check", resolved, folder, "-f", "json", code=1).stdout)
    gate = next(g for g in report["gates"] if g["name"] == "point_declaration")
    assert gate["verdict"] == "not-evaluable"
    assert [
        (c["what"], c["expected"], c["observed"], c["note"]) for c in gate["checks"] if c["status"] == "unknown"
    ] == [
        (f"{name} recorded in config.yaml vs declared", SET_A[name], None, "the client's files record none")
        for name in ("scheduler_rng_seed", "sample_index_rng_seed")
    ]


def test_an_accuracy_run_that_scored_few_samples_fails(resolved: Path, tmp_path: Path) -> None:
    # Was read from total_samples alone: a run that scored 10 of its 4388 samples passed.
    folder = point_folder(tmp_path / "r32", Point(32))
    data = json.loads((folder / "accuracy_results.json").read_text())
    data["accuracy_scores"][0].update(complete=False, response_counts={"issued": 4388, "scored": 10})
    (folder / "accuracy_results.json").write_text(json.dumps(data))
    report = json.loads(run_cli("check", resolved, folder, "-f", "json", code=1).stdout)
    gate = next(g for g in report["gates"] if g["name"] == "requirements")
    assert [(c["observed"], c["status"]) for c in gate["checks"] if c["what"].startswith("accuracy samples")] == [
        (10, "fail")
    ]
