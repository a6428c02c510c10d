"""The shared reporters: positions, workflow commands, diagnostics as text and GitHub commands."""

from __future__ import annotations

from catalogctl.errors import error, file_line_col, warning
from catalogctl.model.reports.validation import ValidationReport
from catalogctl.render.common import github_command, location
from catalogctl.render.validation import validation_github


def test_positions() -> None:
    assert file_line_col("a.yaml", 3, 4) == location("a.yaml", 3, 4) == "a.yaml:3:4"
    assert file_line_col("a.yaml") == location("a.yaml") == "a.yaml"  # about the whole file
    assert file_line_col("") == ""
    assert location("") == "catalog"


def test_github_command_escaping() -> None:
    assert github_command("error", "yaml:syntax", "50% bad\nsecond line", "dir,a:b/x.yaml", 3, 4) == (
        "::error file=dir%2Ca%3Ab/x.yaml,line=3,col=4,title=yaml%3Asyntax::50%25 bad%0Asecond line"
    )
    assert github_command("notice", "display change", "dataset x: removed") == (
        "::notice title=display change::dataset x: removed"
    )


def test_diagnostics_as_workflow_commands() -> None:
    found = [
        error("yaml-syntax", "50% bad\nsecond line", "dir,a:b/x.yaml", 3, 4, "fix: it"),
        warning("file-missing", "`rulesets/` is missing", "rulesets"),
    ]
    assert validation_github(ValidationReport.of("working tree", found)).splitlines() == [
        "::error file=dir%2Ca%3Ab/x.yaml,line=3,col=4,title=yaml-syntax::50%25 bad%0Asecond line (fix: it)",
        "::warning file=rulesets,title=file-missing::`rulesets/` is missing",
        "working tree: invalid (1 error, 1 warning, 0 pending values)",
    ]
