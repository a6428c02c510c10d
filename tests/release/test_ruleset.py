"""The ruleset file: its digest, computed once per blob in a process."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from catalogctl.release import ruleset as ruleset_module
from catalogctl.release.freeze import FreezeRequest, freeze
from catalogctl.release.ruleset import parse_ruleset, remember_ruleset, ruleset_digest
from tests.helpers import write
from tests.release_repo import SEEDS_A, make_freezable

NOW = dt.datetime(2026, 8, 28, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def ruleset_text(catalog_repo: Path, tmp_path: Path) -> bytes:
    """The ruleset file of a frozen cohort 2026-09-C0."""
    repo = make_freezable(catalog_repo)
    freeze(repo, FreezeRequest("2026-09-C0", add=["gsm8k"], seeds_file=write(tmp_path, "s.yaml", SEEDS_A), now=NOW))
    return (repo / "rulesets" / "2026-09-C0.yaml").read_bytes()


def test_a_blob_is_parsed_once_and_a_known_model_not_at_all(
    ruleset_text: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ruleset_module, "_DIGESTS", {})
    parsed: list[str] = []

    def counting(text: bytes, path: str = "ruleset") -> object:
        parsed.append(path)
        return parse_ruleset(text, path)

    monkeypatch.setattr(ruleset_module, "parse_ruleset", counting)
    digest = ruleset_digest(ruleset_text, "a")
    assert ruleset_digest(ruleset_text, "b") == digest
    assert parsed == ["a"]
    edited = ruleset_text + b"# a comment changes the blob, not the digest\n"
    assert ruleset_digest(edited, "c") == digest
    assert parsed == ["a", "c"]
    monkeypatch.setattr(ruleset_module, "_DIGESTS", {})
    assert remember_ruleset(ruleset_text, parse_ruleset(ruleset_text)) == digest
    assert ruleset_digest(ruleset_text, "d") == digest
    assert parsed == ["a", "c"]


def test_the_cache_stays_small(ruleset_text: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    kept: dict[str, str] = {}
    monkeypatch.setattr(ruleset_module, "_DIGESTS", kept)
    model = parse_ruleset(ruleset_text)
    for index in range(ruleset_module._DIGESTS_KEPT + 1):
        remember_ruleset(ruleset_text + b"#%d\n" % index, model)
    assert len(kept) == 1
