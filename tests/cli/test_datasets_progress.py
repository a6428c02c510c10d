"""The download progress bar of `datasets`: on stderr, and only when stderr is a terminal."""

from __future__ import annotations

import io
import sys

import pytest

from catalogctl.cli.datasets import _progress


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_the_bar_goes_to_stderr_never_to_stdout(monkeypatch: pytest.MonkeyPatch) -> None:
    # It went to stdout: `datasets verify -f json | jq` got a stray line before the JSON.
    stdout, stderr = Terminal(), Terminal()
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", stderr)
    with _progress() as update:
        assert update is not None
        update("https://example.org/data/aime25.jsonl", 512, 1024)
    assert stdout.getvalue() == ""
    assert stderr.getvalue() != ""


def test_no_bar_when_stderr_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    with _progress() as update:
        assert update is None
