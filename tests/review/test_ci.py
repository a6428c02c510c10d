"""`catalogctl ci`: the release policy on real repositories with a base and a head."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from catalogctl.release.freeze import FreezeRequest, freeze
from catalogctl.review.ci import ReviewRequest, run_review
from tests.helpers import commit_all, git, replace_in, run_cli, write
from tests.review_repo import GAP, GAP_DRAFT, GAP_FINDING, GSM8K, NOW, RULESET, gate, skip_a_cohort, verdict


def test_an_untouched_catalog_passes(frozen: Path) -> None:
    done = gate(frozen)
    assert done.stdout == verdict(frozen, "passed") + " (0 errors, 0 warnings, 0 accepted)\n"


def test_editing_a_frozen_ruleset_fails_with_an_annotation_on_the_line(frozen: Path) -> None:
    replace_in(frozen, RULESET, "model_seed: 42", "model_seed: 43")
    done = gate(frozen, "-f", "github", code=1)
    assert done.stdout.splitlines() == [
        "::error file=rulesets/2026-09-C0.yaml,line=17,col=3,title=catalogctl ruleset-modified::frozen ruleset "
        "2026-09-C0 was modified: seed_sets.A.model_seed changed (revert the edit; a cohort changes only by freezing "
        "the next one) [fingerprint b6ae4b57dc851539]",
        verdict(frozen, "failed") + " (1 error, 0 warnings, 0 accepted)",
    ]


def test_the_fingerprint_of_an_edit_does_not_depend_on_other_errors(frozen: Path) -> None:
    # With an unrelated validation error the catalog's diff was skipped: the finding became "its
    # text changed" with another fingerprint (12e090180503f678), and its acceptance lapsed.
    replace_in(frozen, RULESET, "model_seed: 42", "model_seed: 43")
    replace_in(frozen, GSM8K, "    - exact_match,flexible-extract", "    - exact_match,flexible-extrakt")
    done = gate(frozen, code=1)
    assert (
        "rulesets/2026-09-C0.yaml:17:3: error ruleset-modified: frozen ruleset 2026-09-C0 was modified: "
        "seed_sets.A.model_seed changed (revert the edit; a cohort changes only by freezing the next one) "
        "[b6ae4b57dc851539]"
    ) in done.stdout.splitlines()


def test_a_comment_only_edit_of_a_frozen_ruleset_still_fails(frozen: Path) -> None:
    replace_in(frozen, RULESET, "seed_sets:\n", "# reviewed\nseed_sets:\n")
    done = gate(frozen, code=1)
    assert done.stdout.splitlines()[0].startswith(
        "rulesets/2026-09-C0.yaml:13:1: error ruleset-modified: "
        "frozen ruleset 2026-09-C0 was modified: its text changed"
    )


def test_deleting_a_frozen_ruleset_fails_without_an_inline_annotation(frozen: Path) -> None:
    (frozen / RULESET).unlink()
    done = gate(frozen, "-f", "github", code=1)
    assert done.stdout.splitlines()[0] == (
        "::error title=catalogctl ruleset-deleted::frozen ruleset 2026-09-C0 was deleted: a cohort's ruleset is never "
        "removed (restore the file; to stop offering a benchmark, freeze a new cohort with --remove) "
        "[fingerprint cba3475f757d8626]"
    )


def test_removing_a_referenced_dataset_fails(frozen: Path) -> None:
    (frozen / "benchmark_suite/datasets/gsm8k.yaml").unlink()
    done = gate(frozen, "-f", "github", code=1)
    assert done.stdout.splitlines() == [
        "::error file=benchmark_suite/benchmarks/gsm8k.yaml,line=19,col=16,title=catalogctl ref-unknown-dataset::"
        "unknown dataset `gsm8k` (known: aime25, ceval, cnn_dailymail, gpqa, gpt_oss_perf, livecodebench, "
        "mlperf_deepseek_r1, r2e-gym-subset) [fingerprint 8c0d545d420e8028]",
        "::error file=rulesets/2026-09-C0.yaml,line=11,col=7,title=catalogctl frozen-reference-removed::dataset "
        "`gsm8k` was removed, but frozen cohort 2026-09-C0 uses it through benchmark `gsm8k`; 2026-09-C0 still has "
        "valid seed sets (keep it until the cohorts that use it expire; add what replaces it beside it) "
        "[fingerprint 8ec30c3b13a45137]",
        verdict(frozen, "failed") + " (2 errors, 0 warnings, 0 accepted)",
    ]


def test_removal_is_a_warning_once_every_seed_set_of_the_cohort_expired(frozen: Path) -> None:
    (frozen / "benchmark_suite/datasets/gsm8k.yaml").unlink()
    (frozen / GSM8K).unlink()
    done = gate(frozen, "--today", "2027-01-01")
    assert done.stdout.splitlines() == [
        "rulesets/2026-09-C0.yaml:11:7: warning frozen-reference-removed: benchmark `gsm8k` was removed, but frozen "
        "cohort 2026-09-C0 uses it; every seed set of 2026-09-C0 has expired (before 2027-01-C0) (keep it until the "
        "cohorts that use it expire; add what replaces it beside it) [c752ece68fea77bd]",
        "rulesets/2026-09-C0.yaml:11:7: warning frozen-reference-removed: dataset `gsm8k` was removed, but frozen "
        "cohort 2026-09-C0 uses it through benchmark `gsm8k`; every seed set of 2026-09-C0 has expired (before "
        "2027-01-C0) (keep it until the cohorts that use it expire; add what replaces it beside it) "
        "[8ec30c3b13a45137]",
        "gate passed: main ("
        + git(frozen, "rev-parse", "main")[:12]
        + ") -> working tree (0 errors, 2 warnings, 0 accepted)",
    ]


def test_a_reference_two_cohorts_use_names_them_in_words(frozen: Path) -> None:
    # It was "but frozen cohort 2026-09-C0, 2026-09-C1 uses it ...; 2026-09-C0, 2026-09-C1 still have".
    git(frozen, "checkout", "-q", "main")
    freeze(frozen, FreezeRequest("2026-09-C1", now=NOW))
    git(frozen, "checkout", "-q", "-b", "pr-2")
    (frozen / "benchmark_suite/datasets/gsm8k.yaml").unlink()
    done = gate(frozen, code=1)
    assert done.stdout.splitlines()[1] == (
        "rulesets/2026-09-C0.yaml:11:7: error frozen-reference-removed: dataset `gsm8k` was removed, but frozen "
        "cohorts 2026-09-C0 and 2026-09-C1 use it through benchmark `gsm8k`; 2026-09-C0 and 2026-09-C1 still have "
        "valid seed sets (keep it until the cohorts that use it expire; add what replaces it beside it) "
        "[8ec30c3b13a45137]"
    )


def test_renaming_a_referenced_model_is_reported_as_a_rename(frozen: Path) -> None:
    model = "benchmark_suite/models/llama3-1-8b.yaml"
    text = (
        (frozen / model).read_text().replace("id: llama3-1-8b", "id: llama3-1-8b-instruct\nrenamed_from: llama3-1-8b")
    )
    (frozen / model).unlink()
    write(frozen, "benchmark_suite/models/llama3-1-8b-instruct.yaml", text)
    replace_in(frozen, GSM8K, "model: llama3-1-8b", "model: llama3-1-8b-instruct")
    replace_in(frozen, "benchmark_suite/benchmarks/ceval.yaml", "model: llama3-1-8b", "model: llama3-1-8b-instruct")
    llama = "benchmark_suite/benchmarks/llama3-1-8b.yaml"
    replace_in(frozen, llama, "model: llama3-1-8b", "model: llama3-1-8b-instruct")
    done = gate(frozen, code=1)
    assert done.stdout.splitlines()[0].startswith(
        "rulesets/2026-09-C0.yaml:11:7: error frozen-reference-removed: model `llama3-1-8b` was renamed to "
        "`llama3-1-8b-instruct`, but frozen cohort 2026-09-C0 uses it through benchmark `gsm8k`;"
    )


def test_a_mistyped_metric_key_fails(frozen: Path) -> None:
    replace_in(frozen, GSM8K, "    - exact_match,flexible-extract", "    - exact_match,flexible-extrakt")
    done = gate(frozen, "-f", "github", code=1)
    assert done.stdout.splitlines()[0] == (
        "::error file=benchmark_suite/benchmarks/gsm8k.yaml,line=30,col=7,title=catalogctl ref-unknown-metric::"
        "unknown metric `exact_match,flexible-extrakt` (did you mean `exact_match,flexible-extract`?) "
        "[fingerprint da5558240f43d2b8]"
    )


def test_a_contract_change_in_the_latest_cohort_is_a_warning(frozen: Path) -> None:
    replace_in(frozen, GSM8K, "max_new_tokens: 256", "max_new_tokens: 512")
    done = gate(frozen, "-f", "github")
    assert done.stdout.splitlines()[0] == (
        "::warning file=benchmark_suite/benchmarks/gsm8k.yaml,line=24,col=5,title=catalogctl "
        "contract-change-next-freeze::benchmark gsm8k: accuracy.generation.max_new_tokens 256 -> 512: changes the "
        "contract of gsm8k (cohort 2026-09-C0); it takes effect only at the next freeze, 2026-09-C0 keeps its frozen "
        "contract [fingerprint 794cfe5cf11721b0]"
    )


def test_a_runner_change_in_the_latest_cohort_is_a_contract_change(frozen: Path) -> None:
    """A pack's harness (its tasks, its few-shot count) changes what runs: the gate says so as it
    says it of a sampling setting."""
    replace_in(frozen, GSM8K, "num_fewshot: 5", "num_fewshot: 8")
    replace_in(frozen, GSM8K, "  batch_size: auto\n", "  batch_size: 16\n")
    done = gate(frozen)
    assert [line.rsplit(" [", 1)[0] for line in done.stdout.splitlines()[:-1]] == [
        f"{GSM8K}:16:3: warning contract-change-next-freeze: benchmark gsm8k: preprocessing.num_fewshot 5 -> 8: "
        "changes the contract of gsm8k (cohort 2026-09-C0); it takes effect only at the next freeze, 2026-09-C0 "
        "keeps its frozen contract",
        f'{GSM8K}:46:3: warning contract-change-next-freeze: benchmark gsm8k: runner.batch_size "auto" -> 16: '
        "changes the contract of gsm8k (cohort 2026-09-C0); it takes effect only at the next freeze, 2026-09-C0 "
        "keeps its frozen contract",
    ]


def test_pending_values_warn_only_in_the_files_the_pull_request_edits(frozen: Path) -> None:
    replace_in(frozen, "benchmark_suite/datasets/aime25.yaml", "title: AIME 2025", "title: AIME 2025 (I)")
    done = gate(frozen)
    codes = [line.split(": ")[1] for line in done.stdout.splitlines()[:-1]]
    assert set(codes) == {"warning pending-value"}
    assert all(line.startswith("benchmark_suite/datasets/aime25.yaml:") for line in done.stdout.splitlines()[:-1])


# -- new rulesets ---------------------------------------------------------------------------------


def test_a_ruleset_written_by_freeze_passes(frozen: Path) -> None:
    freeze(frozen, FreezeRequest("2026-09-C1", now=NOW))
    gate(frozen)


def test_a_new_ruleset_with_a_wrong_digest_fails(frozen: Path) -> None:
    freeze(frozen, FreezeRequest("2026-09-C1", now=NOW))
    text = (frozen / "rulesets/2026-09-C1.yaml").read_text()
    digest = text.split("digest: ")[1].split("\n")[0]
    replace_in(frozen, "rulesets/2026-09-C1.yaml", digest, "sha256:" + "0" * 64)
    replace_in(frozen, "rulesets/2026-09-C1.yaml", "previous: 2026-09-C0", "previous: 2026-08-C1")
    done = gate(frozen, code=1)
    lines = done.stdout.splitlines()
    assert [line.split(": ")[1] for line in lines[:-1]] == [
        "error ruleset-order",
        "error ruleset-digest-mismatch",
    ]
    assert lines[0].startswith(
        "rulesets/2026-09-C1.yaml:5:11: error ruleset-order: new ruleset 2026-09-C1: previous is 2026-08-C1, but the "
        "last frozen cohort is 2026-09-C0"
    )
    assert lines[1].startswith(
        "rulesets/2026-09-C1.yaml:10:11: error ruleset-digest-mismatch: new ruleset 2026-09-C1: benchmark "
        "`deepseek-r1` is pinned at sha256:0000"
    )


def test_a_new_ruleset_edited_by_hand_is_not_canonical(frozen: Path) -> None:
    freeze(frozen, FreezeRequest("2026-09-C1", now=NOW))
    replace_in(frozen, "rulesets/2026-09-C1.yaml", "seed_sets:\n", "# added by hand\nseed_sets:\n")
    done = gate(frozen, code=1)
    assert done.stdout.splitlines()[0].startswith(
        "rulesets/2026-09-C1.yaml:13:1: error ruleset-not-canonical: new ruleset 2026-09-C1: line 13 differs from "
        "what `catalogctl freeze` writes"
    )


def test_a_new_seed_set_when_no_rotation_is_due_fails(frozen: Path) -> None:
    freeze(frozen, FreezeRequest("2026-09-C1", now=NOW))
    path = frozen / "rulesets/2026-09-C1.yaml"
    extra = (
        "- id: B\n  scheduler_rng_seed: 1\n  sample_index_rng_seed: 2\n  model_seed: 3\n"
        "  introduced_in: 2026-09-C1\n  valid_through: 2026-11-C0\n"
    )
    path.write_text(path.read_text() + extra)
    result, _ = run_review(frozen, ReviewRequest("main", today=dt.date(2026, 8, 30)))
    assert [(f.code, f.message) for f in result.findings] == [
        (
            "ruleset-seed-sets",
            "new ruleset 2026-09-C1: seed set B is new, but no rotation is due (a new set every 2 cohorts)",
        )
    ]


def test_a_new_ruleset_that_skips_cohorts_is_a_finding(frozen: Path) -> None:
    freeze(frozen, FreezeRequest("2026-10-C1", skip_cohorts=2, now=NOW))
    done = gate(frozen, code=1)
    assert done.stdout.splitlines()[0] == (
        "rulesets/2026-10-C1.yaml:3:9: error ruleset-cohort-gap: new ruleset 2026-10-C1: skips 2 cohorts (2026-09-C1 "
        "to 2026-10-C0) after 2026-09-C0, the last frozen cohort (the next cohort is 2026-09-C1; if the gap is meant, "
        "accept this finding) [1ba59bbfa78b8528]"
    )


def test_a_ruleset_id_with_non_ascii_digits_is_invalid(frozen: Path) -> None:
    # `\d` matched it: it validated, showed in `cohorts`, and `ci` crashed with KeyError: '2026-09-C1'.
    freeze(frozen, FreezeRequest("2026-09-C1", now=NOW))
    odd = "\u0662\u0660\u0662\u0666-09-C1"
    text = (frozen / "rulesets/2026-09-C1.yaml").read_text().replace("cohort: 2026-09-C1", f"cohort: {odd}")
    (frozen / "rulesets/2026-09-C1.yaml").unlink()
    write(frozen, f"rulesets/{odd}.yaml", text)
    message = f"cohort: `{odd}` is not a cohort id: write YYYY-MM-C0 or YYYY-MM-C1"
    done = gate(frozen, code=1)
    assert done.stdout.splitlines()[0].startswith(f"rulesets/{odd}.yaml:3:9: error schema-invalid-value: {message} [")
    assert (
        f"rulesets/{odd}.yaml:3:9: error schema-invalid-value: {message}\n"
        in run_cli("validate", frozen, code=1).stdout
    )
    assert odd not in run_cli("cohorts", "-C", frozen).stdout


# -- accepted findings ------------------------------------------------------------------------------


ACCEPTED = """\
accepted:
  - fingerprint: {fingerprint}
    reason: {reason}
    approver: {approver}
    expires: {expires}
"""


def test_an_accepted_finding_passes_and_an_expired_one_fails(frozen: Path) -> None:
    skip_a_cohort(frozen)
    entry = {"fingerprint": GAP, "reason": "no round in September", "approver": "ana"}
    write(frozen, ".catalogctl/accepted.yaml", ACCEPTED.format(**entry, expires="2026-09-30"))
    done = gate(frozen)
    assert done.stdout.splitlines() == [
        GAP_FINDING.format(status=" [accepted]") + " — accepted by ana until 2026-09-30: no round in September",
        verdict(frozen, "passed") + " (0 errors, 0 warnings, 1 accepted)",
    ]
    github = gate(frozen, "-f", "github")
    assert github.stdout.splitlines() == [verdict(frozen, "passed") + " (0 errors, 0 warnings, 1 accepted)"]

    write(frozen, ".catalogctl/accepted.yaml", ACCEPTED.format(**entry, expires="2026-08-29"))
    done = gate(frozen, code=1)
    assert done.stdout.splitlines() == [
        GAP_FINDING.format(status=" [acceptance expired]") + " — accepted by ana until 2026-08-29: expired",
        verdict(frozen, "failed") + " (1 error, 0 warnings, 0 accepted; 1 acceptance expired)",
    ]


def test_errors_that_protect_cohorts_or_freezing_can_never_be_accepted(frozen: Path) -> None:
    # All four were accepted: "gate passed ... 4 accepted", and `freeze` then refused on main.
    replace_in(frozen, GSM8K, "    - exact_match,flexible-extract", "    - exact_match,flexible-extrakt")
    replace_in(frozen, RULESET, "model_seed: 42", "model_seed: 43")
    replace_in(frozen, "benchmark_suite/benchmarks/deepseek-r1.yaml", "dataset: mlperf_deepseek_r1", "dataset: nope")
    prints = ["da5558240f43d2b8", "b6ae4b57dc851539", "23f7bb03e77d1cb0"]
    body = "".join(
        ACCEPTED.format(fingerprint=p, reason="why not", approver="ana", expires="2026-09-30").removeprefix(
            "accepted:\n"
        )
        for p in prints
    )
    write(frozen, ".catalogctl/accepted.yaml", "accepted:\n" + body)
    done = gate(frozen, "--write-accepted", code=1)
    lines = done.stdout.splitlines()
    assert lines[:3] == [
        ".catalogctl/accepted.yaml:2:18: error accepted-not-allowed: da5558240f43d2b8 is ref-unknown-metric, which can "
        "never be accepted: a head that does not validate cannot be frozen (fix the finding, and remove its entry) "
        "[cef390b82ab9cf5e]",
        ".catalogctl/accepted.yaml:6:18: error accepted-not-allowed: b6ae4b57dc851539 is ruleset-modified, which can "
        "never be accepted: a published cohort's ruleset never changes (fix the finding, and remove its entry) "
        "[cea9fb0cf5824eec]",
        ".catalogctl/accepted.yaml:10:18: error accepted-not-allowed: 23f7bb03e77d1cb0 is ref-unknown-dataset, which "
        "can never be accepted: a head that does not validate cannot be frozen (fix the finding, and remove its entry) "
        "[aee10b305753a135]",
    ]
    assert not any("accepted by" in line for line in lines)
    assert lines[-1] == verdict(frozen, "failed") + " (6 errors, 0 warnings, 0 accepted)"
    assert ".catalogctl/accepted.yaml: nothing to draft" in done.stderr


def test_a_drafted_entry_accepts_nothing_until_filled_in(frozen: Path) -> None:
    skip_a_cohort(frozen)
    write(frozen, ".catalogctl/accepted.yaml", "# ours\naccepted: []\n")
    done = gate(frozen, "--write-accepted", code=1)
    assert "drafted 1 entry in .catalogctl/accepted.yaml" in done.stderr
    text = (frozen / ".catalogctl/accepted.yaml").read_text()
    assert text == "# ours\naccepted:\n" + GAP_DRAFT
    again = gate(frozen, "--write-accepted", code=1)
    assert "[acceptance pending]" in again.stdout
    assert ".catalogctl/accepted.yaml: nothing to draft" in again.stderr
    (frozen / ".catalogctl/accepted.yaml").write_text(
        text.replace("reason: <TBD>", "reason: test").replace("approver: <TBD>", "approver: ana")
    )
    gate(frozen)


def test_an_invalid_accepted_file_is_an_error_with_its_position(frozen: Path) -> None:
    write(
        frozen,
        ".catalogctl/accepted.yaml",
        "accepted:\n  - fingerprint: XYZ\n    reason: a\n    approver: b\n    expires: 2026-01-01\n",
    )
    done = gate(frozen, code=1)
    assert done.stdout.splitlines()[0].startswith(
        ".catalogctl/accepted.yaml:2:18: error accepted-invalid: accepted[0].fingerprint: `XYZ` is not a fingerprint"
    )


def test_write_accepted_refuses_a_file_that_is_not_utf8(frozen: Path) -> None:
    # Was a UnicodeDecodeError traceback after the report.
    skip_a_cohort(frozen)
    path = frozen / ".catalogctl/accepted.yaml"
    path.parent.mkdir()
    path.write_bytes(b"# caf\xe9\naccepted: []\n")
    done = gate(frozen, "--write-accepted", code=1)
    assert done.stdout.splitlines()[0] == (
        ".catalogctl/accepted.yaml:1:6: error accepted-invalid: the file is not valid UTF-8 [ac75f01a3f3f0594]"
    )
    assert done.stderr == (
        "error: .catalogctl/accepted.yaml has errors: fix them before drafting entries into it\n"
        "  .catalogctl/accepted.yaml:1:6: error accepted-invalid: the file is not valid UTF-8\n"
    )
    assert path.read_bytes() == b"# caf\xe9\naccepted: []\n"


def test_write_accepted_keeps_an_invalid_file_as_it_is(frozen: Path) -> None:
    skip_a_cohort(frozen)
    text = "# ours\naccepted:\n  - fingerprint: XYZ\n    reason: a\n    approver: b\n    expires: 2026-01-01\n"
    write(frozen, ".catalogctl/accepted.yaml", text)
    done = gate(frozen, "--write-accepted", code=1)
    assert done.stderr.splitlines()[:2] == [
        "error: .catalogctl/accepted.yaml has errors: fix them before drafting entries into it",
        "  .catalogctl/accepted.yaml:3:18: error accepted-invalid: accepted[0].fingerprint: `XYZ` is "
        "not a fingerprint: "
        "16 lowercase hex digits",
    ]
    assert (frozen / ".catalogctl/accepted.yaml").read_text() == text


def test_json_report(frozen: Path) -> None:
    replace_in(frozen, RULESET, "model_seed: 42", "model_seed: 43")
    data = json.loads(gate(frozen, "-f", "json", code=1).stdout)
    assert data["schema"] == "catalogctl/ci/v1"
    assert data["passed"] is False
    assert data["summary"] == {"errors": 1, "warnings": 0, "accepted": 0, "expired": 0}
    assert data["findings"][0]["fingerprint"] == "b6ae4b57dc851539"


def test_an_unknown_base_is_a_usage_error(frozen: Path) -> None:
    done = run_cli("ci", "--base", "nope", "-C", str(frozen), code=2)
    assert "error: unknown ref `nope`" in done.stderr


def test_head_ref_instead_of_the_working_tree(frozen: Path) -> None:
    replace_in(frozen, RULESET, "model_seed: 42", "model_seed: 43")
    commit_all(frozen, "edit the ruleset")
    git(frozen, "checkout", "-q", "main")
    gate(frozen)
    done = gate(frozen, "--head", "pr", code=1)
    assert done.stdout.splitlines()[-1].startswith("gate failed: main (")


def test_the_first_pull_request_that_adds_the_catalog_passes(tmp_path: Path) -> None:
    # It was "no catalog in the main (…): `benchmark_suite/` not found", exit 2: a consortium's
    # first pull request could never pass its required check.
    from tests.helpers import copy_catalog, init_repo

    repo = init_repo(tmp_path / "fresh")
    write(repo, "README.md", "a consortium's repository\n")
    commit_all(repo, "Start")
    git(repo, "checkout", "-q", "-b", "pr")
    copy_catalog(repo)
    done = run_cli("ci", "--base", "main", "-C", str(repo), "--today", "2026-08-30")
    base = git(repo, "rev-parse", "main")[:12]
    lines = done.stdout.splitlines()
    # Every file is new: the shipped catalog's pending values are shown, as for any edited file.
    assert all(" warning pending-value: " in line for line in lines[:-2])
    assert lines[-2:] == [
        "note: base: no catalog in main: read as an empty catalog",
        f"gate passed: main ({base}) -> working tree (0 errors, {len(lines) - 2} warnings, 0 accepted)",
    ]


def test_a_code_the_configuration_never_accepts_is_refused(frozen: Path) -> None:
    skip_a_cohort(frozen)
    entry = {"fingerprint": GAP, "reason": "no round in September", "approver": "ana"}
    write(frozen, ".catalogctl/accepted.yaml", ACCEPTED.format(**entry, expires="2026-09-30"))
    write(frozen, "pyproject.toml", '[tool.catalogctl]\nnever-accept = ["ruleset-cohort-gap"]\n')
    done = gate(frozen, "--write-accepted", code=1)
    assert done.stdout.splitlines() == [
        ".catalogctl/accepted.yaml:2:18: error accepted-not-allowed: bfac650c852ae1b9 is ruleset-cohort-gap, which "
        "can never be accepted: the repository's configuration never accepts it (never-accept) (fix the finding, "
        "and remove its entry) [23489dddbc7ee6b2]",
        GAP_FINDING.format(status=""),
        verdict(frozen, "failed") + " (2 errors, 0 warnings, 0 accepted)",
    ]
    assert ".catalogctl/accepted.yaml: nothing to draft" in done.stderr


def test_a_warning_the_configuration_never_accepts_is_refused_too(frozen: Path) -> None:
    replace_in(frozen, GSM8K, "max_new_tokens: 256", "max_new_tokens: 512")
    first = gate(frozen).stdout.splitlines()[0]
    fingerprint = first.rsplit("[", 1)[1].rstrip("]")
    assert " warning contract-change-next-freeze: " in first
    entry = {"fingerprint": fingerprint, "reason": "on purpose", "approver": "ana", "expires": "2026-09-30"}
    write(frozen, ".catalogctl/accepted.yaml", ACCEPTED.format(**entry))
    assert gate(frozen).stdout.splitlines()[-1].startswith(verdict(frozen, "passed"))
    write(frozen, "catalogctl.toml", 'never-accept = ["contract-change-next-freeze"]\n')
    lines = gate(frozen, code=1).stdout.splitlines()
    assert lines[0].startswith(
        f".catalogctl/accepted.yaml:2:18: error accepted-not-allowed: {fingerprint} is contract-change-next-freeze, "
        "which can never be accepted: the repository's configuration never accepts it (never-accept)"
    )


MONTHLY = '[[calendar.rules]]\nslot = "C0"\nweekday = "wednesday"\nweek = 1\n'


def test_a_monthly_calendar_freezes_the_next_month_without_a_gap(frozen: Path) -> None:
    write(frozen, "catalogctl.toml", MONTHLY)
    commit_all(frozen, "A monthly calendar")
    assert run_cli("cohorts", "-C", str(frozen)).stdout.splitlines()[-1] == "next: 2026-10-C0 (2026-10-07)"
    freeze(frozen, FreezeRequest("2026-10-C0", now=NOW))  # MLCommons' calendar: "skips 2026-09-C1"
    ruleset = (frozen / "rulesets/2026-10-C0.yaml").read_text()
    assert "submission_date: 2026-10-07\n" in ruleset
    # The pull request that brings the calendar is judged by the base's: MLCommons' sees the gap.
    lines = gate(frozen, code=1).stdout.splitlines()
    assert lines[0] == GAP_FINDING.format(status="")
    assert lines[1] == "note: head: changes the cohort calendar: the review keeps the base's until the change is merged"
    # Once the calendar is merged, the freeze passes.
    git(frozen, "checkout", "-q", "main")
    write(frozen, "catalogctl.toml", MONTHLY)
    commit_all(frozen, "A monthly calendar")
    git(frozen, "checkout", "-q", "pr")
    done = gate(frozen)
    assert done.stdout.splitlines() == [verdict(frozen, "passed") + " (0 errors, 0 warnings, 0 accepted)"]


def test_an_explicit_date_is_what_freeze_writes_and_the_gate_expects(frozen: Path) -> None:
    write(frozen, "catalogctl.toml", MONTHLY + "[calendar.dates]\n2026-10-C0 = 2026-10-09\n")
    commit_all(frozen, "A calendar with a date")
    git(frozen, "branch", "-f", "main", "HEAD")  # merged before the freeze: the gate judges by the base's
    freeze(frozen, FreezeRequest("2026-10-C0", now=NOW))
    assert "submission_date: 2026-10-09\n" in (frozen / "rulesets/2026-10-C0.yaml").read_text()
    assert gate(frozen).stdout.splitlines()[-1].endswith("(0 errors, 0 warnings, 0 accepted)")
    git(frozen, "checkout", "-q", "main")
    write(frozen, "catalogctl.toml", MONTHLY)  # the date the ruleset states is no longer the base's
    commit_all(frozen, "No explicit date")
    git(frozen, "checkout", "-q", "pr")
    lines = gate(frozen, code=1).stdout.splitlines()
    assert any(
        "error ruleset-order: new ruleset 2026-10-C0: submission_date is 2026-10-09, but 2026-10-C0 submits on "
        "2026-10-07" in line
        for line in lines
    )


def test_a_cohort_the_calendar_does_not_have_is_refused_by_freeze_and_the_gate(frozen: Path) -> None:
    skip_a_cohort(frozen)  # 2026-10-C0 under MLCommons' calendar
    for branch in ("main", "pr"):  # the base's calendar, which the gate judges by, and the head's
        git(frozen, "checkout", "-q", branch)
        write(frozen, "catalogctl.toml", '[[calendar.rules]]\nslot = "C1"\nweekday = "monday"\nweek = 1\n')
        commit_all(frozen, "Another calendar")
    lines = gate(frozen, code=1).stdout.splitlines()
    assert any(
        "error ruleset-order: new ruleset 2026-10-C0: the cohort calendar has no such cohort" in line for line in lines
    )
    done = run_cli("freeze", "2026-11-C0", "-C", str(frozen), code=2)
    assert done.stderr.splitlines()[0] == "error: 2026-11-C0 is not in the cohort calendar"


def test_a_pull_request_cannot_drop_a_code_from_never_accept_and_accept_it(frozen: Path) -> None:
    write(frozen, "catalogctl.toml", 'never-accept = ["ruleset-cohort-gap"]\n')
    commit_all(frozen, "Gaps are never accepted")
    git(frozen, "branch", "-f", "main", "HEAD")  # the base has the rule
    skip_a_cohort(frozen)
    write(frozen, "catalogctl.toml", "never-accept = []\n")
    entry = {"fingerprint": GAP, "reason": "no round in September", "approver": "ana"}
    write(frozen, ".catalogctl/accepted.yaml", ACCEPTED.format(**entry, expires="2026-09-30"))
    lines = gate(frozen, code=1).stdout.splitlines()
    assert lines[0].startswith(".catalogctl/accepted.yaml:2:18: error accepted-not-allowed: bfac650c852ae1b9 is ")
    assert "the repository's configuration never accepts it (never-accept)" in lines[0]


JANUARY_ONLY = '[[calendar.rules]]\nslot = "C0"\nweekday = "wednesday"\nweek = 1\nmonths = [1]\n'


def test_a_pull_request_cannot_loosen_its_own_review_with_a_calendar(frozen: Path) -> None:
    # The review took the head's calendar: a pull request that gave itself one whose next cohort
    # is 2027-01-C0 expired every seed set of 2026-09-C0, and removed what that cohort uses with
    # two warnings, passing.
    (frozen / "benchmark_suite/datasets/gsm8k.yaml").unlink()
    (frozen / GSM8K).unlink()
    write(frozen, "catalogctl.toml", JANUARY_ONLY)
    lines = gate(frozen, code=1).stdout.splitlines()
    assert [line.split(": ", 2)[1] for line in lines[:2]] == [
        "error frozen-reference-removed",
        "error frozen-reference-removed",
    ]
    assert "2026-09-C0 still has valid seed sets" in lines[0]
    assert lines[2:] == [
        "note: head: changes the cohort calendar: the review keeps the base's until the change is merged",
        verdict(frozen, "failed") + " (2 errors, 0 warnings, 0 accepted)",
    ]
