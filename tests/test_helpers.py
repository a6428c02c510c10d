"""The helper every CLI test goes through: a wrong exit code shows the whole run."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalogctl import api
from tests.helpers import replace_in, run_cli, run_console


def test_an_unexpected_exit_code_shows_the_command_both_streams_and_the_error(catalog_dir: Path) -> None:
    replace_in(catalog_dir, "benchmark_suite/models/gpt-oss-120b.yaml", "sha: b5c9", "sha: x5c9")
    with pytest.raises(AssertionError) as failed:
        run_cli("validate", catalog_dir, "-f", "github", code=0)
    report = str(failed.value).splitlines()
    assert report[0] == f"`catalogctl validate {catalog_dir} -f github` exited 1, expected 0"
    assert report[1] == "--- stdout ---"
    assert "::error file=benchmark_suite/models/gpt-oss-120b.yaml,line=5,col=6,title=schema-invalid-value::sha: " in (
        "\n".join(report)
    )
    # A verdict is no crash: nothing raised, so no traceback follows the (empty) stderr.
    assert report[-2:] == ["working tree: invalid (1 error, 20 warnings, 20 pending values)", "--- stderr ---"]


def test_a_handled_error_shows_its_message_and_where_it_was_raised(tmp_path: Path) -> None:
    with pytest.raises(AssertionError) as failed:
        run_cli("validate", tmp_path)
    report = str(failed.value)
    assert report.startswith(
        f"`catalogctl validate {tmp_path}` exited 2, expected 0\n--- stdout ---\n\n--- stderr ---\n"
    )
    assert f"error: no catalog at or above {tmp_path.resolve()}" in report
    assert "--- traceback ---\nTraceback (most recent call last):\n" in report
    assert report.splitlines()[-1].endswith(f": no catalog at or above {tmp_path}: `benchmark_suite/` not found")


def test_a_crash_shows_its_traceback(catalog_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom in the loader")

    monkeypatch.setattr(api, "validate_catalog", broken)
    # Whatever exit code a crash maps to, a test that expects a finding (1) must not pass.
    with pytest.raises(AssertionError) as failed:
        run_cli("validate", catalog_dir, code=1)
    report = str(failed.value)
    assert report.startswith(f"`catalogctl validate {catalog_dir}` exited ")
    assert "--- traceback ---\nTraceback (most recent call last):\n" in report
    assert 'raise RuntimeError("boom in the loader")' in report
    assert report.rstrip().endswith("RuntimeError: boom in the loader")


def test_the_console_entry_point_reports_a_wrong_exit_code_too() -> None:
    with pytest.raises(AssertionError) as failed:
        run_console("no-such-command")
    report = str(failed.value).splitlines()
    assert report[0] == "`python -m catalogctl no-such-command` exited 2, expected 0"
    assert report[1:3] == ["--- stdout ---", ""]
    assert report[3] == "--- stderr ---"
    assert "No such command 'no-such-command'." in report[-1]
