"""`catalogctl validate` as a pre-commit hook runs it: one line format, errors only, codes
selected or ignored, GitHub's caps."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import replace_in, run_cli

GSM8K = "benchmark_suite/benchmarks/gsm8k.yaml"
WRONG_TYPE = (
    "benchmark_suite/benchmarks/gsm8k.yaml:21:20: error schema-wrong-type: accuracy.datasets[0].num_repeats: "
    "should be a valid integer (got True)"
)
FIRST_PENDING = (
    "benchmark_suite/datasets/aime25.yaml:7:8: warning pending-value: dataset `aime25`: "
    "source.url is pending (<TBD>); blocks freezing gpt-oss-120b"
)


@pytest.fixture
def broken(catalog_dir: Path) -> Path:
    """The shipped catalog with one error (and its 20 pending values)."""
    replace_in(catalog_dir, GSM8K, "num_repeats: 1", "num_repeats: true")
    return catalog_dir


def test_every_line_is_file_line_col_severity_code_message(broken: Path) -> None:
    # It was `…:7:8: pending-value warning: …` and `…:21:20: schema-wrong-type accuracy…`:
    # the code before the severity, and no severity at all for an error.
    lines = run_cli("validate", str(broken), code=1).stdout.splitlines()
    assert FIRST_PENDING in lines
    assert WRONG_TYPE in lines


def test_a_symlink_has_a_position(catalog_dir: Path, tmp_path: Path) -> None:
    # It was `benchmark_suite/datasets/gsm8k.yaml: file-symlink …`: no line, no column.
    target = tmp_path / "outside.yaml"
    target.write_text("id: gsm8k\n")
    link = catalog_dir / "benchmark_suite/datasets/gsm8k.yaml"
    link.unlink()
    link.symlink_to(target)
    lines = run_cli("validate", str(catalog_dir), "--errors-only", code=1).stdout.splitlines()
    assert (
        "benchmark_suite/datasets/gsm8k.yaml:1:1: error file-symlink: symlinks are not allowed in the catalog; "
        "not followed (replace the link by the file itself)"
    ) in lines


@pytest.mark.parametrize("option", ["--errors-only", "--quiet", "-q"])
def test_errors_only_prints_the_errors_and_the_summary(broken: Path, option: str) -> None:
    done = run_cli("validate", str(broken), option, code=1)
    assert done.stdout.splitlines() == [
        WRONG_TYPE,
        "working tree: invalid (1 error, 20 warnings, 20 pending values)",
    ]


def test_errors_only_on_a_valid_catalog_prints_only_the_summary(catalog_dir: Path) -> None:
    done = run_cli("validate", str(catalog_dir), "-q")
    assert done.stdout == "working tree: valid (0 errors, 20 warnings, 20 pending values)\n"


def test_ignore_drops_codes_and_they_no_longer_fail(broken: Path) -> None:
    done = run_cli("validate", str(broken), "--ignore", "pending-value,schema-wrong-type")
    assert done.stdout == "working tree: valid (0 errors, 0 warnings, 0 pending values; 21 not selected)\n"


def test_select_keeps_only_the_codes_named_repeatable_and_comma_separated(broken: Path) -> None:
    done = run_cli(
        "validate", str(broken), "--select", "schema-wrong-type", "--select", "ref-unknown-model,yaml-syntax", code=1
    )
    assert done.stdout.splitlines() == [
        WRONG_TYPE,
        "working tree: invalid (1 error, 0 warnings, 0 pending values; 20 not selected)",
    ]


def test_ignore_wins_over_select(broken: Path) -> None:
    args = ("--select", "schema-wrong-type,pending-value", "--ignore", "pending-value")
    done = run_cli("validate", str(broken), *args, code=1)
    assert done.stdout.splitlines()[-1] == (
        "working tree: invalid (1 error, 0 warnings, 0 pending values; 20 not selected)"
    )


def test_an_unknown_code_is_a_usage_error_with_a_suggestion(catalog_dir: Path) -> None:
    done = run_cli("validate", str(catalog_dir), "--ignore", "pending-values", code=2)
    assert done.stdout == ""
    assert done.stderr == ("error: --ignore: unknown code `pending-values`\nhint: did you mean `pending-value`?\n")


def test_an_empty_code_is_a_usage_error(catalog_dir: Path) -> None:
    done = run_cli("validate", str(catalog_dir), "--select", "pending-value,", code=2)
    assert done.stderr.splitlines()[0] == "error: --select: an empty code in `pending-value,`"


def test_github_annotations_are_capped_as_ci_caps_them(catalog_dir: Path) -> None:
    lines = run_cli("validate", str(catalog_dir), "--format", "github").stdout.splitlines()
    assert len([line for line in lines if line.startswith("::warning ")]) == 10
    assert lines[-2:] == [
        "0 more errors and 10 more warnings are not annotated (GitHub shows 10 of each per step): "
        "run `catalogctl validate` for the full report",
        "working tree: valid (0 errors, 20 warnings, 20 pending values)",
    ]


def test_github_errors_only_annotates_no_warning(broken: Path) -> None:
    lines = run_cli("validate", str(broken), "--format", "github", "--errors-only", code=1).stdout.splitlines()
    assert [line.split("::")[1] for line in lines[:-1]] == [
        "error file=benchmark_suite/benchmarks/gsm8k.yaml,line=21,col=20,title=schema-wrong-type"
    ]


def test_json_keeps_every_selected_diagnostic_even_with_errors_only(broken: Path) -> None:
    import json

    report = json.loads(
        run_cli("validate", str(broken), "-f", "json", "-q", "--ignore", "pending-value", code=1).stdout
    )
    assert report["summary"] == {"errors": 1, "warnings": 0, "pending": 0, "not_selected": 20}
    assert [d["code"] for d in report["diagnostics"]] == ["schema-wrong-type"]


def test_a_code_with_no_near_miss_points_at_the_list(catalog_dir: Path) -> None:
    done = run_cli("validate", str(catalog_dir), "--select", "zzz", code=2)
    assert done.stderr == (
        "error: --select: unknown code `zzz`\nhint: every code is listed in the documentation: reference/diagnostics\n"
    )
