"""The exit codes: the table `catalogctl/errors.py` states (its docstring, which tests compare
with its constants), and which exception carries which code."""

from __future__ import annotations

import inspect
import re

from catalogctl_docs import markdown as md

FRAGMENT = "fragments/exit-codes.md"
ROW = re.compile(r"^\| (\d+) \| (.+) \|$", re.M)


def rows() -> list[tuple[int, str]]:
    """(code, meaning) as errors.py states them."""
    from catalogctl import errors

    return [(int(code), meaning) for code, meaning in ROW.findall(errors.__doc__ or "")]


def _exceptions() -> list[tuple[str, str, str]]:
    """(class, exit code, what it is) for each exception of errors.py, base classes first."""
    from catalogctl import errors

    out = []
    for name, cls in inspect.getmembers(errors, inspect.isclass):
        if issubclass(cls, errors.CatalogError) and cls.__module__ == errors.__name__:
            code = "3-10, by its `code`" if cls is errors.CheckFailed else str(cls.exit_code)
            doc = " ".join((inspect.getdoc(cls) or "").split())
            out.append((name, code, doc))
    return sorted(out, key=lambda row: (len(inspect.getmro(getattr(errors, row[0]))), row[0]))


def fragment() -> str:
    from catalogctl.errors import CHECK_EXIT_CODES

    out = ["(exit-code-table)=", md.table(["code", "meaning"], [(str(c), m) for c, m in rows()]), ""]
    out += ["(check-codes)=", "The checks of `resolve` and `preflight` and their codes (`CheckFailed.code`):", ""]
    out += [md.table(["check", "exit code"], [(md.code(check), str(code)) for check, code in CHECK_EXIT_CODES.items()])]
    out += ["", "(exit-code-exceptions)=", "The exceptions of `catalogctl.errors`, each with its exit code:", ""]
    out += [
        md.table(
            ["exception", "exit code", "what it is"],
            [(md.code(name), code, md.text(doc)) for name, code, doc in _exceptions()],
        )
    ]
    return "\n".join(out)


def pages() -> dict[str, str]:
    return {FRAGMENT: fragment()}
