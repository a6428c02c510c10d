"""`freeze`: the release transaction, refusals, seed rotation, crash recovery and safe push."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from catalogctl import load_catalog
from catalogctl.catalog.contract import contract_digest
from catalogctl.errors import (
    CatalogError,
    CatalogInvalid,
    ConcurrentUpdate,
    DirtyTree,
    EnvironmentProblem,
    RemoteProblem,
    RemoteUnreachable,
    UsageError,
)
from catalogctl.io.yamlio import parse_document
from catalogctl.model import Ruleset
from catalogctl.release.freeze import FreezeRequest, freeze
from catalogctl.release.ruleset import ruleset_digest
from tests.helpers import commit_all, git, init_repo, replace_in, run_cli, write
from tests.release_repo import (
    REFUSE_TAGS_HOOK,
    SEEDS_A,
    commit_count,
    free_port,
    git_daemon,
    make_freezable,
    tags,
)

NOW = dt.datetime(2026, 8, 28, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def repo(catalog_repo: Path) -> Path:
    return make_freezable(catalog_repo)


@pytest.fixture
def seeds_a(tmp_path: Path) -> Path:
    return write(tmp_path, "seeds-a.yaml", SEEDS_A)


def request(cohort: str, **kwargs: object) -> FreezeRequest:
    kwargs.setdefault("now", NOW)
    return FreezeRequest(cohort=cohort, **kwargs)  # type: ignore[arg-type]


def ruleset_at(root: Path, cohort: str, ref: str = "HEAD") -> Ruleset:
    text = git(root, "show", f"{ref}:rulesets/{cohort}.yaml").encode()
    return Ruleset.model_validate(parse_document("r", text).data)


def snapshot(root: Path) -> tuple[str, str, str, list[str]]:
    """HEAD, the porcelain status, the changelog and the tags: what a refused freeze leaves alone."""
    return (
        git(root, "rev-parse", "HEAD"),
        git(root, "status", "--porcelain"),
        (root / "CHANGELOG.md").read_text() if (root / "CHANGELOG.md").exists() else "",
        tags(root),
    )


def test_first_freeze_writes_ruleset_changelog_commit_and_tag(repo: Path, seeds_a: Path) -> None:
    before = commit_count(repo)
    result = freeze(repo, request("2026-09-C0", add=["gsm8k", "deepseek-r1"], seeds_file=seeds_a, message="September"))
    assert result.state == "frozen"
    assert commit_count(repo) == before + 1
    assert tags(repo) == ["2026-09-C0"]
    assert git(repo, "status", "--porcelain") == ""
    ruleset = ruleset_at(repo, "2026-09-C0")
    catalog = load_catalog(repo).catalog
    assert [(b.id, b.digest) for b in ruleset.benchmarks] == [
        ("deepseek-r1", contract_digest(catalog, "deepseek-r1")),
        ("gsm8k", contract_digest(catalog, "gsm8k")),
    ]
    assert ruleset.submission_date == dt.date(2026, 9, 2)
    assert ruleset.previous is None
    assert ruleset.frozen_at == NOW
    assert ruleset.catalog_tree == git(repo, "rev-parse", "HEAD~1:benchmark_suite")
    [seed_set] = ruleset.seed_sets
    assert (seed_set.id, seed_set.scheduler_rng_seed, seed_set.sample_index_rng_seed, seed_set.model_seed) == (
        "A",
        16159082839903944936,
        2747215439041700203,
        42,
    )
    assert (seed_set.introduced_in, seed_set.valid_through) == ("2026-09-C0", "2026-10-C1")
    message = git(repo, "tag", "-l", "--format=%(contents)", "2026-09-C0")
    assert message.startswith("September\n\nruleset: rulesets/2026-09-C0.yaml\nruleset-digest: sha256:")
    assert result.ruleset_digest in message
    assert git(repo, "cat-file", "-t", "2026-09-C0") == "tag"  # annotated
    assert git(repo, "rev-parse", "2026-09-C0^{commit}") == git(repo, "rev-parse", "HEAD")
    changelog = (repo / "CHANGELOG.md").read_text()
    assert changelog.count("## 2026-09-C0") == 1
    assert "| `gsm8k` | `sha256:" in changelog
    assert changelog.startswith("# Catalog release notes\n\n## 2026-09-C0\n")
    assert load_catalog(repo).ok


def test_dry_run_prints_the_plan_and_changes_nothing(repo: Path, seeds_a: Path) -> None:
    before = snapshot(repo)
    result = freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a, dry_run=True))
    assert result.state == "planned"
    assert "cohort: 2026-09-C0" in result.ruleset_text
    assert result.changelog_section.startswith("## 2026-09-C0\n")
    assert snapshot(repo) == before


@pytest.mark.parametrize("change", ["modified", "untracked", "staged"])
def test_dirty_tree_is_refused(repo: Path, change: str) -> None:
    if change == "modified":
        replace_in(repo, "benchmark_suite/datasets/aime25.yaml", "samples: 30", "samples: 31")
    elif change == "untracked":
        write(repo, "notes.txt", "x\n")
    else:
        write(repo, "notes.txt", "x\n")
        git(repo, "add", "notes.txt")
    before = snapshot(repo)
    with pytest.raises(DirtyTree, match="the working tree has uncommitted changes"):
        freeze(repo, request("2026-09-C0", add=["gsm8k"]))
    assert snapshot(repo) == before


def test_invalid_catalog_is_refused(repo: Path) -> None:
    replace_in(repo, "benchmark_suite/datasets/gsm8k.yaml", "samples: 1319", "samples: many")
    commit_all(repo, "Break it")
    before = snapshot(repo)
    with pytest.raises(CatalogInvalid, match="the catalog is invalid: nothing was frozen") as caught:
        freeze(repo, request("2026-09-C0", add=["gsm8k"]))
    assert caught.value.diagnostics[0].path == "benchmark_suite/datasets/gsm8k.yaml"
    assert snapshot(repo) == before


def test_unknown_benchmark_is_refused(repo: Path) -> None:
    before = snapshot(repo)
    with pytest.raises(UsageError, match=r"unknown benchmark `gsm8` \(did you mean `gsm8k`\?\)"):
        freeze(repo, request("2026-09-C0", add=["gsm8"]))
    assert snapshot(repo) == before


def test_pending_values_are_refused_with_their_positions(repo: Path) -> None:
    before = snapshot(repo)
    with pytest.raises(CatalogInvalid, match="pending values block freezing gpt-oss-120b") as caught:
        freeze(repo, request("2026-09-C0", add=["gsm8k", "gpt-oss-120b"]))
    first = caught.value.diagnostics[0]
    assert (first.path, first.line, first.column) == ("benchmark_suite/datasets/aime25.yaml", 7, 8)
    assert first.message == "dataset `aime25`: source.url is pending (<TBD>); blocks freezing gpt-oss-120b"
    assert snapshot(repo) == before


def test_a_cohort_must_be_later_than_the_last(repo: Path, seeds_a: Path) -> None:
    freeze(repo, request("2026-09-C1", add=["gsm8k"], seeds_file=seeds_a))
    before = snapshot(repo)
    with pytest.raises(UsageError, match=r"2026-09-C0 is not later than 2026-09-C1, the last frozen cohort"):
        freeze(repo, request("2026-09-C0"))
    assert snapshot(repo) == before


def test_a_cohort_that_skips_cohorts_needs_skip_cohorts(repo: Path, seeds_a: Path) -> None:
    # 2099-12-C1 was frozen, after which every real cohort was "not later than" it.
    freeze(repo, request("2026-12-C0", add=["gsm8k"], seeds_file=seeds_a))
    before = snapshot(repo)
    done = run_cli("freeze", "2099-12-C1", "-C", str(repo), code=2)
    assert done.stderr == (
        "error: 2099-12-C1 skips 1752 cohorts (2026-12-C1 to 2099-12-C0) after 2026-12-C0, the last frozen cohort\n"
        "hint: the next cohort is 2026-12-C1 (2026-12-16); to skip, pass --skip-cohorts 1752\n"
    )
    done = run_cli("freeze", "2027-01-C0", "--skip-cohorts", "2", "-C", str(repo), code=2)
    assert done.stderr.startswith("error: 2027-01-C0 skips 1 cohort (2026-12-C1) after 2026-12-C0, the last")
    done = run_cli("freeze", "2026-12-C1", "--skip-cohorts", "1", "-C", str(repo), code=2)
    assert done.stderr == "error: 2026-12-C1 follows 2026-12-C0 and skips no cohort\nhint: drop --skip-cohorts\n"
    assert snapshot(repo) == before
    done = run_cli("freeze", "2027-01-C0", "--skip-cohorts", "1", "--today", "2026-12-01", "-C", str(repo))
    assert done.stderr == "warning: 2027-01-C0 skips 1 cohort (2026-12-C1) after 2026-12-C0: they get no ruleset\n"
    assert ruleset_at(repo, "2027-01-C0").previous == "2026-12-C0"


def test_nothing_to_skip_before_the_first_cohort(repo: Path) -> None:
    done = run_cli("freeze", "2026-12-C0", "--add", "gsm8k", "--skip-cohorts", "3", "-C", str(repo), code=2)
    assert done.stderr == "error: no cohort is frozen yet, so there is none to skip\nhint: drop --skip-cohorts\n"


@pytest.mark.parametrize(
    ("cohort", "skip", "message"),
    [
        ("0000-01-C0", "0", "`0000-01-C0` is out of range: cohort years run from 2000 to 9999"),
        # Its seed set would be valid through 10000-02-C0: a pydantic traceback.
        ("9999-12-C1", "191352", "no cohort follows 9999-12-C1: cohort years end at 9999"),
    ],
)
def test_out_of_range_cohorts_are_messages(repo: Path, seeds_a: Path, cohort: str, skip: str, message: str) -> None:
    freeze(repo, request("2026-12-C0", add=["gsm8k"], seeds_file=seeds_a))
    before = snapshot(repo)
    done = run_cli("freeze", cohort, "--skip-cohorts", skip, "-C", str(repo), code=2)
    assert done.stderr == f"error: {message}\n"
    assert snapshot(repo) == before


def test_invalid_cohort_id_is_a_usage_error(repo: Path) -> None:
    with pytest.raises(UsageError, match="is not a cohort id"):
        freeze(repo, request("2026-9-C0"))


def test_benchmarks_carry_over_and_seed_sets_rotate(repo: Path, seeds_a: Path) -> None:
    freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a))
    freeze(repo, request("2026-09-C1", add=["deepseek-r1"]))
    c1 = ruleset_at(repo, "2026-09-C1")
    assert [b.id for b in c1.benchmarks] == ["deepseek-r1", "gsm8k"]
    assert [s.id for s in c1.seed_sets] == ["A"]  # not due: A was introduced one cohort ago
    assert c1.previous == "2026-09-C0"
    freeze(repo, request("2026-10-C0", remove=["gsm8k"]))
    c2 = ruleset_at(repo, "2026-10-C0")
    assert [b.id for b in c2.benchmarks] == ["deepseek-r1"]
    a, b = c2.seed_sets
    assert (a.id, b.id) == ("A", "B")
    assert (b.introduced_in, b.valid_through) == ("2026-10-C0", "2026-11-C1")
    values = [b.scheduler_rng_seed, b.sample_index_rng_seed, b.model_seed]
    assert len(set(values)) == 3
    assert all(0 <= v < 2**64 for v in values)
    assert a == ruleset_at(repo, "2026-09-C0").seed_sets[0]  # a published set never changes
    freeze(repo, request("2026-10-C1"))
    freeze(repo, request("2026-11-C0"))
    c4 = ruleset_at(repo, "2026-11-C0")
    assert [s.id for s in c4.seed_sets] == ["B", "C"]  # A was valid through 2026-10-C1; C is due
    changelog = (repo / "CHANGELOG.md").read_text()
    order = [changelog.index(f"## {c}") for c in ("2026-11-C0", "2026-10-C1", "2026-10-C0", "2026-09-C1", "2026-09-C0")]
    assert order == sorted(order)  # newest first
    assert "| `gsm8k` | – | removed |" in changelog


def test_importing_seeds_when_no_rotation_is_due(repo: Path, seeds_a: Path) -> None:
    freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a))
    with pytest.raises(UsageError, match="no new seed set is due at 2026-09-C1"):
        freeze(repo, request("2026-09-C1", seeds_file=seeds_a))


def test_imported_seed_set_under_another_id(repo: Path, tmp_path: Path) -> None:
    seeds = write(tmp_path, "b.yaml", SEEDS_A.replace("id: A", "id: B"))
    with pytest.raises(CatalogError, match="the imported seed set is named B, but the next set id is A"):
        freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds))


def test_bad_seed_file(repo: Path, tmp_path: Path) -> None:
    seeds = write(tmp_path, "bad.yaml", SEEDS_A.replace("model_seed: 42", f"model_seed: {2**64}"))
    with pytest.raises(CatalogInvalid, match="is not a valid seed file") as caught:
        freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds))
    assert caught.value.diagnostics[0].code == "schema-invalid-value"


# -- crashes and reruns --------------------------------------------------------------------


class Crash(Exception):
    """A simulated crash."""


def crash_at(step: str) -> Callable[[str], None]:
    def failpoint(current: str) -> None:
        if current == step:
            raise Crash(step)

    return failpoint


@pytest.mark.parametrize("step", ["files", "commit", "tag"])
def test_rerun_after_a_crash_finishes_with_one_commit_one_tag_and_the_same_seeds(repo: Path, step: str) -> None:
    freeze(repo, request("2026-09-C0", add=["gsm8k"]))  # A generated
    before = commit_count(repo)
    with pytest.raises(Crash):
        freeze(repo, request("2026-10-C0", skip_cohorts=1), failpoint=crash_at(step))
    written = Ruleset.model_validate(parse_document("r", (repo / "rulesets/2026-10-C0.yaml").read_bytes()).data)
    result = freeze(repo, request("2026-10-C0", skip_cohorts=1, now=NOW + dt.timedelta(hours=1)))
    assert result.state == ("resumed" if step != "tag" else "already-frozen")
    assert commit_count(repo) == before + 1
    assert tags(repo) == ["2026-09-C0", "2026-10-C0"]
    final = ruleset_at(repo, "2026-10-C0", "2026-10-C0")
    assert final.seed_sets == written.seed_sets
    assert final.frozen_at == written.frozen_at
    assert (repo / "CHANGELOG.md").read_text().count("## 2026-10-C0") == 1
    assert git(repo, "status", "--porcelain") == ""


def test_rerun_after_success_is_a_no_op_that_says_so(repo: Path, seeds_a: Path) -> None:
    freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a))
    before = snapshot(repo)
    result = freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a))
    assert result.state == "already-frozen"
    assert result.notes[-1].startswith("2026-09-C0 is already frozen at ")
    assert snapshot(repo) == before


def test_a_tag_pointing_elsewhere_is_an_error_naming_both_commits(repo: Path, seeds_a: Path) -> None:
    freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a))
    release = git(repo, "rev-parse", "HEAD")
    git(repo, "tag", "-f", "-a", "2026-09-C0", "-m", "moved", "HEAD~1")
    elsewhere = git(repo, "rev-parse", "HEAD~1")
    with pytest.raises(CatalogError) as caught:
        freeze(repo, request("2026-09-C0", add=["gsm8k"]))
    assert str(caught.value) == (
        f"tag `2026-09-C0` points at {elsewhere[:12]}, but the release is {release[:12]}, "
        "which added rulesets/2026-09-C0.yaml"
    )


def test_a_leftover_lock_is_reported_and_never_deleted(repo: Path) -> None:
    lock = repo / ".git/refs/tags/2026-09-C0.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.write_text("")
    with pytest.raises(EnvironmentProblem, match=r"leftover lock file: .*2026-09-C0\.lock"):
        freeze(repo, request("2026-09-C0", add=["gsm8k"]))
    assert lock.exists()
    assert not (repo / "rulesets").exists()


def test_head_moving_during_the_freeze_fails_cleanly(repo: Path) -> None:
    changelog = (repo / "CHANGELOG.md").read_text() if (repo / "CHANGELOG.md").exists() else None

    def other_commit(step: str) -> None:
        if step == "files":
            git(repo, "commit", "-q", "--allow-empty", "-m", "someone else")

    with pytest.raises(ConcurrentUpdate, match="HEAD moved while committing"):
        freeze(repo, request("2026-09-C0", add=["gsm8k"]), failpoint=other_commit)
    assert not (repo / "rulesets/2026-09-C0.yaml").exists()
    now = (repo / "CHANGELOG.md").read_text() if (repo / "CHANGELOG.md").exists() else None
    assert now == changelog
    assert tags(repo) == []


# -- pushing ---------------------------------------------------------------------------------


@pytest.fixture
def remote(tmp_path: Path, repo: Path) -> Path:
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "push", "-q", "origin", "main")
    return bare


def test_push_sends_branch_then_tag_and_verifies(repo: Path, remote: Path, seeds_a: Path) -> None:
    result = freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a, push="origin"))
    assert result.pushed
    head = git(repo, "rev-parse", "HEAD")
    assert git(remote, "rev-parse", "main") == head
    assert git(remote, "rev-parse", "2026-09-C0^{commit}") == head


def test_crash_during_push_then_rerun(repo: Path, remote: Path, seeds_a: Path) -> None:
    with pytest.raises(Crash):
        freeze(
            repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a, push="origin"), failpoint=crash_at("push")
        )
    assert git(remote, "tag", "--list") == ""  # the branch went first, the tag not yet
    result = freeze(repo, request("2026-09-C0", add=["gsm8k"], push="origin"))
    assert (result.state, result.pushed) == ("already-frozen", True)
    assert git(remote, "rev-parse", "2026-09-C0^{commit}") == git(repo, "rev-parse", "HEAD")


def test_remote_tag_elsewhere_is_refused_and_never_moves(repo: Path, remote: Path, seeds_a: Path) -> None:
    git(repo, "tag", "-a", "2026-09-C0", "-m", "someone else's", "HEAD")
    git(repo, "push", "-q", "origin", "2026-09-C0")
    theirs = git(remote, "rev-parse", "2026-09-C0")
    git(repo, "tag", "-d", "2026-09-C0")
    before = snapshot(repo)
    with pytest.raises(RemoteProblem, match=r"`origin` already has tag `2026-09-C0` at"):
        freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a, push="origin"))
    assert git(remote, "rev-parse", "2026-09-C0") == theirs
    assert snapshot(repo) == before  # refused before anything was written


def test_two_clones_freezing_the_same_cohort(repo: Path, remote: Path, tmp_path: Path, seeds_a: Path) -> None:
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(remote), str(other))
    freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a, push="origin"))
    winner = git(remote, "rev-parse", "2026-09-C0^{commit}")
    before = snapshot(other)
    with pytest.raises(RemoteProblem, match="already has tag `2026-09-C0`"):
        freeze(other, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a, push="origin"))
    assert git(remote, "rev-parse", "2026-09-C0^{commit}") == winner
    assert snapshot(other) == before


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[str]:
    yield from git_daemon(tmp_path / "served")


def test_git_daemon_refusing_the_tag(repo: Path, tmp_path: Path, daemon: str, seeds_a: Path) -> None:
    served = tmp_path / "served"
    bare = served / "remote.git"
    served.mkdir(exist_ok=True)
    git(served, "init", "-q", "--bare", "-b", "main", str(bare))
    hook = bare / "hooks/update"
    hook.write_text(REFUSE_TAGS_HOOK)
    hook.chmod(0o755)
    url = f"{daemon}/remote.git"
    git(repo, "push", "-q", url, "main")
    with pytest.raises(RemoteProblem, match=r"refused the push \(refs/tags/2026-09-C0: "):
        freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a, push=url))
    assert git(bare, "tag", "--list") == ""
    assert git(bare, "rev-parse", "main") == git(repo, "rev-parse", "HEAD")  # the branch went first
    assert ruleset_digest((repo / "rulesets/2026-09-C0.yaml").read_bytes()).startswith("sha256:")


def test_git_daemon_push(repo: Path, tmp_path: Path, daemon: str, seeds_a: Path) -> None:
    served = tmp_path / "served"
    served.mkdir(exist_ok=True)
    bare = served / "ok.git"
    git(served, "init", "-q", "--bare", "-b", "main", str(bare))
    url = f"{daemon}/ok.git"
    freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a, push=url))
    assert git(bare, "rev-parse", "2026-09-C0^{commit}") == git(repo, "rev-parse", "HEAD")


def test_unreachable_remote(repo: Path, seeds_a: Path) -> None:
    before = snapshot(repo)
    with pytest.raises(RemoteUnreachable, match="cannot list the refs of"):
        freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a, push="/nonexistent/remote.git"))
    assert snapshot(repo) == before


def test_an_unreachable_remote_is_an_environment_error_and_a_refusing_one_a_problem(
    repo: Path, tmp_path: Path, daemon: str, seeds_a: Path
) -> None:
    url = f"git://127.0.0.1:{free_port()}/remote.git"  # nothing listens there
    args = ["freeze", "2026-09-C0", "--add", "gsm8k", "--seeds", str(seeds_a), "-C", str(repo)]
    done = run_cli(*args, "--push", url, code=2)  # was 1, as if the remote had refused
    assert done.stdout == ""
    assert done.stderr == (
        f"error: cannot list the refs of `{url}`: failed to connect to 127.0.0.1: Connection refused\n"
        "hint: check the remote's URL and your access\n"
    )
    (tmp_path / "served").mkdir(exist_ok=True)
    missing = f"{daemon}/missing.git"  # the daemon answers: no such repository
    done = run_cli(*args, "--push", missing, code=1)
    assert done.stderr.startswith(
        f"error: cannot list the refs of `{missing}`: remote error: access denied or repository not exported"
    )


def test_no_repository(tmp_path: Path) -> None:
    init_repo(tmp_path / "r")
    with pytest.raises(EnvironmentProblem, match="no commit yet"):
        freeze(tmp_path / "r", request("2026-09-C0"))


def test_no_tag_commits_and_a_later_run_tags(repo: Path, seeds_a: Path) -> None:
    result = freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a, tag=False))
    assert (result.state, result.tagged) == ("frozen", False)
    assert tags(repo) == []
    commits = commit_count(repo)
    again = freeze(repo, request("2026-09-C0"))
    assert (again.state, again.tagged) == ("resumed", True)
    assert again.notes == [f"rulesets/2026-09-C0.yaml was committed in {result.commit[:12]} without its tag: finishing"]  # type: ignore[index]
    assert commit_count(repo) == commits
    assert git(repo, "rev-parse", "2026-09-C0^{commit}") == result.commit


def test_changelog_sections_stay_newest_first_below_unreleased(repo: Path, seeds_a: Path) -> None:
    write(repo, "CHANGELOG.md", "# Catalog release notes\n\n## Unreleased\n\n- a note\n")
    commit_all(repo, "Changelog")
    freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a))
    freeze(repo, request("2026-09-C1"))
    text = (repo / "CHANGELOG.md").read_text()
    assert text.startswith("# Catalog release notes\n\n## Unreleased\n\n## 2026-09-C1\n")
    assert text.index("## 2026-09-C1") < text.index("## 2026-09-C0")


def test_files_git_ignores_are_never_frozen(repo: Path) -> None:
    bench = repo / "benchmark_suite/benchmarks"
    (bench / "gsm8k2.yaml").write_text((bench / "gsm8k.yaml").read_text().replace("id: gsm8k\n", "id: gsm8k2\n"))
    (repo / ".git/info/exclude").write_text("benchmark_suite/benchmarks/gsm8k2.yaml\n")
    assert git(repo, "status", "--porcelain") == ""  # the working tree looks clean to git
    before = snapshot(repo)
    with pytest.raises(UsageError, match=r"unknown benchmark `gsm8k2` \(did you mean `gsm8k`\?\)"):
        freeze(repo, request("2026-09-C0", add=["gsm8k", "gsm8k2"]))
    assert snapshot(repo) == before


def test_a_resumed_freeze_refuses_other_seeds(repo: Path, seeds_a: Path) -> None:
    with pytest.raises(Crash):
        freeze(repo, request("2026-09-C0", add=["gsm8k"]), failpoint=crash_at("files"))  # generated seeds
    with pytest.raises(UsageError) as caught:
        freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a))
    assert str(caught.value).startswith("the interrupted freeze left rulesets/2026-09-C0.yaml with seed set A = ")
    assert str(caught.value).endswith(f"not the seeds of {seeds_a}")
    assert tags(repo) == []


def test_a_resumed_freeze_accepts_the_same_seeds(repo: Path, seeds_a: Path) -> None:
    with pytest.raises(Crash):
        freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a), failpoint=crash_at("files"))
    result = freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a))
    assert result.state == "resumed"
    assert ruleset_at(repo, "2026-09-C0").seed_sets[0].scheduler_rng_seed == 16159082839903944936


def test_a_rerun_pushes_the_release_not_later_work(repo: Path, remote: Path, seeds_a: Path) -> None:
    freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a, push="origin"))
    release = git(repo, "rev-parse", "HEAD")
    write(repo, "WIP.md", "not ready\n")
    commit_all(repo, "Work in progress")
    result = freeze(repo, request("2026-09-C0", push="origin"))
    assert (result.state, result.pushed) == ("already-frozen", True)
    assert git(remote, "rev-parse", "main") == release  # the WIP commit was not pushed


def test_a_first_push_after_later_work_sends_only_the_release(repo: Path, remote: Path, seeds_a: Path) -> None:
    freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a))
    release = git(repo, "rev-parse", "HEAD")
    write(repo, "WIP.md", "not ready\n")
    commit_all(repo, "Work in progress")
    freeze(repo, request("2026-09-C0", push="origin"))
    assert git(remote, "rev-parse", "main") == release
    assert git(remote, "rev-parse", "2026-09-C0^{commit}") == release


def test_a_rerun_after_others_pushed_is_still_a_no_op(repo: Path, remote: Path, seeds_a: Path, tmp_path: Path) -> None:
    freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a, push="origin"))
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(remote), str(other))
    write(other, "LATER.md", "later\n")
    commit_all(other, "Later work on the remote")
    git(other, "push", "-q", "origin", "main")
    result = freeze(repo, request("2026-09-C0", push="origin"))
    assert (result.state, result.pushed) == ("already-frozen", True)
    assert git(remote, "rev-parse", "main") == git(other, "rev-parse", "HEAD")


def test_a_changelog_that_is_not_utf8_is_a_message(repo: Path) -> None:
    (repo / "CHANGELOG.md").write_bytes(b"# Notes\n\n## Caf\xe9\n")
    commit_all(repo, "Latin-1 changelog")
    before = snapshot_bytes(repo)
    with pytest.raises(EnvironmentProblem, match=r"CHANGELOG.md is not UTF-8 \(byte 15\): nothing was frozen"):
        freeze(repo, request("2026-09-C0", add=["gsm8k"]))
    assert snapshot_bytes(repo) == before


def snapshot_bytes(root: Path) -> tuple[str, str, bytes]:
    return git(root, "rev-parse", "HEAD"), git(root, "status", "--porcelain"), (root / "CHANGELOG.md").read_bytes()


def test_a_left_ruleset_whose_published_seed_set_was_edited_is_not_reused(repo: Path, seeds_a: Path) -> None:
    # Found by trying to break it: a hand-edited "interrupted" ruleset's altered seed set A was
    # committed and tagged; only ci, later, saw that it differed from the published A.
    freeze(repo, request("2026-09-C0", add=["gsm8k"], seeds_file=seeds_a))
    plan = freeze(repo, request("2026-09-C1", dry_run=True))
    ruleset = repo / "rulesets/2026-09-C1.yaml"
    ruleset.write_text(plan.ruleset_text.replace("model_seed: 42", "model_seed: 43", 1))
    before = git(repo, "rev-parse", "HEAD"), tags(repo)
    with pytest.raises(UsageError) as caught:
        freeze(repo, request("2026-09-C1"))
    assert str(caught.value) == (
        "rulesets/2026-09-C1.yaml, left from an interrupted freeze, has a seed set A other than the one already "
        "published: nothing was frozen"
    )
    assert (git(repo, "rev-parse", "HEAD"), tags(repo)) == before


def test_a_symlinked_freeze_lock_is_refused_and_its_target_untouched(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me\n")
    (repo / ".git/catalogctl-freeze.lock").symlink_to(outside)
    done = run_cli("freeze", "2026-09-C0", "--add", "gsm8k", "-C", repo, code=2)
    lock = repo / ".git/catalogctl-freeze.lock"
    assert done.stderr == (
        f"error: {lock} is not a lock file (Too many levels of symbolic links): nothing was done\n"
        "hint: remove it if no catalogctl is running (catalogctl never follows or removes it)\n"
    )
    assert outside.read_text() == "keep me\n"  # was truncated to "pid N on host"
    assert tags(repo) == []
