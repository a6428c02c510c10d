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


# Exit codes of the checks of `resolve` and `preflight`: a runner can tell why it must not run.
CHECK_EXIT_CODES: dict[str, int] = {
    "checkout-mismatch": 3,  # HEAD is not the cohort's release commit
    "catalog-dirty": 4,  # modified, staged or untracked files under benchmark_suite/ or rulesets/
    "tag-invalid": 5,  # the release tag is missing, lightweight, or does not carry the ruleset's digest
    "remote-mismatch": 6,  # the remote's tag points elsewhere, is missing, or the remote is unreachable
    "submission-mismatch": 7,  # benchmark not in the cohort, seed set not valid for it, api_type differs
    "contract-mismatch": 8,  # the contract at the tag no longer has the digest the ruleset froze
}


class CheckFailed(CatalogError):
    """A check of `resolve` or `preflight` failed: `code` says which (see CHECK_EXIT_CODES)."""

    def __init__(self, code: str, message: str, hint: str = "") -> None:
        super().__init__(message, hint)
        self.code = code
        self.exit_code = CHECK_EXIT_CODES[code]
