"""Checks over the whole catalog at once, on the entities' facts: a dataset's alias or an MLPerf
name stands for one entity, and a pending value names the benchmarks it blocks."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from catalogctl.catalog.facts import ENTITY_KINDS, EntityFacts
from catalogctl.catalog.index import Location
from catalogctl.errors import Diagnostic, error, warning

Locate = Callable[..., Location]  # (kind, id, *path) -> where it stands


def check_catalogwide(facts: Iterable[EntityFacts], locate: Locate) -> list[Diagnostic]:
    """Every catalog-wide problem of these entities (`locate` finds where one stands)."""
    by_kind: dict[str, dict[str, EntityFacts]] = {kind: {} for kind in ENTITY_KINDS}
    for item in facts:
        by_kind[item.kind][item.ident] = item
    return [*_aliases(by_kind["dataset"], locate), *_mlperf_names(by_kind, locate), *_pending(by_kind, locate)]


def _report(code: str, message: str, where: Location, hint: str = "", *, warn: bool = False) -> Diagnostic:
    line, column = where.position()
    return (warning if warn else error)(code, message, where.document.path, line, column, hint)


def _aliases(datasets: dict[str, EntityFacts], locate: Locate) -> list[Diagnostic]:
    """A name stands for one dataset: an alias is no other dataset's id nor another's alias."""
    out: list[Diagnostic] = []
    owner: dict[str, str] = {ident: ident for ident in datasets}
    for ident, dataset in sorted(datasets.items()):
        for index, alias in enumerate(dataset.aliases):
            other = owner.get(alias)
            if other is not None and other != ident:
                what = "the id of" if alias in datasets else "an alias of"
                out.append(
                    _report(
                        "alias-ambiguous",
                        f"alias `{alias}` of dataset `{ident}` is {what} dataset `{other}`: a run's dataset "
                        "name must stand for one dataset",
                        locate("dataset", ident, "aliases", index),
                    )
                )
            owner.setdefault(alias, ident)
    return out


def _mlperf_names(by_kind: dict[str, dict[str, EntityFacts]], locate: Locate) -> list[Diagnostic]:
    """The MLPerf tools key a benchmark, dataset or model by its name there (`mlperf_name`, else
    the id): that name must stand for one entity of its kind."""
    out: list[Diagnostic] = []
    for kind in ("benchmark", "dataset", "model"):
        owner: dict[str, str] = {}
        named = sorted(by_kind[kind].items(), key=lambda item: (item[1].mlperf_name is not None, item[0]))
        for ident, entity in named:  # ids first: an mlperf_name that is another's id is the odd one
            name = entity.mlperf_name or ident
            other = owner.setdefault(name, ident)
            if other != ident:
                out.append(
                    _report(
                        "mlperf-name-ambiguous",
                        f"{kind} `{ident}` is `{name}` for the MLPerf tools, as {kind} `{other}` is: the official "
                        "checker would take one for the other",
                        locate(kind, ident, "mlperf_name"),
                        "give each its own mlperf_name",
                    )
                )
    return out


def _pending(by_kind: dict[str, dict[str, EntityFacts]], locate: Locate) -> list[Diagnostic]:
    """A pending value is a warning naming the benchmarks whose freeze it blocks."""
    users: dict[tuple[str, str], list[str]] = {}
    for ident, bench in sorted(by_kind["benchmark"].items()):
        for key in bench.sources():
            users.setdefault(key, []).append(ident)
    out: list[Diagnostic] = []
    for kind in ENTITY_KINDS:
        for ident, entity in by_kind[kind].items():
            for value in entity.pending:
                blocked = users.get((kind, ident), [])
                dotted = ".".join(str(p) for p in value.path)
                what = (
                    f"blocks freezing {', '.join(blocked)}" if blocked else "blocks freezing any benchmark that uses it"
                )
                message = f"{kind} `{ident}`: {dotted} is pending ({value.value}); {what}"
                file = locate(kind, ident).document.path
                out.append(warning("pending-value", message, file, value.line, value.column))
    return out
