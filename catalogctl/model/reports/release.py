"""What the release verbs return: a freeze's result, the list of cohorts (`catalogctl/cohorts/v1`)
and the verification of one release (`catalogctl/verify/v1`)."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import ConfigDict, Field, computed_field

from catalogctl.model.reports.base import Report

COHORTS_SCHEMA: Literal["catalogctl/cohorts/v1"] = "catalogctl/cohorts/v1"
VERIFY_SCHEMA: Literal["catalogctl/verify/v1"] = "catalogctl/verify/v1"
TagStatus = Literal["matches", "present", "moved", "missing"]
SignatureState = Literal["good", "unsigned", "bad", "unknown-key", "expired", "revoked", "unsupported", "not-checked"]


class Signature(Report):
    """A release tag's signature: checked against the allowed-signers file, or only read."""

    state: SignatureState = Field(
        description="good: a trusted signer's; unsigned (or a lightweight tag); bad: not a signature of this "
        "tag; unknown-key: a key no allowed signer (or no key of the GPG keyring) has; expired: signed outside "
        "the key's valid-after/valid-before (OpenPGP: the key or signature has expired); revoked: the key is in "
        "the revocation list (OpenPGP: revoked in the keyring); unsupported: an X.509 signature; not-checked: "
        "no allowed-signers file (GPG keyring for an OpenPGP signature) was configured"
    )
    required: bool = Field(description="whether the suite's policy or the caller requires a good signature")
    principal: str | None = Field(
        None, description="the signer, as the allowed-signers file names it (OpenPGP: the key's user id)"
    )
    fingerprint: str | None = Field(
        None, description="the signing key's SHA256 fingerprint (OpenPGP: the primary key's fingerprint)"
    )
    message: str = ""
    hint: str = Field("", description="what to do when the state is not good: the trust to configure, or not to run it")


class FreezeResult(Report):
    """What a freeze did (or, with dry_run, would do)."""

    model_config = ConfigDict(frozen=False)  # the transaction records its steps as it goes

    cohort: str
    state: Literal["frozen", "resumed", "tagged", "already-frozen", "planned"] = Field(
        description="tagged: the commit that added the ruleset (a merged release pull request) was tagged"
    )
    ruleset_path: str
    ruleset_text: str
    ruleset_digest: str
    changelog_section: str
    commit: str | None = None
    tagged: bool = False
    pushed: bool = False
    pushed_refs: list[str] = Field(default_factory=list, description="the refs this run pushed")
    push_remote: str | None = Field(None, description="the remote of --push, credentials redacted")
    push_refspecs: list[str] = Field(
        default_factory=list, description="the refspecs --push sends, in order, as checked before anything is written"
    )
    dry_run: bool = False
    notes: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list, description="the calendar's: a date passed, cohorts skipped")
    signing_key: str | None = Field(None, description="the key the tag is (or would be) signed with")
    signing_fingerprint: str | None = None
    signing_format: Literal["ssh", "openpgp"] | None = Field(None, description="ssh (ssh-keygen) or openpgp (gpg)")
    signed: bool = Field(False, description="whether this run created a signed tag")


class SeedProvenance(Report):
    """Where a seed set's seeds come from (README, "Seeds from a public beacon"): drawn by
    `freeze`, imported from a seed file or from a LoadGen release's mlperf.conf, or derived from a
    round of a public randomness beacon."""

    id: str
    kind: Literal["drawn", "imported", "loadgen", "derived"] = Field(
        description="drawn: no import and no beacon round is recorded (freeze draws with Python's secrets, and "
        "rulesets frozen before imports were recorded say nothing of theirs); loadgen: imported from a LoadGen "
        "release's mlperf.conf, the model seed drawn"
    )
    statement: str = Field(description="the provenance in one sentence, for people")
    package: str | None = Field(None, description="loadgen: the PyPI project (mlcommons-loadgen)")
    version: str | None = Field(None, description="loadgen: the release's version")
    file: str | None = Field(
        None, description="imported: the seed file's name; loadgen: the package's file that holds mlperf.conf"
    )
    sha256: str | None = Field(
        None, description="imported: the sha256 of the seed file's bytes; loadgen: of the mlperf.conf text"
    )
    source: str | None = Field(None, description="imported: the source the seed file states")
    chain: str | None = Field(None, description="derived: the name of the chain the suite pins, when it is the set's")
    chain_hash: str | None = Field(None, description="derived: the beacon chain's hash")
    round: int | None = Field(None, description="derived: the beacon round")
    round_time: dt.datetime | None = Field(
        None, description="derived: when the chain published the round (from the pinned chain's genesis and period)"
    )
    randomness: str | None = Field(None, description="derived: the round's randomness, the sha256 of its signature")
    named_in: str | None = Field(None, description="derived: the cohort whose release named the round")
    rederive: str = Field("", description="derived: how to re-derive the seeds by hand, from this record alone")


class CohortInfo(Report):
    """One frozen cohort as `catalogctl cohorts` shows it."""

    cohort: str
    submission_date: dt.date
    benchmarks: list[str]
    seed_sets: list[str] = Field(description="the seed sets valid for this cohort")
    provenance: list[SeedProvenance] = Field(
        default_factory=list, description="where the seeds of each set of seed_sets come from, in that order"
    )
    tag: TagStatus = Field(
        description="matches: the release; present: lightweight or without the ruleset's digest; "
        "moved: not at the commit that added the ruleset; missing"
    )
    tag_commit: str | None
    ruleset_commit: str | None = Field(description="the commit that added the ruleset")
    signature: Signature | None = Field(None, description="the release tag's signature; absent without a tag")


class NextCohort(Report):
    """The cohort to freeze next."""

    cohort: str
    submission_date: dt.date


class Releases(Report):
    """The documented JSON shape of `catalogctl cohorts --format json`."""

    schema_: Literal["catalogctl/cohorts/v1"] = Field(COHORTS_SCHEMA, alias="schema")
    cohorts: list[CohortInfo]
    next: NextCohort

    @property
    def ok(self) -> bool:
        """No tag has moved or gone missing, and every signature required is good."""
        unsigned = any(c.signature and c.signature.required and c.signature.state != "good" for c in self.cohorts)
        return not unsigned and not any(c.tag in ("moved", "missing") for c in self.cohorts)


class Verification(Report):
    """The documented JSON shape of `catalogctl verify --format json`: each check of one
    release, passed or failed."""

    model_config = ConfigDict(frozen=False)  # the checks are appended as they run

    schema_: Literal["catalogctl/verify/v1"] = Field(VERIFY_SCHEMA, alias="schema")
    cohort: str
    tag_commit: str | None = None
    checked_against: str = Field("", description="the ref whose contracts the digests were checked against")
    problems: list[str] = Field(default_factory=list)
    passed: list[str] = Field(default_factory=list)
    signature: Signature | None = Field(None, description="the release tag's signature; absent without a tag")
    provenance: list[SeedProvenance] = Field(
        default_factory=list, description="where the seeds of each set of the ruleset come from"
    )
    unchecked: list[str] = Field(
        default_factory=list,
        description="checks that cannot run here, each saying why and how to run it: a seed set imported from a "
        "LoadGen release that is not installed here (neither passed nor failed)",
    )
    failed_check: str | None = Field(
        None,
        description="a failed check with its own exit code (seeds-underived: 11, seeds-not-shipped: 12); "
        "absent otherwise",
    )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def ok(self) -> bool:
        """Whether every check passed."""
        return not self.problems
