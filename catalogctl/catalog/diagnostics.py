"""Working with diagnostics (defined in `errors`): filters, ordering, "did you mean" hints."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from catalogctl.errors import Diagnostic, Severity, UsageError


def errors_only(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics that are errors, in their order (warnings dropped)."""
    return [d for d in diagnostics if d.severity is Severity.ERROR]


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    """Whether any diagnostic is an error."""
    return any(d.severity is Severity.ERROR for d in diagnostics)


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """A "did you mean" hint for a near miss, or an empty string."""
    import difflib

    pool = sorted(set(candidates))
    folded = {c.casefold(): c for c in pool}
    if word.casefold() in folded:
        return f"did you mean `{folded[word.casefold()]}`?"
    close = difflib.get_close_matches(word, pool, n=3, cutoff=0.6)
    if not close:
        return ""
    return "did you mean " + " or ".join(f"`{c}`" for c in close) + "?"


def parse_codes(option: str, values: Sequence[str]) -> frozenset[str]:
    """The codes of a repeatable, comma-separated option (`--select a,b --select c`); an
    unknown or empty code is a usage error naming it."""
    codes: set[str] = set()
    for value in values:
        for code in (part.strip() for part in value.split(",")):
            if not code:
                raise UsageError(f"{option}: an empty code in `{value}`", "separate codes with one comma: a,b")
            if code not in CODES:
                hint = did_you_mean(code, CODES) or "every code is listed in the documentation: reference/diagnostics"
                raise UsageError(f"{option}: unknown code `{code}`", hint)
            codes.add(code)
    return frozenset(codes)


def select_codes(
    diagnostics: Iterable[Diagnostic], select: frozenset[str], ignore: frozenset[str]
) -> tuple[list[Diagnostic], int]:
    """The diagnostics whose code is selected (all when `select` is empty) and not ignored (as
    ruff: an ignore wins over a select), and how many were left out."""
    kept: list[Diagnostic] = []
    dropped = 0
    for d in diagnostics:
        if (select and d.code not in select) or d.code in ignore:
            dropped += 1
        else:
            kept.append(d)
    return kept, dropped


# Every code the tool emits, with what it means. Codes are stable: tools and accepted-findings
# lists key on them, so a code is never renamed or reused.
CODES: dict[str, str] = {
    "yaml-syntax": "the file is not well-formed YAML",
    "yaml-encoding": "the file is not UTF-8",
    "yaml-too-large": "the file is over the size cap",
    "yaml-too-deep": "collections nested deeper than the cap",
    "yaml-integer-too-long": "an integer literal longer than the cap",
    "yaml-duplicate-key": "a key appears twice in one mapping",
    "yaml-anchor": "an anchor (&name): not allowed",
    "yaml-alias": "an alias (*name): not allowed",
    "yaml-tag": "an explicit tag (!!str, !x): not allowed",
    "yaml-directive": "a %YAML or %TAG directive: not allowed",
    "yaml-multiple-documents": "more than one document in a file",
    "yaml-non-string-key": "a key that is not a plain string",
    "yaml-ambiguous-scalar": "a plain word that YAML 1.1 reads as a boolean",
    "yaml-reserved-scalar": "a plain `<<` or `=` (YAML 1.1's merge and value keys): quote it",
    "yaml-invalid-scalar": "a scalar YAML cannot type (e.g. an impossible date)",
    "yaml-empty": "a file with no content",
    "schema-unknown-key": "a key the schema does not define",
    "schema-missing-key": "a required key is absent",
    "schema-wrong-type": "a value of the wrong type",
    "schema-invalid-value": "a value outside what the schema allows",
    "schema-quote-needed": "YAML typed a value that must be a string as something else",
    "schema-pending-not-allowed": "a pending value (<TBD>) where one is not allowed",
    "file-name-mismatch": "the file name is not `<id>.yaml`",
    "file-symlink": "a symlink in the catalog (never followed)",
    "file-unexpected": "a file or folder the catalog does not read",
    "file-missing": "a file the catalog requires is absent",
    "file-unreadable": "a catalog file the operating system refused to read",
    "file-name-encoding": "a file or folder name that is not UTF-8 (shown with its bytes escaped: `gsm\\xff8k.yaml`)",
    "id-collision": "two ids equal when case-folded",
    "alias-ambiguous": "a dataset alias that is another dataset's id or alias",
    "ref-unknown-model": "a benchmark names a model that does not exist",
    "ref-unknown-dataset": "a benchmark names a dataset that does not exist",
    "ref-unknown-recipe": "an evaluation recipe the dataset does not define",
    "ref-unknown-metric": "a metric key not in metrics.yaml",
    "ref-unknown-gate": "a gate name not in the gate registry",
    "ref-unknown-split": "a dataset split the dataset does not define",
    "override-key-not-in-base": "an override sets a key its base block does not state",
    "figure-mismatch": "a figure stated twice disagrees with itself",
    "formula-invalid": "a formula the safe evaluator cannot read",
    "contract-inconsistent": "parts of a contract contradict each other",
    "pending-value": "a value still pending (<TBD>): blocks freezing the benchmarks that use it",
    "ruleset-name-mismatch": "a ruleset file not named after its cohort",
    "ruleset-seeds-underived": "a new seed set that does not follow from the beacon round the previous release named",
    "config-syntax": "catalogctl.toml or pyproject.toml is not valid TOML (or not readable)",
    "config-unknown-key": "a configuration key catalogctl does not know",
    "config-invalid-value": "a configuration value of the wrong type or out of range",
}
