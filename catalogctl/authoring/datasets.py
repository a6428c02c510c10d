"""Dataset integrity at the source: `datasets verify` (download or read, compare sha256) and
`datasets pin` (compute the sha256, and the sample count where the format allows, and write
them into the dataset's YAML keeping its comments and layout)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlparse

from catalogctl.catalog.diagnostics import did_you_mean, errors_only
from catalogctl.catalog.layout import ENTITY_DIRS
from catalogctl.catalog.loader import load_tree
from catalogctl.catalog.source import find_root
from catalogctl.catalog.validation import validate_document
from catalogctl.errors import CatalogInvalid, DownloadProblem, EntityNotFound, UsageError
from catalogctl.io.download import DEFAULT_LIMITS, Fetched, Limits, download, read_local
from catalogctl.io.files import write_atomic
from catalogctl.io.tree import Tree
from catalogctl.io.yamlio import YamlProblem, parse_document, update_document
from catalogctl.model import Dataset, Pending
from catalogctl.model.datasets import DatasetsReport, Status, VerifiedDataset

Progress = Callable[[str, int, int | None], None]
_FORMATS = {".jsonl": "jsonl", ".json": "json", ".csv": "csv", ".parquet": "parquet"}


def _format(dataset: Dataset | None, location: str) -> str | None:
    if dataset is not None and dataset.source.format is not None:
        return dataset.source.format
    return _FORMATS.get(Path(urlparse(location).path).suffix.lower())


def fetch(location: str, fmt: str | None, progress: Progress | None = None, limits: Limits = DEFAULT_LIMITS) -> Fetched:
    """Download a URL (within `limits`), or read a local path."""
    if urlparse(location).scheme in ("http", "https"):
        report = (lambda done, total: progress(location, done, total)) if progress else None
        return download(location, fmt, report, limits=limits)
    if urlparse(location).scheme:
        raise UsageError(f"cannot fetch {location}: only http(s) URLs and local paths are supported here")
    return read_local(location, fmt)


def _datasets(tree: Tree, ids: Iterable[str]) -> dict[str, Dataset]:
    result = load_tree(tree)
    wanted = list(ids) or sorted(result.catalog.datasets)
    found: dict[str, Dataset] = {}
    for ident in wanted:
        if ("dataset", ident) in result.catalog.invalid:
            problems = [d for d in errors_only(result.diagnostics) if d.path.endswith(f"/{ident}.yaml")]
            raise CatalogInvalid(f"dataset `{ident}` does not validate", problems)
        if ident not in result.catalog.datasets:
            hint = did_you_mean(ident, result.catalog.datasets) or "list them with `catalogctl ls datasets`"
            raise EntityNotFound(f"no dataset `{ident}` in the {tree.label}", hint)
        found[ident] = result.catalog.datasets[ident]
    return found


def verify_datasets(
    tree: Tree,
    ids: Iterable[str] = (),
    local: Path | None = None,
    progress: Progress | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> DatasetsReport:
    """Compare each dataset's source bytes with its pinned sha256, each download within `limits`.
    With `local`, the files are read from that folder, by the URL's file name or the id: a file
    that is not there is a usage error, found before anything is hashed."""
    if local is not None and not local.is_dir():
        raise UsageError(
            f"{local} is not a folder" if local.exists() else f"{local} does not exist",
            "--local names the folder that holds the datasets' files",
        )
    rows: list[VerifiedDataset | tuple[str, Dataset, str, str]] = []  # a result, or what to fetch
    missing: list[str] = []
    for ident, dataset in _datasets(tree, ids).items():
        expected, url = dataset.source.sha256, dataset.source.url
        if isinstance(expected, Pending):
            rows.append(_verified(ident, "pending", str(expected), detail="the sha256 is not pinned yet"))
        elif local is not None:
            names = _local_names(ident, url)
            found = next((local / name for name in names if (local / name).is_file()), None)
            if found is None:
                missing.append(f"{ident} ({' or '.join(names)})")
            else:
                rows.append((ident, dataset, expected, str(found)))
        elif isinstance(url, Pending):
            rows.append(_verified(ident, "pending", expected, detail="no source url to download"))
        else:
            rows.append((ident, dataset, expected, url))
    if missing:
        raise UsageError(
            f"{local} has no file for {', '.join(missing)}",
            "put the files there, or name only the datasets to verify",
        )
    return DatasetsReport(
        datasets=[row if isinstance(row, VerifiedDataset) else _verify(*row, progress, limits) for row in rows]
    )


def _local_names(ident: str, url: str | Pending) -> list[str]:
    """The names a dataset's file may have in a local folder: the URL's file name, then the id."""
    name = Path(urlparse(str(url)).path).name if not isinstance(url, Pending) else ""
    return [name, ident] if name and name != ident else [ident]


def _verify(
    ident: str, dataset: Dataset, expected: str, location: str, progress: Progress | None, limits: Limits
) -> VerifiedDataset:
    try:
        fetched = fetch(location, _format(dataset, location), progress, limits)
    except (DownloadProblem, UsageError) as exc:
        return _verified(ident, "error", expected, detail=str(exc))
    status: Literal["ok", "mismatch"] = "ok" if fetched.sha256 == expected else "mismatch"
    return _verified(ident, status, expected, fetched.sha256, f"{fetched.size:,} bytes from {location}")


def _verified(ident: str, status: Status, expected: str, observed: str = "", detail: str = "") -> VerifiedDataset:
    return VerifiedDataset(dataset=ident, status=status, expected=expected, observed=observed, detail=detail)


@dataclass(frozen=True)
class Pinned:
    """What `pin` changed in a dataset file."""

    dataset: str
    path: str
    sha256: str
    samples: int | None
    changes: list[str]


def pin_dataset(
    root: Path, ident: str, source: str, progress: Progress | None = None, limits: Limits = DEFAULT_LIMITS
) -> Pinned:
    """Hash `source` (a local file or an http(s) URL) and write its sha256 -- and its URL, and
    the sample count when it can be counted and the dataset has no splits -- into the dataset's
    file in the working tree, keeping comments and layout; a download stays within `limits`."""
    root = find_root(root)
    path = root / ENTITY_DIRS["dataset"] / f"{ident}.yaml"
    if not path.is_file():
        datasets = sorted(p.stem for p in path.parent.glob("*.yaml"))
        raise EntityNotFound(f"no dataset `{ident}` in the working tree", did_you_mean(ident, datasets))
    relative = str(path.relative_to(root))
    data = path.read_bytes()
    try:
        doc = parse_document(relative, data)
    except YamlProblem as problem:  # not YAML, or not UTF-8: reported as `validate` reports it
        raise CatalogInvalid(
            f"{relative} does not validate: fix it before pinning", [problem.diagnostic(relative)]
        ) from None
    text = data.decode("utf-8")  # parsed, so it is UTF-8
    dataset, problems = validate_document(doc, Dataset)
    if dataset is None:
        raise CatalogInvalid(f"{relative} does not validate: fix it before pinning", problems)
    fetched = fetch(source, _format(dataset, source), progress, limits)
    updates: dict[tuple[str | int, ...], Any] = {("source", "sha256"): fetched.sha256}
    changes = [f"source.sha256: {dataset.source.sha256} -> {fetched.sha256}"]
    if urlparse(source).scheme in ("http", "https") and source != dataset.source.url:
        updates[("source", "url")] = source
        changes.append(f"source.url: {dataset.source.url} -> {source}")
    if fetched.records is not None and not dataset.splits and fetched.records != dataset.samples:
        updates[("samples",)] = fetched.records
        changes.append(f"samples: {dataset.samples} -> {fetched.records}")
    new_text = update_document(text, updates)
    check, problems = validate_document(parse_document(str(path), new_text.encode("utf-8")), Dataset)
    if check is None:  # never write a file the catalog would refuse
        raise CatalogInvalid(f"pinning would make {path.relative_to(root)} invalid", problems)
    write_atomic(path, new_text.encode("utf-8"))
    return Pinned(ident, str(path.relative_to(root)), fetched.sha256, fetched.records, changes)
