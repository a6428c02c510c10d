"""The seal of a resolved config: the digest of everything it says, which `resolve` and
`preflight` write into `provenance.config_digest` and `check` recomputes.

A seal shows that nobody edited the file after it was written; it is not a signature (whoever
edits the file can compute a new one). What cannot be forged is checked against the release
itself: `check --catalog`.
"""

from __future__ import annotations

import copy
import hashlib
from typing import Any

from catalogctl.catalog.contract import canonical_json
from catalogctl.model.documents.resolved import ResolvedConfig


def config_digest(config: ResolvedConfig | dict[str, Any]) -> str:
    """`sha256:<hex>` of the canonical JSON of the config as written (or of the data a file
    holds, so that not even a key equal to its default can be dropped), without its own seal."""
    data: dict[str, Any] = copy.deepcopy(config) if isinstance(config, dict) else config.to_data()
    provenance = data.get("provenance")
    if isinstance(provenance, dict):
        provenance.pop("config_digest", None)
    return "sha256:" + hashlib.sha256(canonical_json(data)).hexdigest()


def sealed(config: ResolvedConfig) -> ResolvedConfig:
    """The config with its seal (computed last: nothing may change after it)."""
    provenance = config.provenance.model_copy(update={"config_digest": None})
    unsealed = config.model_copy(update={"provenance": provenance})
    digest = config_digest(unsealed)
    return unsealed.model_copy(update={"provenance": provenance.model_copy(update={"config_digest": digest})})
