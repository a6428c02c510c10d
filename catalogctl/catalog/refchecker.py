"""What every cross-document check stands on: the catalog as the checks read it (`CatalogView`),
a finding reported where its value stands, and a name looked up among those defined (with a
suggestion when it is not one of them)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Protocol

from catalogctl.catalog.diagnostics import did_you_mean
from catalogctl.catalog.index import Location
from catalogctl.errors import Diagnostic, error, warning
from catalogctl.model import AnyBenchmark, Dataset, Metric, Model
from catalogctl.model.documents.metrics import RATIO_UNITS


class CatalogView(Protocol):
    """What an entity's own cross-document checks read: every valid entity by id (a table may
    build its values on demand), the entities whose file did not validate, and where a value
    of an entity stands."""

    @property
    def metrics(self) -> Mapping[str, Metric]: ...
    @property
    def models(self) -> Mapping[str, Model]: ...
    @property
    def datasets(self) -> Mapping[str, Dataset]: ...
    @property
    def benchmarks(self) -> Mapping[str, AnyBenchmark]: ...
    @property
    def invalid(self) -> Collection[tuple[str, str]]: ...

    def locate(self, kind: str, ident: str, *path: str | int) -> Location: ...


class RefChecker:
    """Collects the findings of the checks of one or more entities (`out`)."""

    def __init__(self, catalog: CatalogView) -> None:
        self.catalog = catalog
        self.out: list[Diagnostic] = []

    def report(
        self, code: str, message: str, where: Location, hint: str = "", *, key: bool = False, warn: bool = False
    ) -> None:
        line, column = where.position(key=key)
        make = warning if warn else error
        self.out.append(make(code, message, where.document.path, line, column, hint))

    def reference(
        self, kind: str, code: str, name: str, pool: Collection[str], where: Location, *, key: bool = False
    ) -> bool:
        if name in pool:
            return True
        if (kind, name) in self.catalog.invalid:  # its own file's errors are reported already
            return False
        self.report(code, f"unknown {kind} `{name}`", where, did_you_mean(name, pool) or _known(pool), key=key)
        return False

    def metric(self, name: str, where: Location, *, key: bool = False) -> bool:
        return self.reference("metric", "ref-unknown-metric", name, self.catalog.metrics, where, key=key)

    def scale_fits(self, metric_key: str, scale: str, where: Location) -> None:
        metric = self.catalog.metrics.get(metric_key)
        if metric is None:
            return
        ratio_scale = scale in ("percent", "fraction")
        if ratio_scale != (metric.unit in RATIO_UNITS):
            expected = "percent or fraction" if metric.unit in RATIO_UNITS else "absolute"
            self.report(
                "contract-inconsistent",
                f"scale {scale} does not fit metric `{metric_key}` (unit {metric.unit})",
                where,
                f"use scale: {expected}",
            )


def _known(pool: Collection[str]) -> str:
    if not pool:
        return "none is defined"
    names = sorted(pool)
    shown = ", ".join(names[:10])
    return f"known: {shown}" + (f" and {len(names) - 10} more" if len(names) > 10 else "")
