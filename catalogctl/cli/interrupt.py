"""Ctrl-C before or after a command runs: the one line `interrupted` and exit 130, as inside one.

Python's own handler raises KeyboardInterrupt wherever the signal lands. While the CLI's modules
are imported, typer parses the arguments or the app's callback runs, that is outside the error
boundary: a traceback, or typer's silent exit 130. So the console entry point's first line puts
this module's handler in place of Python's (this module imports only what the interpreter has
loaded already); while a command runs inside the boundary the handler raises KeyboardInterrupt as
Python's does, so that the command unwinds (temporary files removed, locks released) and the
boundary reports it, with its traceback on request.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

EXIT_INTERRUPTED = 130  # errors.EXIT_INTERRUPTED: errors.py takes tens of ms to import, too late here
LINE = b"interrupted\n"


class _State:
    commands = 0  # commands running inside the boundary (where KeyboardInterrupt is reported)


_state = _State()


def _handler(signum: int, frame: FrameType | None) -> None:
    if _state.commands:
        raise KeyboardInterrupt
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C while exiting says nothing more
    os.write(2, LINE)
    raise SystemExit(EXIT_INTERRUPTED)  # unwinds: buffered output is flushed, `finally` blocks run


def install() -> None:
    """Put the handler in place of Python's (a process that ignores SIGINT, started in the
    background, keeps ignoring it). A Ctrl-C already sent and held back, because the process
    that started this one blocked the signal, is delivered now: to this handler."""
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return
    signal.signal(signal.SIGINT, _handler)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextmanager
def in_command() -> Iterator[None]:
    """While a command runs inside the boundary: a Ctrl-C is a KeyboardInterrupt it reports."""
    _state.commands += 1
    try:
        yield
    finally:
        _state.commands -= 1
