"""The ruleset file a freeze writes: its text, its digest, and the annotated tag's message that
carries the digest."""

from __future__ import annotations

import hashlib

from catalogctl.catalog.contract import canonical_json
from catalogctl.catalog.layout import modeline
from catalogctl.catalog.validation import validate_document
from catalogctl.errors import CatalogInvalid
from catalogctl.io.tree import blob_id
from catalogctl.io.yamlio import YamlProblem, dump_yaml, parse_document
from catalogctl.model import Ruleset

RULESET_HEADER = (
    "# Frozen by `catalogctl freeze`: never edit. A cohort's ruleset changes only by freezing a new cohort.\n"
)
_DIGEST_KEY = "ruleset-digest: "

# Ruleset digests by the git blob id of the file's bytes: a blob never changes, and the list of
# cohorts would otherwise parse each 5,000-entry ruleset twice (at its tag and in HEAD).
_DIGESTS: dict[str, str] = {}
_DIGESTS_KEPT = 256


def parse_ruleset(text: bytes, path: str = "ruleset") -> Ruleset:
    """A ruleset file's model; YAML that does not parse or validate is `CatalogInvalid`."""
    try:
        doc = parse_document(path, text)
    except YamlProblem as exc:
        raise CatalogInvalid(f"{path} is not valid YAML", [exc.diagnostic(path)]) from None
    ruleset, problems = validate_document(doc, Ruleset)
    if ruleset is None:
        raise CatalogInvalid(f"{path} does not validate", problems)
    return ruleset


def ruleset_digest(text: bytes, path: str = "ruleset") -> str:
    """The digest a release tag carries: sha256 of the ruleset's canonical JSON (parsed once per
    blob in a process)."""
    found = _DIGESTS.get(blob_id(text))
    return found if found is not None else remember_ruleset(text, parse_ruleset(text, path))


def remember_ruleset(text: bytes, ruleset: Ruleset) -> str:
    """The digest of `ruleset`, the model of the file `text` (as `parse_ruleset` reads it, e.g.
    by the catalog's loader), kept so that `ruleset_digest` does not parse that blob again."""
    digest = "sha256:" + hashlib.sha256(canonical_json(ruleset.model_dump(mode="json"))).hexdigest()
    if len(_DIGESTS) >= _DIGESTS_KEPT:
        _DIGESTS.clear()  # a long-lived process: a small cache, never a growing one
    _DIGESTS[blob_id(text)] = digest
    return digest


def render_ruleset(ruleset: Ruleset, path: str) -> str:
    """The text of the ruleset file at `path` (its modeline names the schema from there)."""
    return modeline("ruleset", path) + RULESET_HEADER + dump_yaml(ruleset.model_dump())


def tag_message(cohort: str, path: str, digest: str, message: str | None) -> str:
    """An annotated tag's message: the maintainer's words, then the ruleset's path and digest."""
    head = message.strip() if message else f"Cohort {cohort}"
    return f"{head}\n\nruleset: {path}\n{_DIGEST_KEY}{digest}\n"


def digest_in_tag(message: str) -> str | None:
    """The ruleset digest a tag message carries."""
    for line in message.splitlines():
        if line.startswith(_DIGEST_KEY):
            return line.split(": ", 1)[1].strip()
    return None
