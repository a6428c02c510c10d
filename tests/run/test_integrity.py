"""`check` proves what it grades: a resolved config edited after `resolve` wrote it is refused
before a single gate runs (on the code before this, every edit below still printed VALID, exit 0,
or crashed), and with --catalog a config is re-resolved at the release, so that even one whose
digests were recomputed cannot pass."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from catalogctl.release.freeze import FreezeRequest, freeze
from tests.helpers import git, run_cli, write
from tests.release_repo import NOW, SEEDS_A, SUBMISSION, make_freezable
from tests.run_results import gpt_oss_results, pin_all, resealed, resolved_config

Edit = Callable[[dict[str, Any]], None]
EDITED = "the contract was edited: it hashes to sha256:"
SEAL = "the resolved config was edited after it was written (its seal does not match)"


def _set(path: str, value: Any) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        for key in parents:
            data = data[int(key)] if isinstance(data, list) else data[key]
        data[last] = value

    return edit


def _delete(path: str) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        for key in parents:
            data = data[key]
        del data[last]

    return edit


@pytest.fixture
def inputs(catalog_dir: Path, tmp_path: Path) -> tuple[dict[str, Any], Path]:
    """A gpt-oss-120b resolved config (as data) and a results file that passes every gate."""
    pin_all(catalog_dir)
    results = write(tmp_path, "results.json", gpt_oss_results().model_dump_json(by_alias=True))
    return resolved_config(catalog_dir, "gpt-oss-120b").to_data(), results


def check(tmp_path: Path, data: dict[str, Any], results: Path, *extra: str, code: int) -> str:
    resolved = write(tmp_path, "resolved.json", json.dumps(data))
    done = run_cli("check", resolved, results, *extra, code=code)
    return done.stdout if code in (0, 1) else done.stderr


def test_an_honest_config_is_graded(inputs: tuple[dict[str, Any], Path], tmp_path: Path) -> None:
    data, results = inputs
    assert check(tmp_path, data, results, code=0).splitlines()[-1] == "gpt-oss-120b: VALID"


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (_set("contract.accuracy.thresholds.exact_match.reference", 50.0), EDITED),
        (_set("contract.accuracy.datasets.0.dataset.source.sha256", "f" * 64), EDITED),
        (_set("contract.postprocessing.gates", []), EDITED),
        (_delete("contract.accuracy"), EDITED),
        (_set("provenance.contract_digest", "sha256:" + "2" * 64), "the contract was edited: it hashes to"),
        (_set("seeds.model_seed", 7), SEAL),
        (_set("seeds.scheduler_rng_seed", 1), SEAL),
        (_set("provenance.commit", "1" * 40), SEAL),
        (_set("settings.load_pattern.target_concurrency", 1), SEAL),
        (_delete("provenance.config_digest"), "the resolved config has no seal (provenance.config_digest)"),
    ],
)
def test_an_edited_config_is_refused_before_any_gate(
    inputs: tuple[dict[str, Any], Path], tmp_path: Path, edit: Edit, said: str
) -> None:
    data, results = inputs
    edited = copy.deepcopy(data)
    edit(edited)
    stderr = check(tmp_path, edited, results, code=2)
    assert stderr.startswith(f"error: {tmp_path / 'resolved.json'}: {said}"), stderr
    assert stderr.endswith(
        "hint: resolve it again (catalogctl resolve or preflight) and rerun the check on that file\n"
    )


def test_a_value_of_the_wrong_type_names_its_key(inputs: tuple[dict[str, Any], Path], tmp_path: Path) -> None:
    # Was a traceback (`unhashable type: 'list'`, `decimal.InvalidOperation`), or a verdict. With its
    # digests made to match (what a forger would do), its shape still refuses it before any gate.
    data, results = inputs
    _set("contract.accuracy.thresholds.exact_match.reference", [1])(data)
    resolved = tmp_path / "resolved.json"
    assert check(tmp_path, resealed(data), results, code=2).splitlines() == [
        f"error: {resolved}: its contract is not a resolved contract",
        f"  {resolved}: error schema-invalid-value: contract.accuracy.thresholds.exact_match.reference: "
        "Input should be a valid number",
        "hint: write it with `catalogctl resolve` or `preflight`",
    ]


# -- with --catalog: proven against the release ----------------------------------------------------

GSM8K_RUN = {
    "schema": "catalogctl/results/v1",
    "benchmark": "gsm8k",
    "api_type": "openai_completions",
    "model": "meta-llama/Llama-3.1-8B-Instruct",
    "seeds": {"scheduler_rng_seed": 16159082839903944936, "sample_index_rng_seed": 2747215439041700203},
    "accuracy": [{"dataset": "gsm8k", "scale": "percent", "pooled_score": 80.0, "samples_scored": 1319}],
}


@pytest.fixture
def released(catalog_repo: Path, tmp_path: Path) -> tuple[Path, Path, Path]:
    """Cohort 2026-09-C0 frozen; a gsm8k submission resolved at it; a results file of a run."""
    repo = make_freezable(catalog_repo)
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A)
    freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k", "deepseek-r1"], seeds_file=seeds, now=NOW))
    submission = write(tmp_path, "submission.yaml", SUBMISSION)
    resolved = tmp_path / "resolved.json"
    run_cli("resolve", submission, "-C", repo, "-o", resolved)
    results = write(tmp_path, "results.json", json.dumps(GSM8K_RUN))
    return repo, resolved, results


def test_check_catalog_grades_a_config_of_the_release(released: tuple[Path, Path, Path]) -> None:
    repo, resolved, results = released
    done = run_cli("check", resolved, results, "--catalog", repo, "--format", "json", code=1)
    report = json.loads(done.stdout)
    assert report["proven_against"] == f"the release 2026-09-C0 in {repo}"
    assert report["gates"]  # a verdict, on inputs proven to be the release's


def test_a_forged_config_passes_its_own_digests_but_not_the_release(
    released: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    repo, resolved, results = released
    data = json.loads(resolved.read_text())
    data["contract"]["generation"] = {**data["contract"].get("generation", {}), "max_new_tokens": 4096}
    forged = write(tmp_path, "forged.json", json.dumps(resealed(data)))
    alone = run_cli("check", forged, results, "--format", "json", code=1)
    assert json.loads(alone.stdout)["proven_against"] is None  # only itself: the text says so too
    stderr = run_cli("check", forged, results, "--catalog", repo, code=2).stderr
    assert stderr.startswith(f"error: {forged}: its contract digest is not the release's: sha256:")


def test_seeds_of_another_set_are_not_the_releases(released: tuple[Path, Path, Path], tmp_path: Path) -> None:
    repo, resolved, results = released
    data = json.loads(resolved.read_text())
    data["seeds"]["model_seed"] = 7
    forged = write(tmp_path, "forged.json", json.dumps(resealed(data)))
    stderr = run_cli("check", forged, results, "--catalog", repo, code=2).stderr
    assert stderr.startswith(f"error: {forged}: its seeds is not the release's: ")


def test_a_catalog_whose_tag_moved_proves_nothing(released: tuple[Path, Path, Path]) -> None:
    repo, resolved, results = released
    git(repo, "commit", "-q", "--allow-empty", "-m", "later")
    git(repo, "tag", "-f", "-a", "2026-09-C0", "-m", "moved")
    stderr = run_cli("check", resolved, results, "--catalog", repo, code=2).stderr
    assert stderr.startswith(f"error: {resolved} could not be proven against the release of 2026-09-C0 in {repo}: ")
    assert "the tag moved" in stderr


def test_a_yaml_resolved_config_keeps_its_seal(released: tuple[Path, Path, Path], tmp_path: Path) -> None:
    repo, _, results = released
    yaml_config = tmp_path / "resolved.yaml"
    run_cli("resolve", tmp_path / "submission.yaml", "-C", repo, "-o", yaml_config)
    done = run_cli("check", yaml_config, results, "--catalog", repo, code=1)
    assert done.stderr == ""
    assert done.stdout.splitlines()[1] == f"inputs: proven against the release 2026-09-C0 in {repo}"


# -- found by trying to break it -------------------------------------------------------------------


def test_a_shallow_clone_proves_no_release(released: tuple[Path, Path, Path], tmp_path: Path) -> None:
    # A depth-1 clone's only commit seems to add every file: a tag moved there looked like the release.
    repo, resolved, results = released
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow))
    stderr = run_cli("check", resolved, results, "--catalog", shallow, code=2).stderr
    assert stderr == (
        f"error: {resolved} could not be proven against the release of 2026-09-C0 in {shallow}: {shallow} is a "
        "shallow clone: the release of 2026-09-C0 cannot be proven on history it lacks\n"
        "hint: fetch the full history: git fetch --unshallow --tags (in GitHub Actions: fetch-depth: 0)\n"
    )


def test_forged_sources_are_not_the_releases(released: tuple[Path, Path, Path], tmp_path: Path) -> None:
    repo, resolved, results = released
    data = json.loads(resolved.read_text())
    data["sources"] = {"gsm8k": "https://evil.example/poisoned.parquet"}
    forged = write(tmp_path, "forged.json", json.dumps(resealed(data)))
    stderr = run_cli("check", forged, results, "--catalog", repo, code=2).stderr
    assert stderr.startswith(f"error: {forged}: its sources is not the release's: ")


def test_a_config_resolved_without_the_tag_is_checkable(released: tuple[Path, Path, Path], tmp_path: Path) -> None:
    # resolve's fallback (no tag in the clone) wrote a config check could never read: provenance.tag
    # was required but left out.
    repo, _, results = released
    git(repo, "tag", "-d", "2026-09-C0")
    config = tmp_path / "untagged.json"
    run_cli("resolve", tmp_path / "submission.yaml", "-C", repo, "-o", config)
    assert "tag" not in json.loads(config.read_text())["provenance"]
    assert run_cli("check", config, results, code=1).stderr == ""


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            '{"schema": "catalogctl/resolved/v1", "seeds": {}, "seeds": {}}',
            "the key 'seeds' appears twice in one object",
        ),
        ('{"a": NaN}', "NaN is not a JSON number"),
        ('{"a": ' + "[" * 500 + "]" * 500 + "}", "nesting deeper than 64 levels"),
    ],
)
def test_json_a_reader_could_read_two_ways_is_refused(tmp_path: Path, text: str, said: str) -> None:
    resolved = write(tmp_path, "resolved.json", text)
    results = write(tmp_path, "results.json", "{}")
    assert run_cli("check", resolved, results, code=2).stderr == f"error: {resolved} is not a resolved config: {said}\n"


@pytest.mark.parametrize(
    ("where", "value"),
    [("settings.note", "\ud800"), ("provenance.remote.note", "\ud800"), ("contract.model.license", "\ud800")],
)
def test_a_lone_surrogate_is_refused_not_a_crash(
    inputs: tuple[dict[str, Any], Path], tmp_path: Path, where: str, value: str
) -> None:
    data, results = inputs
    _set(where, value)(data)
    stderr = check(tmp_path, data, results, code=2)
    assert stderr == (
        f"error: {tmp_path / 'resolved.json'} is not a resolved config: the string '\\ud800' is not Unicode text "
        "(a lone surrogate)\n"
    )


def test_a_yaml_date_in_the_contract_is_refused_not_a_crash(
    inputs: tuple[dict[str, Any], Path], tmp_path: Path
) -> None:
    data, results = inputs
    from catalogctl.io.yamlio import dump_yaml

    resolved = write(
        tmp_path,
        "resolved.yaml",
        dump_yaml(data).replace("  id: gpt-oss-120b\n", "  id: gpt-oss-120b\n  released: 2026-01-01\n", 1),
    )
    stderr = run_cli("check", resolved, results, code=2).stderr
    assert stderr.startswith(f"error: {resolved}: its contract is not plain JSON data: "), stderr


def test_a_fifo_or_a_huge_file_is_a_message(inputs: tuple[dict[str, Any], Path], tmp_path: Path) -> None:
    import os

    data, _ = inputs
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    resolved = write(tmp_path, "resolved.json", json.dumps(data))
    assert run_cli("check", resolved, fifo, code=2).stderr == f"error: cannot read {fifo}: not a regular file\n"
    big = tmp_path / "big.json"
    with big.open("wb") as out:
        out.truncate(65 * 1024 * 1024)
    assert run_cli("check", resolved, big, code=2).stderr == f"error: cannot read {big}: larger than 64 MiB\n"


def test_a_contract_with_its_keys_reordered_keeps_its_digest(
    inputs: tuple[dict[str, Any], Path], tmp_path: Path
) -> None:
    # `jq -S` once made an honest config "edited": an accuracy entry's identity was its dataset's repr.
    data, results = inputs

    def sort(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: sort(value[k]) for k in sorted(value)}
        return [sort(v) for v in value] if isinstance(value, list) else value

    data["contract"] = sort(data["contract"])
    assert check(tmp_path, data, results, code=0).splitlines()[-1] == "gpt-oss-120b: VALID"
