"""A synthetic catalog of any size, built from the shipped catalog's own files.

Importable by the benchmark scripts (`from synthetic import write_catalog, make_repo`):

- `write_catalog(root, n)` writes `root/benchmark_suite/` with `n` benchmarks, one model per 10
  benchmarks and one dataset per 2 benchmarks (plus a small pool of accuracy datasets that many
  benchmarks share). Every file is a real catalog file (deepseek-r1, gpt-oss-120b and their
  datasets) with its ids substituted and every pending value (`<TBD>`) replaced by a
  real-looking value, so the catalog validates with no errors and no pending values.
- `make_repo(root, tag)` makes `root` a git repository with one commit and an annotated tag,
  isolated from the user's and the system's git configuration.

Generation is deterministic for a given `n` and `seed`.
"""

from __future__ import annotations

import math
import os
import random
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

SHIPPED = Path(__file__).resolve().parent.parent / "benchmark_suite"
SUITE_DIR = "benchmark_suite"

BENCHMARKS_PER_MODEL = 10
BENCHMARKS_PER_DATASET = 2
# Accuracy datasets (aime25, gpqa, livecodebench copies) are shared: one group of three per
# this many benchmarks.
BENCHMARKS_PER_ACCURACY_GROUP = 100

_PENDING = re.compile(r"<[^<>\n]+>")
_GIT_ENV = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"}
_GIT_IDENTITY = ("-c", "user.name=bench", "-c", "user.email=bench@example.invalid")


class TemplateError(RuntimeError):
    """A shipped file no longer has the shape the generator substitutes into."""


@dataclass(frozen=True)
class CatalogShape:
    """What `write_catalog` wrote."""

    root: Path
    benchmarks: int
    models: int
    datasets: int
    files: int
    bytes: int


def _sub(text: str, pattern: str, replacement: str, name: str, count: int = 1) -> str:
    """Replace exactly `count` occurrences of a line pattern; fail loudly when the template drifted."""
    out, found = re.subn(pattern, replacement.replace("\\", r"\\"), text, count=count, flags=re.MULTILINE)
    if found != count:
        raise TemplateError(f"{name}: expected {count} match(es) of {pattern!r}, found {found}")
    return out


def _no_pending(text: str, name: str) -> str:
    left = _PENDING.search(text)
    if left is not None:
        raise TemplateError(f"{name}: pending value {left.group(0)!r} left after substitution")
    return text


class _Templates:
    """The shipped files the generator copies, read once."""

    def __init__(self, source: Path) -> None:
        def read(rel: str) -> str:
            return (source / rel).read_text(encoding="utf-8")

        self.suite = read("suite.yaml")
        self.metrics = read("metrics.yaml")
        self.bench_deepseek = read("benchmarks/deepseek-r1.yaml")
        self.bench_gpt_oss = read("benchmarks/gpt-oss-120b.yaml")
        self.model_deepseek = read("models/deepseek-r1.yaml")
        self.model_gpt_oss = read("models/gpt-oss-120b.yaml")
        self.ds_mlperf = read("datasets/mlperf_deepseek_r1.yaml")
        self.ds_perf = read("datasets/gpt_oss_perf.yaml")
        self.ds_aime = read("datasets/aime25.yaml")
        self.ds_gpqa = read("datasets/gpqa.yaml")
        self.ds_lcb = read("datasets/livecodebench.yaml")


class _Generator:
    def __init__(self, templates: _Templates, seed: int) -> None:
        self.t = templates
        self.rng = random.Random(seed)

    def hex(self, digits: int) -> str:
        return f"{self.rng.getrandbits(digits * 4):0{digits}x}"

    # -- models ---------------------------------------------------------------------------

    def model(self, ident: str, index: int) -> str:
        deepseek = index % 2 == 0
        text = self.t.model_deepseek if deepseek else self.t.model_gpt_oss
        org = "deepseek-ai" if deepseek else "openai"
        text = _sub(text, r"^id: .*$", f"id: {ident}", ident)
        text = _sub(text, r"^reference_id: .*$", f"reference_id: {org}/{ident}", ident)
        text = _sub(text, r"^sha: .*$", f"sha: {self.hex(40)}", ident)
        return _no_pending(text, ident)

    # -- datasets -------------------------------------------------------------------------

    def _source(self, text: str, ident: str) -> str:
        text = _sub(text, r"^id: .*$", f"id: {ident}", ident)
        # A runner's names for a dataset stand for that dataset alone: each copy gets its own.
        text = re.sub(
            r"^aliases: \[(.*)\]$",
            lambda m: "aliases: [" + ", ".join(f"{ident}-{a.strip()}" for a in m.group(1).split(",")) + "]",
            text,
            flags=re.MULTILINE,
        )
        # So does the MLPerf tools' name: a copy goes by its id there.
        text = re.sub(r"^mlperf_name: .*\n", "", text, flags=re.MULTILINE)
        # Pinned or pending in the template, each copy gets a source of its own.
        text = _sub(text, r"^  url: .*$", f"  url: https://data.example.invalid/{ident}/data.parquet", ident)
        return _sub(text, r"^  sha256: .*$", f"  sha256: {self.hex(64)}", ident)

    def dataset_mlperf(self, ident: str) -> str:
        """Shaped like mlperf_deepseek_r1: prompted and scored (4388 samples)."""
        return _no_pending(self._source(self.t.ds_mlperf, ident), ident)

    def dataset_perf(self, ident: str) -> str:
        """Shaped like gpt_oss_perf: performance prompts only."""
        return _no_pending(self._source(self.t.ds_perf, ident), ident)

    def dataset_aime(self, ident: str) -> str:
        return _no_pending(self._source(self.t.ds_aime, ident), ident)

    def dataset_gpqa(self, ident: str) -> str:
        return _no_pending(self._source(self.t.ds_gpqa, ident), ident)

    def dataset_lcb(self, ident: str) -> str:
        return _no_pending(self._source(self.t.ds_lcb, ident), ident)

    # -- benchmarks -----------------------------------------------------------------------

    def bench_deepseek(self, ident: str, model: str, dataset: str) -> str:
        """Shaped like deepseek-r1: one dataset for both phases."""
        text = self.t.bench_deepseek
        text = _sub(text, r"^id: .*$", f"id: {ident}", ident)
        text = _sub(text, r"^model: .*$", f"model: {model}", ident)
        text = _sub(text, r"^  datasets: \[mlperf_deepseek_r1\]$", f"  datasets: [{dataset}]", ident)
        text = _sub(text, r"^    - dataset: mlperf_deepseek_r1$", f"    - dataset: {dataset}", ident)
        return _no_pending(text, ident)

    def bench_gpt_oss(self, ident: str, model: str, perf: str, accuracy: tuple[str, str, str]) -> str:
        """Shaped like gpt-oss-120b: a performance dataset and three shared accuracy datasets."""
        text = self.t.bench_gpt_oss
        text = _sub(text, r"^id: .*$", f"id: {ident}", ident)
        text = _sub(text, r"^model: .*$", f"model: {model}", ident)
        text = _sub(text, r"^  datasets: \[gpt_oss_perf\]$", f"  datasets: [{perf}]", ident)
        for old, new in zip(("aime25", "gpqa", "livecodebench"), accuracy, strict=True):
            text = _sub(text, rf"^    - dataset: {old}$", f"    - dataset: {new}", ident)
        return _no_pending(text, ident)


def write_catalog(root: Path, n: int, *, seed: int = 0, source: Path = SHIPPED) -> CatalogShape:
    """Write a catalog of `n` benchmarks under `root/benchmark_suite/` (which must not exist).

    Benchmarks come in pairs sharing one dataset; pairs alternate between the deepseek-r1 shape
    (its dataset serves both phases) and the gpt-oss-120b shape (its dataset is the performance
    set; accuracy uses one of the shared aime25/gpqa/livecodebench groups). Models are assigned
    ten benchmarks each and alternate between the two model files.
    """
    if n < 1:
        raise ValueError("n must be at least 1")
    gen = _Generator(_Templates(source), seed)
    suite = root / SUITE_DIR
    folders = {name: suite / name for name in ("benchmarks", "models", "datasets")}
    for folder in folders.values():
        folder.mkdir(parents=True)
    shutil.copyfile(source / "suite.yaml", suite / "suite.yaml")
    shutil.copyfile(source / "metrics.yaml", suite / "metrics.yaml")
    files = 2
    size = (suite / "suite.yaml").stat().st_size + (suite / "metrics.yaml").stat().st_size

    def put(kind: str, ident: str, text: str) -> None:
        nonlocal files, size
        data = text.encode("utf-8")
        (folders[kind] / f"{ident}.yaml").write_bytes(data)
        files += 1
        size += len(data)

    models = math.ceil(n / BENCHMARKS_PER_MODEL)
    for m in range(models):
        put("models", _model_id(m), gen.model(_model_id(m), m))

    pairs = math.ceil(n / BENCHMARKS_PER_DATASET)
    for k in range(pairs):
        if k % 2 == 0:
            put("datasets", _pair_dataset_id(k), gen.dataset_mlperf(_pair_dataset_id(k)))
        else:
            put("datasets", _pair_dataset_id(k), gen.dataset_perf(_pair_dataset_id(k)))

    groups = math.ceil(n / BENCHMARKS_PER_ACCURACY_GROUP)
    for g in range(groups):
        aime, gpqa, lcb = _accuracy_ids(g)
        put("datasets", aime, gen.dataset_aime(aime))
        put("datasets", gpqa, gen.dataset_gpqa(gpqa))
        put("datasets", lcb, gen.dataset_lcb(lcb))

    for i in range(n):
        k = i // BENCHMARKS_PER_DATASET
        model = _model_id(i // BENCHMARKS_PER_MODEL)
        if k % 2 == 0:
            ident = f"b{i:06d}-deepseek-r1"
            put("benchmarks", ident, gen.bench_deepseek(ident, model, _pair_dataset_id(k)))
        else:
            ident = f"b{i:06d}-gpt-oss-120b"
            group = _accuracy_ids((i // BENCHMARKS_PER_ACCURACY_GROUP) % groups)
            put("benchmarks", ident, gen.bench_gpt_oss(ident, model, _pair_dataset_id(k), group))

    return CatalogShape(root, n, models, pairs + 3 * groups, files, size)


def _model_id(m: int) -> str:
    return f"m{m:05d}-{'deepseek-r1' if m % 2 == 0 else 'gpt-oss-120b'}"


def _pair_dataset_id(k: int) -> str:
    return f"d{k:06d}_{'mlperf_deepseek_r1' if k % 2 == 0 else 'gpt_oss_perf'}"


def _accuracy_ids(g: int) -> tuple[str, str, str]:
    return f"a{g:04d}_aime25", f"a{g:04d}_gpqa", f"a{g:04d}_livecodebench"


def git(root: Path, *args: str) -> str:
    """Run git in `root` with an explicit identity, isolated from global and system config."""
    env = {**os.environ, **_GIT_ENV}
    done = subprocess.run(["git", *_GIT_IDENTITY, *args], cwd=root, env=env, check=True, capture_output=True, text=True)
    return done.stdout.strip()


def make_repo(root: Path, tag: str = "bench-v1", message: str = "synthetic catalog") -> str:
    """Make `root` a git repository holding its files in one commit on `main`, tagged `tag`
    (annotated). Returns the commit id."""
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-gpg-sign", "-m", message)
    git(root, "tag", "-a", "--no-sign", "-m", message, tag)
    return git(root, "rev-parse", "HEAD")
