"""The gate's GitHub output: escaping, GitHub's caps, the step summary and the comment body."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalogctl.model.reports.review import Finding, ReviewResult, ReviewSide, ReviewSummary
from catalogctl.render.review import COMMENT_MARKER, STEP_SUMMARY_CAP, comment_body, fit, publish_github, review_github
from tests.helpers import git, run_cli


def finding(n: int, severity: str = "error", **kwargs: object) -> Finding:
    fields: dict[str, object] = {
        "severity": severity,
        "code": "ref-unknown-metric",
        "message": f"problem {n}",
        "file": "benchmark_suite/benchmarks/b.yaml",
        "line": n,
        "column": 1,
        "fingerprint": f"{n:016x}",
    }
    fields.update(kwargs)
    return Finding.model_validate(fields)


def result(findings: list[Finding]) -> ReviewResult:
    errors = sum(f.failing for f in findings)
    return ReviewResult(
        base=ReviewSide(ref="main", label="main (0123456789ab)"),
        head=ReviewSide(ref="working tree", label="working tree"),
        passed=errors == 0,
        summary=ReviewSummary.of(findings),
        findings=findings,
        stale_acceptances=[],
        notes=[],
    )


def test_annotations_stay_within_githubs_caps() -> None:
    findings = [finding(n) for n in range(1, 26)] + [finding(n, "warning") for n in range(30, 33)]
    lines = review_github(result(findings)).splitlines()
    assert [line.split(" ", 1)[0] for line in lines[:13]] == ["::error"] * 10 + ["::warning"] * 3
    assert lines[0].startswith("::error file=benchmark_suite/benchmarks/b.yaml,line=1,col=1,")
    assert lines[13:] == [
        "15 more errors and 0 more warnings are not annotated (GitHub shows 10 of each per step): see the job summary",
        "gate failed: main (0123456789ab) -> working tree (25 errors, 3 warnings, 0 accepted)",
    ]


def test_workflow_command_escaping() -> None:
    tricky = finding(
        1, file="benchmark_suite/a:b,c.yaml", message="100% wrong\nsecond line\r", code="x:y", hint="a, b: c"
    )
    [line, _] = review_github(result([tricky])).splitlines()
    assert line == (
        "::error file=benchmark_suite/a%3Ab%2Cc.yaml,line=1,col=1,title=catalogctl x%3Ay::"
        "100%25 wrong%0Asecond line%0D (a, b: c) [fingerprint 0000000000000001]"
    )


def test_a_finding_in_a_removed_file_is_annotated_without_a_location() -> None:
    gone = finding(1, where="base")
    assert review_github(result([gone])).splitlines()[0].startswith("::error title=catalogctl ref-unknown-metric::")


def test_step_summary_and_comment_body(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    comment = tmp_path / "out" / "comment.md"
    done = publish_github(result([finding(1, message="a | b <TBD>")]), str(summary), comment)
    assert len(done) == 2
    text = summary.read_text()
    assert text.startswith("earlier step\n### ❌ Catalog gate failed\n")
    assert (
        "| ❌ | `ref-unknown-metric` | a \\| b &lt;TBD> | `benchmark_suite/benchmarks/b.yaml:1:1` "
        "| `0000000000000001` |" in text
    )
    body = comment.read_text()
    assert body.startswith(COMMENT_MARKER + "\n### ❌ Catalog gate failed\n")


def test_the_summary_respects_the_cap_left_by_earlier_steps(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_bytes(b"x" * (STEP_SUMMARY_CAP - 2000))
    many = [finding(n, message="m" * 200) for n in range(1, 200)]
    publish_github(result(many), str(summary), None)
    assert summary.stat().st_size <= STEP_SUMMARY_CAP
    assert summary.read_text().endswith("run `catalogctl ci` locally for the full report.\n")


def test_fit_cuts_at_a_line_and_comment_bodies_fit_githubs_limit() -> None:
    assert fit("a\nb\n", 100) == "a\nb\n"
    body = comment_body(result([finding(n, message="m" * 500) for n in range(1, 400)]))
    assert len(body) <= 65536
    assert body.startswith(COMMENT_MARKER)


def test_github_format_writes_the_summary_from_the_environment(
    catalog_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    comment = tmp_path / "comment.md"
    run_cli("ci", "--base", "v1", "-C", str(catalog_repo), "-f", "github", "--comment-file", str(comment))
    assert summary.read_text().startswith("### ✅ Catalog gate passed\n")
    assert comment.read_text().startswith(COMMENT_MARKER)


def cells(row: str) -> list[str]:
    """The cells of a Markdown table row: split at every `|` not escaped by a backslash."""
    import re

    assert row.startswith("| ")
    assert row.endswith(" |")
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", row[1:-1])]


def test_a_hostile_file_name_in_a_pull_request_stays_in_its_cell(catalog_repo: Path, tmp_path: Path) -> None:
    from tests.helpers import commit_all, git

    name = "evil\n| x | y |\n`<b>[a](x)*_~&amp;.yaml"  # a newline, pipes, a backtick, HTML, a link, an entity
    datasets = catalog_repo / "benchmark_suite/datasets"
    (datasets / name).write_text((datasets / "aime25.yaml").read_text())
    git(catalog_repo, "checkout", "-q", "-b", "pr")
    commit_all(catalog_repo, "A dataset with a hostile name")
    comment = tmp_path / "comment.md"
    run_cli("ci", "--base", "v1", "--head", "pr", "-C", str(catalog_repo), "--comment-file", str(comment), code=1)
    lines = comment.read_text().splitlines()
    table = [line for line in lines if line.startswith("|")]
    assert len(table) == 3  # the header, its rule and one finding: the name opened no row
    assert [len(cells(row)) for row in table] == [5, 5, 5]
    shown = "evil\\n\\| x \\| y \\|\\n`<b>[a](x)*_~&amp;.yaml"
    assert cells(table[2]) == [
        "❌",
        "`file-name-mismatch`",
        "file is named \\`evil\\\\n\\| x \\| y \\|\\\\n\\`&lt;b>\\[a\\](x)\\*\\_\\~\\&amp;.yaml\\` "
        "but its id is \\`aime25\\` "
        "(rename the file to \\`aime25.yaml\\`)",
        f"``benchmark_suite/datasets/{shown}:2:5``",  # was the backtick turned into ' and the newline into a space
        "`84baf26ed30f2c58`",
    ]


def test_each_finding_is_counted_in_one_bucket() -> None:
    # It was "(1 error, 2 warnings, 2 accepted; 1 acceptance expired)": an accepted warning was counted as a
    # warning and as accepted.
    findings = [
        finding(1, "warning", status="accepted"),
        finding(2, "error", status="accepted"),
        finding(3, "error", status="expired"),
        finding(4, "warning"),
    ]
    assert review_github(result(findings)).splitlines()[-1] == (
        "gate failed: main (0123456789ab) -> working tree (1 error, 1 warning, 2 accepted; 1 acceptance expired)"
    )
    assert ReviewSummary.of(findings).model_dump() == {"errors": 1, "warnings": 1, "accepted": 2, "expired": 1}


ACCEPT_LINE = "To accept a finding on purpose, add its fingerprint to `.catalogctl/accepted.yaml`"


def test_the_report_offers_acceptance_only_when_a_failing_finding_can_be_accepted(
    catalog_repo: Path, tmp_path: Path
) -> None:
    from tests.helpers import replace_in
    from tests.review_repo import RULESET, gate, make_frozen, skip_a_cohort

    repo = make_frozen(catalog_repo, tmp_path)
    replace_in(repo, RULESET, "model_seed: 42", "model_seed: 43")  # ruleset-modified: never accepted
    markdown = gate(repo, "-f", "markdown", code=1).stdout
    assert ACCEPT_LINE not in markdown
    assert markdown.endswith(
        "\n\nNo finding that fails this gate can be accepted in `.catalogctl/accepted.yaml`: fix each one.\n"
    )
    git(repo, "checkout", "-q", "--", RULESET)
    skip_a_cohort(repo)  # ruleset-cohort-gap: an error a maintainer may accept
    assert ACCEPT_LINE in gate(repo, "-f", "markdown", code=1).stdout
