"""`datasets verify` and `datasets pin` within their limits (--timeout, --max-bytes): a server
that trickles or never ends is a failed row or an error, never a hang."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.helpers import replace_in, run_cli
from tests.slow_server import slow_server

AIME = "benchmark_suite/datasets/aime25.yaml"


def pointed_at(catalog_dir: Path, url: str) -> None:
    replace_in(catalog_dir, AIME, "  url: <TBD>", f"  url: {url}")
    replace_in(catalog_dir, AIME, "  sha256: <TBD>", "  sha256: " + "a" * 64)


def test_verify_a_server_that_trickles_fails_at_the_deadline(catalog_dir: Path) -> None:
    with slow_server("trickle-body") as (base, _):
        pointed_at(catalog_dir, f"{base}/aime25.jsonl")
        done = run_cli("datasets", "verify", "aime25", "-C", str(catalog_dir), "--timeout", "0.3", "-f", "json", code=1)
    [row] = json.loads(done.stdout)["datasets"]
    assert (row["status"], row["detail"]) == (
        "error",
        f"{base}/aime25.jsonl: not downloaded within 0.3 s (the deadline; --timeout or CATALOGCTL_TIMEOUT)",
    )


def test_verify_reads_the_deadline_from_the_environment(catalog_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CATALOGCTL_TIMEOUT", "0.3")
    with slow_server("trickle-head") as (base, _):
        pointed_at(catalog_dir, f"{base}/aime25.jsonl")
        done = run_cli("datasets", "verify", "aime25", "-C", str(catalog_dir), "-f", "json", code=1)
    assert json.loads(done.stdout)["datasets"][0]["detail"].endswith(
        ": not downloaded within 0.3 s (the deadline; --timeout or CATALOGCTL_TIMEOUT)"
    )


def test_verify_an_endless_body_fails_at_the_cap(catalog_dir: Path) -> None:
    with slow_server("endless") as (base, _):
        pointed_at(catalog_dir, f"{base}/aime25.jsonl")
        done = run_cli(
            "datasets", "verify", "aime25", "-C", str(catalog_dir), "--max-bytes", "64K", "-f", "json", code=1
        )
    [row] = json.loads(done.stdout)["datasets"]
    assert row["detail"] == f"{base}/aime25.jsonl: over the cap of 65,536 bytes (--max-bytes): stopped reading"


def test_pin_an_endless_body_is_an_error_and_writes_nothing(catalog_dir: Path) -> None:
    before = (catalog_dir / AIME).read_bytes()
    with slow_server("endless") as (base, _):
        done = run_cli(
            "datasets", "pin", "aime25", f"{base}/aime25.jsonl", "-C", str(catalog_dir), "--max-bytes", "1M", code=1
        )
    assert (
        done.stderr == f"error: {base}/aime25.jsonl: over the cap of 1,048,576 bytes (--max-bytes): stopped reading\n"
    )
    assert (catalog_dir / AIME).read_bytes() == before


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (
            ["--max-bytes", "lots"],
            "error: --max-bytes lots: not a size\nhint: a number of bytes, or one with K, M or G: 500M\n",
        ),
        (
            ["--max-bytes", "0"],
            "error: --max-bytes 0: not a size\nhint: a number of bytes, or one with K, M or G: 500M\n",
        ),
        (["--timeout", "0"], "error: --timeout 0: not a number of seconds above 0\n"),
    ],
)
def test_limits_that_are_no_limits_are_usage_errors(catalog_dir: Path, flags: list[str], message: str) -> None:
    done = run_cli("datasets", "verify", "aime25", "-C", str(catalog_dir), *flags, code=2)
    assert done.stderr == message


@pytest.mark.parametrize(("size", "expected"), [("1000", 1000), ("2k", 2048), ("3MiB", 3 * 1024**2), ("1G", 1024**3)])
def test_sizes_take_binary_units(size: str, expected: int) -> None:
    from catalogctl.cli.datasets import _limits

    assert _limits(1.0, size).max_bytes == expected


def test_verify_stops_an_endless_body_at_the_size_the_catalog_states(catalog_dir: Path) -> None:
    with slow_server("endless") as (base, _):
        pointed_at(catalog_dir, f"{base}/aime25.jsonl")
        replace_in(catalog_dir, AIME, "  sha256: " + "a" * 64, "  sha256: " + "a" * 64 + "\n  size: 1000")
        done = run_cli("datasets", "verify", "aime25", "-C", str(catalog_dir), "-f", "json", code=1)
    [row] = json.loads(done.stdout)["datasets"]
    assert (
        row["detail"]
        == f"{base}/aime25.jsonl: over the cap of 1,000 bytes (the size the catalog states): stopped reading"
    )


def test_verify_a_file_of_another_size_than_stated_is_a_mismatch(catalog_dir: Path, tmp_path: Path) -> None:
    local = tmp_path / "files"
    local.mkdir()
    body = b'{"question": "q", "answer": "a"}\n'
    (local / "aime25").write_bytes(body)
    sha = hashlib.sha256(body).hexdigest()
    replace_in(catalog_dir, AIME, "  sha256: <TBD>", f"  sha256: {sha}\n  size: {len(body) + 1}")
    done = run_cli("datasets", "verify", "aime25", "-C", str(catalog_dir), "--local", str(local), "-f", "json", code=1)
    [row] = json.loads(done.stdout)["datasets"]
    assert (row["status"], row["detail"]) == (
        "mismatch",
        f"{len(body)} bytes from {local / 'aime25'}; the catalog states {len(body) + 1}",
    )
