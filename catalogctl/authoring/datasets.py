"""Dataset integrity at the source: `datasets verify` (download or read, compare sha256) and
`datasets pin` (compute the sha256, and the sample count where the format allows, and write
them into the dataset's YAML keeping its comments and layout)."""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlparse

from catalogctl import words
from catalogctl.catalog.config import layout_for
from catalogctl.catalog.diagnostics import did_you_mean, errors_only
from catalogctl.catalog.layout import Layout
from catalogctl.catalog.loader import load_tree
from catalogctl.catalog.source import find_root
from catalogctl.catalog.validation import validate_document
from catalogctl.errors import (
    CatalogError,
    CatalogInvalid,
    Diagnostic,
    DownloadProblem,
    EntityNotFound,
    UsageError,
    error,
)
from catalogctl.io.download import DEFAULT_LIMITS, Fetched, Limits, download, read_local
from catalogctl.io.files import write_atomic
from catalogctl.io.tree import Tree, UnsafePath, WorkingTree, blob_id
from catalogctl.io.urls import credentials_in, redact_text, redact_url
from catalogctl.io.yamlio import PathKey, YamlProblem, parse_document, update_document
from catalogctl.model import Dataset, Pending
from catalogctl.model.common import id_problem
from catalogctl.model.reports.dataset_verification import DatasetsReport, Status, VerifiedDataset

Progress = Callable[[str, int, int | None], None]
_FORMATS = {".jsonl": "jsonl", ".json": "json", ".csv": "csv", ".parquet": "parquet"}


def _format(dataset: Dataset | None, location: str) -> str | None:
    if dataset is not None and dataset.source.format is not None:
        return dataset.source.format
    return _FORMATS.get(Path(urlparse(location).path).suffix.lower())


def fetch(location: str, fmt: str | None, progress: Progress | None = None, limits: Limits = DEFAULT_LIMITS) -> Fetched:
    """Download a URL (within `limits`), or read a local path."""
    if urlparse(location).scheme in ("http", "https"):
        shown = redact_url(location)  # the progress bar's label: never the URL's credentials
        report = (lambda done, total: progress(shown, done, total)) if progress else None
        return download(location, fmt, report, limits=limits)
    if urlparse(location).scheme:
        raise UsageError(f"cannot fetch {redact_url(location)}: only http(s) URLs and local paths are supported here")
    return read_local(location, fmt)


def _datasets(tree: Tree, ids: Iterable[str], layout: Layout | None) -> dict[str, Dataset]:
    result = load_tree(tree, layout=layout)
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
    *,
    layout: Layout | None = None,
) -> DatasetsReport:
    """Compare each dataset's source bytes with its pinned sha256, each download within `limits`
    (the catalog read in `layout`, default its repository's). With `local`, the files are read
    from that folder, by the URL's file name or the id: a file that is not there is a usage
    error, found before anything is hashed."""
    if local is not None and not local.is_dir():
        raise UsageError(
            f"{local} is not a folder" if local.exists() else f"{local} does not exist",
            "--local names the folder that holds the datasets' files",
        )
    rows: list[VerifiedDataset | tuple[str, Dataset, str, str]] = []  # a result, or what to fetch
    missing: list[str] = []
    for ident, dataset in _datasets(tree, ids, layout).items():
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
    declared = dataset.source.size
    if declared is not None:  # a stated size is the cap: a byte more is already the wrong file
        limits = replace(limits, max_bytes=declared, cap_from="the size the catalog states")
    try:
        fetched = fetch(location, _format(dataset, location), progress, limits)
    except (DownloadProblem, UsageError) as exc:
        return _verified(ident, "error", expected, detail=str(exc))
    detail = f"{words.count(fetched.size, 'byte', grouped=True)} from {redact_url(location)}"
    if declared is not None and fetched.size != declared:
        return _verified(ident, "mismatch", expected, fetched.sha256, f"{detail}; the catalog states {declared:,}")
    status: Literal["ok", "mismatch"] = "ok" if fetched.sha256 == expected else "mismatch"
    return _verified(ident, status, expected, fetched.sha256, detail)


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


def _read_dataset_file(root: Path, ident: str, layout: Layout) -> tuple[str, bytes]:
    """The repository-relative path and bytes of dataset `ident`'s file, found where the layout
    puts it and read by the working tree's rules: the id is checked before any path is built, and
    a file that is or passes through a symlink is refused as `validate` refuses it."""
    not_an_id = id_problem(ident)
    if not_an_id is not None:  # `../x` or `/x` would name a file outside the catalog
        raise UsageError(not_an_id, "name a dataset by its id (list them with `catalogctl ls datasets`)")
    tree, relative = WorkingTree(root), layout.entity_path("dataset", ident)
    kind = tree.kind(relative)
    if kind is None:
        datasets = [Path(e.path).stem for e in tree.entries(layout.entity_dirs["dataset"]) if e.path.endswith(".yaml")]
        raise EntityNotFound(f"no dataset `{ident}` in the working tree", did_you_mean(ident, datasets))
    if kind == "file":
        try:
            return relative, tree.read(relative)
        except UnsafePath:  # a folder on the way is a link (or the file was swapped for one)
            problem = error("file-symlink", "a folder on its path is a symlink; not followed", relative)
    elif kind == "symlink":
        problem = error("file-symlink", "symlinks are not allowed in the catalog; not followed", relative)
    else:
        problem = error("file-unexpected", f"`{relative}` should be a file, not a {kind}", relative)
    hint = "make it a real file in a real folder; nothing was written"
    raise CatalogInvalid(f"{relative} does not validate: fix it before pinning", [replace(problem, hint=hint)])


def _parsed(relative: str, data: bytes) -> Dataset:
    """The dataset a file holds; `CatalogInvalid` as `validate` reports it when it holds none."""
    try:
        doc = parse_document(relative, data)
    except YamlProblem as problem:  # not YAML, or not UTF-8: reported as `validate` reports it
        raise CatalogInvalid(
            f"{relative} does not validate: fix it before pinning", [problem.diagnostic(relative)]
        ) from None
    dataset, problems = validate_document(doc, Dataset)
    if dataset is None:
        raise CatalogInvalid(f"{relative} does not validate: fix it before pinning", problems)
    return dataset


def _named_format(location: str) -> str | None:
    """The format a file's name says (`.jsonl`, …), None when it says none we know."""
    path = urlparse(location).path if urlparse(location).scheme in ("http", "https") else location
    return _FORMATS.get(Path(path).suffix.lower())


@dataclass(frozen=True)
class _Change:
    """One value a pin writes; `flag` names the option that must allow it, if any."""

    path: tuple[str, ...]
    old: object
    new: object
    flag: str = ""

    def __str__(self) -> str:
        old = "(none)" if self.old is None else self.old
        return redact_text(f"{'.'.join(self.path)}: {old} -> {self.new}")  # a URL written by hand


def _changes(dataset: Dataset, source: str, named: str | None, fetched: Fetched) -> list[_Change]:
    """What pinning `source` writes. A sample count or a format the catalog already states is a
    claim about the data: a pin of the wrong file must not overwrite it silently."""
    changes = [_Change(("source", "sha256"), dataset.source.sha256, fetched.sha256)]
    if fetched.size != dataset.source.size:  # the size goes with the hash: the next verify's cap
        changes.append(_Change(("source", "size"), dataset.source.size, fetched.size))
    if urlparse(source).scheme in ("http", "https") and source != dataset.source.url:
        changes.append(_Change(("source", "url"), dataset.source.url, source))
    declared = dataset.source.format
    if declared is not None and named is not None and named != declared:
        changes.append(_Change(("source", "format"), declared, named, "--update-format"))
    if fetched.records is not None and not dataset.splits and fetched.records != dataset.samples:
        flag = "" if isinstance(dataset.samples, Pending) else "--update-samples"  # pending: filled in
        changes.append(_Change(("samples",), dataset.samples, fetched.records, flag))
    return changes


def _edited(data: bytes, updates: dict[PathKey, Any]) -> bytes:
    """`data` with `updates` made, keeping its BOM and its CRLF line ends (the round trip
    through ruamel.yaml drops the one and writes LF)."""
    bom = codecs.BOM_UTF8 if data.startswith(codecs.BOM_UTF8) else b""
    text = data[len(bom) :].decode("utf-8")  # parsed, so it is UTF-8
    crlf = text.count("\r\n") == text.count("\n") > 0  # every line ends in CRLF (a mixed file gets LF)
    # In LF for the round trip: ruamel.yaml keeps a comment's CR as part of its text.
    new_text = update_document(text.replace("\r\n", "\n") if crlf else text, updates)
    return bom + (new_text.replace("\n", "\r\n") if crlf else new_text).encode("utf-8")


class _Pinned(WorkingTree):
    """The working tree as the pin would leave it: one file's bytes replaced."""

    def __init__(self, root: Path, path: str, data: bytes) -> None:
        super().__init__(root)
        self.path, self.data = path, data

    def read(self, path: str) -> bytes:
        """The new bytes of the pinned file, any other file's own."""
        return self.data if path == self.path else super().read(path)

    def file_ids(self, folder: str) -> dict[str, str]:
        """As the working tree's, with the pinned file's id computed from its new bytes."""
        ids = super().file_ids(folder)
        if self.path in ids:
            ids[self.path] = f"{ids[self.path].split(':')[0]}:{blob_id(self.data)}"
        return ids


def _check_catalog(root: Path, relative: str, data: bytes, layout: Layout) -> None:
    """Refuse a pin after which the catalog has errors it did not have (a benchmark's figure
    computed from the old sample count, say): never write a file the catalog would refuse."""

    def errors(tree: Tree) -> dict[tuple[str, str, str], Diagnostic]:
        return {(d.path, d.code, d.message): d for d in errors_only(load_tree(tree, layout=layout).diagnostics)}

    before, after = errors(WorkingTree(root)), errors(_Pinned(root, relative, data))
    new = [d for key, d in after.items() if key not in before]
    if new:
        raise CatalogInvalid(f"pinning {relative} would leave the catalog invalid; nothing was written", new)


def _refuse_credentials(ident: str, source: str) -> None:
    """Refuse to pin a URL that carries credentials: the URL goes into the dataset's file, and the
    catalog is committed and public, so a token there is published. User info is refused always;
    of the query, parameters named like a secret (`token`, `key`, `signature`, `X-Amz-*`, see
    `urls.credentials_in`), since a presigned URL expires anyway and cannot be a lasting source."""
    if urlparse(source).scheme not in ("http", "https"):
        return
    found = credentials_in(source)
    if found:
        params = [f"`{name}`" for name in found if name != "user info"]
        what = ["user info"] if "user info" in found else []
        if params:
            what.append(f"the query {words.noun(len(params), 'parameter')} {', '.join(params)}")
        raise UsageError(
            f"{redact_url(source)} carries credentials ({', '.join(what)}): a dataset's URL is written into "
            "the catalog, which is committed and public; nothing was written",
            f"pin a URL that needs no credentials, or download the file and pin the local copy "
            f"(`catalogctl datasets pin {ident} FILE`)",
        )


def pin_dataset(
    root: Path,
    ident: str,
    source: str,
    progress: Progress | None = None,
    limits: Limits = DEFAULT_LIMITS,
    *,
    update_samples: bool = False,
    update_format: bool = False,
) -> Pinned:
    """Hash `source` (a local file or an http(s) URL) and write its sha256 -- and its URL, and
    the sample count when it can be counted and the dataset has no splits -- into the dataset's
    file in the working tree, keeping comments, layout, line ends and BOM. A different sample
    count or format than the file states is refused unless `update_samples`/`update_format`;
    a download stays within `limits`. The file is where the layout configured at `root` puts it."""
    layout = layout_for(root)
    root = find_root(root, layout).resolve()
    _refuse_credentials(ident, source)
    relative, data = _read_dataset_file(root, ident, layout)
    dataset = _parsed(relative, data)
    named = _named_format(source)
    fetched = fetch(source, named or dataset.source.format, progress, limits)
    changes = _changes(dataset, source, named, fetched)
    allowed = {"", *(["--update-samples"] if update_samples else []), *(["--update-format"] if update_format else [])}
    refused = [c for c in changes if c.flag not in allowed]
    if refused:
        raise CatalogError(
            f"pinning {relative} to {redact_url(source)} would change {' and '.join(map(str, refused))}; "
            "nothing was written",
            f"if it is the dataset's file, rerun with {' '.join(c.flag for c in refused)}",
        )
    new = _edited(data, {c.path: c.new for c in changes})
    check, problems = validate_document(parse_document(relative, new), Dataset)
    if check is None:  # never write a file the catalog would refuse
        raise CatalogInvalid(f"pinning would make {relative} invalid", problems)
    _check_catalog(root, relative, new, layout)
    _read_dataset_file(root, ident, layout)  # still a file of ours: not swapped for a link while we fetched
    write_atomic(root / relative, new)
    return Pinned(ident, relative, fetched.sha256, fetched.records, [str(c) for c in changes])
