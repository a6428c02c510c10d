"""One loader over two kinds of tree: the working directory and a git ref."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from catalogctl import load_catalog
from catalogctl.catalog.index import LoadResult
from catalogctl.errors import EnvironmentProblem, RefNotFound
from catalogctl.io.tree import WorkingTree
from catalogctl.render.common import diagnostic_line
from tests.helpers import commit_all, git, init_repo, replace_in, run_cli, write


def lines(result: LoadResult) -> list[str]:
    return [diagnostic_line(d) for d in result.diagnostics if d.code != "pending-value"]


def same_content(a: LoadResult, b: LoadResult) -> None:
    for name in ("suite", "metrics", "models", "datasets", "benchmarks", "rulesets"):
        assert getattr(a.catalog, name) == getattr(b.catalog, name), name
    assert a.diagnostics == b.diagnostics


def test_loading_a_tag_equals_loading_the_working_tree_at_that_commit(catalog_repo: Path) -> None:
    at_tag = load_catalog(catalog_repo, ref="v1")
    working = load_catalog(catalog_repo)
    same_content(at_tag, working)
    assert len(at_tag.catalog.benchmarks) == 6
    assert at_tag.catalog.label.startswith("v1 (")


def test_a_ref_is_read_from_the_object_database_not_the_working_tree(catalog_repo: Path) -> None:
    replace_in(catalog_repo, "benchmark_suite/benchmarks/gpt-oss-120b.yaml", "model: gpt-oss-120b", "model: nope")
    commit_all(catalog_repo, "Break the model reference")
    (catalog_repo / "benchmark_suite/models/deepseek-r1.yaml").unlink()  # uncommitted
    assert lines(load_catalog(catalog_repo, ref="v1")) == []
    assert len(lines(load_catalog(catalog_repo, ref="HEAD"))) == 1
    assert len(lines(load_catalog(catalog_repo))) == 2  # + the deepseek-r1 benchmark's model is gone


def test_branch_and_abbreviated_commit_refs(catalog_repo: Path) -> None:
    head = git(catalog_repo, "rev-parse", "HEAD")
    for ref in ("main", head[:10], head, "v1"):
        assert load_catalog(catalog_repo, ref=ref).ok


def test_unknown_ref_says_how_to_fetch_it(catalog_repo: Path) -> None:
    with pytest.raises(RefNotFound) as caught:
        load_catalog(catalog_repo, ref="v9")
    assert str(caught.value) == "unknown ref `v9`"
    assert caught.value.hint == "fetch it first: git fetch --tags origin"


def test_unknown_ref_in_a_shallow_clone_says_to_fetch_history(catalog_repo: Path, tmp_path: Path) -> None:
    commit_all(catalog_repo, "second")
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", "--no-tags", f"file://{catalog_repo}", str(clone))
    with pytest.raises(RefNotFound) as caught:
        load_catalog(clone, ref="v1")
    assert "shallow clone" in caught.value.hint
    assert "fetch-depth: 0" in caught.value.hint


def test_ref_outside_a_repository_is_an_environment_error(catalog_dir: Path) -> None:
    with pytest.raises(EnvironmentProblem, match="no git repository"):
        load_catalog(catalog_dir, ref="HEAD")


def test_no_catalog_is_an_environment_error(tmp_path: Path) -> None:
    init_repo(tmp_path / "empty")
    with pytest.raises(EnvironmentProblem, match="no catalog at or above"):
        load_catalog(tmp_path / "empty")


def test_catalog_found_from_a_subfolder(catalog_repo: Path) -> None:
    assert load_catalog(catalog_repo / "benchmark_suite" / "models").ok


def test_symlinked_file_is_an_error_and_never_read(catalog_dir: Path, tmp_path: Path) -> None:
    target = tmp_path / "outside.yaml"
    target.write_text("id: gsm8k\n")
    link = catalog_dir / "benchmark_suite/datasets/gsm8k.yaml"
    link.unlink()
    link.symlink_to(target)
    target.unlink()  # had the loader followed the link, reading would fail with a traceback
    found = lines(load_catalog(catalog_dir))
    assert found[1] == (
        "benchmark_suite/datasets/gsm8k.yaml:1:1: error file-symlink: symlinks are not allowed in "
        "the catalog; not followed "
        "(replace the link by the file itself)"
    )


def test_symlinked_folder_is_an_error(catalog_dir: Path, tmp_path: Path) -> None:
    models = catalog_dir / "benchmark_suite/models"
    models.rename(tmp_path / "elsewhere")
    models.symlink_to(tmp_path / "elsewhere")
    found = lines(load_catalog(catalog_dir))
    assert (
        "benchmark_suite/models: error file-symlink: the folder is a symlink; not followed (make it a real folder)"
        in found
    )
    assert not load_catalog(catalog_dir).catalog.models


def test_symlink_committed_in_git_is_an_error(catalog_repo: Path) -> None:
    link = catalog_repo / "benchmark_suite/models/evil.yaml"
    link.symlink_to("/etc/passwd")
    commit_all(catalog_repo, "Add a symlink")
    found = lines(load_catalog(catalog_repo, ref="HEAD"))
    assert found == [
        "benchmark_suite/models/evil.yaml:1:1: error file-symlink: symlinks are not allowed in the "
        "catalog; not followed "
        "(replace the link by the file itself)"
    ]


def test_file_name_must_be_the_id(catalog_dir: Path) -> None:
    models = catalog_dir / "benchmark_suite/models"
    (models / "gpt-oss-120b.yaml").rename(models / "gpt-oss.yaml")
    found = lines(load_catalog(catalog_dir))
    assert found[-1] == (
        "benchmark_suite/models/gpt-oss.yaml:2:5: error file-name-mismatch: file is named `gpt-oss.yaml` but its id is "
        "`gpt-oss-120b` (rename the file to `gpt-oss-120b.yaml`)"
    )


def test_upper_case_file_name_cannot_shadow_an_id(catalog_dir: Path) -> None:
    write(catalog_dir, "benchmark_suite/models/GSM8K.yaml", "id: GSM8K\nreference_id: a/b\nsha: <TBD>\n")
    found = lines(load_catalog(catalog_dir))
    assert found[-1].startswith(
        "benchmark_suite/models/GSM8K.yaml:1:5: error schema-invalid-value: id: `GSM8K` is not a valid id"
    )


def test_unexpected_files_are_warnings(catalog_dir: Path) -> None:
    write(catalog_dir, "benchmark_suite/models/extra.yml", "id: x\n")
    write(catalog_dir, "benchmark_suite/notes.txt", "hello\n")
    write(catalog_dir, "benchmark_suite/models/.keep", "")
    result = load_catalog(catalog_dir)
    assert result.ok
    assert lines(result) == [
        "benchmark_suite/models/extra.yml: warning file-unexpected: file `extra.yml` is not read by the catalog "
        "(rename it to .yaml)",
        "benchmark_suite/notes.txt: warning file-unexpected: `notes.txt` is not part of the catalog layout "
        "(the catalog reads benchmarks, datasets, metrics.yaml, models, suite.yaml)",
    ]


def test_missing_required_files(catalog_dir: Path) -> None:
    (catalog_dir / "benchmark_suite/suite.yaml").unlink()
    (catalog_dir / "benchmark_suite/metrics.yaml").unlink()
    found = lines(load_catalog(catalog_dir))
    assert "benchmark_suite/suite.yaml: error file-missing: `benchmark_suite/suite.yaml` is missing" in found
    assert "benchmark_suite/metrics.yaml: error file-missing: `benchmark_suite/metrics.yaml` is missing" in found


def test_fifo_is_reported_and_never_opened(catalog_dir: Path) -> None:
    os.mkfifo(catalog_dir / "benchmark_suite/models/pipe.yaml")  # opening it would block forever
    assert lines(load_catalog(catalog_dir)) == [
        "benchmark_suite/models/pipe.yaml: warning file-unexpected: other `pipe.yaml` is not read by the catalog "
        "(move it out of the catalog folders)"
    ]


def test_folder_in_place_of_a_required_file(catalog_dir: Path) -> None:
    (catalog_dir / "benchmark_suite/suite.yaml").unlink()
    (catalog_dir / "benchmark_suite/suite.yaml").mkdir()
    assert lines(load_catalog(catalog_dir))[0] == (
        "benchmark_suite/suite.yaml: error file-unexpected: `benchmark_suite/suite.yaml` must be a regular file"
    )


def test_os_error_while_reading_is_a_diagnostic(catalog_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_read = WorkingTree.read

    def failing(self: WorkingTree, path: str) -> bytes:
        if path.endswith("gsm8k.yaml"):
            raise OSError(errno.EIO, "Input/output error")
        return real_read(self, path)

    monkeypatch.setattr(WorkingTree, "read", failing)
    found = lines(load_catalog(catalog_dir))
    assert (
        "benchmark_suite/datasets/gsm8k.yaml: error file-unreadable: cannot read the file: Input/output error" in found
    )


def test_a_validated_file_keeps_no_text_and_reads_it_again_for_a_position(catalog_dir: Path) -> None:
    from catalogctl.catalog.loader import load_tree

    result = load_tree(WorkingTree(catalog_dir), use_cache=False)
    where = result.catalog.locate("dataset", "mlperf_deepseek_r1", "samples")
    assert where.document._text is None  # neither data nor text held after validation
    assert where.position() == (11, 10)


def test_a_file_changed_before_its_position_is_read_is_refused(catalog_dir: Path) -> None:
    from catalogctl.catalog.loader import load_tree
    from catalogctl.io.yamlio import DocumentChanged

    result = load_tree(WorkingTree(catalog_dir), use_cache=False)
    replace_in(catalog_dir, "benchmark_suite/datasets/mlperf_deepseek_r1.yaml", "samples: 4388", "\n\nsamples: 4388")
    with pytest.raises(DocumentChanged) as changed:
        result.catalog.locate("dataset", "mlperf_deepseek_r1", "samples").position()
    path = "benchmark_suite/datasets/mlperf_deepseek_r1.yaml"
    assert str(changed.value) == f"{path} changed while catalogctl was reading the catalog"
    assert changed.value.exit_code == 2


# -- a file name that is not UTF-8 -----------------------------------------------------------------

NOT_UTF8 = "benchmark_suite/datasets/gsm\\xff8k.yaml"  # as every output shows it: the byte escaped
NOT_UTF8_LINE = (
    f"{NOT_UTF8}:1:1: error file-name-encoding: the name is not UTF-8 text; not read (rename it: an id, and so its "
    "file's name, is UTF-8 text)"
)


@pytest.fixture
def badly_named(catalog_repo: Path) -> Path:
    """The catalog with a copy of gsm8k.yaml named `gsm\\xff8k.yaml`, committed on top of tag v1."""
    data = (catalog_repo / "benchmark_suite/datasets/gsm8k.yaml").read_bytes()
    (catalog_repo / "benchmark_suite/datasets" / os.fsdecode(b"gsm\xff8k.yaml")).write_bytes(data)
    commit_all(catalog_repo, "Add a file whose name is not UTF-8")
    return catalog_repo


@pytest.mark.parametrize("extra", [(), ("--no-cache",), ("--ref", "HEAD")], ids=["cached", "no-cache", "ref"])
def test_a_name_that_is_not_utf8_is_a_diagnostic_of_validate(badly_named: Path, extra: tuple[str, ...]) -> None:
    text = run_cli("validate", badly_named, *extra, code=1)
    assert NOT_UTF8_LINE in text.stdout.splitlines()
    found = json.loads(run_cli("validate", badly_named, *extra, "-f", "json", code=1).stdout)["diagnostics"]
    assert [d for d in found if d["code"] == "file-name-encoding"] == [
        {
            "severity": "error",
            "code": "file-name-encoding",
            "message": "the name is not UTF-8 text; not read",
            "file": NOT_UTF8,
            "line": 1,
            "column": 1,
            "hint": "rename it: an id, and so its file's name, is UTF-8 text",
        }
    ]
    github = run_cli("validate", badly_named, *extra, "-f", "github", code=1).stdout
    assert f"::error file={NOT_UTF8},line=1,col=1,title=file-name-encoding::the name is not UTF-8 text; " in github


def test_a_name_that_is_not_utf8_is_noted_by_ls(badly_named: Path) -> None:
    listed = run_cli("ls", "datasets", "-C", badly_named)
    assert "gsm8k" in listed.stdout
    assert listed.stderr == "note: the catalog has errors; run `catalogctl validate`\n"


def test_a_name_that_is_not_utf8_fails_site(badly_named: Path, tmp_path: Path) -> None:
    site = run_cli("site", "-o", tmp_path / "site", "-C", badly_named, code=1)
    assert NOT_UTF8_LINE in site.stderr
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("head", [[], ["--head", "HEAD"]], ids=["working-tree", "commit"])
def test_a_name_that_is_not_utf8_fails_the_gate(badly_named: Path, head: list[str]) -> None:
    for base in ("v1", "HEAD"):  # added by the pull request, and already on the base
        text = run_cli("ci", "--base", base, "-C", badly_named, *head, code=1).stdout
        assert f"{NOT_UTF8_LINE} [" in text
        markdown = run_cli("ci", "--base", base, "-C", badly_named, *head, "-f", "markdown", code=1).stdout
        assert (
            "| ❌ | `file-name-encoding` | the name is not UTF-8 text; not read (rename it: an id, and so its "
            in markdown
        )
        assert f"`{NOT_UTF8}:1:1`" in markdown
        github = run_cli("ci", "--base", base, "-C", badly_named, *head, "-f", "github", code=1).stdout
        assert f"::error file={NOT_UTF8},line=1,col=1,title=catalogctl file-name-encoding::" in github
        data = json.loads(run_cli("ci", "--base", base, "-C", badly_named, *head, "-f", "json", code=1).stdout)
        found = [
            (f["file"], f["line"], f["column"], f["status"])
            for f in data["findings"]
            if f["code"] == "file-name-encoding"
        ]
        assert found == [(NOT_UTF8, 1, 1, "open")]
        assert data["passed"] is False
