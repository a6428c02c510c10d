"""Dataset downloads within their limits: a deadline for the whole download (a server that
trickles its head or its body, or never ends, is cut off) and a cap on its size."""

from __future__ import annotations

import pytest
from pytest_httpserver import HTTPServer

from catalogctl.errors import DownloadProblem
from catalogctl.io.download import Limits, download
from tests.slow_server import slow_server

DEADLINE = "not downloaded within 0.3 s (the deadline; --timeout or CATALOGCTL_TIMEOUT)"


@pytest.mark.parametrize("mode", ["trickle-body", "trickle-head"])
def test_a_server_that_trickles_is_cut_off_at_the_deadline(mode: str) -> None:
    # A byte every 50 ms is well within httpx's per-read timeout: without the deadline, this never ended.
    with slow_server(mode) as (base, _), pytest.raises(DownloadProblem) as caught:
        download(f"{base}/data.jsonl", "jsonl", limits=Limits(seconds=0.3), timeout=5.0, backoff_s=0)
    assert str(caught.value) == f"{base}/data.jsonl: {DEADLINE}"


def test_an_endless_body_stops_at_the_cap() -> None:
    with slow_server("endless") as (base, _), pytest.raises(DownloadProblem) as caught:
        download(f"{base}/data.jsonl", "jsonl", limits=Limits(seconds=30, max_bytes=200_000), backoff_s=0)
    assert str(caught.value) == f"{base}/data.jsonl: over the cap of 200,000 bytes (--max-bytes): stopped reading"


def test_an_endless_body_under_a_large_cap_stops_at_the_deadline() -> None:
    with slow_server("endless") as (base, _), pytest.raises(DownloadProblem) as caught:
        download(f"{base}/data.jsonl", "jsonl", limits=Limits(seconds=0.3), backoff_s=0)
    assert str(caught.value) == f"{base}/data.jsonl: {DEADLINE}"


def test_a_file_announced_over_the_cap_is_not_downloaded(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/big.jsonl").respond_with_data(b"x" * 2000)
    with pytest.raises(DownloadProblem) as caught:
        download(httpserver.url_for("/big.jsonl"), "jsonl", limits=Limits(max_bytes=1000))
    assert str(caught.value) == (
        f"{httpserver.url_for('/big.jsonl')}: the server announces 2,000 bytes, over the cap of 1,000 "
        "(--max-bytes): not downloaded"
    )


def test_a_file_at_the_cap_is_downloaded(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/exact.jsonl").respond_with_data(b"x\n" * 500)
    fetched = download(httpserver.url_for("/exact.jsonl"), "jsonl", limits=Limits(max_bytes=1000))
    assert (fetched.size, fetched.records) == (1000, 500)


def test_retries_stop_at_the_deadline(httpserver: HTTPServer) -> None:
    # Three attempts with a 10 s backoff would take 30 s; the deadline ends them, in the backoff.
    httpserver.expect_request("/busy.jsonl").respond_with_data("busy", status=503)
    with pytest.raises(DownloadProblem) as caught:
        download(httpserver.url_for("/busy.jsonl"), "jsonl", limits=Limits(seconds=0.3), backoff_s=10)
    assert str(caught.value) == f"{httpserver.url_for('/busy.jsonl')}: {DEADLINE}"
