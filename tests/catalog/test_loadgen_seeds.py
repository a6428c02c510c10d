"""Reading the seeds a LoadGen release ships: its mlperf.conf, found in the installed package's
module file, and LoadGen's three seeds in it."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalogctl.catalog.loadgen_seeds import (
    ShippedSeeds,
    conf_seeds,
    import_loadgen_seeds,
    installed_loadgen,
    shipped_problem,
)
from catalogctl.errors import CatalogError, EnvironmentProblem
from catalogctl.io.loadgen_package import LoadGenUnreadable, embedded_conf, read_installed
from catalogctl.model import SeedSet
from tests.loadgen_install import CONF, CONF_SHA256, MODULE, SHIPPED, install

WHERE = "mlperf.conf of mlcommons-loadgen 6.0.17 (built into x.so)"


def test_the_fixture_is_the_mlperf_conf_the_installed_wheel_ships() -> None:
    pytest.importorskip("mlperf_loadgen", reason="the mlcommons-loadgen wheel exists for Linux x86_64 only")
    installed = read_installed()
    assert installed is not None
    assert (installed.version, installed.file, installed.conf) == ("6.0.17", MODULE, CONF)
    assert installed.sha256 == CONF_SHA256


def test_a_release_is_read_from_the_module_its_record_lists(tmp_path: Path) -> None:
    installed = read_installed([str(install(tmp_path, "6.0.20"))])
    assert installed is not None
    assert (installed.version, installed.file, installed.sha256) == ("6.0.20", MODULE, CONF_SHA256)


def test_no_release_installed_is_none(tmp_path: Path) -> None:
    assert read_installed([str(tmp_path)]) is None


def test_the_seeds_of_mlperf_conf_are_its_three_lines_for_every_model() -> None:
    assert conf_seeds(CONF, WHERE) == ShippedSeeds(**SHIPPED)


def test_a_new_set_takes_them_and_draws_its_model_seed(tmp_path: Path) -> None:
    draws = iter([0, SHIPPED["qsl_rng_seed"], 7])  # 0 and a seed the set holds are drawn again
    values, qsl, record = import_loadgen_seeds(read_installed([str(install(tmp_path))]), lambda _: next(draws))
    assert values.model_dump() == {
        "scheduler_rng_seed": SHIPPED["scheduler_rng_seed"],
        "sample_index_rng_seed": SHIPPED["sample_index_rng_seed"],
        "model_seed": 7,
    }
    assert qsl == SHIPPED["qsl_rng_seed"]
    assert record.model_dump() == {
        "package": "mlcommons-loadgen",
        "version": "6.0.17",
        "file": MODULE,
        "sha256": CONF_SHA256,
    }


def test_no_release_installed_is_refused_with_how_to_install_one() -> None:
    with pytest.raises(EnvironmentProblem) as caught:
        import_loadgen_seeds(None)
    assert (str(caught.value), caught.value.hint, caught.value.exit_code) == (
        "--loadgen-seeds reads the seeds of the installed mlcommons-loadgen, and it is not installed here: "
        "nothing was frozen",
        "pip install mlcommons-loadgen (its wheels are built for Linux x86_64), the release whose mlperf.conf the "
        "cohort adopts",
        2,
    )


QSL = "*.*.qsl_rng_seed = 2085463073848966840"
QSL_LINE = CONF.decode().splitlines().index(QSL) + 1


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (QSL, QSL + "\ndeepseek-r1.Offline.qsl_rng_seed = 5",
         f"{WHERE}, line {QSL_LINE + 1} sets qsl_rng_seed for `deepseek-r1.Offline` alone: LoadGen would run those "
         "benchmarks with another seed than the one a seed set holds"),
        (QSL, QSL + "\n*.*.qsl_rng_seed = 5", f"{WHERE}, line {QSL_LINE + 1} sets qsl_rng_seed again (first at line "
         f"{QSL_LINE})"),
        (QSL, "*.*.qsl_rng_seed = 0x1cf0", f"{WHERE}, line {QSL_LINE}: qsl_rng_seed is `= 0x1cf0`, not `= SEED` with "
         "a decimal seed from 1 to 2^64-1"),
        (QSL, "*.*.qsl_rng_seed = 0", f"{WHERE}, line {QSL_LINE}: qsl_rng_seed is `= 0`, not `= SEED` with a decimal "
         "seed from 1 to 2^64-1"),
        (QSL, "*.*.qsl_rng_seed = 18446744073709551616 # 2^64", f"{WHERE}, line {QSL_LINE}: qsl_rng_seed is "
         "`= 18446744073709551616 # 2^64`, not `= SEED` with a decimal seed from 1 to 2^64-1"),
        (QSL, "# " + QSL, f"{WHERE} sets no *.*.qsl_rng_seed"),
    ],
)  # fmt: skip
def test_seeds_a_set_cannot_hold_are_refused_at_their_line(old: str, new: str, message: str) -> None:
    with pytest.raises(CatalogError) as caught:
        conf_seeds(CONF.replace(old.encode(), new.encode()), WHERE)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\0qsl_rng_seed\0", "x holds no mlperf.conf text (no line sets qsl_rng_seed, sample_index_rng_seed or "
         "schedule_rng_seed)"),
        (CONF + b"\0" + CONF, "x holds 2 texts that set LoadGen's seeds, not one mlperf.conf"),
        (b"\0\x01" + CONF, "x: the text that sets LoadGen's seeds holds bytes no config file has"),
        (b"\0\xff" + CONF, "x: the text that sets LoadGen's seeds is not UTF-8"),
    ],
)  # fmt: skip
def test_a_module_without_one_mlperf_conf_text_is_refused(data: bytes, message: str) -> None:
    with pytest.raises(LoadGenUnreadable) as caught:
        embedded_conf(data, "x")
    assert str(caught.value) == message


def test_a_release_whose_record_lists_no_module_is_an_environment_problem(tmp_path: Path) -> None:
    root = install(tmp_path)
    (root / "mlcommons_loadgen-6.0.17.dist-info/RECORD").write_text("")
    with pytest.raises(EnvironmentProblem) as caught:
        installed_loadgen([str(root)])
    assert str(caught.value) == (
        "mlcommons-loadgen 6.0.17 lists 0 extension modules mlperf_loadgen in its RECORD (none): its seeds cannot "
        "be read"
    )
    assert caught.value.hint.startswith("reinstall it: pip install mlcommons-loadgen")


def test_a_set_whose_seeds_differ_from_the_release_it_records_is_named(tmp_path: Path) -> None:
    installed = read_installed([str(install(tmp_path))])
    assert installed is not None
    values, qsl, record = import_loadgen_seeds(installed, lambda _: 7)
    seed_set = SeedSet.model_validate(
        {
            "id": "A",
            **values.model_dump(),
            "qsl_rng_seed": qsl,
            "imported_from_loadgen": record,
            "introduced_in": "2026-09-C0",
            "valid_through": "2026-10-C1",
        }
    )
    assert shipped_problem(seed_set, installed) == ""
    edited = seed_set.model_copy(update={"qsl_rng_seed": 5})
    assert shipped_problem(edited, installed) == (
        "seed set A, imported from mlcommons-loadgen 6.0.17: its qsl_rng_seed is 5, but that release's mlperf.conf "
        "sets 2085463073848966840"
    )


def test_a_release_whose_two_sample_seeds_are_one_is_refused(tmp_path: Path) -> None:
    conf = CONF.replace(b"sample_index_rng_seed = 2747215439041700203", b"sample_index_rng_seed = 16159082839903944936")
    with pytest.raises(CatalogError) as caught:
        import_loadgen_seeds(read_installed([str(install(tmp_path, conf=conf))]))
    assert str(caught.value) == (
        f"mlperf.conf of mlcommons-loadgen 6.0.17 (built into {MODULE}): its schedule_rng_seed and "
        "sample_index_rng_seed are equal"
    )
