"""`benchmark_suite/metrics.yaml`: the registry of metric keys.

Every threshold, requirement and reported metric names a key declared here, so a typo is an
error instead of a silently ignored check.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from catalogctl.model.common import I18n, MetricKey, StrictModel, Text, display

Unit = Literal["percent", "fraction", "ms", "s", "tokens", "samples", "count", "tokens_per_s", "samples_per_s"]
RATIO_UNITS = frozenset({"percent", "fraction"})


class Metric(StrictModel):
    """One metric: its machine key (the contract) and how people read it (display).

    `ratio` says the value is a 0-1 proportion (shown as a percentage); a value already in
    percent has unit percent and is not a ratio.
    """

    key: MetricKey
    label: Text = display()
    unit: Unit
    direction: Literal["higher", "lower", "neutral"]
    ratio: bool
    description: Text = display()
    i18n: I18n | None = display(default=None)

    @model_validator(mode="after")
    def _ratio_matches_unit(self) -> Metric:
        if self.ratio != (self.unit == "fraction"):
            raise ValueError(
                f"ratio is {str(self.ratio).lower()} but unit is {self.unit}: a ratio (a 0-1 "
                "proportion) has unit fraction, and only a ratio does"
            )
        return self


class MetricsRegistry(StrictModel):
    """The whole registry."""

    metrics: list[Metric] = Field(min_length=1)
