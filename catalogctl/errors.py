"""Everything the library reports on purpose: located diagnostics, and the exceptions it raises,
each with its exit code. The CLI's one error boundary (`cli.boundary`) reads `exit_code`; nothing
else maps errors to codes.

Exit codes (every verb):

| code | meaning |
| --- | --- |
| 0 | success (warnings allowed) |
| 1 | the verb ran and found problems: an invalid catalog, a failed gate, a diff over `--fail-on`, a refusing remote |
| 2 | usage or environment: no repository, unknown ref/id/cohort, a missing file, no network, `check` inputs unusable |
| 3 | `preflight`: HEAD is not the cohort's release commit (`checkout-mismatch`) |
| 4 | `preflight`: uncommitted changes in `benchmark_suite/` or `rulesets/` (`catalog-dirty`) |
| 5 | the release tag is missing, lightweight, moved, without the digest, or on a tree or blob (`tag-invalid`) |
| 6 | a git remote timed out; `preflight`: its tag is elsewhere or missing, or it is unreachable (`remote-mismatch`) |
| 7 | `resolve`, `preflight`: the submission does not fit the cohort (`submission-mismatch`) |
| 8 | `resolve`, `preflight`: the contract changed since the freeze (`contract-mismatch`) |
| 9 | `resolve`, `preflight`: the release commit is not on the default branch (`release-unreachable`) |
| 10 | `preflight`, `resolve`, `export mlperf`: a required signature is missing, bad, untrusted (`signature-invalid`) |
| 11 | `verify`, `preflight`: a derived seed set does not follow from the beacon round it records (`seeds-underived`) |
| 12 | `verify`, `preflight`: a seed set imported from LoadGen lacks its mlperf.conf seeds (`seeds-not-shipped`) |
| 70 | internal error: a bug in catalogctl (one line; rerun with `--traceback` and report it) |
| 130 | interrupted (Ctrl-C) |
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any, ClassVar

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70  # sysexits' EX_SOFTWARE
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it


class Severity(StrEnum):
    """How bad a finding is: an error fails the verb, a warning does not."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One finding, located in a file (1-based line and column; 0 when not in a file)."""

    path: str
    line: int
    column: int
    severity: Severity
    code: str
    message: str
    hint: str = ""

    def to_json(self) -> dict[str, Any]:
        """The documented JSON shape of one diagnostic."""
        data = asdict(self)
        data["severity"] = self.severity.value
        data["file"] = data.pop("path")
        return {k: data[k] for k in ("severity", "code", "message", "file", "line", "column", "hint")}


def file_line_col(path: str, line: int = 0, column: int = 0) -> str:
    """`file:line:col`, just `file` for a finding about a whole file, "" when not in a file.

    Here, in the lowest layer, so that the diff's Markdown (below `render/`) and every reporter
    write a position the same way."""
    if not path:
        return ""
    return f"{path}:{line}:{column}" if line else path


def error(code: str, message: str, path: str = "", line: int = 0, column: int = 0, hint: str = "") -> Diagnostic:
    """An error diagnostic."""
    return Diagnostic(path, line, column, Severity.ERROR, code, message, hint)


def warning(code: str, message: str, path: str = "", line: int = 0, column: int = 0, hint: str = "") -> Diagnostic:
    """A warning diagnostic."""
    return Diagnostic(path, line, column, Severity.WARNING, code, message, hint)


class CatalogError(Exception):
    """Base of every error the library raises on purpose. Exit code 1 unless a subclass says."""

    exit_code: ClassVar[int] = EXIT_PROBLEMS
    hint: str = ""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint


class EnvironmentProblem(CatalogError):
    """The environment is not usable: no repository, no catalog folder, no network. Exit code 2."""

    exit_code = EXIT_USAGE


class RefNotFound(EnvironmentProblem):
    """A ref (tag, branch, commit, cohort) that does not resolve. Exit code 2."""


class DirtyTree(EnvironmentProblem):
    """Uncommitted changes where a freeze needs a clean tree. Exit code 2."""


class ConcurrentUpdate(EnvironmentProblem):
    """Someone else changed HEAD or a tag between our read and our write. Exit code 2."""


class HistoryIncomplete(EnvironmentProblem):
    """History a verb must see is not in the clone (shallow, or a branch, base or tags not
    fetched): no verdict is given on it. Exit code 2."""


class UsageError(CatalogError):
    """Arguments that cannot be acted on (a cohort not later than the last one, an id to add that
    is already there, a file that does not exist). Exit code 2."""

    exit_code = EXIT_USAGE


class InputsUnusable(UsageError):
    """`check` cannot grade these inputs: unreadable, invalid, edited after `resolve`, not the
    release's, or a run of another contract. No verdict is given. Exit code 2."""

    def __init__(self, message: str, hint: str = "", diagnostics: Sequence[Diagnostic] = ()) -> None:
        super().__init__(message, hint)
        self.diagnostics = list(diagnostics)


class ConfigInvalid(UsageError):
    """The repository's configuration (catalogctl.toml, `[tool.catalogctl]`) cannot be used;
    `diagnostics` lists why, key by key. Exit code 2."""

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic]) -> None:
        super().__init__(message, "fix the configuration (documentation: reference/configuration)")
        self.diagnostics = list(diagnostics)


class EntityNotFound(UsageError):
    """An id that is not in the catalog. Exit code 2 (a usage error)."""


class CatalogInvalid(CatalogError):
    """The catalog (or a document the user named) has errors; `diagnostics` lists them. Exit code 1."""

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic]) -> None:
        super().__init__(message)
        self.diagnostics = list(diagnostics)


class RulesetAddedTwice(CatalogError):
    """Two commits of one history each added a cohort's ruleset: which is the release is not
    known, so neither is taken for it. Exit code 1."""


class RemoteProblem(CatalogError):
    """A remote that refuses an update or disagrees with us. Exit code 1."""


class RemoteUnreachable(EnvironmentProblem):
    """A remote (git or an HTTP API) that cannot be reached at all. Exit code 2."""


class GitHubProblem(CatalogError):
    """The GitHub API answered, but could not confirm what was asked (a tag, a comment). Exit code 1."""


class BeaconRoundRefused(CatalogError):
    """`freeze` refuses the beacon round it was given: of another round or chain, a signature that
    does not verify, or a round that was not in the future when its release named it. Nothing is
    written. Exit code 1."""


class DownloadProblem(CatalogError):
    """A dataset source that could not be downloaded in full. Exit code 1."""


# Exit codes of the checks of `resolve` and `preflight`: a runner can tell why it must not run.
CHECK_EXIT_CODES: dict[str, int] = {
    "checkout-mismatch": 3,  # HEAD is not the cohort's release commit
    "catalog-dirty": 4,  # modified, staged or untracked files under benchmark_suite/ or rulesets/
    "tag-invalid": 5,  # the release tag is missing, lightweight, names no commit, or lacks the ruleset's digest
    "remote-mismatch": 6,  # the remote's tag points elsewhere, is missing, or the remote is unreachable
    "submission-mismatch": 7,  # benchmark not in the cohort, seed set not valid for it, api_type differs
    "contract-mismatch": 8,  # the contract at the tag no longer has the digest the ruleset froze
    "release-unreachable": 9,  # the release commit is not on the default branch (the remote's, in preflight)
    "signature-invalid": 10,  # the tag's signature is missing, bad, unknown, revoked or expired, when required
    "seeds-underived": 11,  # a derived seed set does not follow from (or has no valid) recorded beacon round
    "seeds-not-shipped": 12,  # a set imported from a LoadGen release does not hold what its mlperf.conf sets
}


class RemoteTimeout(RemoteUnreachable):
    """A git remote that gave no complete answer within the network deadline (`CATALOGCTL_TIMEOUT`):
    a server that accepts and never answers, or trickles. Exit code 6 in every verb, as the remote
    check of `preflight`; still a `RemoteUnreachable`, so what a failed push says applies to it."""

    exit_code = CHECK_EXIT_CODES["remote-mismatch"]


class CheckFailed(CatalogError):
    """A check of `resolve` or `preflight` failed: `code` says which (see CHECK_EXIT_CODES)."""

    def __init__(self, code: str, message: str, hint: str = "") -> None:
        super().__init__(message, hint)
        self.code = code
        self.exit_code = CHECK_EXIT_CODES[code]  # type: ignore[misc]  # per instance: one per check


class TagNamesNoCommit(CheckFailed):
    """A tag that names a tree or a blob, or an object git cannot read: it names no commit, so it
    is no release (`tag-invalid`, exit code 5) and no ref a verb may read. The git wrapper states
    what it names; the words of what to do are here, with the code."""

    def __init__(self, name: str, names: str, *, unreadable: bool = False) -> None:
        what = "an annotated tag of" if unreadable else "names"
        which = "" if unreadable else " which commit is the release"
        hint = f"a release tag {what} the commit that added its ruleset: ask the maintainers{which}"
        super().__init__("tag-invalid", f"tag `{name}` {names}", hint)
