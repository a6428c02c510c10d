"""Git remotes on loopback that never finish answering: a TCP server that accepts and says nothing,
one that sends a valid-looking greeting of its protocol (git://, smart HTTP, SSH) one byte at a
time, and a proxy in front of a real git daemon that trickles its answers or holds its pushes.
Each records the first bytes of every connection (which git service a client asked for)."""

from __future__ import annotations

import contextlib
import socket
import socketserver
import ssl
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tests.loopback_http import POLL_S


def _pkt(line: str) -> bytes:
    """A git pkt-line: four hex digits of length, then the line."""
    data = line.encode()
    return f"{len(data) + 4:04x}".encode() + data


_ADVERTISED = _pkt(f"{'1' * 40} HEAD\0multi_ack side-band-64k symref=HEAD:refs/heads/main\n") + _pkt(
    f"{'1' * 40} refs/heads/main\n"
)

# What each transport's server says first when all goes well: trickled, it looks right and never ends in time.
GREETINGS = {
    "git": _ADVERTISED + b"0000",
    "http": (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/x-git-upload-pack-advertisement\r\n"
        b"Cache-Control: no-cache\r\nConnection: close\r\n\r\n" + _pkt("# service=git-upload-pack\n") + b"0000"
    )
    + _ADVERTISED
    + b"0000",
    "ssh": b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n" + b"\0" * 1000,
}


@dataclass
class Stall:
    """How the server behaves: `silent` (accepts, never answers), `trickle` (sends `greeting` one
    byte every `pause_s`), `trickle-proxy` (forwards to `target`, its answers one byte every
    `pause_s`) or `hold-push` (forwards to `target`, but a push, `git-receive-pack`, gets no
    answer). With `tls`, each connection is TLS first (https://)."""

    mode: str
    greeting: bytes = b""
    pause_s: float = 1.0
    target: int = 0  # the port of the git daemon behind a proxy
    tls: ssl.SSLContext | None = None
    stop: threading.Event = field(default_factory=threading.Event)
    opened: list[bytes] = field(default_factory=list)  # the first bytes each client sent


# Every transport with every way of not answering: the client waits for a TLS hello over https,
# for a banner over ssh; a trickle over https is tested past a real handshake on its own.
STALLS = [
    ("git", "silent"),
    ("git", "trickle"),
    ("http", "silent"),
    ("http", "trickle"),
    ("https", "silent"),
    ("ssh", "silent"),
    ("ssh", "trickle"),
]


def _first_bytes(sock: socket.socket, stall: Stall) -> bytes:
    """What the client sends first (a git request, an HTTP head), waiting at most a moment: an SSH
    client may wait for the server's banner."""
    sock.settimeout(0.5)
    try:
        data = sock.recv(4096)
    except TimeoutError:
        data = b""
    sock.settimeout(None)
    stall.opened.append(data)
    return data


def _pump(source: socket.socket, sink: socket.socket, stall: Stall, pause_s: float) -> None:
    """Copy `source` to `sink` until either closes or the server stops; byte by byte with a
    pause when `pause_s`."""
    with contextlib.suppress(OSError):
        while not stall.stop.is_set():
            data = source.recv(1 if pause_s else 65536)
            if not data:
                break
            if pause_s and stall.stop.wait(pause_s):
                break
            sink.sendall(data)
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)


def _proxy(client: socket.socket, first: bytes, stall: Stall) -> None:
    with socket.create_connection(("127.0.0.1", stall.target)) as upstream:
        upstream.sendall(first)
        up = threading.Thread(target=_pump, args=(client, upstream, stall, 0.0), daemon=True)
        up.start()
        _pump(upstream, client, stall, stall.pause_s if stall.mode == "trickle-proxy" else 0.0)
        up.join(timeout=5)


class _Handler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        stall: Stall = self.server.stall  # type: ignore[attr-defined]
        if stall.tls is None:
            self.serve(self.request, stall)
            return
        try:
            sock = stall.tls.wrap_socket(self.request, server_side=True)
        except (OSError, ssl.SSLError):  # the client refused the certificate, or gave up
            return
        with sock:
            self.serve(sock, stall)

    def serve(self, sock: socket.socket, stall: Stall) -> None:
        first = _first_bytes(sock, stall)
        if stall.mode == "silent" or (stall.mode == "hold-push" and b"git-receive-pack" in first):
            stall.stop.wait()
        elif stall.mode == "trickle":
            with contextlib.suppress(OSError):  # the client gave up: what the tests want
                for byte in stall.greeting:
                    if stall.stop.wait(stall.pause_s):
                        return
                    sock.sendall(bytes([byte]))
            stall.stop.wait()
        else:
            _proxy(sock, first, stall)


@contextmanager
def stalling(mode: str, **options: object) -> Iterator[tuple[int, Stall]]:
    """A server on 127.0.0.1 behaving as `mode` (see `Stall`); yields its port. Stopping it closes
    every connection, so a client still waiting then fails rather than hangs."""
    stall = Stall(mode, **options)  # type: ignore[arg-type]
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    server.stall = stall  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": POLL_S}, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], stall
    finally:
        stall.stop.set()
        server.shutdown()
        server.server_close()


def loopback_tls(folder: Path) -> tuple[ssl.SSLContext, Path]:
    """A server's TLS context for 127.0.0.1 with a self-signed certificate (made by the openssl
    program), and the certificate's file: a client that trusts it (SSL_CERT_FILE) completes the
    handshake, and the server then speaks HTTP."""
    key, cert = folder / "tls-key.pem", folder / "tls-cert.pem"
    self_signed = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2"]
    for_loopback = ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
    subprocess.run(
        ["openssl", *self_signed, *for_loopback, "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context, cert


def services(stall: Stall) -> list[str]:
    """The git service each connection asked for (`git-upload-pack`, `git-receive-pack`), in order."""
    found = []
    for first in stall.opened:
        for name in ("git-upload-pack", "git-receive-pack"):
            if name.encode() in first:
                found.append(name)
    return found


def finished_within(seconds: float, call: Callable[[], object]) -> BaseException | object:
    """What `call` returned or raised, run in a thread; an AssertionError when it has not ended
    after `seconds` (a hang shows as a failure, not a stuck suite: stopping the server later
    ends the thread)."""
    outcome: list[BaseException | object] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as exc:  # handed to the test, which says what it expected
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if not outcome:
        raise AssertionError(f"still waiting for the remote after {seconds:g} s")
    return outcome[0]
