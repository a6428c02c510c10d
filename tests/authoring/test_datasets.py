"""`datasets verify` and `datasets pin` against a local HTTP server on loopback and local files."""

from __future__ import annotations

import codecs
import hashlib
import json
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from catalogctl.authoring.datasets import pin_dataset, verify_datasets
from catalogctl.errors import CatalogInvalid, UsageError
from catalogctl.io.tree import WorkingTree
from tests.catalog_edit import load
from tests.helpers import SHIPPED_CATALOG, replace_in, run_cli
from tests.run_results import resolved_config

BODY = b'{"question": "1+1?", "answer": "2"}\n' * 29 + b'{"question": "2+2?", "answer": "4"}\n'
SHA = hashlib.sha256(BODY).hexdigest()
AIME = "benchmark_suite/datasets/aime25.yaml"


@pytest.fixture
def served(catalog_dir: Path, httpserver: HTTPServer) -> Path:
    """aime25's source is served on loopback and pinned to its true sha256."""
    httpserver.expect_request("/aime25.jsonl").respond_with_data(BODY)
    replace_in(catalog_dir, AIME, "  url: <TBD>", f"  url: {httpserver.url_for('/aime25.jsonl')}")
    replace_in(catalog_dir, AIME, "  sha256: <TBD>", f"  sha256: {SHA}")
    return catalog_dir


def test_verify_downloads_and_compares(served: Path) -> None:
    [aime] = verify_datasets(WorkingTree(served), ["aime25"]).datasets
    assert (aime.status, aime.observed) == ("ok", SHA)
    assert aime.detail == f"1,080 bytes from {load(served).catalog.datasets['aime25'].source.url}"
    run_cli("datasets", "verify", "aime25", "-C", str(served))


def test_verify_reports_a_wrong_hash(served: Path) -> None:
    replace_in(served, AIME, f"  sha256: {SHA}", "  sha256: " + "f" * 64)
    result = run_cli("datasets", "verify", "aime25", "-C", str(served), "-f", "json", code=1)
    [row] = json.loads(result.stdout)["datasets"]
    assert (row["status"], row["expected"], row["observed"]) == ("mismatch", "f" * 64, SHA)


def test_verify_an_invalid_dataset_file_shows_why(served: Path) -> None:
    replace_in(served, AIME, f"  sha256: {SHA}", "  sha256: " + "0" * 63 + "1")
    result = run_cli("datasets", "verify", "aime25", "-C", str(served), code=1)
    assert result.stderr == (
        "error: dataset `aime25` does not validate\n  benchmark_suite/datasets/aime25.yaml:8:11: "
        "error yaml-integer-too-long: "
        "integer of 64 characters (at most 40) (quote it if it is not a number)\n"
    )


@pytest.mark.slow
def test_verify_reports_a_truncated_body(catalog_dir: Path, httpserver: HTTPServer) -> None:
    def truncated(request: Request) -> Response:
        response = Response(BODY[:100], status=200)
        response.headers["Content-Length"] = str(len(BODY))
        return response

    httpserver.expect_request("/aime25.jsonl").respond_with_handler(truncated)
    replace_in(catalog_dir, AIME, "  url: <TBD>", f"  url: {httpserver.url_for('/aime25.jsonl')}")
    replace_in(catalog_dir, AIME, "  sha256: <TBD>", f"  sha256: {SHA}")
    [aime] = verify_datasets(WorkingTree(catalog_dir), ["aime25"]).datasets
    assert aime.status == "error"
    assert "after 3 attempts (RemoteProtocolError: peer closed connection without sending complete message body" in (
        aime.detail
    )


def test_verify_retries_server_errors(catalog_dir: Path, httpserver: HTTPServer) -> None:
    httpserver.expect_ordered_request("/aime25.jsonl").respond_with_data("busy", status=503)
    httpserver.expect_ordered_request("/aime25.jsonl").respond_with_data(BODY)
    replace_in(catalog_dir, AIME, "  url: <TBD>", f"  url: {httpserver.url_for('/aime25.jsonl')}")
    replace_in(catalog_dir, AIME, "  sha256: <TBD>", f"  sha256: {SHA}")
    [aime] = verify_datasets(WorkingTree(catalog_dir), ["aime25"]).datasets
    assert aime.status == "ok"
    assert len(httpserver.log) == 2


@pytest.mark.slow
def test_verify_gives_up_on_a_server_that_keeps_failing(catalog_dir: Path, httpserver: HTTPServer) -> None:
    httpserver.expect_request("/aime25.jsonl").respond_with_data("down", status=500)
    replace_in(catalog_dir, AIME, "  url: <TBD>", f"  url: {httpserver.url_for('/aime25.jsonl')}")
    replace_in(catalog_dir, AIME, "  sha256: <TBD>", f"  sha256: {SHA}")
    result = run_cli("datasets", "verify", "aime25", "-C", str(catalog_dir), code=1)
    assert "download failed after 3 attempts (HTTP 500)" in result.stdout


def test_verify_a_404_is_not_retried(catalog_dir: Path, httpserver: HTTPServer) -> None:
    httpserver.expect_request("/aime25.jsonl").respond_with_data("no", status=404)
    replace_in(catalog_dir, AIME, "  url: <TBD>", f"  url: {httpserver.url_for('/aime25.jsonl')}")
    replace_in(catalog_dir, AIME, "  sha256: <TBD>", f"  sha256: {SHA}")
    [aime] = verify_datasets(WorkingTree(catalog_dir), ["aime25"]).datasets
    assert (aime.status, aime.detail) == ("error", f"{httpserver.url_for('/aime25.jsonl')}: HTTP 404")
    assert len(httpserver.log) == 1


def test_verify_lists_pending_and_reads_local_files(catalog_dir: Path, tmp_path: Path) -> None:
    local = tmp_path / "mirror"
    local.mkdir()
    (local / "aime25").write_bytes(BODY)
    replace_in(catalog_dir, AIME, "  sha256: <TBD>", f"  sha256: {SHA}")
    (local / "deepseek_r1_eval.parquet").write_bytes(BODY)  # pinned in the shipped catalog: a mismatch here
    rows = {r.dataset: r for r in verify_datasets(WorkingTree(catalog_dir), local=local).datasets}
    assert rows["aime25"].status == "ok"
    assert rows["gpqa"].status == "pending"
    assert rows["mlperf_deepseek_r1"].status == "mismatch"
    run_cli("datasets", "verify", "aime25", "gpqa", "-C", str(catalog_dir), "--local", str(local))


def test_verify_unknown_dataset_exits_2(catalog_dir: Path) -> None:
    result = run_cli("datasets", "verify", "aime24", "-C", str(catalog_dir), code=2)
    assert result.stderr == "error: no dataset `aime24` in the working tree\nhint: did you mean `aime25`?\n"


def test_pin_a_local_file_keeps_comments_and_layout(catalog_dir: Path, tmp_path: Path) -> None:
    data = tmp_path / "aime25.jsonl"
    data.write_bytes(BODY + b'{"question": "x", "answer": "y"}\n')
    path = catalog_dir / AIME
    before = "# AIME 2025, both papers.\n" + path.read_text()
    path.write_text(before)
    # The figure gpt-oss-120b computes from the count, updated first: the pin then leaves it right.
    replace_in(catalog_dir, "benchmark_suite/benchmarks/gpt-oss-120b.yaml", ": 4395", ": 4403")
    result = run_cli("datasets", "pin", "aime25", str(data), "-C", str(catalog_dir), "--update-samples")
    sha = hashlib.sha256(data.read_bytes()).hexdigest()
    size = data.stat().st_size
    assert result.stdout == (
        f"{AIME}: source.sha256: <TBD> -> {sha}\n{AIME}: source.size: (none) -> {size}\n{AIME}: samples: 30 -> 31\n"
    )
    after = path.read_text()
    pinned_source = f"  sha256: {sha}\n  size: {size}"
    assert after == before.replace("samples: 30", "samples: 31").replace("  sha256: <TBD>", pinned_source)
    assert load(catalog_dir).catalog.datasets["aime25"].samples == 31
    assert "working tree: valid (0 errors" in run_cli("validate", str(catalog_dir)).stdout


def test_pin_a_url_sets_url_and_sha(catalog_dir: Path, httpserver: HTTPServer) -> None:
    httpserver.expect_request("/data/aime25.jsonl").respond_with_data(BODY)
    url = httpserver.url_for("/data/aime25.jsonl")
    pinned = pin_dataset(catalog_dir, "aime25", url)
    assert (pinned.sha256, pinned.samples) == (SHA, 30)
    assert pinned.changes == [
        f"source.sha256: <TBD> -> {SHA}",
        f"source.size: (none) -> {len(BODY)}",
        f"source.url: <TBD> -> {url}",
    ]
    dataset = load(catalog_dir).catalog.datasets["aime25"]
    assert (dataset.source.url, dataset.source.sha256) == (url, SHA)


def test_pin_a_digest_of_digits_stays_a_string(
    catalog_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from catalogctl.authoring import datasets
    from catalogctl.io import download as remote

    monkeypatch.setattr(datasets, "fetch", lambda *a, **k: remote.Fetched("1" * 64, 10, None))
    data = tmp_path / "x.parquet"
    data.write_bytes(b"x")
    pin_dataset(catalog_dir, "gpqa", str(data))
    assert load(catalog_dir).catalog.datasets["gpqa"].source.sha256 == "1" * 64


def test_pin_keeps_samples_of_a_dataset_with_splits(catalog_dir: Path, tmp_path: Path) -> None:
    data = tmp_path / "tasks.jsonl"
    data.write_bytes(b"{}\n" * 5)
    pinned = pin_dataset(catalog_dir, "r2e-gym-subset", str(data))
    assert pinned.samples == 5
    assert load(catalog_dir).catalog.datasets["r2e-gym-subset"].samples == 951


def test_pin_unknown_dataset_and_missing_file(catalog_dir: Path, tmp_path: Path) -> None:
    result = run_cli("datasets", "pin", "aime24", str(tmp_path / "x"), "-C", str(catalog_dir), code=2)
    assert result.stderr == "error: no dataset `aime24` in the working tree\nhint: did you mean `aime25`?\n"
    result = run_cli("datasets", "pin", "aime25", str(tmp_path / "x.jsonl"), "-C", str(catalog_dir), code=2)
    assert result.stderr == f"error: cannot read {tmp_path / 'x.jsonl'}: No such file or directory\n"


def test_pin_a_dataset_file_that_is_not_utf8_says_where(catalog_dir: Path, tmp_path: Path) -> None:
    # Was a UnicodeDecodeError traceback; now reported as `validate` reports the file.
    (catalog_dir / AIME).write_bytes((catalog_dir / AIME).read_bytes().replace(b"AIME 2025", b"AIME \xe9 2025", 1))
    data = tmp_path / "aime25.jsonl"
    data.write_bytes(BODY)
    result = run_cli("datasets", "pin", "aime25", str(data), "-C", str(catalog_dir), code=1)
    assert result.stdout == ""
    assert result.stderr == (
        f"error: {AIME} does not validate: fix it before pinning\n"
        f"  {AIME}:3:13: error yaml-encoding: the file is not valid UTF-8\n"
    )
    validated = run_cli("validate", str(catalog_dir), code=1)
    assert f"{AIME}:3:13: error yaml-encoding: the file is not valid UTF-8" in validated.stdout.splitlines()


def test_pin_a_dataset_file_that_is_not_yaml(catalog_dir: Path, tmp_path: Path) -> None:
    (catalog_dir / AIME).write_text("id: aime25\nsamples: [30\n")
    data = tmp_path / "aime25.jsonl"
    data.write_bytes(BODY)
    with pytest.raises(CatalogInvalid) as raised:
        pin_dataset(catalog_dir, "aime25", str(data))
    assert [d.code for d in raised.value.diagnostics] == ["yaml-syntax"]


def test_verify_local_reads_from_a_folder_that_must_exist(catalog_dir: Path, tmp_path: Path) -> None:
    replace_in(catalog_dir, AIME, "  sha256: <TBD>", f"  sha256: {SHA}")
    missing = tmp_path / "MISSING"
    result = run_cli("datasets", "verify", "aime25", "-C", str(catalog_dir), "--local", str(missing), code=2)
    assert result.stdout == ""  # was 1, with an error row
    assert result.stderr == (
        f"error: {missing} does not exist\nhint: --local names the folder that holds the datasets' files\n"
    )
    (tmp_path / "file").write_text("x")
    with pytest.raises(UsageError, match=f"^{tmp_path / 'file'} is not a folder$"):
        verify_datasets(WorkingTree(catalog_dir), ["aime25"], tmp_path / "file")


def test_verify_local_names_every_missing_file_before_hashing_any(
    catalog_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from catalogctl.authoring import datasets

    replace_in(catalog_dir, AIME, "  sha256: <TBD>", f"  sha256: {SHA}")
    replace_in(catalog_dir, AIME, "  url: <TBD>", "  url: https://example.org/data/aime25.jsonl")
    gsm8k = "benchmark_suite/datasets/gsm8k.yaml"
    replace_in(catalog_dir, gsm8k, "  sha256: <TBD>", f"  sha256: {SHA}")
    local = tmp_path / "mirror"
    local.mkdir()
    (local / "gpqa").write_bytes(BODY)  # pending: not looked for
    monkeypatch.setattr(datasets, "fetch", pytest.fail)
    result = run_cli("datasets", "verify", "-C", str(catalog_dir), "--local", str(local), code=2)
    assert result.stdout == ""
    assert result.stderr == (
        f"error: {local} has no file for aime25 (aime25.jsonl or aime25), gsm8k (gsm8k), "
        "mlperf_deepseek_r1 (deepseek_r1_eval.parquet or mlperf_deepseek_r1)\n"
        "hint: put the files there, or name only the datasets to verify\n"
    )
    monkeypatch.undo()
    (local / "aime25.jsonl").write_bytes(BODY)
    rows = verify_datasets(WorkingTree(catalog_dir), ["aime25"], local)
    assert [(r.dataset, r.status, r.detail) for r in rows.datasets] == [
        ("aime25", "ok", f"1,080 bytes from {local / 'aime25.jsonl'}")
    ]


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A dataset file outside the catalog (beside it), which no pin may touch."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "victim.yaml").write_bytes((SHIPPED_CATALOG / "datasets" / "gsm8k.yaml").read_bytes())
    return folder / "victim.yaml"


@pytest.mark.parametrize("kind", ["traversal", "absolute"])
def test_pin_refuses_an_id_that_is_a_path(catalog_dir: Path, outside: Path, tmp_path: Path, kind: str) -> None:
    # Was exit 0 with the file outside rewritten (traversal), or a ValueError traceback (absolute).
    data = tmp_path / "ten.jsonl"
    data.write_bytes(b"{}\n" * 10)
    ident = "../../../outside/victim" if kind == "traversal" else str(outside.with_suffix(""))
    assert (catalog_dir / "benchmark_suite/datasets" / f"{ident}.yaml").resolve() == outside
    before = outside.read_bytes()
    result = run_cli("datasets", "pin", ident, str(data), "-C", str(catalog_dir), code=2)
    assert result.stdout == ""
    assert result.stderr == (
        f"error: `{ident}` is not a valid id: use 1-64 characters of a-z, 0-9, '.', '_' and '-', "
        "starting with a letter or digit, without '..'\n"
        "hint: name a dataset by its id (list them with `catalogctl ls datasets`)\n"
    )
    assert outside.read_bytes() == before


def test_pin_refuses_a_symlinked_dataset_file(catalog_dir: Path, outside: Path, tmp_path: Path) -> None:
    # Was followed: the link read, then replaced by a regular file.
    link = catalog_dir / "benchmark_suite/datasets/gsm8k.yaml"
    link.unlink()
    link.symlink_to(outside)
    data = tmp_path / "ten.jsonl"
    data.write_bytes(b"{}\n" * 10)
    before = outside.read_bytes()
    result = run_cli("datasets", "pin", "gsm8k", str(data), "-C", str(catalog_dir), code=1)
    assert result.stdout == ""
    assert result.stderr == (
        "error: benchmark_suite/datasets/gsm8k.yaml does not validate: fix it before pinning\n"
        "  benchmark_suite/datasets/gsm8k.yaml: error file-symlink: symlinks are not allowed in the catalog; "
        "not followed (make it a real file in a real folder; nothing was written)\n"
    )
    assert outside.read_bytes() == before
    assert link.is_symlink()


def test_pin_refuses_a_dataset_file_in_a_symlinked_folder(catalog_dir: Path, tmp_path: Path) -> None:
    folder = catalog_dir / "benchmark_suite/datasets"
    elsewhere = tmp_path / "elsewhere"
    folder.rename(elsewhere)
    folder.symlink_to(elsewhere, target_is_directory=True)
    data = tmp_path / "ten.jsonl"
    data.write_bytes(b"{}\n" * 10)
    before = {p.name: p.read_bytes() for p in elsewhere.iterdir()}
    result = run_cli("datasets", "pin", "gsm8k", str(data), "-C", str(catalog_dir), code=1)
    assert result.stderr == (
        "error: benchmark_suite/datasets/gsm8k.yaml does not validate: fix it before pinning\n"
        "  benchmark_suite/datasets/gsm8k.yaml: error file-symlink: a folder on its path is a symlink; not followed "
        "(make it a real file in a real folder; nothing was written)\n"
    )
    assert {p.name: p.read_bytes() for p in elsewhere.iterdir()} == before


def test_pin_refuses_a_dataset_path_that_is_a_folder(catalog_dir: Path, tmp_path: Path) -> None:
    path = catalog_dir / "benchmark_suite/datasets/gsm8k.yaml"
    path.unlink()
    path.mkdir()
    result = run_cli("datasets", "pin", "gsm8k", str(tmp_path / "x.jsonl"), "-C", str(catalog_dir), code=1)
    assert result.stderr == (
        "error: benchmark_suite/datasets/gsm8k.yaml does not validate: fix it before pinning\n"
        "  benchmark_suite/datasets/gsm8k.yaml: error file-unexpected: `benchmark_suite/datasets/gsm8k.yaml` should be "
        "a file, not a dir (make it a real file in a real folder; nothing was written)\n"
    )


def _lines(tmp_path: Path, name: str, count: int) -> Path:
    path = tmp_path / name
    path.write_bytes(b'{"question": "q", "answer": "a"}\n' * count)
    return path


def test_pin_refuses_to_change_the_sample_count(catalog_dir: Path, tmp_path: Path) -> None:
    # Was exit 0 with `samples: 1319 -> 10` written, and the catalog left invalid.
    gsm8k = catalog_dir / "benchmark_suite/datasets/gsm8k.yaml"
    before = gsm8k.read_bytes()
    data = _lines(tmp_path, "ten.jsonl", 10)
    result = run_cli("datasets", "pin", "gsm8k", str(data), "-C", str(catalog_dir), code=1)
    assert result.stdout == ""
    assert result.stderr == (
        f"error: pinning benchmark_suite/datasets/gsm8k.yaml to {data} would change samples: 1319 -> 10; "
        "nothing was written\nhint: if it is the dataset's file, rerun with --update-samples\n"
    )
    assert gsm8k.read_bytes() == before
    # Allowed, the new count would break a figure the gsm8k benchmark computes from it.
    result = run_cli("datasets", "pin", "gsm8k", str(data), "-C", str(catalog_dir), "--update-samples", code=1)
    assert result.stderr == (
        "error: pinning benchmark_suite/datasets/gsm8k.yaml would leave the catalog invalid; nothing was written\n"
        "  benchmark_suite/benchmarks/gsm8k.yaml:33:32: error figure-mismatch: min_accuracy_sample_count is 1319, but "
        "num_repeats x samples gives 10 = 1x10 (write 10, or fix the repeats)\n"
    )
    assert gsm8k.read_bytes() == before
    run_cli("validate", str(catalog_dir))


def test_pin_fills_a_pending_sample_count_without_a_flag(catalog_dir: Path, tmp_path: Path) -> None:
    replace_in(catalog_dir, AIME, "samples: 30", "samples: <TBD>")
    pin_dataset(catalog_dir, "aime25", str(_lines(tmp_path, "aime25.jsonl", 30)))
    assert load(catalog_dir).catalog.datasets["aime25"].samples == 30


def test_pin_refuses_to_change_the_format_and_writes_it_when_allowed(catalog_dir: Path, tmp_path: Path) -> None:
    # Was exit 0 with `format: parquet` kept for a .jsonl file (and its records not counted).
    relative = "benchmark_suite/datasets/mlperf_deepseek_r1.yaml"
    # From the file as it was before its source was pinned: no size, the sha256 pending.
    replace_in(catalog_dir, relative, "  size: 4918491\n", "")
    replace_in(
        catalog_dir,
        relative,
        "  sha256: 36facfae18f42587b7e4863e16a0e96446470761017d207791e609537d0f6f02",
        "  sha256: <TBD>",
    )
    before = (catalog_dir / relative).read_bytes()
    data = _lines(tmp_path, "dsr1.jsonl", 4388)
    result = run_cli("datasets", "pin", "mlperf_deepseek_r1", str(data), "-C", str(catalog_dir), code=1)
    assert result.stderr == (
        f"error: pinning {relative} to {data} would change source.format: parquet -> jsonl; nothing was written\n"
        "hint: if it is the dataset's file, rerun with --update-format\n"
    )
    assert (catalog_dir / relative).read_bytes() == before
    short = _lines(tmp_path, "short.jsonl", 9)
    result = run_cli("datasets", "pin", "mlperf_deepseek_r1", str(short), "-C", str(catalog_dir), code=1)
    assert result.stderr == (
        f"error: pinning {relative} to {short} would change source.format: parquet -> jsonl and samples: 4388 -> 9; "
        "nothing was written\nhint: if it is the dataset's file, rerun with --update-format --update-samples\n"
    )
    run_cli("datasets", "pin", "mlperf_deepseek_r1", str(data), "-C", str(catalog_dir), "--update-format")
    sha = hashlib.sha256(data.read_bytes()).hexdigest()
    # The new key goes last in `source`, after the format.
    pinned_source = f"format: jsonl\n  size: {data.stat().st_size}".encode()
    assert (catalog_dir / relative).read_bytes() == before.replace(b"format: parquet", pinned_source).replace(
        b"  sha256: <TBD>", f"  sha256: {sha}".encode()
    )
    assert "working tree: valid (0 errors" in run_cli("validate", str(catalog_dir)).stdout


@pytest.mark.parametrize("bom", [codecs.BOM_UTF8, b""])
def test_pin_keeps_crlf_line_ends_and_a_bom(catalog_dir: Path, bom: bytes) -> None:
    # Was written with LF line ends and without the BOM.
    path = catalog_dir / AIME
    before = bom + path.read_bytes().replace(b"\n", b"\r\n")
    path.write_bytes(before)
    data = catalog_dir.parent / "aime25.jsonl"
    data.write_bytes(BODY)
    run_cli("datasets", "pin", "aime25", str(data), "-C", str(catalog_dir))
    pinned_source = f"  sha256: {SHA}\r\n  size: {len(BODY)}".encode()
    assert path.read_bytes() == before.replace(b"  sha256: <TBD>", pinned_source)
    assert "working tree: valid (0 errors" in run_cli("validate", str(catalog_dir)).stdout


def test_the_catalog_a_pin_would_leave_has_the_ids_of_its_new_bytes(catalog_dir: Path) -> None:
    from catalogctl.authoring.datasets import _Pinned

    folder = "benchmark_suite/datasets"
    new = (catalog_dir / AIME).read_bytes().replace(b"samples: 30", b"samples: 31")
    pinned = _Pinned(catalog_dir, AIME, new)
    assert pinned.read(AIME) == new
    ids = pinned.file_ids(folder)
    (catalog_dir / AIME).write_bytes(new)
    assert ids == WorkingTree(catalog_dir).file_ids(folder)


@pytest.mark.parametrize(
    ("url", "what"),
    [
        ("http://reader:SECRETPW@{host}/aime25.jsonl", "user info"),
        ("http://{host}/aime25.jsonl?token=SECRETQ", "the query parameter `token`"),
        (
            "https://{host}/aime25.jsonl?X-Amz-Credential=SECRETA&X-Amz-Signature=SECRETS&v=1",
            "the query parameters `X-Amz-Credential`, `X-Amz-Signature`",
        ),
        ("http://u:SECRETPW@{host}/aime25.jsonl?api_key=SECRETQ", "user info, the query parameter `api_key`"),
    ],
)
def test_pin_refuses_a_url_that_carries_credentials(
    catalog_dir: Path, httpserver: HTTPServer, url: str, what: str
) -> None:
    # It was written into the catalog as given, and printed in full.
    httpserver.expect_request("/aime25.jsonl").respond_with_data(BODY)
    given = url.format(host=f"127.0.0.1:{httpserver.port}")
    before = (catalog_dir / AIME).read_bytes()
    result = run_cli("datasets", "pin", "aime25", given, "-C", str(catalog_dir), code=2)
    assert "SECRET" not in result.stdout + result.stderr
    scheme = given.split("://")[0]
    shown = f"{scheme}://127.0.0.1:{httpserver.port}/aime25.jsonl" + (
        "?" + "&".join(f"{p.split('=')[0]}=REDACTED" for p in given.split("?")[1].split("&")) if "?" in given else ""
    )
    assert result.stderr == (
        f"error: {shown} carries credentials ({what}): a dataset's URL is written into the catalog, "
        "which is committed and public; nothing was written\n"
        "hint: pin a URL that needs no credentials, or download the file and pin the local copy "
        "(`catalogctl datasets pin aime25 FILE`)\n"
    )
    assert (catalog_dir / AIME).read_bytes() == before
    assert httpserver.log == []


def test_no_verb_prints_the_credentials_of_a_url_in_the_catalog(catalog_dir: Path, httpserver: HTTPServer) -> None:
    # A URL written by hand: verify's detail (text and json), the pin's refusal and the resolved
    # config's sources showed it in full.
    httpserver.expect_request("/aime25.jsonl").respond_with_data(BODY)
    secret = httpserver.url_for("/aime25.jsonl").replace("http://", "http://reader:SECRETPW@") + "?token=SECRETQ"
    shown = httpserver.url_for("/aime25.jsonl") + "?token=REDACTED"
    replace_in(catalog_dir, AIME, "  url: <TBD>", f"  url: {secret}")
    replace_in(catalog_dir, AIME, "  sha256: <TBD>", f"  sha256: {SHA}")
    text = run_cli("datasets", "verify", "aime25", "-C", str(catalog_dir)).stdout
    as_json = run_cli("datasets", "verify", "aime25", "-C", str(catalog_dir), "-f", "json").stdout
    assert f"1,080 bytes from {shown}" in text
    assert json.loads(as_json)["datasets"][0]["detail"] == f"1,080 bytes from {shown}"
    other = tmp = catalog_dir / "other.jsonl"
    tmp.write_bytes(b'{"a": 1}\n')
    refused = run_cli("datasets", "pin", "aime25", str(other), "-C", str(catalog_dir), code=1)
    assert "SECRET" not in refused.stdout + refused.stderr
    config = resolved_config(catalog_dir, "gpt-oss-120b")
    assert config.sources["aime25"] == shown
