"""Entry points of the public API that combine several modules."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from catalogctl.catalog.config import layout_for
from catalogctl.catalog.layout import using
from catalogctl.catalog.source import open_tree

if TYPE_CHECKING:
    from catalogctl.catalog.index import LoadResult
    from catalogctl.catalog.verdict import Verdict
    from catalogctl.model.diff import DiffReport
    from catalogctl.model.release import Releases, Verification
    from catalogctl.model.resolved import ResolvedConfig
    from catalogctl.release.signers import SignatureFlags

P = ParamSpec("P")
R = TypeVar("R")


def _configured(function: Callable[P, R]) -> Callable[P, R]:
    """`function` run with the catalog and rulesets folders configured where its `path` points."""
    signature = inspect.signature(function)

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        path = signature.bind(*args, **kwargs).arguments.get("path")
        with using(layout_for(None if path is None else Path(path))):
            return function(*args, **kwargs)

    return wrapper


@_configured
def load_catalog(path: Path | str | None = None, ref: str | None = None, *, use_cache: bool = True) -> LoadResult:
    """Load and validate the catalog of the working tree at `path` (default: the current
    folder), or of `ref` in its repository (read from the object database, never checked out).
    Files already checked are taken from the document cache unless `use_cache` is False.
    Returns the catalog with every diagnostic; raises EnvironmentProblem or RefNotFound."""
    from catalogctl.catalog.loader import load_tree

    return load_tree(open_tree(None if path is None else Path(path), ref), use_cache=use_cache)


@_configured
def validate_catalog(path: Path | str | None = None, ref: str | None = None, *, use_cache: bool = True) -> Verdict:
    """The diagnostics `load_catalog` gives, without the catalog: answered from the remembered
    verdict when nothing it depends on changed since a run that checked it (`catalog.verdict`)."""
    from catalogctl.catalog.verdict import check_tree

    return check_tree(open_tree(None if path is None else Path(path), ref), use_cache=use_cache)


@_configured
def diff_refs(path: Path | str | None, old: str, new: str | None = None) -> DiffReport:
    """The semantic diff between two refs (cohort ids, tags, branches, commits) of the repository
    at `path`; `new=None` compares with the working tree."""
    from catalogctl.diff.trees import diff_trees

    root = None if path is None else Path(path)
    old_tree = open_tree(root, old)
    new_tree = open_tree(root, new)
    return diff_trees(old_tree, new_tree, old, new or "working tree")


@_configured
def list_releases(path: Path | str | None = None, signature: SignatureFlags | None = None) -> Releases:
    """The frozen cohorts of the working tree's catalog, with the state of their tags and signers."""
    import datetime as dt

    from catalogctl.catalog.config import calendar_for
    from catalogctl.catalog.loader import load_tree
    from catalogctl.catalog.source import find_root
    from catalogctl.io import gitrepo
    from catalogctl.io.tree import WorkingTree
    from catalogctl.release.releases import list_cohorts, releases
    from catalogctl.release.signers import trust_for

    root = find_root(Path.cwd() if path is None else Path(path))
    repo = gitrepo.open_repository(root)
    catalog = load_tree(WorkingTree(root)).catalog
    frozen = list_cohorts(repo, catalog, trust_for(repo, signature))
    return releases(frozen, dt.datetime.now(dt.UTC).date(), calendar_for(root))


@_configured
def verify_release(
    path: Path | str | None, cohort: str, ref: str | None = None, signature: SignatureFlags | None = None
) -> Verification:
    """Verify a cohort's release (see `releases.verify_cohort`), its signature by `signature`
    (the flags), the environment or git config (see `release.signers`)."""
    from catalogctl.io import gitrepo
    from catalogctl.release.releases import verify_cohort
    from catalogctl.release.signers import trust_for

    repo = gitrepo.open_repository(Path.cwd() if path is None else Path(path))
    return verify_cohort(repo, cohort, ref, trust_for(repo, signature))


@_configured
def resolve_submission(
    submission: Path | str, path: Path | str | None = None, ref: str | None = None
) -> ResolvedConfig:
    """The resolved config of a submission, from its cohort's release tag (or `ref`) in the
    repository at `path`; no checkout or remote check (see `preflight`)."""
    from catalogctl.run.resolve import resolve

    return resolve(Path.cwd() if path is None else Path(path), Path(submission), ref)


@_configured
def preflight_submission(
    submission: Path | str,
    path: Path | str | None = None,
    *,
    remote: str | None = None,
    offline: bool = False,
    github: str | None = None,
    signature: SignatureFlags | None = None,
) -> ResolvedConfig:
    """Check the checkout is exactly the cohort's release (locally and on `remote`: by default the
    current branch's upstream remote, else the only remote, else `origin`), then resolve. Raises
    `CheckFailed` (with `.code` and `.exit_code`) on the first failed check."""
    from catalogctl.run.preflight import preflight as run

    return run(
        Path.cwd() if path is None else Path(path),
        Path(submission),
        remote=remote,
        offline=offline,
        github=github,
        signature=signature,
    )


def loadgen_settings(resolved: ResolvedConfig | Path | str, settings: Any) -> Any:
    """Apply a resolved config to a LoadGen `mlperf_loadgen.TestSettings` (after `FromConfig`,
    with `scenario` set): the three seeds, the minimum duration at the scenario's load, the minimum
    sample count. A path is read and proven as `check` reads it; returns `settings`.

    catalogctl never imports LoadGen: the runner passes its own TestSettings in."""
    from catalogctl.run.check import read_resolved
    from catalogctl.run.integrity import verify_config
    from catalogctl.run.loadgen import apply_settings

    if isinstance(resolved, (str, Path)):
        config, written = read_resolved(Path(resolved))
        verify_config(config, str(resolved), written)
    else:
        config = resolved
        verify_config(config, "the resolved config")
    return apply_settings(config, settings)
