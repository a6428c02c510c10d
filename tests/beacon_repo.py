"""Catalogs under the beacon seed policy, pinned to drand's quicknet, with releases that name and
derive from real rounds (tests/fixtures/drand/README.md cites them)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from tests.helpers import commit_all, git, replace_in
from tests.release_repo import make_freezable

DRAND = Path(__file__).parent / "fixtures" / "drand"
INFO = json.loads((DRAND / "quicknet-info.json").read_text())
ROUND = 12040883  # due 2024-10-14 17:13:33 UTC
BEFORE = dt.datetime(2024, 10, 14, 9, 0, tzinfo=dt.UTC)  # the release that names it
AFTER = dt.datetime(2024, 10, 15, 9, 0, tzinfo=dt.UTC)  # the freeze that derives from it


def beacon_policy(key: str = INFO["public_key"]) -> str:
    """The suite's `valid_for` line and the quicknet `seed_beacon` block, with `key` as its key."""
    return f"""    valid_for: 4
  seed_beacon:
    name: drand quicknet
    chain_hash: {INFO["chain_hash"]}
    public_key: {key}
    genesis_time: {INFO["genesis_time"]}
    period: {INFO["period"]}
    genesis_seed: {INFO["genesis_seed"]}
    beacon_id: {INFO["beacon_id"]}
    scheme: {INFO["scheme"]}
    source: https://api.drand.sh/{INFO["chain_hash"]}/info
"""


def round_data(number: int = ROUND) -> dict[str, object]:
    """A round as a relay serves it."""
    data: dict[str, object] = json.loads((DRAND / f"quicknet-{number}.json").read_text())
    return data


def round_file(tmp_path: Path, number: int = ROUND, **changes: object) -> Path:
    """A relay's answer for round `number` (with `changes`) in a file."""
    path = tmp_path / f"round-{number}.json"
    path.write_text(json.dumps({**round_data(number), **changes}))
    return path


def beacon_catalog(catalog_repo: Path, origin: Path | None = None) -> Path:
    """The catalog under the beacon policy (a set every cohort), its first cohort frozen (and
    pushed to `origin`, when given) before round ROUND, naming it."""
    from catalogctl.release.beacon_plan import BeaconRequest
    from catalogctl.release.freeze import FreezeRequest, freeze

    root = make_freezable(catalog_repo)
    replace_in(
        root,
        "benchmark_suite/suite.yaml",
        "    rotate_every: 2\n    valid_for: 4\n",
        "    rotate_every: 1\n" + beacon_policy(),
    )
    commit_all(root, "Derive seeds from drand quicknet")
    push = None
    if origin is not None:
        git(root, "remote", "add", "origin", str(origin))
        push = "origin"
    result = freeze(
        root,
        FreezeRequest("2026-09-C0", add=["gsm8k"], now=BEFORE, push=push, beacon=BeaconRequest(name_round=ROUND)),
    )
    assert f"names beacon round {ROUND} (due 2024-10-14 17:13:33 UTC) for the next seed set" in result.notes
    return root


def beacon_releases(catalog_repo: Path, tmp_path: Path) -> Path:
    """`beacon_catalog`, then 2026-09-C1 frozen with set B derived from round ROUND (set A drawn)."""
    repo = beacon_catalog(catalog_repo)
    derive(repo, round_file(tmp_path))
    return repo


def derive(repo: Path, data: Path, **kwargs: object) -> object:
    """Freeze 2026-09-C1 from the round in `data` (the freeze that derives the named round's set)."""
    from catalogctl.release.beacon_plan import BeaconRequest
    from catalogctl.release.freeze import FreezeRequest, freeze

    request = FreezeRequest("2026-09-C1", now=AFTER, beacon=BeaconRequest(round_file=data), **kwargs)  # type: ignore[arg-type]
    return freeze(repo, request)


def state(repo: Path, origin: Path) -> tuple[str, str, str, str]:
    """What a refused command must leave as it was: HEAD, the status, the tags, the remote's refs."""
    return (
        git(repo, "rev-parse", "HEAD"),
        git(repo, "status", "--porcelain"),
        git(repo, "tag"),
        git(origin, "for-each-ref"),
    )
