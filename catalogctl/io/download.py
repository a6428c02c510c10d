"""Dataset downloads and local reads: the sha256, size and record count of a file's bytes.

A download has two limits (`Limits`): a deadline for the whole of it, retries included (see
`transport.Deadline`; `--timeout` or `CATALOGCTL_TIMEOUT`), and a number of bytes (`--max-bytes`; the
catalog declares no size for a dataset, so the cap is the flag's). Either, passed, is a
`DownloadProblem` that says which.

The digest is of the file as the server stores it, what `sha256sum` prints there. A download asks
for `Accept-Encoding: identity`, so a compliant server sends exactly those bytes. A
`Content-Encoding` (gzip, deflate) is an encoding of the transfer, not the file: a server that
compresses anyway stores the file decoded, so the body is decoded and the decoded bytes are
hashed, while Content-Length, which counts the bytes sent, is compared with the raw (encoded)
byte count. A file that is compressed as stored (`data.jsonl.gz` without a Content-Encoding) is
hashed as it comes, never decompressed.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from catalogctl import words
from catalogctl.errors import DownloadProblem, UsageError
from catalogctl.io.transport import (
    ATTEMPTS,
    DOWNLOAD_DEADLINE_S,
    Deadline,
    DeadlinePassed,
    Retry,
    deadline_client,
    retrying,
)
from catalogctl.io.urls import redact_text, redact_url

DEFAULT_MAX_BYTES = 8 * 1024**3  # far above any dataset the catalog pins today


@dataclass(frozen=True)
class Limits:
    """How long a download may take in all (seconds, retries included) and how many bytes it may bring."""

    seconds: float = DOWNLOAD_DEADLINE_S
    max_bytes: int = DEFAULT_MAX_BYTES
    cap_from: str = "--max-bytes"  # where the cap comes from, for the message that enforces it


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True)
class Fetched:
    """What a download (or a local read) gave: the sha256 of the bytes, their size, and the
    number of records when the format allows counting them."""

    sha256: str
    size: int
    records: int | None


class _Digest:
    """sha256, size and record count of a stream of chunks."""

    def __init__(self, fmt: str | None) -> None:
        import hashlib

        self.hash = hashlib.sha256()
        self.size = 0
        self.fmt = fmt
        self.newlines = 0
        self.last = b"\n"
        self.buffer: bytearray | None = bytearray() if fmt == "json" else None

    def update(self, chunk: bytes) -> None:
        self.hash.update(chunk)
        self.size += len(chunk)
        if chunk:
            self.newlines += chunk.count(b"\n")
            self.last = chunk[-1:]
        if self.buffer is not None:
            if self.size > MAX_COUNTED_JSON:
                self.buffer = None  # too large to count records in memory
            else:
                self.buffer.extend(chunk)

    def result(self) -> Fetched:
        lines = self.newlines + (0 if self.last == b"\n" or not self.size else 1)
        records: int | None = None
        if self.fmt == "jsonl":
            records = lines
        elif self.fmt == "csv":
            records = max(lines - 1, 0)  # the header
        elif self.fmt == "json" and self.buffer is not None:
            import json

            try:
                value = json.loads(bytes(self.buffer))
            except ValueError:
                value = None
            records = len(value) if isinstance(value, list) else None
        return Fetched(self.hash.hexdigest(), self.size, records)


MAX_COUNTED_JSON = 256 * 1024 * 1024
CHUNK = 1024 * 1024


def read_local(path: str, fmt: str | None) -> Fetched:
    """Hash (and count) a local file; one that cannot be read is a usage error (exit 2)."""
    digest = _Digest(fmt)
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(CHUNK):
                digest.update(chunk)
    except OSError as exc:  # a file the user named: a usage error, as for every other verb
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    return digest.result()


def download(
    url: str,
    fmt: str | None,
    progress: Any = None,
    *,
    limits: Limits = DEFAULT_LIMITS,
    timeout: float = 30.0,
    attempts: int = ATTEMPTS,
    backoff_s: float = 0.5,
) -> Fetched:
    """Stream `url`, hashing as it comes; retried on connection errors and 5xx; a body shorter
    than its Content-Length, or over `limits`, is an error. `progress(done, total)` is called per chunk."""
    deadline = Deadline(limits.seconds)
    shown = redact_url(url)  # what messages name: never a URL's credentials
    headers = {"Accept-Encoding": "identity"}  # the file's own bytes (see the module's docstring)
    with deadline_client(deadline, timeout=timeout, follow_redirects=True, headers=headers) as client:

        def attempt() -> Fetched | Retry:
            with client.stream("GET", url) as response:
                if response.status_code >= 500:
                    return Retry(f"HTTP {response.status_code}", True)
                if response.status_code != 200:
                    raise DownloadProblem(f"{shown}: HTTP {response.status_code}")
                return _read(response, shown, fmt, progress, limits, deadline)

        try:
            outcome = retrying(attempt, attempts, backoff_s, deadline)
        except DeadlinePassed:
            raise DownloadProblem(
                f"{shown}: not downloaded within {limits.seconds:g} s (the deadline; --timeout or CATALOGCTL_TIMEOUT)"
            ) from None
    if isinstance(outcome, Retry):
        raise DownloadProblem(f"{shown}: download failed after {attempts} attempts ({redact_text(outcome.reason)})")
    return outcome


def _read(response: Any, url: str, fmt: str | None, progress: Any, limits: Limits, deadline: Deadline) -> Fetched:
    """The body of a 200 answer, decoded and hashed as it comes, within the limits; its length
    compared with Content-Length on the raw bytes, which that header counts."""
    digest, decoder = _Digest(fmt), _Decoder(url, response.headers.get("content-encoding", ""))
    total = int(response.headers.get("content-length", "0") or 0) or None
    if total is not None and total > limits.max_bytes:
        raise DownloadProblem(
            f"{url}: the server announces {words.count(total, 'byte', grouped=True)}, "
            f"over the cap of {limits.max_bytes:,} "
            f"({limits.cap_from}): not downloaded"
        )
    received = 0

    def check() -> None:
        if max(received, digest.size) > limits.max_bytes:
            raise DownloadProblem(
                f"{url}: over the cap of {limits.max_bytes:,} bytes ({limits.cap_from}): stopped reading"
            )

    for chunk in response.iter_raw():
        received += len(chunk)
        check()  # the raw bytes too: a chunk may decode to nothing
        for piece in decoder.feed(chunk):  # bounded pieces: the cap is checked before the next is made
            digest.update(piece)
            check()
        deadline.clip(None)  # the client's reads honour it too; this holds without them
        if progress is not None:
            progress(received, total)
    if total is not None and received != total:
        raise DownloadProblem(f"{url}: got {received} of {words.count(total, 'byte')} (truncated)")
    decoder.finish()
    return digest.result()


_WBITS = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}
# A server that compresses anyway applies one coding, rarely two; more is hostile (each coding
# undone holds a buffer of its own).
MAX_CODINGS = 3


def _short(encoding: str) -> str:
    """A Content-Encoding as messages show it: a hostile one can be thousands of codings long."""
    return encoding if len(encoding) <= 60 else f"{encoding[:59]}…"


class _Stage:
    """One coding undone, in pieces of at most CHUNK bytes, however much a chunk expands (a
    bomb is never decompressed whole); gzip as a series of members, as RFC 1952 allows."""

    def __init__(self, wbits: int) -> None:
        self.wbits, self.members = wbits, wbits > zlib.MAX_WBITS
        self.obj = zlib.decompressobj(wbits)

    def decode(self, data: bytes) -> Iterator[bytes]:
        """The decoded pieces of `data`; raises zlib.error for what does not decode."""
        more = True  # a full piece may leave output inside zlib even when the input is consumed
        while data or more:
            if self.obj.eof:  # data after the end: the next gzip member, or an error
                if not self.members:
                    raise zlib.error("bytes after the end of its data")
                self.obj = zlib.decompressobj(self.wbits)
            piece = self.obj.decompress(data, CHUNK)
            data = self.obj.unused_data if self.obj.eof else self.obj.unconsumed_tail
            more = len(piece) == CHUNK and not self.obj.eof
            if piece:
                yield piece


class _Decoder:
    """Undoes the Content-Encoding a server applied although `identity` was asked for (the
    codings in the order applied, so undone last first), in bounded pieces."""

    def __init__(self, url: str, encoding: str) -> None:
        self.url, self.encoding = url, encoding
        codings = [c.strip().lower() for c in encoding.split(",") if c.strip().lower() not in ("", "identity")]
        if len(codings) > MAX_CODINGS:
            raise DownloadProblem(
                f"{url}: sent with {len(codings):,} content codings (Content-Encoding `{_short(encoding)}`); "
                f"catalogctl undoes at most {MAX_CODINGS}"
            )
        if any(c not in _WBITS for c in codings):
            raise DownloadProblem(
                f"{url}: sent with Content-Encoding `{_short(encoding)}`, which catalogctl does not decode"
            )
        self.stages = [_Stage(_WBITS[c]) for c in reversed(codings)]

    def feed(self, data: bytes) -> Iterator[bytes]:
        """The decoded pieces of the next raw chunk, each at most CHUNK bytes, made as they are read."""
        try:
            yield from self._through(0, data)
        except zlib.error as exc:
            raise DownloadProblem(f"{self.url}: the body does not decode as its {self._named} says ({exc})") from None

    def _through(self, index: int, data: bytes) -> Iterator[bytes]:
        if index == len(self.stages):
            yield data
            return
        for piece in self.stages[index].decode(data):
            yield from self._through(index + 1, piece)

    def finish(self) -> None:
        """Once the body has ended: a coding cut short is an error."""
        if any(not stage.obj.eof for stage in self.stages):
            raise DownloadProblem(f"{self.url}: the body ends before its {self._named} does")

    @property
    def _named(self) -> str:
        return f"Content-Encoding `{_short(self.encoding)}`"
