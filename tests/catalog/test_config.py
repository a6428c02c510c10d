"""The configuration file (catalogctl.toml, `[tool.catalogctl]`): found, validated, every error
named by its key and placed at its line."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from catalogctl.catalog.cohorts import Cohort
from catalogctl.catalog.config import calendar_for, config_for, config_root, layout_of
from catalogctl.catalog.layout import Layout
from catalogctl.errors import ConfigInvalid
from catalogctl.io import gitrepo, gittree
from catalogctl.io.tree import WorkingTree
from catalogctl.model.documents.config import Config
from tests.helpers import commit_all, git, run_cli, write

PYPROJECT = """\
[project]
name = "a-consortium-catalog"

[tool.catalogctl]
default-remote = "upstream"
never-accept = ["ruleset-cohort-gap", "contract-change-next-freeze"]

[tool.catalogctl.calendar]
dates = {"2027-01-C0" = 2027-01-13}

[[tool.catalogctl.calendar.rules]]
slot = "C0"
weekday = "tuesday"
week = 2
months = [1, 4, 7, 10]
"""


def errors(root: Path) -> list[str]:
    """What `validate` prints for a configuration it refuses (exit 2)."""
    return run_cli("validate", str(root), code=2).stderr.splitlines()


def test_no_file_is_the_default_configuration(catalog_dir: Path) -> None:
    loaded = config_for(catalog_dir)
    assert (loaded.config, loaded.file) == (Config(), "")


def test_a_pyproject_without_the_table_is_no_configuration(catalog_dir: Path) -> None:
    write(catalog_dir, "pyproject.toml", '[project]\nname = "x"\n[tool.ruff]\nline-length = 99\n')
    assert config_for(catalog_dir).file == ""


def test_every_key_of_pyproject(catalog_dir: Path) -> None:
    write(catalog_dir, "pyproject.toml", PYPROJECT)
    loaded = config_for(catalog_dir / "benchmark_suite" / "models")  # found at the root, from below
    assert loaded.file == "pyproject.toml"
    config = loaded.config
    assert config.default_remote == "upstream"
    assert config.never_accept == ["ruleset-cohort-gap", "contract-change-next-freeze"]
    assert config.calendar.dates == {"2027-01-C0": dt.date(2027, 1, 13)}
    [rule] = config.calendar.rules
    assert (rule.slot, rule.weekday, rule.week, rule.months) == ("C0", "tuesday", 2, [1, 4, 7, 10])


def test_catalogctl_toml_takes_precedence_and_has_its_keys_at_the_top(catalog_dir: Path) -> None:
    write(catalog_dir, "pyproject.toml", PYPROJECT)
    write(catalog_dir, "catalogctl.toml", 'default-remote = "origin"\n')
    loaded = config_for(catalog_dir)
    assert (loaded.file, loaded.config.default_remote, loaded.config.never_accept) == ("catalogctl.toml", "origin", [])


def test_the_root_is_the_first_folder_with_a_configuration_or_git(tmp_path: Path) -> None:
    write(tmp_path, "repo/.git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "repo/catalogctl.toml", "")
    (tmp_path / "repo/docs/deep").mkdir(parents=True)
    assert config_root(tmp_path / "repo/docs/deep") == (tmp_path / "repo").resolve()
    write(tmp_path, "repo/docs/pyproject.toml", "")
    assert config_root(tmp_path / "repo/docs/deep") == (tmp_path / "repo/docs").resolve()


def test_the_default_calendar_is_mlcommons(catalog_dir: Path) -> None:
    calendar = calendar_for(catalog_dir)
    for text in ("2026-09-C0", "2026-09-C1", "2026-12-C1", "2027-03-C0"):
        cohort = Cohort.parse(text)
        assert calendar.submission_date(cohort) == cohort.submission_date
    assert calendar.submission_date(Cohort.parse("2026-09-C0")) == dt.date(2026, 9, 2)


def test_a_quarterly_calendar_with_an_explicit_date(catalog_dir: Path) -> None:
    write(catalog_dir, "pyproject.toml", PYPROJECT)
    calendar = calendar_for(catalog_dir)
    # The second Tuesday of January, April, July and October; one date set by hand.
    assert calendar.submission_date(Cohort.parse("2027-04-C0")) == dt.date(2027, 4, 13)
    assert calendar.submission_date(Cohort.parse("2027-01-C0")) == dt.date(2027, 1, 13)
    assert calendar.next(Cohort.parse("2027-01-C0")) == Cohort.parse("2027-04-C0")
    assert calendar.skipped(Cohort.parse("2027-01-C0"), Cohort.parse("2027-10-C0")) == (
        2,
        "2 cohorts (2027-04-C0 to 2027-07-C0)",
    )
    assert calendar.first_on_or_after(dt.date(2027, 4, 14)) == Cohort.parse("2027-07-C0")
    assert not calendar.includes(Cohort.parse("2027-04-C1"))
    with pytest.raises(ConfigInvalid.__mro__[1]) as refused:  # UsageError
        calendar.submission_date(Cohort.parse("2027-02-C0"))
    assert str(refused.value) == "2027-02-C0 is not in the cohort calendar"


def test_the_last_weekday_of_a_month(catalog_dir: Path) -> None:
    write(catalog_dir, "catalogctl.toml", '[[calendar.rules]]\nslot = "C1"\nweekday = "friday"\nweek = -1\n')
    calendar = calendar_for(catalog_dir)
    assert calendar.submission_date(Cohort.parse("2027-01-C1")) == dt.date(2027, 1, 29)
    assert calendar.submission_date(Cohort.parse("2026-12-C1")) == dt.date(2026, 12, 25)
    assert calendar.next(Cohort.parse("2026-12-C1")) == Cohort.parse("2027-01-C1")


def test_a_fifth_weekday_exists_only_in_some_months(catalog_dir: Path) -> None:
    write(catalog_dir, "catalogctl.toml", '[[calendar.rules]]\nslot = "C0"\nweekday = "wednesday"\nweek = 5\n')
    calendar = calendar_for(catalog_dir)
    assert calendar.date_of(Cohort.parse("2026-09-C0")) == dt.date(2026, 9, 30)
    assert calendar.date_of(Cohort.parse("2026-10-C0")) is None
    assert calendar.next(Cohort.parse("2026-09-C0")) == Cohort.parse("2026-12-C0")


def test_an_unknown_key_names_itself_with_a_suggestion_and_its_line(catalog_dir: Path) -> None:
    write(catalog_dir, "pyproject.toml", '[tool.catalogctl]\ndefault-remote = "origin"\nnever-acept = ["x"]\n')
    assert errors(catalog_dir) == [
        "error: pyproject.toml: the catalogctl configuration is not valid",
        "  pyproject.toml:3:1: error config-unknown-key: unknown key `tool.catalogctl.never-acept` "
        "(did you mean `never-accept`?)",
        "hint: fix the configuration (documentation: reference/configuration)",
    ]


def test_an_unknown_table_and_an_unknown_key_without_a_near_miss(catalog_dir: Path) -> None:
    write(catalog_dir, "catalogctl.toml", "[calender]\nx = 1\n[calendar]\nzzz = 2\n")
    assert errors(catalog_dir)[1:3] == [
        "  catalogctl.toml:1:1: error config-unknown-key: unknown key `calender` (did you mean `calendar`?)",
        "  catalogctl.toml:4:1: error config-unknown-key: unknown key `calendar.zzz` (known keys: dates, rules)",
    ]


def test_a_wrong_value_in_the_second_rule_is_placed_at_its_line(catalog_dir: Path) -> None:
    text = PYPROJECT + '\n[[tool.catalogctl.calendar.rules]]\nslot = "C1"\n  weekday = "wensday"\nweek = 3\n'
    write(catalog_dir, "pyproject.toml", text)
    assert errors(catalog_dir)[1] == (
        "  pyproject.toml:19:3: error config-invalid-value: tool.catalogctl.calendar.rules[1].weekday: Input should be "
        "'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday' or 'sunday' (got 'wensday') "
        '(a rule: {slot = "C0", weekday = "wednesday", week = 1}; week -1 is the last)'
    )


def test_bad_codes_cohorts_and_weeks(catalog_dir: Path) -> None:
    write(
        catalog_dir,
        "catalogctl.toml",
        'never-accept = ["Bad"]\ndefault-remote = ""\n'
        'calendar = {dates = {"2027-13-C0" = 2027-01-13}, rules = [{slot = "C2", weekday = "monday", week = 6}]}\n',
    )
    assert errors(catalog_dir)[1:-1] == [
        "  catalogctl.toml:1:1: error config-invalid-value: never-accept[0]: `Bad` is not a finding code, e.g. "
        "ruleset-modified (see the documentation: reference/configuration)",
        "  catalogctl.toml:2:1: error config-invalid-value: default-remote: String should have at least 1 character "
        "(got '') (see the documentation: reference/configuration)",
        "  catalogctl.toml:3:22: error config-invalid-value: calendar.dates.2027-13-C0: `2027-13-C0` is not a cohort "
        "id: write YYYY-MM-C0 or YYYY-MM-C1 (a date per cohort: 2027-01-C0 = 2027-01-13)",
        "  catalogctl.toml:3:60: error config-invalid-value: calendar.rules[0].slot: Input should be 'C0' or 'C1' "
        '(got \'C2\') (a rule: {slot = "C0", weekday = "wednesday", week = 1}; week -1 is the last)',
        "  catalogctl.toml:3:93: error config-invalid-value: calendar.rules[0].week: Input should be 1, 2, 3, 4, 5 "
        'or -1 (got 6) (a rule: {slot = "C0", weekday = "wednesday", week = 1}; week -1 is the last)',
    ]


def test_two_rules_for_one_slot_and_month(catalog_dir: Path) -> None:
    rule = '[[calendar.rules]]\nslot = "C0"\nweekday = "monday"\nweek = 1\n'
    write(catalog_dir, "catalogctl.toml", rule + rule)
    assert errors(catalog_dir)[1] == (
        "  catalogctl.toml:1:1: error config-invalid-value: calendar: two rules give C0 a date in month 1 "
        "(see the documentation: reference/configuration)"
    )


def test_not_toml_is_placed_at_its_line_and_column(catalog_dir: Path) -> None:
    write(catalog_dir, "catalogctl.toml", 'default-remote = "origin"\nnever-accept = [\n')
    assert errors(catalog_dir) == [
        "error: catalogctl.toml is not valid TOML",
        "  catalogctl.toml:2:17: error config-syntax: Invalid value (see https://toml.io)",
        "hint: fix the configuration (documentation: reference/configuration)",
    ]


def test_a_file_that_is_not_utf8(catalog_dir: Path) -> None:
    (catalog_dir / "catalogctl.toml").write_bytes(b"default-remote = '\xff'\n")
    lines = errors(catalog_dir)
    assert lines[0] == "error: cannot read catalogctl.toml"
    assert lines[1].startswith("  catalogctl.toml: error config-syntax: cannot read the file: 'utf-8' codec")


def test_a_syntax_error_inside_the_document(catalog_dir: Path) -> None:
    write(catalog_dir, "catalogctl.toml", 'default-remote = = "origin"\nnever-accept = []\n')
    assert errors(catalog_dir)[1] == "  catalogctl.toml:1:18: error config-syntax: Invalid value (see https://toml.io)"


def test_a_calendar_with_no_rules_needs_dates(catalog_dir: Path) -> None:
    write(catalog_dir, "catalogctl.toml", "[calendar]\nrules = []\n")
    assert errors(catalog_dir)[1] == (
        "  catalogctl.toml:1:1: error config-invalid-value: calendar: a calendar without rules needs dates "
        "(see the documentation: reference/configuration)"
    )
    write(catalog_dir, "catalogctl.toml", '[calendar]\nrules = []\ndates = {"2027-02-C1" = 2027-02-20}\n')
    calendar = calendar_for(catalog_dir)
    assert calendar.next(Cohort.parse("2026-12-C0")) == Cohort.parse("2027-02-C1")
    with pytest.raises(ConfigInvalid.__mro__[1]) as refused:
        calendar.next(Cohort.parse("2027-02-C1"))
    assert str(refused.value) == "the cohort calendar has no cohort in the 20 years after 2027-02-C1"


def test_a_tool_catalogctl_that_is_not_a_table(catalog_dir: Path) -> None:
    write(catalog_dir, "pyproject.toml", "[tool]\ncatalogctl = 1\n")
    assert errors(catalog_dir)[1] == (
        "  pyproject.toml:2:1: error config-invalid-value: tool.catalogctl: should be a table (got 1) "
        "(write [tool.catalogctl] and its keys)"
    )


def test_a_tree_is_read_in_the_layout_of_its_repository(catalog_repo: Path, tmp_path: Path) -> None:
    write(catalog_repo, "catalogctl.toml", 'rulesets = "releases"\n')
    commit_all(catalog_repo, "Configure the rulesets folder")
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(catalog_repo), str(bare))
    write(catalog_repo, "catalogctl.toml", 'rulesets = "elsewhere"\n')  # on disk, not committed
    here = gitrepo.open_repository(catalog_repo)
    assert layout_of(WorkingTree(catalog_repo)) == Layout("benchmark_suite", "elsewhere")
    # A ref of a clone is read in the clone's configuration, as every verb reads it.
    assert layout_of(gittree.GitTree(here, gitrepo.head(here), "HEAD")) == Layout("benchmark_suite", "elsewhere")
    # A bare repository has no configuration on disk: the tree's own is read.
    there = gitrepo.open_repository(bare)
    assert layout_of(gittree.GitTree(there, gitrepo.head(there), "HEAD")) == Layout("benchmark_suite", "releases")
