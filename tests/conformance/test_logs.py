"""Two judges, one verdict, over generated MLLOG logs: each log of a seeded sample
(tests/conformance/log_sample.py) goes through mlperf-logging 4.1.68's compliance checker and
through `catalogctl check` on a config resolved from a frozen cohort; on every rule both judge they
agree, or the disagreement is a documented difference (differences/training.yaml), and every
documented difference still occurs. bench/conformance_logs.py runs the same over a long campaign."""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

import pytest
import yaml

from tests.conformance import log_differences, log_verdicts
from tests.conformance.log_cohort import resolved_at_each_batch, sealed_home
from tests.conformance.log_sample import VARIANTS, sample
from tests.helpers import REPO_ROOT

pytestmark = pytest.mark.conformance

COUNT, SEED = 120, 0  # a bounded sample: about 3 s of CPU
DOCS = REPO_ROOT / "docs" / "explanation" / "official-checkers.md"
_TABLE = re.compile(r"<!-- training-differences: .*? -->\n(.*?)<!-- end of training-differences -->", re.DOTALL)


@pytest.fixture(scope="module")
def resolved(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """The cohort frozen once for the module, a config resolved at each batch size of the sample."""
    folder = tmp_path_factory.mktemp("conformance-logs")
    with sealed_home(folder / "home"):
        return resolved_at_each_batch(folder)


def test_every_generated_log_is_judged_alike_or_differs_as_documented(
    resolved: dict[int, Path], tmp_path: Path
) -> None:
    examples = sample(SEED, COUNT)
    assert {v for e in examples for v in e.variants} == set(VARIANTS) - {"compliant"}
    known = log_differences.load()
    tally = log_differences.campaign(examples, resolved, tmp_path, known)
    undocumented = [(e.number, e.variants, rule, theirs, ours) for e, rule, theirs, ours in tally.undocumented]
    assert undocumented == []
    assert [d.id for d in known if d.id not in tally.occurred] == []  # a difference that no longer occurs
    assert set(tally.judged) == set(log_verdicts.ROW_NAMES)  # every rule judged by both


def test_every_official_rule_of_the_benchmark_is_mapped_to_catalogctls_rows_or_named() -> None:
    rules = files("mlperf_logging") / "compliance_checker" / log_verdicts.CLOSED
    keys = {r["KEY"]["NAME"] for r in yaml.load(rules.read_text(), Loader=yaml.BaseLoader) if "KEY" in r}
    mapped = {r.name for r in log_verdicts.RULES if r.config == log_verdicts.CLOSED}
    assert keys == (mapped - {log_verdicts.TARGET_RULE}) | set(log_verdicts.OFFICIAL_ONLY)
    assert not mapped & set(log_verdicts.OFFICIAL_ONLY)


def test_the_docs_show_the_documented_differences() -> None:
    found = _TABLE.search(DOCS.read_text())
    assert found is not None, f"{DOCS} has no training-differences block"
    assert found.group(1) == log_differences.differences_table(log_differences.load())


def test_a_difference_that_names_no_rule_or_predicate_is_an_error(tmp_path: Path) -> None:
    broken = tmp_path / "training.yaml"
    broken.write_text(log_differences.DIFFERENCES.read_text().replace("when: batch_near_an_integer", "when: nearly"))
    with pytest.raises(ValueError, match=r"batch-near-an-integer: no rule \[\] or no predicate 'nearly'"):
        log_differences.load(broken)
