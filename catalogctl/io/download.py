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
from dataclasses import dataclass
from typing import Any

from catalogctl.errors import DownloadProblem, UsageError
from catalogctl.io.transport import ATTEMPTS, Deadline, DeadlinePassed, Retry, deadline_client, retrying
from catalogctl.io.urls import redact_text, redact_url

DOWNLOAD_DEADLINE_S = 900.0  # 15 minutes: a few GB on an ordinary connection
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
            f"{url}: the server announces {total:,} bytes, over the cap of {limits.max_bytes:,} "
            f"({limits.cap_from}): not downloaded"
        )
    received = 0
    for chunk in response.iter_raw():
        received += len(chunk)
        digest.update(decoder.feed(chunk))
        if max(received, digest.size) > limits.max_bytes:
            raise DownloadProblem(
                f"{url}: over the cap of {limits.max_bytes:,} bytes ({limits.cap_from}): stopped reading"
            )
        deadline.clip(None)  # the client's reads honour it too; this holds without them
        if progress is not None:
            progress(received, total)
    if total is not None and received != total:
        raise DownloadProblem(f"{url}: got {received} of {total} bytes (truncated)")
    digest.update(decoder.finish())
    return digest.result()


_WBITS = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}


class _Decoder:
    """Undoes the Content-Encoding a server applied although `identity` was asked for (the
    codings in the order applied, so undone last first)."""

    def __init__(self, url: str, encoding: str) -> None:
        self.url, self.encoding = url, encoding
        codings = [c.strip().lower() for c in encoding.split(",") if c.strip().lower() not in ("", "identity")]
        if any(c not in _WBITS for c in codings):
            raise DownloadProblem(f"{url}: sent with Content-Encoding `{encoding}`, which catalogctl does not decode")
        self.stages = [zlib.decompressobj(_WBITS[c]) for c in reversed(codings)]

    def feed(self, data: bytes) -> bytes:
        """The decoded bytes of the next raw chunk."""
        try:
            for stage in self.stages:
                data = stage.decompress(data)
        except zlib.error as exc:
            raise DownloadProblem(f"{self.url}: the body does not decode as its {self._named} says ({exc})") from None
        return data

    def finish(self) -> bytes:
        """What is left once the body has ended; a coding cut short is an error."""
        data = b""
        for stage in self.stages:
            data = stage.decompress(data) + stage.flush()
            if not stage.eof:
                raise DownloadProblem(f"{self.url}: the body ends before its {self._named} does")
        return data

    @property
    def _named(self) -> str:
        return f"Content-Encoding `{self.encoding}`"
