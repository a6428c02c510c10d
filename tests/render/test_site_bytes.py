"""Every file of a site built from a fixed catalog, compared byte for byte (by sha256) with the
files the code wrote before its speed-ups: making the site faster must not change one page.

The catalog is `tests.site_repo.three_cohorts`, then the snapshot of llama3-1-8b's model
(gsm8k's) moved, 2026-10-C1 frozen without deepseek-r1 and 2026-11-C0 with it again; every
commit, tag, clock, seed and version a page shows is fixed. When a page is meant to change (a
template, the shipped catalog), write the list again from the new code and review its diff:

    .venv/bin/python -m tests.render.test_site_bytes
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import os
import random
import sys
import tempfile
from pathlib import Path

import pytest

import catalogctl.authoring.site as site_data
from catalogctl.authoring.site import site_source
from catalogctl.catalog import seeds
from catalogctl.release.freeze import FreezeRequest, freeze
from catalogctl.render.site import write_into
from catalogctl.render.site.output import open_destination
from tests.helpers import commit_all, copy_catalog, git, init_repo, replace_in
from tests.release_repo import NOW
from tests.sealed import sealed
from tests.site_repo import three_cohorts

DIGESTS = Path(__file__).with_name("site_bytes.json")
TODAY = dt.date(2026, 9, 20)  # the next cohort the pages announce depends on the day
FIXED = {
    "GIT_AUTHOR_DATE": "2026-08-27T10:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-08-27T10:00:00+00:00",
}


def _build(folder: Path, patch: pytest.MonkeyPatch) -> dict[str, str]:
    """The site of the module docstring's catalog built under `folder`: each file's sha256."""
    for name, value in FIXED.items():
        patch.setenv(name, value)
    patch.setattr(site_data, "__version__", "0.0.0+bytes")  # the footer names the version
    draw = random.Random(2026).getrandbits  # the seed set a freeze publishes (B)
    patch.setattr(seeds, "generate", functools.partial(seeds.generate, draw))
    repo = copy_catalog(init_repo(folder / "repo"))
    commit_all(repo, "Add the catalog")
    git(repo, "tag", "-a", "v1", "-m", "first")  # as `catalog_repo`
    three_cohorts(repo, folder)
    replace_in(repo, "benchmark_suite/models/llama3-1-8b.yaml", "sha: 0e9e39f2", "sha: 1e9e39f2")
    commit_all(repo, "llama3-1-8b: another snapshot")
    freeze(repo, FreezeRequest("2026-10-C1", remove=["deepseek-r1"], now=NOW))
    freeze(repo, FreezeRequest("2026-11-C0", add=["deepseek-r1"], now=NOW))  # back after a cohort without it
    out = folder / "site"
    with site_source(repo, today=TODAY) as source:
        write_into(source, open_destination(out, catalog=repo))
    return {
        p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(out.rglob("*"))
        if p.is_file() and p.name != ".catalogctl-site.json"  # it records the code's own digest
    }


def test_every_file_has_the_bytes_it_had_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built = _build(tmp_path, monkeypatch)
    expected = json.loads(DIGESTS.read_text(encoding="utf-8"))
    assert sorted(built) == sorted(expected)
    changed = sorted(path for path, digest in built.items() if expected[path] != digest)
    assert changed == []


def write_digests() -> int:
    """Write the list from the code of this checkout (see the module docstring)."""
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as patch:
        home = Path(tmp) / "home"
        home.mkdir()
        with sealed(patch, home):
            digests = _build(Path(tmp), patch)
    DIGESTS.write_text(json.dumps(digests, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(digests)} digests to {os.path.relpath(DIGESTS)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(write_digests())
