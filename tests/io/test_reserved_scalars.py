"""A plain `=` or `<<` (YAML 1.1's value and merge keys, which ruamel's resolver still types) is a
diagnostic with its position in every file the tool reads, never a KeyError traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalogctl.io.yamlio import YamlProblem, parse_document, read_foreign_yaml
from tests.helpers import commit_all, replace_in, run_cli, write
from tests.release_repo import SEEDS_A, SUBMISSION, make_freezable

GSM8K = "benchmark_suite/benchmarks/gsm8k.yaml"


def reserved(word: str, line: int, column: int) -> YamlProblem:
    """The problem a plain `word` raises at line:column."""
    meaning = {"=": "value", "<<": "merge"}[word]
    return YamlProblem(
        "yaml-reserved-scalar",
        f"plain `{word}` is YAML's {meaning} key, which readers do not agree on",
        line,
        column,
        f'write "{word}" in quotes for a string',
    )


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("a: =\n", reserved("=", 1, 4), id="value-as-value"),
        pytest.param("a: 1\n=: 2\n", reserved("=", 2, 1), id="value-as-key"),
        pytest.param("a: <<\n", reserved("<<", 1, 4), id="merge-as-value"),
        pytest.param("a:\n  <<: {b: 1}\n", reserved("<<", 2, 3), id="merge-as-key"),
        pytest.param("a: [x, =]\n", reserved("=", 1, 8), id="in-a-flow-sequence"),
        pytest.param("? <<\n: 1\n", reserved("<<", 1, 3), id="explicit-key"),
    ],
)
def test_a_plain_value_or_merge_key_is_refused_with_its_position(source: str, expected: YamlProblem) -> None:
    for read in (lambda data: parse_document("f.yaml", data), read_foreign_yaml):
        with pytest.raises(YamlProblem) as info:
            read(source.encode("utf-8"))
        assert info.value == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("a: '='\n", {"a": "="}),
        ('a: "<<"\n', {"a": "<<"}),
        ("'<<': 1\n", {"<<": 1}),
        ("a: [==, <<<, x=y]\n", {"a": ["==", "<<<", "x=y"]}),
    ],
)
def test_quoted_or_longer_text_is_a_string(source: str, expected: dict[str, object]) -> None:
    assert parse_document("f.yaml", source.encode("utf-8")).data == expected


def test_validate(catalog_dir: Path) -> None:
    replace_in(catalog_dir, GSM8K, "family: text", "family: =")
    lines = run_cli("validate", str(catalog_dir), code=1).stdout.splitlines()
    assert next(line for line in lines if "pending-value" not in line) == (
        f"{GSM8K}:4:9: error yaml-reserved-scalar: plain `=` is YAML's value key, which readers do not agree on "
        '(write "=" in quotes for a string)'
    )
    assert lines[-1] == "working tree: invalid (1 error, 20 warnings, 20 pending values)"


def test_ci_still_writes_its_annotations_and_comment(catalog_repo: Path, tmp_path: Path) -> None:
    replace_in(catalog_repo, GSM8K, "family: text", "<<: text")
    comment = tmp_path / "comment.md"
    args = ["ci", "--base", "v1", "-C", str(catalog_repo), "-f", "github", "--comment-file", str(comment)]
    result = run_cli(*args, code=1)
    assert result.stdout.splitlines()[0] == (
        f"::error file={GSM8K},line=4,col=1,title=catalogctl yaml-reserved-scalar::plain `<<` is YAML's merge key, "
        'which readers do not agree on (write "<<" in quotes for a string) [fingerprint c78093b23f7373f9]'
    )
    assert (
        "| ❌ | `yaml-reserved-scalar` | plain \\`&lt;&lt;\\` is YAML's merge key, which readers do not agree on "
        f'(write "&lt;&lt;" in quotes for a string) | `{GSM8K}:4:1` | `c78093b23f7373f9` |'
    ) in comment.read_text().splitlines()


def test_freeze(catalog_repo: Path, tmp_path: Path) -> None:
    repo = make_freezable(catalog_repo)
    replace_in(repo, GSM8K, "family: text", "family: <<")
    commit_all(repo, "A merge key")
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A)
    result = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--seeds", str(seeds), "-C", str(repo), code=1)
    assert result.stderr.splitlines() == [
        "error: the catalog is invalid: nothing was frozen",
        f"  {GSM8K}:4:9: error yaml-reserved-scalar: plain `<<` is YAML's merge key, which readers do not agree on "
        '(write "<<" in quotes for a string)',
    ]


def test_a_seed_file(catalog_repo: Path, tmp_path: Path) -> None:
    repo = make_freezable(catalog_repo)
    seeds = write(tmp_path, "seeds.yaml", SEEDS_A.replace("id: A", "id: ="))
    result = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "--seeds", str(seeds), "-C", str(repo), code=1)
    assert result.stderr.splitlines() == [
        f"error: {seeds} is not a valid seed file",
        f"  {seeds}:1:5: error yaml-reserved-scalar: plain `=` is YAML's value key, which readers do not agree on "
        '(write "=" in quotes for a string)',
    ]


def test_resolve_a_submission(catalog_repo: Path, tmp_path: Path) -> None:
    submission = write(tmp_path, "submission.yaml", SUBMISSION.replace("type: submission", "type: =", 1))
    result = run_cli("resolve", str(submission), "-C", str(catalog_repo), code=1)
    assert result.stderr.splitlines() == [
        f"error: {submission} is not a valid submission",
        f"  {submission}:1:7: error yaml-reserved-scalar: plain `=` is YAML's value key, which readers do not agree on "
        '(write "=" in quotes for a string)',
    ]


def test_an_accepted_file(catalog_repo: Path) -> None:
    write(catalog_repo, ".catalogctl/accepted.yaml", "accepted:\n  - <<: x\n")
    result = run_cli("ci", "--base", "v1", "-C", str(catalog_repo), code=1)
    assert result.stdout.splitlines()[0].startswith(
        ".catalogctl/accepted.yaml:2:5: error accepted-invalid: plain `<<` is YAML's merge key"
    )
