"""`.catalogctl/accepted.yaml`: a file that cannot be read is a finding, and drafts are appended
to what is there (or, when its layout takes no append, the file is rewritten whole)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers import REPO_ROOT, write
from tests.review_repo import GAP_DRAFT, GAP_FINDING, TODAY, gate, skip_a_cohort, verdict

ACCEPTED = ".catalogctl/accepted.yaml"
OTHER = "fingerprint: 0123456789abcdef\n    reason: kept\n    approver: ana\n    expires: 2026-12-31"
DRAFT = GAP_DRAFT


def test_an_accepted_file_that_is_not_yaml_is_a_finding_at_its_position(frozen: Path) -> None:
    write(frozen, ACCEPTED, "accepted: [\n")
    assert gate(frozen, code=1).stdout.splitlines() == [
        ".catalogctl/accepted.yaml:2:1: error accepted-invalid: did not find expected node content [fe5cef7295f9a137]",
        verdict(frozen, "failed") + " (1 error, 0 warnings, 0 accepted)",
    ]


def test_an_accepted_file_that_is_a_symlink_is_never_read(frozen: Path) -> None:
    (frozen / ".catalogctl").mkdir()
    (frozen / ACCEPTED).symlink_to(frozen / "README.md")
    assert gate(frozen, code=1).stdout.splitlines() == [
        ".catalogctl/accepted.yaml: error accepted-invalid: cannot read the file: .catalogctl/accepted.yaml resolves "
        "through a symlink; not read [bfc72618aedcb552]",
        verdict(frozen, "failed") + " (1 error, 0 warnings, 0 accepted)",
    ]


def test_drafts_are_appended_to_a_file_without_a_final_newline(frozen: Path) -> None:
    skip_a_cohort(frozen)
    write(frozen, ACCEPTED, f"# ours\naccepted:\n  - {OTHER}")
    gate(frozen, "--write-accepted", code=1)
    assert (frozen / ACCEPTED).read_text() == f"# ours\naccepted:\n  - {OTHER}\n" + DRAFT


def test_a_flow_style_file_is_rewritten_whole_and_still_reads(frozen: Path) -> None:
    skip_a_cohort(frozen)
    entry = "{fingerprint: 0123456789abcdef, reason: kept, approver: ana, expires: 2026-12-31}"
    write(frozen, ACCEPTED, f"# a comment that goes\naccepted: [{entry}]\n")
    assert "drafted 1 entry in .catalogctl/accepted.yaml" in gate(frozen, "--write-accepted", code=1).stderr
    assert gate(frozen, code=1).stdout.splitlines() == [
        GAP_FINDING.format(status=" [acceptance pending]")
        + " — drafted in accepted.yaml, but reason or approver is still pending",
        "note: 1 accepted finding matched nothing: remove it from .catalogctl/accepted.yaml",
        verdict(frozen, "failed") + " (1 error, 0 warnings, 0 accepted)",
    ]


def test_drafting_is_a_call_of_the_review_layer_from_any_folder_of_the_catalog(frozen: Path) -> None:
    import datetime as dt

    from catalogctl.review.accepted import draft_accepted
    from catalogctl.review.ci import ReviewRequest, run_review

    skip_a_cohort(frozen)
    today = dt.date.fromisoformat(TODAY)
    _, unaccepted = run_review(frozen, ReviewRequest(base="main", today=today))
    assert draft_accepted(frozen / "benchmark_suite", unaccepted, today) == 1  # the root is found above
    assert (frozen / ACCEPTED).read_text().endswith(DRAFT)
    assert draft_accepted(frozen, unaccepted, today) == 0  # drafted already: nothing more


def test_a_new_file_names_the_docs_page_on_accepting_findings(frozen: Path) -> None:
    # The header a new file starts with sends the reader to the page that explains it; it named a
    # README section the README no longer has.
    skip_a_cohort(frozen)
    gate(frozen, "--write-accepted", code=1)
    header = (frozen / ACCEPTED).read_text().splitlines()[1]
    [page] = re.findall(r"\(see catalogctl's docs, (docs/\S+\.md)\)", header)
    assert (REPO_ROOT / page).is_file()
