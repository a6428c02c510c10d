"""Rendering of freeze results, the list of cohorts and release verifications."""

from __future__ import annotations

from collections.abc import Callable

from catalogctl import words
from catalogctl.model.reports.export import MlperfExport
from catalogctl.model.reports.release import CohortInfo, FreezeResult, Releases, Signature, Verification
from catalogctl.render.common import as_json, table


def freeze_text(result: FreezeResult) -> str:
    """What a freeze did, or would do with --dry-run."""
    lines = [f"note: {note}" for note in result.notes]
    if result.state == "planned":
        lines += [
            f"dry run: nothing written. {result.ruleset_path} would be:",
            "",
            result.ruleset_text.rstrip(),
            "",
            "and CHANGELOG.md would get this section:",
            "",
            result.changelog_section.rstrip(),
            "",
        ]
        return "\n".join([*lines, _signing_plan(result)]) + "\n"
    if result.dry_run and result.push_remote is not None:
        lines += [] if result.state == "already-frozen" else [_would_tag(result)]
        lines.append(_would_push(result))
        return "\n".join([*lines, *([] if result.state == "already-frozen" else [_signing_plan(result)])]) + "\n"
    if result.state == "already-frozen" and not result.pushed:
        return "\n".join(lines) + "\n"
    if result.dry_run:
        return "\n".join([*lines, _would_tag(result), _signing_plan(result)]) + "\n"
    done = [f"committed {result.ruleset_path} and CHANGELOG.md in {(result.commit or '')[:12]}"]
    if result.state == "tagged":
        done = [f"the commit that added {result.ruleset_path} is {(result.commit or '')[:12]}"]
    if result.tagged:
        signed = f", signed with {_key(result)}" if result.signed else ""
        done.append(f"tagged {result.cohort} (ruleset digest {result.ruleset_digest}){signed}")
    if result.pushed:
        done.append(_pushed(result.pushed_refs))
    verb = {"resumed": "finished", "frozen": "froze", "tagged": "released"}.get(result.state, "checked")
    lines.append(f"{verb} {result.cohort}: " + "; ".join(done))
    return "\n".join(lines) + "\n"


def freeze_warnings_text(result: FreezeResult) -> str:
    """The calendar's warnings of a freeze (for stderr), one a line; "" when none."""
    return "".join(f"warning: {line}\n" for line in result.warnings)


def _would_tag(result: FreezeResult) -> str:
    return f"dry run: nothing written. {result.cohort} would be tagged at {(result.commit or '')[:12]}"


def _would_push(result: FreezeResult) -> str:
    """The refspecs a dry run's push would send, exactly."""
    if not result.push_refspecs:
        return f"it would push nothing to `{result.push_remote}`: it has the release already"
    return f"it would push to `{result.push_remote}`: {' '.join(result.push_refspecs)}"


def _pushed(refs: list[str]) -> str:
    """What a push sent, in words."""
    names = [
        "the tag" if ref.startswith("refs/tags/") else f"the branch {ref.removeprefix('refs/heads/')}" for ref in refs
    ]
    return f"pushed {' and '.join(names)}" if names else "the remote already had them"


def signer_cell(signature: Signature | None) -> str:
    """Who signed a release, in a table cell: the principal when trusted, else the state (and the key)."""
    if signature is None:
        return "-"
    if signature.state == "good":
        return f"{signature.principal} ({signature.fingerprint})"
    key = f" ({signature.fingerprint})" if signature.fingerprint else ""
    return f"{signature.state}{key}" + (" REQUIRED" if signature.required else "")


def _signing_plan(result: FreezeResult) -> str:
    """Whether a dry run's tag would be signed, and with which key."""
    if result.signing_key is None:
        return "the tag would not be signed (no --sign)"
    return f"the tag would be signed with {_key(result)}"


def _key(result: FreezeResult) -> str:
    """The signing key in words: an SSH key as given, a gpg key as gpg's (with its fingerprint)."""
    kind = "gpg key " if result.signing_format == "openpgp" else ""
    return f"{kind}{result.signing_key} ({result.signing_fingerprint})"


def cohorts_text(releases: Releases) -> str:
    """A table of frozen cohorts, then the next cohort."""
    rows = [
        [
            c.cohort,
            str(c.submission_date),
            str(len(c.benchmarks)),
            ", ".join(c.seed_sets),
            c.tag,
            signer_cell(c.signature),
        ]
        for c in releases.cohorts
    ]
    columns = ["cohort", "date", "benchmarks", "seed sets", "tag", "signer"]
    head = table(columns, rows) if rows else "no frozen cohort yet\n"
    return head + f"next: {releases.next.cohort} ({releases.next.submission_date})\n"


def _tag_problem(cohort: CohortInfo) -> str:
    """What is wrong with a cohort's release tag, in words."""
    added = f"the commit that added its ruleset is {cohort.ruleset_commit[:12]}" if cohort.ruleset_commit else ""
    if cohort.tag == "missing":
        return f"its release tag is missing ({added})" if added else "its release tag is missing"
    at = f"it points at {cohort.tag_commit[:12]}" if cohort.tag_commit else "it points at no commit"
    return f"its release tag has moved: {at}, {added}" if added else f"its release tag has moved: {at}"


def cohorts_problems_text(releases: Releases, asked: bool) -> str:
    """Why `cohorts` fails, for stderr: each moved or missing tag and each required signature that
    is not good, then each hint once; "" when none."""
    why = "--require-signature" if asked else "policies.releases.require_signature in the release's suite.yaml"
    lines: list[str] = []
    hints: list[str] = []
    for cohort in releases.cohorts:
        if cohort.tag in ("moved", "missing"):
            lines.append(f"error: {cohort.cohort}: {_tag_problem(cohort)}")
            hint = f"`catalogctl verify {cohort.cohort}` checks that release step by step"
            hints.append(hint)
        signature = cohort.signature
        if signature is None or not signature.required or signature.state == "good":
            continue
        lines.append(f"error: {cohort.cohort}: {signature.message}; a good signature is required ({why})")
        if signature.hint and signature.hint not in hints:
            hints.append(signature.hint)
    return "".join(f"{line}\n" for line in lines) + "".join(f"hint: {hint}\n" for hint in hints)


def verify_text(result: Verification) -> str:
    """Each check, then the verdict."""
    lines = [f"ok    {line}" for line in result.passed] + [f"FAIL  {line}" for line in result.problems]
    lines += [f"note  {line}" for line in result.unchecked]
    if result.signature is not None and not result.signature.required and result.signature.state != "unsigned":
        lines.append(f"note  {result.signature.message} (a signature is not required)")
    against = f" (contracts at {result.checked_against})" if result.checked_against else ""
    verdict = "verified" if result.ok else f"NOT verified: {words.count(len(result.problems), 'problem')}"
    lines.append(f"{result.cohort}: {verdict}{against}")
    return "\n".join(lines) + "\n"


COHORTS_REPORTERS: dict[str, Callable[[Releases], str]] = {"text": cohorts_text, "json": as_json}
VERIFY_REPORTERS: dict[str, Callable[[Verification], str]] = {"text": verify_text, "json": as_json}


def export_text(result: MlperfExport) -> str:
    """What `export mlperf` wrote, one file a line, then what the files hold."""
    lines = [f"{f.path}: {f.state}" for f in result.files]
    sets = "; ".join(f"{s.id} ({', '.join(s.cohorts)})" for s in result.seed_sets)
    lines.append(f"cohort {result.cohort} at {result.commit[:12]}: seed sets {sets}")
    lines.append(
        f"{words.count(result.drafters, 'approved drafter')}; "
        f"models: {', '.join(m.name for m in result.models) or 'none'}"
    )
    return "\n".join(lines) + "\n"


EXPORT_REPORTERS: dict[str, Callable[[MlperfExport], str]] = {"text": export_text, "json": as_json}
