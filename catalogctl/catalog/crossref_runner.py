"""The cross-document checks of a benchmark's `runner`: what the harness it names can run and
report, against the phases and metric keys the contract states.

A harness that takes task names (lm-eval, evalscope, inspect) scores answers: the benchmark needs
an accuracy phase, and no performance phase (none of them measures MLPerf's latency or throughput:
that is the endpoints client's, as another benchmark). `check` reads its metrics by the keys the
contract names, verbatim as the harness writes them, so they are listed, and in the harness's own
form where it has one: lm-eval 0.4 keys every metric `<metric>,<filter>` (lm_eval/evaluator_utils.py,
`f"{metric},{filter_key}"`; `acc,none` for a task without filters), evalscope 1.x
`<name>:<aggregation>` with optional `[dimension=value,...]` (MetricIdentity.key,
evalscope/api/metric/semantics.py). Each metric key is also one of the registry (crossref's
accuracy_metrics).
"""

from __future__ import annotations

import re

from catalogctl.catalog.index import Location
from catalogctl.catalog.refchecker import RefChecker
from catalogctl.model import InferenceBenchmark
from catalogctl.model.documents.benchmark import REQUIREMENT_METRICS
from catalogctl.model.documents.runner import TASK_RUNNERS

KEY_FORMS: dict[str, tuple[re.Pattern[str], str]] = {
    "lm-eval": (
        re.compile(r"[^,\s]+,[^,\s]+"),
        "lm-eval 0.4 writes `<metric>,<filter>`: exact_match,strict-match, or acc,none for a task without filters",
    ),
    "evalscope": (
        re.compile(r"[a-z0-9_]+:[a-z0-9_]+(\[.+\])?"),
        "evalscope writes `<name>:<aggregation>`: accuracy:mean",
    ),
}
_OURS = frozenset(REQUIREMENT_METRICS.values())  # counted by catalogctl, not emitted by a harness


class RunnerChecks(RefChecker):
    """The checks of an inference benchmark's `runner` (see the module docstring)."""

    def runner(self, bench: InferenceBenchmark, here: Location) -> None:
        if bench.runner is None or bench.runner.name not in TASK_RUNNERS:
            return
        name = bench.runner.name
        at = here.child("runner", "name")
        if bench.performance is not None:
            self.report(
                "contract-inconsistent",
                f"runner `{name}` measures no performance phase",
                here.child("performance"),
                "run the performance phase with the endpoints client, as another benchmark",
                key=True,
            )
        if bench.accuracy is None:
            self.report(
                "contract-inconsistent",
                f"runner `{name}` scores answers, but the benchmark has no accuracy phase",
                at,
                "state accuracy: its datasets, generation and the metrics the harness reports",
            )
            return
        accuracy = here.child("accuracy")
        if not bench.accuracy.reported_metrics:
            self.report(
                "contract-inconsistent",
                f"runner `{name}` reports metrics that check reads by key, but accuracy.reported_metrics is empty",
                accuracy,
                f"list the keys {name} writes, verbatim",
                key=True,
            )
        form = KEY_FORMS.get(name)
        if form is None:
            return
        keyed = [
            (k, accuracy.child("reported_metrics", i), False) for i, k in enumerate(bench.accuracy.reported_metrics)
        ]
        keyed += [(k, accuracy.child("thresholds", k), True) for k in bench.accuracy.thresholds]
        for key, where, is_key in keyed:
            if key not in _OURS and not form[0].fullmatch(key):
                self.report(
                    "contract-inconsistent",
                    f"`{key}` is not a metric key {name} writes",
                    where,
                    form[1],
                    key=is_key,
                )
