"""The one error boundary: known errors are messages with their exit code, bugs are one line and
exit 70, Ctrl-C is exit 130; through typer's runner and through a real `python -m catalogctl`."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner, Result

from catalogctl.cli import app, interrupt
from catalogctl.errors import EXIT_INTERRUPTED, CatalogInvalid, CheckFailed, error
from catalogctl.render.review import COMMENT_MARKER

INTERNAL = "internal error: RuntimeError: boom in two lines; rerun with --traceback and report it\n"


def invoke(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(app, list(args), env=env)


def raising(exc: BaseException) -> object:
    def fail(*args: object, **kwargs: object) -> None:
        raise exc

    return fail


def test_every_command_is_registered_inside_the_boundary() -> None:
    infos = list(app.registered_commands)
    for group in app.registered_groups:
        assert group.typer_instance is not None
        infos += group.typer_instance.registered_commands
    assert len(infos) == 23
    unguarded = [i.name for i in infos if not getattr(i.callback, "__catalogctl_boundary__", False)]
    assert unguarded == []


def test_a_bug_is_one_line_and_exit_70(catalog_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("catalogctl.api.validate_catalog", raising(RuntimeError("boom in\ntwo lines")))
    done = invoke("validate", str(catalog_dir))
    assert (done.exit_code, done.stdout, done.stderr) == (70, "", INTERNAL)


def test_a_bug_without_a_message(catalog_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("catalogctl.api.load_catalog", raising(ZeroDivisionError()))
    done = invoke("ls", "-C", str(catalog_dir))
    assert done.exit_code == 70
    assert done.stderr == "internal error: ZeroDivisionError; rerun with --traceback and report it\n"


@pytest.mark.parametrize(("args", "env"), [(["--traceback"], None), ([], {"CATALOGCTL_TRACEBACK": "1"})])
def test_traceback_on_request(
    args: list[str], env: dict[str, str] | None, catalog_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("catalogctl.api.validate_catalog", raising(RuntimeError("boom in\ntwo lines")))
    done = invoke(*args, "validate", str(catalog_dir), env=env)
    assert done.exit_code == 70
    assert done.stderr.startswith("Traceback (most recent call last):\n")
    assert done.stderr.endswith("RuntimeError: boom in\ntwo lines\n" + INTERNAL)


def test_no_traceback_when_the_variable_says_no(catalog_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("catalogctl.api.validate_catalog", raising(RuntimeError("boom in\ntwo lines")))
    assert invoke("validate", str(catalog_dir), env={"CATALOGCTL_TRACEBACK": "0"}).stderr == INTERNAL


def test_ctrl_c_is_interrupted_and_exit_130(catalog_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("catalogctl.api.validate_catalog", raising(KeyboardInterrupt()))
    monkeypatch.setattr("catalogctl.api.load_catalog", raising(KeyboardInterrupt()))
    done = invoke("validate", str(catalog_dir))
    assert (done.exit_code, done.stdout, done.stderr) == (130, "", "interrupted\n")
    traced = invoke("--traceback", "show", "gsm8k", "-C", str(catalog_dir))
    assert traced.exit_code == 130
    assert traced.stderr.startswith("Traceback (most recent call last):\n")
    assert traced.stderr.endswith("\nKeyboardInterrupt\ninterrupted\n")


def test_a_datasets_command_is_inside_the_boundary_too(catalog_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("catalogctl.authoring.datasets.verify_datasets", raising(RuntimeError("boom in two lines")))
    done = invoke("datasets", "verify", "-C", str(catalog_dir))
    assert (done.exit_code, done.stderr) == (70, INTERNAL)


def test_a_failed_check_names_its_code_and_exits_with_it(catalog_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        "catalogctl.api.validate_catalog", raising(CheckFailed("remote-mismatch", "the remote disagrees", "fetch"))
    )
    done = invoke("validate", str(catalog_dir))
    assert (done.exit_code, done.stderr) == (6, "error [remote-mismatch]: the remote disagrees\nhint: fetch\n")


def test_an_invalid_document_lists_its_diagnostics(catalog_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    problem = error("yaml-syntax", "did not find expected ','", "x.yaml", 2, 1)
    invalid = CatalogInvalid("x.yaml is not valid YAML", [problem])
    monkeypatch.setattr("catalogctl.api.validate_catalog", raising(invalid))
    done = invoke("validate", str(catalog_dir))
    assert done.exit_code == 1
    assert (
        done.stderr == "error: x.yaml is not valid YAML\n  x.yaml:2:1: error yaml-syntax: did not find expected ','\n"
    )


def test_typer_exits_and_usage_errors_pass_through(catalog_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("catalogctl.api.validate_catalog", raising(typer.BadParameter("not like that")))
    done = invoke("validate", str(catalog_dir))
    assert done.exit_code == 2
    assert "Invalid value: not like that" in done.stderr
    monkeypatch.setattr("catalogctl.api.validate_catalog", raising(typer.Exit(3)))
    assert invoke("validate", str(catalog_dir)).exit_code == 3


# -- a real process ---------------------------------------------------------------------------------


def catalogctl(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m catalogctl ARGS` in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "catalogctl", *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **(env or {})},
        timeout=60,
    )


def test_a_process_reports_a_known_error_with_its_code(tmp_path: Path) -> None:
    done = catalogctl("check", str(tmp_path / "missing.yaml"), str(tmp_path / "results.json"))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"error: cannot read {tmp_path / 'missing.yaml'}: No such file or directory\n"


def test_a_process_reports_a_bug_as_one_line(catalog_dir: Path) -> None:
    # A bug planted in the library before the real entry point runs, as `python -m catalogctl` would.
    plant = (
        "import runpy, catalogctl.api\n"
        "def validate_catalog(*args, **kwargs):\n"
        "    raise RuntimeError('boom in\\ntwo lines')\n"
        "catalogctl.api.validate_catalog = validate_catalog\n"
        "runpy.run_module('catalogctl', run_name='__main__', alter_sys=True)\n"
    )
    args = [sys.executable, "-c", plant, "validate", str(catalog_dir)]
    done = subprocess.run(args, capture_output=True, text=True, check=False, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (70, "", INTERNAL)
    traced = subprocess.run(
        args, capture_output=True, text=True, check=False, timeout=60, env={**os.environ, "CATALOGCTL_TRACEBACK": "1"}
    )
    assert traced.returncode == 70
    assert traced.stderr.startswith("Traceback (most recent call last):\n")
    assert '  File "<string>", line 3, in validate_catalog\n' in traced.stderr
    assert traced.stderr.endswith(INTERNAL)


@pytest.fixture
def silent_server() -> Iterator[tuple[str, threading.Event]]:
    """A loopback HTTP server that accepts one connection and never answers: a client blocks."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    connected = threading.Event()
    held: list[socket.socket] = []

    def accept() -> None:
        try:
            held.append(listener.accept()[0])
        except OSError:  # closed before anyone connected
            return
        connected.set()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}", connected
    listener.close()
    for conn in held:
        conn.close()
    thread.join(timeout=10)


def waiting_in_a_system_call(pid: int) -> None:
    """Return once the process sleeps (Linux's /proc state `S`): blocked in its read of the
    answer. A SIGINT that lands just before the read blocks, after the interpreter last looked
    for signals, is handled only when the read returns: its socket timeout (10 s) later, which
    a busy machine made happen. Sent to a blocked read, it interrupts it at once."""
    stat = Path(f"/proc/{pid}/stat")
    for _ in range(2000):  # 20 s at most: then the signal is sent all the same
        if not stat.exists() or stat.read_text().rsplit(")", 1)[-1].split()[0] == "S":
            return
        time.sleep(0.01)


@pytest.mark.parametrize("traceback", [False, True])
def test_ctrl_c_of_a_process_waiting_on_the_network_exits_130(
    traceback: bool, silent_server: tuple[str, threading.Event], tmp_path: Path
) -> None:
    url, connected = silent_server
    body = tmp_path / "comment.md"
    body.write_text(f"{COMMENT_MARKER}\nreport\n")
    env = {**os.environ, "GITHUB_API_URL": url, "GITHUB_TOKEN": "t0ken"}
    if traceback:
        env["CATALOGCTL_TRACEBACK"] = "1"
    # Ctrl-C as a terminal delivers it: to a process that has Python's own handler, which a
    # process started in the background by a shell without job control (SIGINT ignored) lacks.
    interruptible = (
        "import runpy, signal\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "runpy.run_module('catalogctl', run_name='__main__', alter_sys=True)\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", interruptible, "comment", "--repo", "o/r", "--pr", "7", "--body", str(body)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert connected.wait(timeout=60), "the command never reached the server"
        waiting_in_a_system_call(process.pid)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert (process.returncode, out) == (130, ""), err  # what it said, when it says something else
    if traceback:
        assert err.startswith("Traceback (most recent call last):\n")
        assert err.endswith("\nKeyboardInterrupt\ninterrupted\n")
    else:
        assert err == "interrupted\n"


# -- Ctrl-C before a command runs -------------------------------------------------------------------

# Sends SIGINT to the process itself as a module is first imported: the moments of start-up, by
# position (an import of the entry point's own chain), not by the clock.
AT_IMPORT = (
    "import os, runpy, signal, sys\n"
    "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    "at = sys.argv.pop(1)\n"
    "class Interrupt:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name == at:\n"
    "            sys.meta_path.remove(self)\n"
    "            os.kill(os.getpid(), signal.SIGINT)\n"
    "        return None\n"
    "sys.meta_path.insert(0, Interrupt())\n"
    "runpy.run_module('catalogctl', run_name='__main__', alter_sys=True)\n"
)


@pytest.mark.parametrize(
    "module", ["typer", "typer.core", "catalogctl.cli.boundary", "catalogctl.cli.catalog", "pydantic"]
)
def test_ctrl_c_while_the_cli_is_imported_is_one_line_and_exit_130(module: str, catalog_dir: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", AT_IMPORT, module, "validate", str(catalog_dir)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "interrupted\n")


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.1, 0.2, 0.4], ids=lambda d: f"{d}s")
def test_ctrl_c_at_any_moment_from_the_spawn_is_one_line_and_exit_130(
    delay: float, silent_server: tuple[str, threading.Event], tmp_path: Path
) -> None:
    url, connected = silent_server
    body = tmp_path / "comment.md"
    body.write_text(f"{COMMENT_MARKER}\nreport\n")
    env = {**os.environ, "GITHUB_API_URL": url, "GITHUB_TOKEN": "t0ken"}
    script = Path(sys.executable).parent / "catalogctl"  # the console script, as a user runs it
    # The process starts with Python's handler (as from a terminal) and SIGINT blocked: a Ctrl-C
    # sent before its first line of catalogctl waits for it (the interpreter's own start-up is not
    # catalogctl's to make quiet), then is delivered where it lands, wherever that is.
    saved = signal.getsignal(signal.SIGINT)
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a caught signal is SIG_DFL after exec
        process = subprocess.Popen(
            [str(script), "comment", "--repo", "o/r", "--pr", "7", "--body", str(body)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
    finally:
        signal.signal(signal.SIGINT, saved)
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    try:
        if delay:
            threading.Event().wait(delay)  # a moment to send at, never asserted
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
        if not connected.is_set():  # interrupted before it connected: the server's accept ends now
            socket.create_connection(("127.0.0.1", int(url.rsplit(":", 1)[1]))).close()
            connected.wait(timeout=10)  # taken by the server, which closes it
    assert (process.returncode, out, err) == (130, "", "interrupted\n"), err


def test_the_early_handler_says_what_the_boundary_says() -> None:
    assert (interrupt.EXIT_INTERRUPTED, interrupt.LINE) == (EXIT_INTERRUPTED, b"interrupted\n")


def test_the_early_handler_raises_inside_a_command_and_exits_outside(capfd: pytest.CaptureFixture[str]) -> None:
    saved = signal.getsignal(signal.SIGINT)
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # not Python's: install leaves it alone
        interrupt.install()
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        signal.signal(signal.SIGINT, signal.default_int_handler)
        interrupt.install()
        handler = signal.getsignal(signal.SIGINT)
        assert callable(handler)
        assert handler is not signal.default_int_handler
        with interrupt.in_command(), pytest.raises(KeyboardInterrupt):
            handler(signal.SIGINT, None)
        with pytest.raises(SystemExit) as exited:
            handler(signal.SIGINT, None)
        assert exited.value.code == 130
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # a second Ctrl-C says nothing more
        assert capfd.readouterr().err == "interrupted\n"
    finally:
        signal.signal(signal.SIGINT, saved)
