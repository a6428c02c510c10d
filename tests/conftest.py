"""Test environment: sealed from the user's git config and home, no network beyond loopback."""

from __future__ import annotations

import contextlib
import ipaddress
import os
import secrets
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import coverage
import pytest
import typer.main
import typer.testing
from hypothesis import settings

from catalogctl.catalog import verdict
from catalogctl.catalog.loader import Loader
from catalogctl.cli import app
from tests.browser import chromium, fresh_context
from tests.cache_corpus import checking_load, checking_verdict
from tests.gpgkeys import GpgHome, gpg_home
from tests.helpers import copy_catalog
from tests.once import run_folder
from tests.prebuilt import Prebuilt
from tests.sealed import sealed
from tests.signers import PgpSigner, Signer, SshSigner

if TYPE_CHECKING:  # Playwright is imported when the browser lane launches the browser
    from playwright.sync_api import Browser, BrowserContext

# Property tests draw the same examples on every run (and in CI): a failure always reproduces.
settings.register_profile("derandomized", derandomize=True, database=None)
settings.load_profile("derandomized")


# What a test of each lane costs, roughly (a bench or slow test takes tens of seconds, a fuzz test
# several, a fast one a fraction of a second): the order below starts the costly modules first.
LANE_COST = {"slow": 30, "bench": 30, "browser": 10, "conformance": 3, "fuzz": 5}


# Tests that run without coverage's tracer (pytest-cov's `no_cover`): the fuzz lane and the
# generative conformance suites hunt crashes and disagreements over thousands of drawn inputs, and
# under the tracer cost twice the CPU. The coverage gate is met by the example tests alone.
UNTRACED_LANE = "fuzz"
UNTRACED_FOLDER = Path(__file__).parent / "conformance"


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    with _untraced(item):
        return (yield)


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    with _untraced(item):
        return (yield)


@contextlib.contextmanager
def _untraced(item: pytest.Item) -> Iterator[None]:
    """The tracer off around a `no_cover` test's setup (its module's fixtures: the generated
    corpora) and call. pytest-cov pauses only the call, and not in an xdist worker, where two
    coverage instances run stacked (stopping one resumes the other): each running instance is
    stopped through coverage's public API, then started again in the order they ran, so the
    measured tests' data is kept."""
    stopped: list[coverage.Coverage] = []
    untraced = item.get_closest_marker("no_cover") is not None
    while untraced and sys.gettrace() is not None:
        running = coverage.Coverage.current()
        if running is None or running in stopped:
            break
        running.stop()
        stopped.append(running)
    try:
        yield
    finally:
        for running in reversed(stopped):
            running.start()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the costliest modules first, each module's tests together (a module's fixtures are
    built once): under xdist's work stealing, the last tests to run are then short ones, and no
    worker waits alone on a long module that started late. Without lanes the order is unchanged."""
    cost: dict[Path, int] = {}
    for item in items:
        if UNTRACED_FOLDER in item.path.parents or item.get_closest_marker(UNTRACED_LANE):
            item.add_marker(pytest.mark.no_cover)
        lanes = sum(LANE_COST.get(mark.name, 0) for mark in item.iter_markers())
        cost[item.path] = cost.get(item.path, 0) + lanes
    first = {path: index for index, path in enumerate(dict.fromkeys(item.path for item in items))}
    items.sort(key=lambda item: (-cost[item.path], first[item.path]))


@pytest.fixture(scope="session", autouse=True)
def cache_outside_the_checkout(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Module-scoped fixtures are set up before each test's environment: they too never write
    cache entries into this checkout's .git/."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CATALOGCTL_CACHE_DIR", str(tmp_path_factory.mktemp("session-cache")))
        # Nor do they read or make the developer's cache key (~/.config/catalogctl/cache.key).
        patch.setenv("CATALOGCTL_CACHE_KEY", secrets.token_hex(32))
        patch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("session-config")))
        yield


@pytest.fixture(scope="session", autouse=True)
def children_keep_their_bytecode(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The Python programs the tests start (catalogctl, the bench scripts, pre-commit's hooks, the
    docs' build) compile each module once per run and read it back after, as an installed tool
    does. Under PYTHONDONTWRITEBYTECODE, as CI sandboxes set it, every `catalogctl` of a fresh
    clone compiled the whole package again: 0.8 s of CPU for a `validate` that costs 0.2 s. The
    bytecode goes to a folder of this run (PYTHONPYCACHEPREFIX), never into the checkout; this
    process's own setting is unchanged."""
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
        patch.setenv("PYTHONPYCACHEPREFIX", str(run_folder(tmp_path_factory) / "bytecode"))
        yield


@pytest.fixture(scope="session", autouse=True)
def cli_command_made_once() -> Iterator[None]:
    """typer's CliRunner makes catalogctl's click command from `app` again on every invoke: about
    15 ms of CPU (40 ms under coverage), and the tests invoke the CLI over a thousand times. It is
    made once per worker instead, as `main()` makes it once per process; the command is the same,
    and each invoke still parses, runs and exits on its own. Any other Typer app is made as before."""
    made = typer.main.get_command(app)
    real = typer.main.get_command
    with pytest.MonkeyPatch.context() as patch:
        # The name typer.testing's CliRunner.invoke calls (`from typer.main import get_command as
        # _get_command`): if typer renames it, this fails every test at once, loudly.
        patch.setattr(typer.testing, "_get_command", lambda given: made if given is app else real(given))
        yield


@pytest.fixture(autouse=True)
def sealed_environment(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No global git config, no writes to the real home, a fixed identity for commits (`tests.sealed`)."""
    with sealed(monkeypatch, tmp_path_factory.mktemp("home")):
        yield


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any connection beyond this machine's loopback fails the test."""
    real_connect = socket.socket.connect

    def guarded(self: socket.socket, address: Any) -> Any:
        if self.family in (socket.AF_INET, socket.AF_INET6):
            host = address[0]
            try:
                loopback = ipaddress.ip_address(host).is_loopback
            except ValueError:
                loopback = host == "localhost"
            if not loopback:
                raise OSError(f"test tried to reach {host}: only loopback is allowed")
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)


@pytest.fixture(autouse=True)
def cache_never_changes_a_verdict(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the cache lane (CATALOGCTL_TEST_CACHE_CHECK=1) and in a test marked `cache_check`, every
    catalog a test loads is also loaded uncached, cold and warm, and compared (`tests.cache_corpus`);
    elsewhere loads run as they are (the check costs about 70% more CPU on tests that load catalogs)."""
    if os.environ.get("CATALOGCTL_TEST_CACHE_CHECK") != "1" and request.node.get_closest_marker("cache_check") is None:
        return
    monkeypatch.setattr(Loader, "load", checking_load(Loader.load, lambda: tmp_path_factory.mktemp("cache")))
    monkeypatch.setattr(verdict, "check_tree", checking_verdict(verdict.check_tree))


@pytest.fixture
def gnupg(monkeypatch: pytest.MonkeyPatch) -> Iterator[GpgHome]:
    """A GnuPG home of its own, the environment's GNUPGHOME (`tests.gpgkeys.gpg_home`)."""
    with gpg_home(monkeypatch) as made:
        yield made


@pytest.fixture(params=["ssh", "openpgp"])
def signer(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Signer:
    """Each signing format in turn (`tests.signers`): a test that takes it runs once per format."""
    if request.param == "ssh":
        return SshSigner(tmp_path / "signer", monkeypatch)
    return PgpSigner(tmp_path / "signer", monkeypatch, gnupg=request.getfixturevalue("gnupg"))


@pytest.fixture
def other_signer(
    signer: Signer, request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Signer:
    """The format `signer` is not: its trust accepts none of `signer`'s signatures."""
    if signer.format == "openpgp":
        return SshSigner(tmp_path / "other-signer", monkeypatch)
    return PgpSigner(tmp_path / "other-signer", monkeypatch, gnupg=request.getfixturevalue("gnupg"))


@pytest.fixture
def catalog_dir(tmp_path: Path) -> Path:
    """A copy of the shipped catalog in a plain folder (no git)."""
    return copy_catalog(tmp_path / "catalog")


@pytest.fixture(scope="session")
def browser_process() -> Iterator[Browser]:
    """Debian's headless chromium, launched once per worker for the browser lane (`tests.browser`)."""
    with chromium() as launched:
        yield launched


@pytest.fixture
def browser(browser_process: Browser) -> Iterator[BrowserContext]:
    """A fresh browser context for one test: its own cookies, storage and cache."""
    with fresh_context(browser_process) as context:
        yield context


@pytest.fixture(scope="session")
def prebuilt(tmp_path_factory: pytest.TempPathFactory) -> Prebuilt:
    """The repositories built once per run (per worker), copied into each test's folder."""
    return Prebuilt(tmp_path_factory)


@pytest.fixture
def catalog_repo(prebuilt: Prebuilt, tmp_path: Path) -> Path:
    """A git repository holding the shipped catalog in one commit, tagged `v1`."""
    return prebuilt.install("catalog", tmp_path)
