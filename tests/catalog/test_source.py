"""Which catalog files differ between two trees."""

from __future__ import annotations

from pathlib import Path

from catalogctl.catalog.source import changed_files, open_tree
from tests.helpers import replace_in, write


def test_changed_files_between_a_tag_and_the_working_tree(catalog_repo: Path) -> None:
    tagged = open_tree(catalog_repo, "v1")
    assert changed_files(tagged, open_tree(catalog_repo)) == set()
    replace_in(catalog_repo, "benchmark_suite/datasets/aime25.yaml", "samples: 30", "samples: 31")
    replace_in(catalog_repo, "benchmark_suite/metrics.yaml", "metrics:", "# a comment\nmetrics:")
    (catalog_repo / "benchmark_suite/models/llama3-1-8b.yaml").unlink()
    write(catalog_repo, "rulesets/2026-09-C0.yaml", "cohort: 2026-09-C0\n")
    write(catalog_repo, "benchmark_suite/datasets/NOTES.md", "not a catalog file\n")
    write(catalog_repo, "README.md", "outside the catalog's folders\n")
    assert changed_files(tagged, open_tree(catalog_repo)) == {
        "benchmark_suite/datasets/aime25.yaml",
        "benchmark_suite/metrics.yaml",  # a comment is a change of the file
        "benchmark_suite/models/llama3-1-8b.yaml",  # removed
        "rulesets/2026-09-C0.yaml",  # added
        "benchmark_suite/datasets/NOTES.md",  # a file the catalog does not read, still in its folders
    }
