"""`.catalogctl/accepted.yaml`: findings of the PR gate that maintainers accepted, until a date."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from pydantic import AfterValidator, Field, model_validator

from catalogctl.model.common import Pendable, StrictModel, Text, matching

Fingerprint = Annotated[str, AfterValidator(matching(r"[0-9a-f]{16}", "a fingerprint: 16 lowercase hex digits"))]


class AcceptedFinding(StrictModel):
    """One accepted finding: which (by fingerprint), why, who approved it, and until when.

    `reason` and `approver` may be pending (`<TBD>`) in a draft: a pending entry accepts nothing.
    """

    fingerprint: Fingerprint
    finding: Text | None = None  # what was accepted, for people reading the file
    reason: Pendable[Text]
    approver: Pendable[Text]
    expires: dt.date


class AcceptedFindings(StrictModel):
    """The whole file."""

    accepted: list[AcceptedFinding] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unique(self) -> AcceptedFindings:
        prints = [a.fingerprint for a in self.accepted]
        dupes = sorted({p for p in prints if prints.count(p) > 1})
        if dupes:
            raise ValueError(f"fingerprint listed twice: {', '.join(dupes)}")
        return self
