"""A pytest-httpserver server that stops at once: for a test's own second server, started and
stopped within the test (the session's `httpserver` fixture stops once, at the end).

Its serving loop polls for the stop every 50 ms instead of werkzeug's 0.5 s, which each test
that stopped a server waited out (`thread_target` is the documented way to tailor the loop)."""

from __future__ import annotations

from pytest_httpserver import HTTPServer

POLL_S = 0.05  # how long `stop()` waits at most for the serving loop to notice


class QuickStopServer(HTTPServer):
    def thread_target(self) -> None:
        assert self.server is not None
        self.server.serve_forever(poll_interval=POLL_S)
