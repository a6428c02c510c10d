"""`catalogctl check` as a table and as Markdown: a line per gate with its verdict, a row per check
with the check's own status, and the same statuses and verdicts as the JSON."""

from __future__ import annotations

import itertools
import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any, get_args

import pytest

from catalogctl.model.reports.check import Check, CheckReport, GateResult, Status, Verdict
from catalogctl.render.check import check_markdown, check_text, status_word
from tests.helpers import run_cli
from tests.run_results import pin_all, resolved_config, run_folder, set_deepseek_sample_count

# The JSON's words as people read them; written out here so that a change to either side shows.
WORDS = {
    "pass": "pass",
    "fail": "FAIL",
    "unknown": "UNKNOWN",
    "not-evaluable": "NOT EVALUABLE",
    "not-applicable": "NOT APPLICABLE",
}


def test_status_words_are_the_json_words() -> None:
    assert {word: status_word(word) for word in {*get_args(Status), *get_args(Verdict)}} == WORDS


def _report() -> CheckReport:
    return CheckReport(
        benchmark="deepseek-r1",
        source="results run.json",
        gates=[
            GateResult(
                name="accuracy_gate",
                severity="hard",
                description="thresholds",
                checks=[
                    Check(
                        what="exact_match",
                        expected=Decimal("80.544618"),
                        observed=75.0,
                        status="fail",
                        bound=">=",
                        reference=81.3582,
                        factor=0.99,
                    ),
                    Check(what="TOKENS_PER_SAMPLE", expected=3497.6, observed=3825.63, status="pass", bound=">="),
                ],
            ),
            GateResult(
                name="model_integrity",
                severity="soft",
                description="checkpoint",
                checks=[Check(what="model sha", expected="<TBD>", status="unknown")],
            ),
            GateResult(
                name="seeds",
                severity="hard",
                description="seeds",
                checks=[
                    Check(what="model_seed", expected=42, observed=42, status="pass"),
                    Check(what="scheduler_rng_seed", expected=7, status="unknown", note="a|b"),
                ],
            ),
            GateResult(name="requirements", severity="hard", description="requirements"),
        ],
    )


def test_text_says_each_gates_verdict_once_and_each_checks_own_status() -> None:
    assert check_text(_report()).splitlines() == [
        "source: results run.json",
        "inputs: checked against the resolved config's own digests; --catalog CLONE proves them against the release",
        "GATE / CHECK            STATUS         EXPECTED                       OBSERVED",
        "accuracy_gate (hard)    FAIL",
        "  exact_match           FAIL           >= 80.544618 (81.3582 x 0.99)  75",
        "  TOKENS_PER_SAMPLE     pass           >= 3497.6                      3825.63",
        "model_integrity (soft)  NOT EVALUABLE",
        "  model sha             UNKNOWN        <TBD>                          not reported",
        "seeds (hard)            NOT EVALUABLE",
        "  model_seed            pass           42                             42",
        "  scheduler_rng_seed    UNKNOWN        7                              a|b",
        "requirements (hard)     pass",
        "  nothing to check",
        "deepseek-r1: INVALID (hard gates not passed: accuracy_gate, seeds); warnings: model_integrity",
    ]


def test_markdown_says_each_gates_verdict_once_and_each_checks_own_status() -> None:
    assert check_markdown(_report()).splitlines() == [
        "### Checks of `deepseek-r1`",
        "",
        "Source: results run.json",
        "",
        "Inputs: checked against the resolved config's own digests; --catalog CLONE proves them against the release",
        "",
        "| gate / check | status | expected | observed |",
        "| --- | --- | --- | --- |",
        "| **accuracy_gate (hard)** | **FAIL** | | |",
        "| exact_match | FAIL | >= 80.544618 (81.3582 x 0.99) | 75 |",
        "| TOKENS_PER_SAMPLE | pass | >= 3497.6 | 3825.63 |",
        "| **model_integrity (soft)** | **NOT EVALUABLE** | | |",
        "| model sha | UNKNOWN | &lt;TBD> | not reported |",  # a pending value is text, not an HTML tag
        "| **seeds (hard)** | **NOT EVALUABLE** | | |",
        "| model_seed | pass | 42 | 42 |",
        "| scheduler_rng_seed | UNKNOWN | 7 | a\\|b |",
        "| **requirements (hard)** | **pass** | | |",
        "| nothing to check | | | |",
        "",
        "**deepseek-r1: INVALID (hard gates not passed: accuracy_gate, seeds); warnings: model_integrity**",
    ]


def test_a_valid_run_says_so_last() -> None:
    report = CheckReport(
        benchmark="gsm8k",
        source="results r.json",
        gates=[GateResult(name="seeds", severity="hard", description="seeds")],
    )
    assert check_text(report).splitlines()[-1] == "gsm8k: VALID"
    assert check_markdown(report).splitlines()[-1] == "**gsm8k: VALID**"


# -- a real run: the endpoints client's DeepSeek-R1 files -----------------------------------------

Row = tuple[str, ...]


def _text_rows(text: str) -> list[Row]:
    """(gate, verdict) or (gate, check, status, expected, observed) for each table line, cut at
    the header's columns."""
    lines = text.splitlines()
    header = lines[2]  # after the source and the inputs' proof
    cuts = [0, *(header.index(name) for name in ("STATUS", "EXPECTED", "OBSERVED")), None]
    rows: list[Row] = []
    gate = ""
    for line in lines[3:-1]:
        cells = [line[a:b].rstrip() for a, b in itertools.pairwise(cuts)]
        if line.startswith("  "):
            rows.append((gate, cells[0].strip(), *cells[1:]))
        else:
            gate = cells[0]
            rows.append((gate, cells[1]))
            assert cells[2:] == ["", ""], line
    return rows


def _markdown_rows(markdown: str) -> list[Row]:
    rows: list[Row] = []
    gate = ""
    for line in markdown.splitlines()[8:]:
        if not line.startswith("| "):
            break
        cells = [c.replace("&lt;", "<") for c in line[2:-2].split(" | ")]
        bold = re.fullmatch(r"\*\*(.+)\*\* \| \*\*(.+)\*\* \| \| ", line[2:-1])
        if bold:
            gate = bold[1]
            rows.append((gate, bold[2]))
        else:
            rows.append((gate, *cells))
    return rows


def _json_rows(data: dict[str, Any]) -> list[Row]:
    """What the JSON says, in the same shape, without the figures (the renderer formats those)."""
    rows: list[Row] = []
    for gate in data["gates"]:
        label = f"{gate['name']} ({gate['severity']})"
        rows.append((label, WORDS[gate["verdict"]]))
        rows += [(label, c["what"], WORDS[c["status"]]) for c in gate["checks"]]
    return rows


@pytest.fixture
def deepseek_runs(catalog_dir: Path, tmp_path: Path) -> tuple[Path, dict[str, Path]]:
    """A resolved deepseek-r1 config and three run folders of the endpoints client: the published
    interactive run, its offline run without accuracy results, and the interactive run scoring 75."""
    pin_all(set_deepseek_sample_count(catalog_dir))
    resolved = tmp_path / "resolved.json"
    resolved.write_text(json.dumps(resolved_config(catalog_dir, "deepseek-r1").to_data()))
    low = run_folder(tmp_path / "low", "interactive") / "accuracy" / "accuracy_results.json"
    low.write_text(low.read_text().replace('"score": 80.62898814949864', '"score": 75.0'))
    folders = {
        "interactive": run_folder(tmp_path, "interactive"),
        "offline": run_folder(tmp_path, "offline", with_accuracy=False),
        "low": low.parent.parent,
    }
    return resolved, folders


@pytest.mark.parametrize("run", ["interactive", "offline", "low"])
def test_text_markdown_and_json_agree_on_every_status(deepseek_runs: tuple[Path, dict[str, Path]], run: str) -> None:
    resolved, folders = deepseek_runs
    text = run_cli("check", resolved, folders[run], code=1).stdout
    markdown = run_cli("check", resolved, folders[run], "-f", "markdown", code=1).stdout
    data = json.loads(run_cli("check", resolved, folders[run], "-f", "json", code=1).stdout)
    shown = _text_rows(text)
    assert shown == _markdown_rows(markdown)
    assert [row[:3] for row in shown] == _json_rows(data)


def test_a_passing_check_in_a_failing_gate_says_pass(deepseek_runs: tuple[Path, dict[str, Path]]) -> None:
    resolved, folders = deepseek_runs
    lines = run_cli("check", resolved, folders["low"], code=1).stdout.splitlines()
    at = lines.index("accuracy_gate (hard)                                           FAIL")
    assert lines[at:] == [
        "accuracy_gate (hard)                                           FAIL",
        "  exact_match                                                  FAIL           >= 80.544618 (81.3582 x 0.99)"
        "                                     75",
        "  TOKENS_PER_SAMPLE                                            pass           >= 3497.60466 (3886.2274 x 0.9)"
        "                                   3825.63",
        "  TOKENS_PER_SAMPLE                                            pass           <= 4274.85014 (3886.2274 x 1.1)"
        "                                   3825.63",
        "deepseek-r1: INVALID (hard gates not passed: dataset_integrity, seeds, accuracy_gate); "
        "warnings: model_integrity",
    ]
    at = lines.index("seeds (hard)                                                   NOT EVALUABLE")
    assert lines[at + 1 : at + 4] == [
        "  scheduler_rng_seed                                           pass           16159082839903944936"
        "                                              16159082839903944936",
        "  sample_index_rng_seed                                        pass           2747215439041700203"
        "                                               2747215439041700203",
        "  model_seed                                                   UNKNOWN        42"
        "                                                                not reported",
    ]


def test_a_metric_the_run_did_not_report_has_one_status(deepseek_runs: tuple[Path, dict[str, Path]]) -> None:
    # The offline run has no accuracy file: once `[unknown]` for exact_match, `[fail]` for TOKENS_PER_SAMPLE.
    resolved, folders = deepseek_runs
    lines = run_cli("check", resolved, folders["offline"], code=1).stdout.splitlines()
    at = lines.index("accuracy_gate (hard)                                           NOT EVALUABLE")
    assert lines[at:] == [
        "accuracy_gate (hard)                                           NOT EVALUABLE",
        "  exact_match                                                  UNKNOWN        >= 80.544618 (81.3582 x 0.99)"
        "                                     the run reported no accuracy for mlperf_deepseek_r1",
        "  TOKENS_PER_SAMPLE                                            UNKNOWN        >= 3497.60466 (3886.2274 x 0.9)"
        "                                   the run did not report TOKENS_PER_SAMPLE",
        "  TOKENS_PER_SAMPLE                                            UNKNOWN        <= 4274.85014 (3886.2274 x 1.1)"
        "                                   the run did not report TOKENS_PER_SAMPLE",
        "deepseek-r1: INVALID (hard gates not passed: dataset_integrity, seeds, requirements, accuracy_gate); "
        "warnings: model_integrity",
    ]
