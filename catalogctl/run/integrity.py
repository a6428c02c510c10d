"""What `check` proves before a single gate runs: that the resolved config is what `resolve`
wrote (its contract hashes to the digest the freeze used, its seal holds), that it is the
release's (with `--catalog`: re-resolved at the cohort's tag), and that the run is a run of
this contract. Any doubt is `InputsUnusable`: no verdict is given on inputs not proven.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from catalogctl.catalog.config import layout_for
from catalogctl.catalog.contract import digest_of
from catalogctl.errors import CatalogError, InputsUnusable
from catalogctl.io import gitrepo
from catalogctl.model import Submission
from catalogctl.model.documents.resolved import RemoteVerification, ResolvedConfig
from catalogctl.release.statement import ReleaseState, require_release
from catalogctl.release.trust import SignatureFlags, trust_for
from catalogctl.run.resolve import resolve_at
from catalogctl.run.seal import config_digest

_RESOLVE_AGAIN = "resolve it again (catalogctl resolve or preflight) and rerun the check on that file"


def verify_config(config: ResolvedConfig, source: str, written: dict[str, Any] | None = None) -> None:
    """The resolved config is as `resolve` wrote it: its contract hashes to its contract digest,
    its seal holds (over `written`, the data of its file, when it was read from one), and its
    parts name the same cohort, seed set and benchmark."""
    claimed = config.provenance.contract_digest
    try:
        actual = digest_of(config.contract)
    except (ValueError, TypeError, RecursionError) as exc:  # a date, NaN, a lone surrogate: not JSON data
        raise InputsUnusable(f"{source}: its contract is not plain JSON data: {exc}", _RESOLVE_AGAIN) from None
    if actual != claimed:
        raise InputsUnusable(
            f"{source}: the contract was edited: it hashes to {actual}, but provenance.contract_digest is {claimed}",
            _RESOLVE_AGAIN,
        )
    seal = config.provenance.config_digest
    if seal is None:
        raise InputsUnusable(f"{source}: the resolved config has no seal (provenance.config_digest)", _RESOLVE_AGAIN)
    try:
        resealed = config_digest(written if written is not None else config)
    except (ValueError, TypeError, RecursionError) as exc:
        raise InputsUnusable(f"{source}: the resolved config is not plain JSON data: {exc}", _RESOLVE_AGAIN) from None
    if resealed != seal:
        raise InputsUnusable(
            f"{source}: the resolved config was edited after it was written (its seal does not match): "
            "the seeds, the submission or the provenance changed",
            _RESOLVE_AGAIN,
        )
    ref = config.submission_ref
    pairs = (
        ("provenance.cohort", config.provenance.cohort, "submission_ref.cohort", ref.get("cohort")),
        ("seeds.id", config.seeds.id, "submission_ref.seed_set_id", ref.get("seed_set_id")),
        ("contract.id", config.contract.get("id"), "submission_ref.benchmark", ref.get("benchmark")),
    )
    for left, a, right, b in pairs:
        if a != b:
            shown = [repr(v) if v is not None else "missing" for v in (a, b)]
            raise InputsUnusable(f"{source}: {left} is {shown[0]}, but {right} is {shown[1]}", _RESOLVE_AGAIN)


def verify_release(config: ResolvedConfig, catalog: Path, source: str, signature: SignatureFlags | None = None) -> None:
    """Re-resolve the submission at the cohort's release in the clone `catalog`: the release
    statement must hold (its signature too, when the suite's policy or `signature` requires it),
    and the contract, seeds, ruleset digest and signer must be the ones the config carries. The
    clone is read in the layout it configures."""
    cohort, layout = config.provenance.cohort, layout_for(catalog)  # a configuration it cannot use: exit 2
    try:
        repo = gitrepo.open_repository(catalog)
        if gitrepo.is_shallow(repo):  # its oldest commit seems to add every file: no release can be proven
            raise InputsUnusable(
                f"{catalog} is a shallow clone: the release of {cohort} cannot be proven on history it lacks",
                "fetch the full history: git fetch --unshallow --tags (in GitHub Actions: fetch-depth: 0)",
            )
        state, release = require_release(repo, cohort, layout, trust_for(repo, signature))
        submission = Submission.model_validate(
            {
                "type": "submission",
                "submission_ref": config.submission_ref,
                **({"endpoint_config": config.endpoint_config} if config.endpoint_config is not None else {}),
                **({"settings": config.settings} if config.settings is not None else {}),
                **({"training": config.training} if config.training is not None else {}),
                **({"submitter": config.submitter} if config.submitter is not None else {}),
            }
        )
        label = f"{cohort} ({str(release.id)[:12]})"
        fresh = resolve_at(repo, release, submission, layout=layout, label=label, tag=cohort, remote=_NOT_CHECKED)
    except (CatalogError, ValueError) as exc:
        raise InputsUnusable(
            f"{source} could not be proven against the release of {cohort} in {catalog}: {exc}",
            getattr(exc, "hint", "") or "check the clone: catalogctl verify " + cohort,
        ) from None
    found = config.provenance
    if found.tag not in (None, cohort):
        raise InputsUnusable(f"{source}: provenance.tag is {found.tag!r}, not the cohort's tag {cohort!r}")
    for what, carried, released in (
        ("commit", found.commit, str(release.id)),
        ("ruleset digest", found.ruleset_digest, state.digest),
        ("contract digest", found.contract_digest, fresh.provenance.contract_digest),
        ("seeds", config.seeds.model_dump(), fresh.seeds.model_dump()),
        ("sources", config.sources, fresh.sources),  # where the runner downloaded from
    ):
        if carried != released:
            raise InputsUnusable(
                f"{source}: its {what} is not the release's: {carried} in the resolved config, "
                f"{released} in {cohort} ({str(release.id)[:12]})",
                _RESOLVE_AGAIN,
            )
    _verify_signer(config, state, source)


def _verify_signer(config: ResolvedConfig, state: ReleaseState, source: str) -> None:
    """The signer the config records is the tag's: the principal and key of a good signature, or
    at least the key when no allowed-signers file says who holds it; a config recording none is
    refused only when a signature is required (it was resolved without checking one)."""
    recorded, checked = config.provenance.signer, state.signature
    if checked is None:
        return
    required = any(c.name == "signature" for c in state.checks)
    if recorded is None:
        if required:
            raise InputsUnusable(
                f"{source}: it records no signer, but tag `{state.cohort}` must be signed: {checked.message}",
                _RESOLVE_AGAIN,
            )
        return
    if checked.state == "good" and (recorded.principal, recorded.key_fingerprint) == (
        checked.principal,
        checked.fingerprint,
    ):
        return
    if checked.state == "not-checked" and checked.fingerprint == recorded.key_fingerprint:
        return  # no allowed-signers file here to name the key's holder: the key is the same
    at_tag = (
        f"{checked.principal} ({checked.fingerprint}) signed tag `{state.cohort}`"
        if checked.state == "good"
        else checked.message
    )
    raise InputsUnusable(
        f"{source}: its signer is not the release's: {recorded.principal} ({recorded.key_fingerprint}) in the "
        f"resolved config, {at_tag}",
        _RESOLVE_AGAIN,
    )


_NOT_CHECKED = RemoteVerification(verified=False, note="re-resolved by check")
