"""A run must show it is a run of the contract before it is graded: its benchmark, its API type,
its model (the contract's, or the served model the submission declares), its datasets (the
contract's, by id, and by sha256 where the run reports one) and, where it reports one, the load
the submission declares (a requirement may depend on it). Otherwise "this run is of X; the
contract is of Y", never a table of verdicts."""

from __future__ import annotations

from typing import Any

from catalogctl.errors import InputsUnusable
from catalogctl.model.documents.resolved import ResolvedConfig, contract_datasets
from catalogctl.model.documents.results import RunResults
from catalogctl.model.documents.submission import describe_load

_HINT = "check the run folder or results file against the resolved config: they are of different runs"


def verify_identity(config: ResolvedConfig, results: RunResults, *, names_model: bool = True) -> None:
    """Refuse a run that is not of this contract (see the module docstring). `names_model=False`
    is for a runner that records no model at all (LoadGen): its runs are not refused for it, and
    nothing they report is taken for the model's identity."""
    contract = config.contract
    _same("benchmark", results.benchmark, [contract["id"]])
    if results.api_type is not None and "api_type" in contract:
        _same("API type", results.api_type, [contract["api_type"]])
    if results.model is None and names_model:
        raise InputsUnusable(
            "this run does not say which model it served, so it cannot be shown to be a run of this contract",
            "report the served model: `model` in a results file (the endpoints client writes model_params.name)",
        )
    model = contract.get("model") or {}
    names = [model.get("id"), model.get("reference_id"), (config.endpoint_config or {}).get("served_model")]
    if results.model is not None:
        _same(
            "model",
            results.model,
            list(dict.fromkeys(n for n in names if isinstance(n, str) and n)),  # a config's endpoint is untyped
            "if the endpoint serves the contract's model under another name, declare it in the "
            "submission: endpoint_config.served_model",
        )
    _same_load(config, results)
    datasets = contract_datasets(contract)
    _one_answer_each(contract, results)
    scored = [a.dataset for a in results.accuracy]
    twice = sorted({d for d in scored if scored.count(d) > 1})
    if twice:  # two scores of one dataset: which is the run's?
        raise InputsUnusable(f"this run reports accuracy for {', '.join(twice)} more than once", _HINT)
    used = [d.dataset for d in results.datasets] + [a.dataset for a in results.accuracy]
    used += [g.dataset for g in results.generation if g.dataset is not None]
    for ident in dict.fromkeys(used):
        _same("dataset", ident, sorted(datasets), "a dataset's other names are declared as its `aliases`")
    for loaded in results.datasets:
        pinned = (datasets[loaded.dataset].get("source") or {}).get("sha256")
        known = isinstance(pinned, str) and not pinned.startswith("<")  # a pending sha256 proves nothing
        if loaded.sha256 is not None and known and loaded.sha256 != pinned:
            raise InputsUnusable(
                f"this run loaded dataset `{loaded.dataset}` with sha256 {loaded.sha256}; "
                f"the contract's is {pinned}: it is a run of other data",
                _HINT,
            )


def _same_load(config: ResolvedConfig, results: RunResults) -> None:
    """The run was driven at the load the submission declares: the same pattern and target."""
    if results.load_pattern is None or config.settings is None:
        return
    declared = config.settings.load_pattern.model_dump()
    ran = results.load_pattern.model_dump(exclude_none=True)
    if {k: v for k, v in declared.items() if k in ran} != ran or ran.keys() != declared.keys():
        raise InputsUnusable(
            f"this run is of load `{describe_load(ran)}`; the submission is of load `{describe_load(declared)}`",
            "resolve a submission whose settings.load_pattern is the load the run was driven at",
        )


def _one_answer_each(contract: dict[str, Any], results: RunResults) -> None:
    """One fact, one answer: a generation or dataset row once per phase and dataset, and an
    accuracy threshold's metric from the datasets' scores, never also reported beside them."""
    for what, rows in (
        ("generation", [(g.phase, g.dataset or "") for g in results.generation]),
        ("dataset", [(d.phase, d.dataset) for d in results.datasets]),
    ):
        twice = sorted({"/".join(filter(None, row)) for row in rows if rows.count(row) > 1})
        if twice:
            raise InputsUnusable(f"this run reports {what} for {', '.join(twice)} more than once", _HINT)
    metrics = contract.get("metrics") or {}
    scored = [
        key
        for key in (contract.get("accuracy") or {}).get("thresholds") or {}
        if (metrics.get(key) or {}).get("unit") in ("percent", "fraction") and key in results.metrics
    ]
    if scored:
        raise InputsUnusable(
            f"this run reports {', '.join(scored)} itself; the contract scores it from its datasets' accuracy",
            "report per-dataset scores under `accuracy`: the contract aggregates them",
        )


def _same(what: str, found: str, expected: list[str], hint: str = _HINT) -> None:
    if found not in expected:
        shown = " or ".join(f"`{e}`" for e in expected) or "none"
        raise InputsUnusable(f"this run is of {what} `{found}`; the contract is of {what} {shown}", hint)
