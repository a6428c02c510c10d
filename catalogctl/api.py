"""Entry points of the public API that combine several modules.

Each reads the layout (catalog and rulesets folders) the repository at its `path` configures
(`catalog.config.layout_for`) and passes it to what it calls: a library call reads the same
folders as the command it stands for."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from catalogctl.catalog.config import layout_for
from catalogctl.catalog.source import open_tree

if TYPE_CHECKING:
    from catalogctl.catalog.index import LoadResult
    from catalogctl.catalog.verdict import Verdict
    from catalogctl.model.documents.resolved import ResolvedConfig
    from catalogctl.model.reports.diff import DiffReport
    from catalogctl.model.reports.release import FreezeResult, Releases, Verification
    from catalogctl.release.freeze import FreezeRequest
    from catalogctl.release.trust import SignatureFlags


def _start(path: Path | str | None) -> Path:
    """The folder a call works in: `path`, or the current folder."""
    return Path.cwd() if path is None else Path(path)


def load_catalog(path: Path | str | None = None, ref: str | None = None, *, use_cache: bool = True) -> LoadResult:
    """Load and validate the catalog of the working tree at `path` (default: the current
    folder), or of `ref` in its repository (read from the object database, never checked out).
    Files already checked are taken from the document cache unless `use_cache` is False.
    Returns the catalog with every diagnostic; raises EnvironmentProblem or RefNotFound."""
    from catalogctl.catalog.loader import load_tree

    layout = layout_for(_start(path))
    return load_tree(open_tree(_start(path), ref, layout), layout=layout, use_cache=use_cache)


def validate_catalog(path: Path | str | None = None, ref: str | None = None, *, use_cache: bool = True) -> Verdict:
    """The diagnostics `load_catalog` gives, without the catalog: answered from the remembered
    verdict when nothing it depends on changed since a run that checked it (`catalog.verdict`)."""
    from catalogctl.catalog.verdict import check_tree

    layout = layout_for(_start(path))
    return check_tree(open_tree(_start(path), ref, layout), layout=layout, use_cache=use_cache)


def diff_refs(path: Path | str | None, old: str, new: str | None = None) -> DiffReport:
    """The semantic diff between two refs (cohort ids, tags, branches, commits) of the repository
    at `path`; `new=None` compares with the working tree."""
    from catalogctl.diff.trees import diff_trees

    layout = layout_for(_start(path))
    old_tree = open_tree(_start(path), old, layout)
    new_tree = open_tree(_start(path), new, layout)
    return diff_trees(old_tree, new_tree, old, new or "working tree", layout=layout)


def list_releases(path: Path | str | None = None, signature: SignatureFlags | None = None) -> Releases:
    """The frozen cohorts of the working tree's catalog, with the state of their tags and signers."""
    import datetime as dt

    from catalogctl.catalog.config import calendar_for
    from catalogctl.catalog.loader import load_tree
    from catalogctl.catalog.source import find_root
    from catalogctl.io import gitrepo
    from catalogctl.io.tree import WorkingTree
    from catalogctl.release.releases import list_cohorts, releases
    from catalogctl.release.trust import trust_for

    layout = layout_for(_start(path))
    root = find_root(_start(path), layout)
    repo = gitrepo.open_repository(root)
    catalog = load_tree(WorkingTree(root), layout=layout).catalog
    frozen = list_cohorts(repo, catalog, layout, trust_for(repo, signature))
    return releases(frozen, dt.datetime.now(dt.UTC).date(), calendar_for(root))


def verify_release(
    path: Path | str | None, cohort: str, ref: str | None = None, signature: SignatureFlags | None = None
) -> Verification:
    """Verify a cohort's release (see `releases.verify_cohort`), its signature by `signature`
    (the flags), the environment or git config (see `release.signers`)."""
    from catalogctl.io import gitrepo
    from catalogctl.release.releases import verify_cohort
    from catalogctl.release.trust import trust_for

    layout = layout_for(_start(path))
    repo = gitrepo.open_repository(_start(path))
    return verify_cohort(repo, cohort, layout, ref, trust_for(repo, signature))


def resolve_submission(
    submission: Path | str, path: Path | str | None = None, ref: str | None = None
) -> ResolvedConfig:
    """The resolved config of a submission, from its cohort's release tag (or `ref`) in the
    repository at `path`; no checkout or remote check (see `preflight`)."""
    from catalogctl.run.resolve import resolve

    return resolve(_start(path), Path(submission), ref)


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
        _start(path),
        Path(submission),
        remote=remote,
        offline=offline,
        github=github,
        signature=signature,
    )


def freeze(path: Path | str | None, request: FreezeRequest) -> FreezeResult:
    """Freeze a cohort in the repository at `path` (default: the current folder), as `catalogctl
    freeze` does: the ruleset, its CHANGELOG.md section, the commit and (unless `request.tag` is
    False) the annotated tag, pushed when `request.push` names a remote. Returns what was done (or,
    with `request.dry_run`, what would be); raises the errors of `catalogctl.errors`."""
    from catalogctl.release.freeze import freeze as run

    return run(_start(path), request)


def tag(
    path: Path | str | None,
    cohort: str,
    *,
    push: str | None = None,
    message: str | None = None,
    dry_run: bool = False,
    sign: bool = False,
    signing_key: str | None = None,
    signing_format: str | None = None,
    signature: SignatureFlags | None = None,
) -> FreezeResult:
    """Tag the release of `cohort` merged by a pull request (`freeze` with `tag=False` on a release
    branch, then the merge), as `catalogctl tag` does: the commit of HEAD's history that added its
    ruleset is checked (on the default branch, the ruleset unchanged, the contracts it froze) and
    tagged; with `push`, the tag (never a branch) goes to that remote."""
    from catalogctl.release.tag import TagRequest
    from catalogctl.release.tag import tag as run

    request = TagRequest(
        cohort=cohort,
        dry_run=dry_run,
        push=push,
        message=message,
        sign=sign or signing_key is not None,
        signing_key=signing_key,
        signing_format=signing_format,
        signature=signature,
    )
    return run(_start(path), request)


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
