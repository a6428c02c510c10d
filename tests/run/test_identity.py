"""A run is graded only against its own contract, on the endpoints client's real files: before
this, each case below printed a table of verdicts (exit 1, as for a run that failed a gate); now
each is refused with exit 2 and says what the run is of."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.helpers import run_cli, write
from tests.run_results import (
    DEEPSEEK_SERVED,
    ENDPOINTS_FIXTURES,
    gpt_oss_results,
    pin_all,
    resolved_config,
    run_folder,
    set_deepseek_sample_count,
)

HINT = "hint: a run of another benchmark is never graded; a dataset's other names are declared as its `aliases`\n"


@pytest.fixture
def catalog(catalog_dir: Path) -> Path:
    pin_all(catalog_dir)
    return set_deepseek_sample_count(catalog_dir)


def resolved(tmp_path: Path, catalog: Path, benchmark: str, **endpoint: str) -> Path:
    data = resolved_config(catalog, benchmark, **endpoint).to_data()
    return write(tmp_path, f"{benchmark}.resolved.json", json.dumps(data))


def test_the_deepseek_run_is_graded_against_its_own_contract(catalog: Path, tmp_path: Path) -> None:
    done = run_cli("check", resolved(tmp_path, catalog, "deepseek-r1"), run_folder(tmp_path, "interactive"), code=1)
    assert done.stderr == ""
    assert "  exact_match" in done.stdout  # graded: the run is of this contract (its names are aliases)


def test_a_gsm8k_contract_against_the_deepseek_run_is_refused(catalog: Path, tmp_path: Path) -> None:
    # Was graded: gsm8k's generation was compared with what the DeepSeek-R1 run happened to send.
    done = run_cli("check", resolved(tmp_path, catalog, "gsm8k"), run_folder(tmp_path, "interactive"), code=2)
    assert done.stdout == ""
    assert done.stderr == (
        "error: this run is of performance dataset `dsr1-perf`; the contract's performance datasets are none\n" + HINT
    )


def test_a_renamed_dataset_is_a_run_of_another_dataset(catalog: Path, tmp_path: Path) -> None:
    # Was `exact_match pass`: a phase's only dataset was assumed to be any name.
    folder = run_folder(tmp_path, "interactive")
    scores = folder / "accuracy" / "accuracy_results.json"
    scores.write_text(scores.read_text().replace('"deepseek_r1_accuracy"', '"something_else"'))
    done = run_cli("check", resolved(tmp_path, catalog, "deepseek-r1"), folder, code=2)
    assert done.stderr == (
        "error: this run is of accuracy dataset `something_else`; the contract's accuracy datasets are "
        "`mlperf_deepseek_r1` (aliases: dsr1-perf, deepseek_r1_accuracy)\n" + HINT
    )


def test_the_qwen3_vl_accuracy_file_is_not_graded_as_deepseek(catalog: Path, tmp_path: Path) -> None:
    # Was graded as a DeepSeek-R1 run (an accuracy file of another model, on another scale).
    folder = run_folder(tmp_path, "interactive")
    shutil.copy(
        ENDPOINTS_FIXTURES / "v6.1-nvidia-qwen3-vl-server.accuracy_results.json",
        folder / "accuracy" / "accuracy_results.json",
    )
    done = run_cli("check", resolved(tmp_path, catalog, "deepseek-r1"), folder, code=2)
    assert done.stderr == (
        "error: this run is of accuracy dataset `shopify_product_catalogue::q3vl`; the contract's accuracy "
        "datasets are `mlperf_deepseek_r1` (aliases: dsr1-perf, deepseek_r1_accuracy)\n" + HINT
    )


def test_a_served_model_the_submission_does_not_declare(catalog: Path, tmp_path: Path) -> None:
    config = resolved(tmp_path, catalog, "deepseek-r1", served_model="deepseek-ai/DeepSeek-R1")
    done = run_cli("check", config, run_folder(tmp_path, "interactive"), code=2)
    assert done.stderr == (
        f"error: this run is of model `{DEEPSEEK_SERVED}`; the contract is of model `deepseek-r1` or "
        "`deepseek-ai/DeepSeek-R1`\n"
        "hint: if the endpoint serves the contract's model under another name, declare it in the submission: "
        "endpoint_config.served_model\n"
    )


def test_the_contracts_reference_id_needs_no_declaration(catalog: Path, tmp_path: Path) -> None:
    folder = run_folder(tmp_path, "interactive")
    config_yaml = folder / "config.yaml"
    config_yaml.write_text(config_yaml.read_text().replace(DEEPSEEK_SERVED, "deepseek-ai/DeepSeek-R1", 1))
    done = run_cli("check", resolved(tmp_path, catalog, "deepseek-r1", served_model=""), folder, code=1)
    assert done.stderr == ""


def test_a_results_file_nested_too_deeply_is_a_message(catalog: Path, tmp_path: Path) -> None:
    # Was a RecursionError traceback.
    results = write(tmp_path, "results.json", '{"benchmark": "gpt-oss-120b", "metrics": ' + "[" * 100_000)
    done = run_cli("check", resolved(tmp_path, catalog, "gpt-oss-120b"), results, code=2)
    assert done.stderr == (
        f"error: {results}: not a valid results file: nesting deeper than 64 levels\n"
        "hint: a results file follows schemas/results.schema.json (catalogctl/results/v1)\n"
    )


def test_a_run_folder_file_nested_too_deeply_is_a_message(catalog: Path, tmp_path: Path) -> None:
    folder = run_folder(tmp_path, "interactive")
    summary = folder / "performance" / "result_summary.json"
    summary.write_text("[" * 100_000 + "]" * 100_000)
    done = run_cli("check", resolved(tmp_path, catalog, "deepseek-r1"), folder, code=2)
    assert done.stderr == f"error: {summary} is not usable JSON: nesting deeper than 64 levels\n"


def test_a_results_file_of_another_benchmark(catalog: Path, tmp_path: Path) -> None:
    results = write(tmp_path, "results.json", gpt_oss_results().model_dump_json(by_alias=True))
    done = run_cli("check", resolved(tmp_path, catalog, "gsm8k"), results, code=2)
    assert done.stderr == (
        "error: this run is of benchmark `gpt-oss-120b`; the contract is of benchmark `gsm8k`\n"
        "hint: check the run folder or results file against the resolved config: they are of different runs\n"
    )


def test_a_run_that_does_not_name_its_model_is_not_shown_to_be_of_the_contract(catalog: Path, tmp_path: Path) -> None:
    results = write(tmp_path, "results.json", gpt_oss_results(model=None).model_dump_json(by_alias=True))
    assert run_cli("check", resolved(tmp_path, catalog, "gpt-oss-120b"), results, code=2).stderr == (
        "error: this run does not say which model it served, so it cannot be shown to be a run of this contract\n"
        "hint: report the served model: `model` in a results file (the endpoints client writes model_params.name)\n"
    )


def test_two_scores_of_one_dataset_are_refused(catalog: Path, tmp_path: Path) -> None:
    accuracy = [a.model_dump() for a in gpt_oss_results().accuracy]
    low = {**accuracy[0], "repeat_scores": [0.05] * 8}
    results = write(tmp_path, "results.json", gpt_oss_results(accuracy=[low, *accuracy]).model_dump_json(by_alias=True))
    stderr = run_cli("check", resolved(tmp_path, catalog, "gpt-oss-120b"), results, code=2).stderr
    assert stderr.startswith("error: this run reports accuracy for aime25 more than once\n")


def test_a_boolean_temperature_is_not_one(catalog: Path, tmp_path: Path) -> None:
    folder = run_folder(tmp_path, "interactive")
    config_yaml = folder / "config.yaml"
    text = config_yaml.read_text()
    assert "  temperature: " in text
    config_yaml.write_text(re.sub(r"  temperature: [^\n]+", "  temperature: true", text, count=1))
    done = run_cli("check", resolved(tmp_path, catalog, "deepseek-r1"), folder, code=2)
    assert "temperature" in done.stderr


def test_a_threshold_metric_reported_beside_its_scores_is_refused(catalog: Path, tmp_path: Path) -> None:
    # Found by trying to break it: `exact_match: 99` beside a score of 5.0 was graded VALID.
    results = write(
        tmp_path, "results.json", gpt_oss_results(metrics={"exact_match": 99.0}).model_dump_json(by_alias=True)
    )
    assert run_cli("check", resolved(tmp_path, catalog, "gpt-oss-120b"), results, code=2).stderr == (
        "error: this run reports exact_match itself; the contract scores it from its datasets' accuracy\n"
        "hint: report per-dataset scores under `accuracy`: the contract aggregates them\n"
    )


def test_two_generation_rows_of_one_phase_and_dataset_are_refused(catalog: Path, tmp_path: Path) -> None:
    # The first was graded and the second ignored.
    generation = [g.model_dump() for g in gpt_oss_results().generation]
    extra = {**generation[1], "max_new_tokens": 5}
    run = gpt_oss_results(generation=[*generation, extra])
    results = write(tmp_path, "results.json", run.model_dump_json(by_alias=True))
    stderr = run_cli("check", resolved(tmp_path, catalog, "gpt-oss-120b"), results, code=2).stderr
    assert stderr.startswith("error: this run reports generation for accuracy/aime25 more than once\n")


def test_a_lone_surrogate_in_a_results_file_is_a_message(catalog: Path, tmp_path: Path) -> None:
    text = gpt_oss_results().model_dump_json(by_alias=True).replace('"source":"results"', '"source":"\\ud800"')
    results = write(tmp_path, "results.json", text)
    assert run_cli("check", resolved(tmp_path, catalog, "gpt-oss-120b"), results, code=2).stderr == (
        f"error: {results}: not a valid results file: the string '\\ud800' is not Unicode text (a lone surrogate)\n"
        "hint: a results file follows schemas/results.schema.json (catalogctl/results/v1)\n"
    )


def test_a_run_at_another_load_than_the_submission_is_refused(catalog: Path, tmp_path: Path) -> None:
    # The published run was Poisson at 170 QPS; a submission of concurrency 64 is not that run.
    data = resolved_config(catalog, "deepseek-r1", {"type": "concurrency", "target_concurrency": 64}).to_data()
    config = write(tmp_path, "c64.resolved.json", json.dumps(data))
    done = run_cli("check", config, run_folder(tmp_path, "interactive"), code=2)
    assert done.stderr == (
        "error: this run is of load `poisson 170.0 QPS`; the submission is of load `concurrency 64`\n"
        "hint: resolve a submission whose settings.load_pattern is the load the run was driven at\n"
    )
    other_rate = resolved_config(catalog, "deepseek-r1", {"type": "poisson", "target_qps": 100.0}).to_data()
    config = write(tmp_path, "q100.resolved.json", json.dumps(other_rate))
    assert run_cli("check", config, run_folder(tmp_path / "again", "interactive"), code=2).stderr.startswith(
        "error: this run is of load `poisson 170.0 QPS`; the submission is of load `poisson 100.0 QPS`\n"
    )
