"""Planted cache entries: whoever can write the store but not read the key changes no verdict.

Each attack writes its entries as an attacker who can read and write the store would: rows
checksummed by the public recipe catalogctl 0.x used (SHA-256 over a magic, the key and the
payload), for the keys the tool will look up (their recipes are public too). The CLI is the
witness: `--no-cache` is the reference every cached answer must equal.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from catalogctl.catalog import snapshot, verdict
from catalogctl.catalog.documentcache import DocumentCache
from catalogctl.catalog.layout import DEFAULT
from catalogctl.catalog.loader import Loader
from catalogctl.io import cachestore as store_module
from catalogctl.io.tree import WorkingTree, _stamp, blob_id
from catalogctl.io.yamlio import parse_document
from tests.helpers import run_cli

BENCHMARK = "benchmark_suite/benchmarks/gsm8k.yaml"
PUBLIC_MAGIC = b"catalogctl-cache/2"  # the unkeyed checksum's magic, as published in the source
# The uninstrumented functions: the suite's own check (conftest) compares every cached load with
# an uncached one and would stop a planted entry before the CLI shows it; here the CLI alone is
# the witness, as it is for a user.
_LOAD = Loader.load
_CHECK_TREE = verdict.check_tree


_RECIPE = ["public checksum"]


@pytest.fixture(autouse=True, params=["public checksum", "another secret"])
def recipe(request: pytest.FixtureRequest) -> None:
    """How the attacker signs what they plant: the unkeyed checksum of catalogctl before entries
    were authenticated (the issue's attack), or the tool's own recipe under a secret of theirs."""
    _RECIPE[0] = request.param


@pytest.fixture(autouse=True)
def cli_alone_is_the_witness(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Loader, "load", _LOAD)
    monkeypatch.setattr(verdict, "check_tree", _CHECK_TREE)


def _store() -> Path:
    return Path(os.environ["CATALOGCTL_CACHE_DIR"]) / store_module.SQLITE_NAME


def _rows() -> dict[str, bytes]:
    with closing(sqlite3.connect(_store())) as db:
        return {key: payload for key, _, payload in db.execute("SELECT key, checksum, payload FROM entries")}


def _plant(key: str, payload: bytes) -> None:
    """An entry under `key`, by the recipe this test runs with (`recipe`)."""
    if _RECIPE[0] == "another secret":  # everything as the tool does it, but the user's secret
        forger = store_module.EntryStore(_store().parent, b"a secret the attacker chose".ljust(64, b"!"))
        forger.put(key, payload)
        forger.flush()
        return
    # The checksum catalogctl checked before entries were authenticated: no secret goes into it.
    checksum = hashlib.sha256(PUBLIC_MAGIC + b"\0" + key.encode("ascii") + b"\0" + payload).hexdigest()
    _store().parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(_store())) as db, db:
        db.execute(
            "CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, checksum TEXT NOT NULL, payload BLOB NOT NULL)"
        )
        db.execute("INSERT OR REPLACE INTO entries VALUES (?, ?, ?)", (key, checksum, payload))


def _break(root: Path) -> None:
    """Two schema errors in the benchmark: an unknown key and a temperature that is no number."""
    path = root / BENCHMARK
    text = path.read_text(encoding="utf-8")
    text = text.replace("id: gsm8k\n", "id: gsm8k\nextra_key: 1\n", 1).replace(
        "temperature: 0.0", "temperature: hot", 1
    )
    path.write_text(text, encoding="utf-8")


def _document_key(root: Path) -> str:
    data = (root / BENCHMARK).read_bytes()
    return DocumentCache(None).key("benchmark", BENCHMARK, blob_id(data))


def _valid_payload(text: str) -> bytes:
    """A document entry that says the file validated, holding `text`'s data."""
    data = parse_document(BENCHMARK, text.encode()).data
    return json.dumps({"diagnostics": [], "data": data}).encode()


def _clean_text(root: Path) -> str:
    from tests.helpers import git

    return git(root, "show", f"HEAD:{BENCHMARK}") + "\n"


def _plant_document(root: Path) -> None:
    _plant(_document_key(root), _valid_payload(_clean_text(root)))


def _plant_verdict(root: Path) -> None:
    _plant(
        verdict.catalog_key(WorkingTree(root), DEFAULT) or "", json.dumps({"diagnostics": [], "data": None}).encode()
    )


def _plant_snapshot(root: Path) -> None:
    """The genuine snapshot of the clean catalog, its benchmark's blob id made the broken file's."""
    found = [(key, decoded) for key, payload in _rows().items() if (decoded := snapshot.decode(payload)) is not None]
    [(key, (frame, states))] = found
    states[BENCHMARK].blob = blob_id((root / BENCHMARK).read_bytes())
    _plant(key, snapshot.encode(frame, states))


def _plant_stamps(root: Path) -> None:
    """The stamps (the genuine ones, if any), saying the broken file (by its stat now) holds the clean blob."""
    key = store_module._stamps_key(str(root.resolve()))
    stamps: dict[str, Any] = json.loads(_rows().get(key, b"{}"))  # none yet: files this new are not
    clean = blob_id(_clean_text(root).encode())
    stamps[BENCHMARK] = [list(_stamp(os.stat(root / BENCHMARK))), clean]
    _plant(key, json.dumps(stamps).encode())


PLANTS = {"document": _plant_document, "verdict": _plant_verdict, "snapshot": _plant_snapshot, "stamps": _plant_stamps}


@pytest.mark.parametrize("entry", sorted(PLANTS))
@pytest.mark.parametrize("verb", ["validate", "ci"])
def test_a_planted_entry_does_not_pass_a_broken_file(catalog_repo: Path, entry: str, verb: str) -> None:
    """The issue's scenario: a file with two schema errors passed `validate` and `ci`."""
    argv = ["validate", str(catalog_repo)] if verb == "validate" else ["ci", "--base", "v1", "-C", str(catalog_repo)]
    argv += ["--format", "json"]
    if entry in ("snapshot", "stamps"):  # these are planted over the genuine ones of a clean run
        run_cli(*argv)
    _break(catalog_repo)
    reference = run_cli(*argv, "--no-cache", code=1).stdout
    assert {"schema-unknown-key", "schema-wrong-type"} <= set(reference.split('"')), reference
    PLANTS[entry](catalog_repo)
    assert run_cli(*argv, code=1).stdout == reference
    assert run_cli(*argv, code=1).stdout == reference  # and again, from what the first run stored


def test_a_planted_entry_does_not_change_a_resolved_value(catalog_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`show --resolved` showed the planted `max_new_tokens`."""
    planted = _clean_text(catalog_repo).replace("max_new_tokens: 256", "max_new_tokens: 4096")
    _plant(_document_key(catalog_repo), _valid_payload(planted))
    shown = json.loads(run_cli("show", "benchmark/gsm8k", "--resolved", "--format", "json", "-C", catalog_repo).stdout)
    assert shown["document"]["accuracy"]["generation"]["max_new_tokens"] == 256
    monkeypatch.setenv("CATALOGCTL_NO_CACHE", "1")
    reference = json.loads(
        run_cli("show", "benchmark/gsm8k", "--resolved", "--format", "json", "-C", catalog_repo).stdout
    )
    assert shown == reference
