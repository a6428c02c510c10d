"""A small, safe evaluator for the arithmetic formulas a catalog states (never `eval`).

It accepts numbers, the declared variables, + - * / // % ** and parentheses, unary minus, and the
functions ceil, floor, min and max. Arithmetic is exact (fractions), so `ceil(2.5 + 3840 / 256)`
is 18, not a float that happens to round right; only a power with a fractional exponent (a square
root, as in MLPerf's learning-rate scaling `(gbs / 256) ** 0.5`) is computed in floating point,
since its value is irrational: compare such a value within a tolerance.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Mapping
from fractions import Fraction

MAX_FORMULA_LENGTH = 200
MAX_MAGNITUDE = Fraction(10) ** 30
MAX_EXPONENT = 64  # an integer power's exponent: 10 ** 30 to the 64th is still cheap to compute exactly

_BINARY: dict[type[ast.operator], Callable[[Fraction, Fraction], Fraction]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: lambda a, b: Fraction(a // b),
    ast.Mod: operator.mod,
    ast.Pow: lambda a, b: _power(a, b),
}
_FUNCTIONS: dict[str, Callable[..., Fraction]] = {
    "ceil": lambda x: Fraction(math.ceil(x)),
    "floor": lambda x: Fraction(math.floor(x)),
    "min": min,
    "max": max,
}


class FormulaError(ValueError):
    """A formula the evaluator does not accept, or that cannot be computed."""


def _power(base: Fraction, exponent: Fraction) -> Fraction:
    """`base ** exponent`: exact for an integer exponent, in floating point for a fractional one."""
    if exponent.denominator == 1:
        if abs(exponent) > MAX_EXPONENT:
            raise FormulaError(f"exponent {exponent} is out of range (at most {MAX_EXPONENT} in magnitude)")
        return Fraction(base ** int(exponent))
    if base < 0:
        raise FormulaError(f"a negative number ({base}) has no real power {exponent}")
    try:
        return Fraction(float(base) ** float(exponent))
    except OverflowError:
        raise FormulaError("intermediate value too large") from None


_ALLOWED_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Name, ast.Call, ast.Load)


def variables(formula: str) -> set[str]:
    """The variable names a formula uses (after checking it only uses what is allowed)."""
    tree = _parse(formula)
    for node in ast.walk(tree):  # outermost first, so the message shows the whole offending part
        allowed = isinstance(node, _ALLOWED_NODES)
        if isinstance(node, (ast.operator, ast.unaryop)):
            continue  # judged with the expression that holds it
        if isinstance(node, ast.BinOp):
            allowed = type(node.op) in _BINARY
        elif isinstance(node, ast.UnaryOp):
            allowed = isinstance(node.op, (ast.USub, ast.UAdd))
        elif isinstance(node, ast.Constant):
            allowed = type(node.value) in (int, float)
        elif isinstance(node, ast.Call):
            allowed = isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS and not node.keywords
        if not allowed:
            raise FormulaError(f"`{ast.unparse(node)}` is not allowed in a formula")
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id not in _FUNCTIONS}


def evaluate(formula: str, values: Mapping[str, int | Fraction]) -> Fraction:
    """Evaluate `formula` with `values` bound to its variables."""
    return _eval(_parse(formula).body, values)


def _parse(formula: str) -> ast.Expression:
    if len(formula) > MAX_FORMULA_LENGTH:
        raise FormulaError(f"formula longer than {MAX_FORMULA_LENGTH} characters")
    try:
        return ast.parse(formula.strip(), mode="eval")
    except SyntaxError as exc:
        raise FormulaError(f"not a formula: {exc.msg}") from None


def _eval(node: ast.expr, values: Mapping[str, int | Fraction]) -> Fraction:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        result = Fraction(str(node.value))
    elif isinstance(node, ast.Name):
        if node.id not in values:
            raise FormulaError(f"unknown variable `{node.id}` (known: {', '.join(sorted(values)) or 'none'})")
        result = Fraction(values[node.id])
    elif isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _eval(node.left, values), _eval(node.right, values)
        try:
            result = _BINARY[type(node.op)](left, right)
        except ZeroDivisionError:
            raise FormulaError("division by zero") from None
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = _eval(node.operand, values)
        result = -operand if isinstance(node.op, ast.USub) else operand
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _FUNCTIONS
        and not node.keywords
        and node.args
    ):
        args = [_eval(a, values) for a in node.args]
        if node.func.id in ("ceil", "floor") and len(args) != 1:
            raise FormulaError(f"{node.func.id}() takes one argument")
        result = _FUNCTIONS[node.func.id](*args)
    else:
        raise FormulaError(f"`{ast.unparse(node)}` is not allowed in a formula")
    if abs(result) > MAX_MAGNITUDE:
        raise FormulaError("intermediate value too large")
    return result
