"""Working with diagnostics: the errors-only filter and "did you mean" hints."""

from __future__ import annotations

from catalogctl.catalog.diagnostics import did_you_mean, errors_only, has_errors
from catalogctl.errors import error, warning

FIRST = error("ref-unknown-model", "unknown model `x`", "a.yaml", 1, 1)
PENDING = warning("pending-value", "x is pending", "a.yaml", 2, 1)
SECOND = error("figure-mismatch", "4396 is not 4395", "b.yaml", 3, 5)


def test_errors_only_keeps_the_errors_in_order() -> None:
    assert errors_only([FIRST, PENDING, SECOND]) == [FIRST, SECOND]
    assert errors_only([PENDING]) == []


def test_has_errors() -> None:
    assert has_errors([PENDING, SECOND])
    assert not has_errors([PENDING])
    assert not has_errors([])


def test_did_you_mean() -> None:
    assert did_you_mean("gpt-oss-12b", ["gpt-oss-120b", "deepseek-r1"]) == "did you mean `gpt-oss-120b`?"
    assert did_you_mean("MMLU", ["mmlu"]) == "did you mean `mmlu`?"
    assert did_you_mean("zzz", ["gpt-oss-120b"]) == ""
