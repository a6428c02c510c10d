"""The tool's exceptions. The CLI maps them to exit codes in one place (`cli.main`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .diagnostics import Diagnostic


class CatalogError(Exception):
    """Base of every error the library raises on purpose."""

    hint: str = ""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint


class EnvironmentProblem(CatalogError):
    """The environment is not usable: no repository, no catalog folder. Exit code 2."""


class RefNotFound(EnvironmentProblem):
    """A ref (tag, branch, commit, cohort) that does not resolve. Exit code 2."""


class UsageError(CatalogError):
    """Arguments that cannot be acted on (a cohort not later than the last one, an id to add that
    is already there). Exit code 2."""


class EntityNotFound(UsageError):
    """An id that is not in the catalog. Exit code 2 (a usage error)."""


class CatalogInvalid(CatalogError):
    """The catalog has errors; `diagnostics` lists them. Exit code 1."""

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic]) -> None:
        super().__init__(message)
        self.diagnostics = list(diagnostics)
