"""The safe formula evaluator."""

from __future__ import annotations

from fractions import Fraction

import pytest

from catalogctl.catalog.formula import FormulaError, evaluate, variables

SCHEDULE = "gbs * ceil(2.5 + 3840 / gbs)"


@pytest.mark.parametrize(("gbs", "samples"), [(256, 4608), (512, 5120), (1024, 7168)])
def test_post_training_schedule(gbs: int, samples: int) -> None:
    assert evaluate(SCHEDULE, {"gbs": gbs}) == samples


def test_arithmetic_is_exact() -> None:
    assert evaluate("0.1 + 0.2", {}) == Fraction(3, 10)
    assert evaluate("7 // 2 + 7 % 2 - -1", {}) == 5
    assert evaluate("max(1, min(4, 3)) + floor(2.9)", {}) == 5


def test_variables_are_listed() -> None:
    assert variables(SCHEDULE) == {"gbs"}


@pytest.mark.parametrize(
    ("formula", "message"),
    [
        ("__import__('os').system('x')", "`__import__('os').system('x')` is not allowed in a formula"),
        ("gbs.real", "`gbs.real` is not allowed in a formula"),
        ("2 @ 64", "`2 @ 64` is not allowed in a formula"),
        ("(lambda: 1)()", "`(lambda: 1)()` is not allowed in a formula"),
        ("'a' * 3", "`'a'` is not allowed in a formula"),
        ("ceil(x=1)", "`ceil(x=1)` is not allowed in a formula"),
        ("gbs if gbs else 1", "`gbs if gbs else 1` is not allowed in a formula"),
        ("gbs *", "not a formula: invalid syntax"),
        ("1" * 201, "formula longer than 200 characters"),
    ],
)
def test_rejected_formulas(formula: str, message: str) -> None:
    with pytest.raises(FormulaError) as caught:
        variables(formula)
    assert str(caught.value) == message


def test_powers() -> None:
    assert evaluate("2 ** 10 - 2 ** -1", {}) == Fraction(2047, 2)  # an integer exponent stays exact
    assert evaluate("1e-6 * (gbs / 256) ** 0.5", {"gbs": 1024}) == Fraction("2e-6")
    assert float(evaluate("0.125 * (256 / gbs) ** 0.5", {"gbs": 512})) == 0.125 * (256 / 512) ** 0.5
    assert variables("1e-6 * (gbs / 256) ** 0.5") == {"gbs"}
    with pytest.raises(FormulaError, match=r"exponent 65 is out of range \(at most 64 in magnitude\)"):
        evaluate("2 ** 65", {})
    with pytest.raises(FormulaError, match=r"a negative number \(-4\) has no real power 1/2"):
        evaluate("(0 - 4) ** 0.5", {})
    with pytest.raises(FormulaError, match="intermediate value too large"):
        evaluate("(10 ** 20) ** 20.5", {})


def test_runtime_errors() -> None:
    with pytest.raises(FormulaError, match="division by zero"):
        evaluate("1 / (gbs - gbs)", {"gbs": 3})
    with pytest.raises(FormulaError, match=r"unknown variable `steps` \(known: gbs\)"):
        evaluate("steps * 2", {"gbs": 3})
    with pytest.raises(FormulaError, match="intermediate value too large"):
        evaluate("99999999999 * 99999999999 * 99999999999", {})
    with pytest.raises(FormulaError, match=r"ceil\(\) takes one argument"):
        evaluate("ceil(1, 2)", {})
