"""The command line: exit codes, output formats and messages, through typer's runner."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import replace_in, run_cli, run_console


def test_validate_shipped_catalog_exits_0_and_lists_pending_values(catalog_dir: Path) -> None:
    done = run_cli("validate", str(catalog_dir))
    out, err = done.stdout, done.stderr
    assert err == ""
    lines = out.splitlines()
    assert lines[-1] == "working tree: valid (0 errors, 20 warnings, 20 pending values)"
    assert lines[0] == (
        "benchmark_suite/datasets/aime25.yaml:7:8: warning pending-value: dataset `aime25`: "
        "source.url is pending (<TBD>); blocks freezing gpt-oss-120b"
    )


def test_validate_with_errors_exits_1(catalog_dir: Path) -> None:
    replace_in(catalog_dir, "benchmark_suite/benchmarks/gsm8k.yaml", "num_repeats: 1", "num_repeats: true")
    out = run_cli("validate", str(catalog_dir), code=1).stdout
    assert (
        "benchmark_suite/benchmarks/gsm8k.yaml:21:20: error schema-wrong-type: accuracy.datasets[0].num_repeats: "
        "should be a valid integer (got True)"
    ) in out.splitlines()
    assert out.splitlines()[-1] == "working tree: invalid (1 error, 20 warnings, 20 pending values)"


def test_validate_json_has_the_documented_shape(catalog_dir: Path) -> None:
    replace_in(catalog_dir, "benchmark_suite/models/gpt-oss-120b.yaml", "sha: b5c9", "sha: x5c9")
    out = run_cli("validate", str(catalog_dir), "--format", "json", code=1).stdout
    report = json.loads(out)
    assert list(report) == ["schema", "tree", "summary", "diagnostics", "valid"]
    assert report["schema"] == "catalogctl/diagnostics/v1"
    assert report["valid"] is False
    assert report["summary"] == {
        "errors": 1,
        "warnings": 20,
        "pending": 20,
        "not_selected": 0,
    }  # the benchmark is not blamed
    errors = [d for d in report["diagnostics"] if d["severity"] == "error"]
    assert errors == [
        {
            "severity": "error",
            "code": "schema-invalid-value",
            "message": "sha: `x5c939de8f754692c1647ca79fbf85e8c1e70f8a` is not a git commit id: "
            "40 lowercase hex digits",
            "file": "benchmark_suite/models/gpt-oss-120b.yaml",
            "line": 5,
            "column": 6,
            "hint": "",
        }
    ]


def test_validate_github_format_escapes_workflow_commands(catalog_dir: Path) -> None:
    replace_in(
        catalog_dir,
        "benchmark_suite/benchmarks/gsm8k.yaml",
        "owners: [evaluation-task-force]",
        "owners: [evaluation-task-force]\nnotes: 100%,\n",
    )
    out = run_cli("validate", str(catalog_dir), "--format", "github", code=1).stdout
    assert (
        "::error file=benchmark_suite/benchmarks/gsm8k.yaml,line=10,col=1,title=schema-unknown-key::"
        "unknown key `notes` in the document (allowed keys: accuracy, api_type, approved_drafters, execution, "
        "family, i18n, id, kind, metadata, mlperf_name, model, owners, performance, postprocessing, preprocessing, "
        "renamed_from, runner, summary, title)"
    ) in out.splitlines()
    assert "::warning file=benchmark_suite/datasets/aime25.yaml,line=7,col=8,title=pending-value::" in out


def test_validate_at_a_ref(catalog_repo: Path) -> None:
    out = run_cli("validate", str(catalog_repo), "--ref", "v1").stdout
    assert out.splitlines()[-1].startswith("v1 (")


def test_unknown_ref_exits_2_with_a_hint(catalog_repo: Path) -> None:
    done = run_cli("validate", str(catalog_repo), "--ref", "v9", code=2)
    out, err = done.stdout, done.stderr
    assert out == ""
    assert err == "error: unknown ref `v9`\nhint: fetch it first: git fetch --tags origin\n"


def test_no_catalog_exits_2(tmp_path: Path) -> None:
    err = run_cli("validate", str(tmp_path), code=2).stderr
    assert err.startswith(f"error: no catalog at or above {tmp_path.resolve()}")


def test_ls_benchmarks_table(catalog_dir: Path) -> None:
    out = run_cli("ls", "-C", str(catalog_dir)).stdout
    assert out.splitlines()[0].split() == ["ID", "KIND", "TITLE", "MODEL", "RUNNER", "DATASETS", "PENDING"]
    gpt = next(line for line in out.splitlines() if line.startswith("gpt-oss-120b "))
    assert "gpt_oss_perf, aime25, gpqa, livecodebench" in gpt
    assert gpt.rstrip().endswith("8")


def test_ls_json_for_each_kind(catalog_dir: Path) -> None:
    for kind, count in (("benchmarks", 6), ("models", 4), ("datasets", 9), ("metrics", 17)):
        out = run_cli("ls", kind, "-C", str(catalog_dir), "--format", "json").stdout
        data = json.loads(out)
        assert data["schema"] == "catalogctl/ls/v1"
        assert len(data[kind]) == count
    rows = json.loads(run_cli("ls", "-C", str(catalog_dir), "-f", "json").stdout)["benchmarks"]
    assert [(r["id"], r["runner"]) for r in rows] == [
        ("ceval", "evalscope"),
        ("deepseek-r1", "endpoints"),
        ("gpt-oss-120b", "endpoints"),
        ("gsm8k", "lm-eval"),
        ("llama3-1-8b", "endpoints"),
        ("llm-post-training", None),
    ]
    data = json.loads(run_cli("ls", "models", "-C", str(catalog_dir), "-f", "json").stdout)
    assert data["models"][-1] == {
        "id": "qwen3-5-397b-a17b",
        "reference_id": "Qwen/Qwen3.5-397B-A17B",
        "sha": "8472618112abcbd45acbcdc58436aff4233c23f7",
        "pending": 0,
    }


def test_show_resolved_with_digest(catalog_dir: Path) -> None:
    done = run_cli("show", "gpt-oss-120b", "-C", str(catalog_dir), "--resolved", "--format", "json")
    out, err = done.stdout, done.stderr
    assert err == "note: `gpt-oss-120b` is also a model: show it with model/gpt-oss-120b\n"
    shown = json.loads(out)
    assert {k: v for k, v in shown.items() if k != "document"} == {
        "schema": "catalogctl/show/v1",
        "tree": "working tree",
        "kind": "benchmark",
        "id": "gpt-oss-120b",
        "resolved": True,
        "notes": ["`gpt-oss-120b` is also a model: show it with model/gpt-oss-120b"],
    }
    data = shown["document"]
    assert data["digest"].startswith("sha256:")
    assert data["accuracy"]["datasets"][2]["generation"]["max_new_tokens"] == 32768


def test_show_yaml_of_a_model_by_kind(catalog_dir: Path) -> None:
    out = run_cli("show", "model/gpt-oss-120b", "-C", str(catalog_dir)).stdout
    assert out == (
        "id: gpt-oss-120b\ntitle: gpt-oss-120b\nreference_id: openai/gpt-oss-120b\n"
        "sha: b5c939de8f754692c1647ca79fbf85e8c1e70f8a\nlicense: Apache-2.0\n"
    )


def test_show_unknown_id_exits_2_with_a_near_miss(catalog_dir: Path) -> None:
    err = run_cli("show", "gpt-oss-12", "-C", str(catalog_dir), code=2).stderr
    assert err == "error: no entity `gpt-oss-12` in the working tree\nhint: did you mean `gpt-oss-120b`?\n"


def test_show_resolved_of_a_dataset_is_a_usage_error(catalog_dir: Path) -> None:
    err = run_cli("show", "aime25", "-C", str(catalog_dir), "--resolved", code=2).stderr
    assert err == "error: --resolved applies to benchmarks; `aime25` is a dataset\n"


def test_big_seed_exact_in_json_output(catalog_dir: Path) -> None:
    out = run_cli("show", "metric/pass_at_4", "-C", str(catalog_dir), "-f", "json").stdout
    assert json.loads(out)["document"]["key"] == "pass_at_4"


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["validate", "--help"]])
def test_console_script_starts(args: list[str]) -> None:
    assert run_console(*args).stdout


def test_terminal_output_is_coloured_by_rich(catalog_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from catalogctl import load_catalog
    from catalogctl.model.reports.validation import ValidationReport
    from catalogctl.render.validation import print_validation_rich

    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("FORCE_COLOR", "1")
    replace_in(catalog_dir, "benchmark_suite/models/gpt-oss-120b.yaml", "sha: b5c9", "sha: x5c9")
    result = load_catalog(catalog_dir)
    import io

    from rich.console import Console

    buffer = io.StringIO()
    monkeypatch.setattr("rich.console.Console", lambda **kw: Console(file=buffer, force_terminal=True, **kw))
    print_validation_rich(ValidationReport.of(result.catalog.label, result.diagnostics))
    text = buffer.getvalue()
    assert "\x1b[1;31merror schema-invalid-value\x1b[0m" in text
    assert "working tree: invalid (1 error, 20 warnings, 20 pending values)" in text


def test_an_unwritable_output_is_an_environment_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    err = run_cli("schema", "-o", str(blocker / "schemas"), code=2).stderr
    assert err.startswith(f"error: cannot write {blocker / 'schemas'}")


def test_write_atomic_leaves_nothing_behind_on_failure(tmp_path: Path) -> None:
    from catalogctl.errors import EnvironmentProblem
    from catalogctl.io.files import write_atomic

    target = tmp_path / "out.yaml"
    target.write_text("old\n")
    (tmp_path / "out.yaml.d").mkdir()
    with pytest.raises(EnvironmentProblem, match="cannot write"):
        write_atomic(tmp_path / "out.yaml.d", b"new")  # a folder cannot be replaced by a file
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.yaml", "out.yaml.d"]


def test_help_imports_no_heavy_library() -> None:
    # `catalogctl --help` must start fast: the CLI imports the library inside its commands.
    code = (
        "import runpy, sys\n"
        "sys.argv = ['catalogctl', '--help']\n"
        "try:\n"
        "    runpy.run_module('catalogctl', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = {'pydantic', 'pygit2', 'httpx', 'ruamel', 'deepdiff', 'rich'}\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & heavy), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60)
    assert (done.returncode, done.stderr) == (0, "[]\n")
    assert "Usage: catalogctl" in done.stdout


def test_show_prints_a_packs_runner_and_its_resolved_contract_keeps_it(catalog_dir: Path) -> None:
    shown = run_cli("show", "ceval", "-C", str(catalog_dir)).stdout
    assert "\nrunner:\n  name: evalscope\n  tasks:\n  - ceval\n  version: '>=1.14,<2'\n" in shown
    resolved = json.loads(run_cli("show", "gsm8k", "-C", str(catalog_dir), "--resolved", "-f", "json").stdout)
    assert resolved["document"]["runner"] == {
        "name": "lm-eval",
        "tasks": ["gsm8k"],
        "version": ">=0.4,<0.5",
        "batch_size": "auto",
        "task_versions": {"gsm8k": "3.0"},
    }
