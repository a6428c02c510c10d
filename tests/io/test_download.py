"""Dataset downloads within their limits: a deadline for the whole download (a server that
trickles its head or its body, or never ends, is cut off) and a cap on its size; and of a
compressed body, the digest of the file the server stores."""

from __future__ import annotations

import gzip
import hashlib
import zlib
from collections.abc import Callable

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from catalogctl.errors import DownloadProblem
from catalogctl.io import download as download_module
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


# -- compressed bodies: the digest is of the file as it is stored at the server --------------------

FILE = b"".join(b'{"question": "%d+1?", "answer": "%d"}\n' % (n, n + 1) for n in range(250))


def gzipping_anyway(encoding: str, body: bytes) -> Callable[[Request], Response]:
    """A handler that compresses the file although the request asked for `identity`."""

    def handler(request: Request) -> Response:
        response = Response(body, status=200)
        response.headers["Content-Encoding"] = encoding
        response.headers["Content-Length"] = str(len(body))
        response.headers["X-Asked"] = request.headers.get("Accept-Encoding", "")
        return response

    return handler


@pytest.mark.parametrize(
    ("encoding", "encoded"),
    [
        ("gzip", gzip.compress(FILE)),
        ("x-gzip", gzip.compress(FILE)),
        ("deflate", zlib.compress(FILE)),
        ("gzip, gzip", gzip.compress(gzip.compress(FILE))),
        ("identity", FILE),
    ],
)
def test_a_server_that_compresses_anyway_gives_the_files_digest(
    httpserver: HTTPServer, encoding: str, encoded: bytes
) -> None:
    # It was "got 14,640 of 1,011 bytes (truncated)": the length of the decoded bytes against the encoded.
    httpserver.expect_request("/data.jsonl").respond_with_handler(gzipping_anyway(encoding, encoded))
    fetched = download(httpserver.url_for("/data.jsonl"), "jsonl")
    assert (fetched.sha256, fetched.size, fetched.records) == (hashlib.sha256(FILE).hexdigest(), len(FILE), 250)
    assert httpserver.log[0][0].headers["Accept-Encoding"] == "identity"


def test_a_compressed_file_served_as_it_is_is_hashed_as_it_is(httpserver: HTTPServer) -> None:
    # A .gz file without Content-Encoding is the file: its bytes are hashed, never decompressed.
    stored = gzip.compress(FILE)
    httpserver.expect_request("/data.jsonl.gz").respond_with_data(stored, content_type="application/gzip")
    fetched = download(httpserver.url_for("/data.jsonl.gz"), None)
    assert (fetched.sha256, fetched.size) == (hashlib.sha256(stored).hexdigest(), len(stored))


def _refused(httpserver: HTTPServer, encoding: str, encoded: bytes) -> str:
    """What a download says of `encoded`, sent under Content-Encoding `encoding`."""
    httpserver.expect_request("/data.jsonl").respond_with_handler(gzipping_anyway(encoding, encoded))
    with pytest.raises(DownloadProblem) as caught:
        download(httpserver.url_for("/data.jsonl"), "jsonl")
    return str(caught.value)


@pytest.mark.parametrize(
    ("encoding", "encoded", "message"),
    [
        ("gzip", gzip.compress(FILE)[:-20], "the body ends before its Content-Encoding `gzip` does"),
        (
            "gzip",
            b"not gzip at all",
            "the body does not decode as its Content-Encoding `gzip` says "
            "(Error -3 while decompressing data: incorrect header check)",
        ),
        ("br", b"\x1b", "sent with Content-Encoding `br`, which catalogctl does not decode"),
    ],
)
def test_a_body_that_cannot_be_decoded_is_an_error(
    httpserver: HTTPServer, encoding: str, encoded: bytes, message: str
) -> None:
    assert _refused(httpserver, encoding, encoded) == f"{httpserver.url_for('/data.jsonl')}: {message}"


def test_the_cap_holds_for_the_decoded_bytes(httpserver: HTTPServer) -> None:
    bomb = gzip.compress(b"\n" * 5_000_000)  # 5 MB in about 5 kB
    httpserver.expect_request("/data.jsonl").respond_with_handler(gzipping_anyway("gzip", bomb))
    with pytest.raises(DownloadProblem) as caught:
        download(httpserver.url_for("/data.jsonl"), "jsonl", limits=Limits(max_bytes=1_000_000))
    assert str(caught.value) == (
        f"{httpserver.url_for('/data.jsonl')}: over the cap of 1,000,000 bytes (--max-bytes): stopped reading"
    )


def test_a_failed_download_never_names_the_urls_credentials(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/data.jsonl").respond_with_data("gone", status=404)
    base = httpserver.url_for("/data.jsonl").replace("http://", "http://reader:s3cret@")
    with pytest.raises(DownloadProblem) as caught:
        download(f"{base}?token=t0ken", "jsonl", backoff_s=0)
    assert str(caught.value) == f"{httpserver.url_for('/data.jsonl')}?token=REDACTED: HTTP 404"
    assert "s3cret" not in str(caught.value)
    assert "t0ken" not in str(caught.value)


def test_a_bomb_is_decoded_in_bounded_pieces(httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> None:
    # It was one piece of 20,000,000 bytes: each raw chunk was decompressed in full before the cap
    # was looked at (2 GiB of zeros gzipped twice took 4.2 GB of memory for a 1 MiB cap).
    pieces: list[int] = []
    update = download_module._Digest.update

    def recording(self: download_module._Digest, chunk: bytes) -> None:
        pieces.append(len(chunk))
        update(self, chunk)

    monkeypatch.setattr(download_module._Digest, "update", recording)
    bomb = gzip.compress(gzip.compress(b"\0" * 20_000_000, 9), 9)
    httpserver.expect_request("/data.jsonl").respond_with_handler(gzipping_anyway("gzip, gzip", bomb))
    with pytest.raises(DownloadProblem) as caught:
        download(httpserver.url_for("/data.jsonl"), "jsonl", limits=Limits(max_bytes=1_000_000))
    assert str(caught.value) == (
        f"{httpserver.url_for('/data.jsonl')}: over the cap of 1,000,000 bytes (--max-bytes): stopped reading"
    )
    assert max(pieces) <= download_module.CHUNK
    assert sum(pieces) <= 1_000_000 + download_module.CHUNK


def test_every_gzip_member_is_decoded(httpserver: HTTPServer) -> None:
    # It was the first member's digest and count only: the second was dropped without a word.
    first, second = FILE[:1000], FILE[1000:]
    body = gzip.compress(first) + gzip.compress(second)
    httpserver.expect_request("/data.jsonl").respond_with_handler(gzipping_anyway("gzip", body))
    fetched = download(httpserver.url_for("/data.jsonl"), "jsonl")
    assert (fetched.sha256, fetched.size, fetched.records) == (hashlib.sha256(FILE).hexdigest(), len(FILE), 250)


@pytest.mark.parametrize(
    ("encoding", "encoded", "message"),
    [
        (
            "gzip",
            gzip.compress(FILE) + b"GARBAGE",
            "the body does not decode as its Content-Encoding `gzip` says "
            "(Error -3 while decompressing data: incorrect header check)",
        ),
        (
            "deflate",
            zlib.compress(FILE) + b"GARBAGE",
            "the body does not decode as its Content-Encoding `deflate` says (bytes after the end of its data)",
        ),
    ],
)
def test_bytes_after_the_coded_data_are_an_error(
    httpserver: HTTPServer, encoding: str, encoded: bytes, message: str
) -> None:
    # It was accepted: what followed the first gzip member was ignored.
    assert _refused(httpserver, encoding, encoded) == f"{httpserver.url_for('/data.jsonl')}: {message}"


def test_many_codings_are_refused_in_a_short_message(httpserver: HTTPServer) -> None:
    # It was a 30 kB message naming all 5,000 codings.
    httpserver.expect_request("/data.jsonl").respond_with_handler(gzipping_anyway(",".join(["gzip"] * 5000), b"hello"))
    with pytest.raises(DownloadProblem) as caught:
        download(httpserver.url_for("/data.jsonl"), "jsonl")
    assert str(caught.value) == (
        f"{httpserver.url_for('/data.jsonl')}: sent with 5,000 content codings "
        "(Content-Encoding `gzip,gzip,gzip,gzip,gzip,gzip,gzip,gzip,gzip,gzip,gzip,gzip…`); "
        "catalogctl undoes at most 3"
    )
