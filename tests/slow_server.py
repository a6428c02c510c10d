"""A hostile HTTP server on loopback, for what pytest-httpserver cannot do: answer one byte at a
time with a pause between bytes, or stream a body that never ends. Each connection reads the
request's head, then plays the server's `mode` until the client hangs up or the server stops."""

from __future__ import annotations

import socket
import socketserver
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from tests.loopback_http import POLL_S

HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"


@dataclass
class Behaviour:
    """What the server sends: `trickle-body` (a Content-Length of 1,000, then one byte every
    `pause_s`), `trickle-head` (the status line, then the headers one byte every `pause_s`) or
    `endless` (a body without a length, in 64 KiB chunks, forever)."""

    mode: str
    pause_s: float = 0.05
    stop: threading.Event = field(default_factory=threading.Event)
    requests: list[bytes] = field(default_factory=list)


def _play(sock: socket.socket, behaviour: Behaviour) -> None:
    if behaviour.mode == "endless":
        sock.sendall(HEAD + b"Connection: close\r\n\r\n")
        while not behaviour.stop.is_set():
            sock.sendall(b"x" * 65536)
        return
    if behaviour.mode == "trickle-head":
        sock.sendall(b"HTTP/1.1 200 OK\r\n")
        payload = b"X-Padding: " + b"y" * 100_000
    else:
        sock.sendall(HEAD + b"Content-Length: 1000\r\n\r\n")
        payload = b"[" * 1000
    for byte in payload:
        if behaviour.stop.wait(behaviour.pause_s):
            return
        sock.sendall(bytes([byte]))


class _Handler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        behaviour: Behaviour = self.server.behaviour  # type: ignore[attr-defined]
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.request.recv(4096)
            if not chunk:
                return
            head += chunk
        behaviour.requests.append(head)
        try:
            _play(self.request, behaviour)
        except OSError:  # the client gave up: what the tests want
            return


@contextmanager
def slow_server(mode: str, pause_s: float = 0.05) -> Iterator[tuple[str, Behaviour]]:
    """A server on 127.0.0.1 behaving as `mode` (see Behaviour); yields its base URL."""
    behaviour = Behaviour(mode, pause_s)
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    server.behaviour = behaviour  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": POLL_S}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", behaviour
    finally:
        behaviour.stop.set()
        server.shutdown()
        server.server_close()
