"""Rendering of freeze results, the list of cohorts and release verifications."""

from __future__ import annotations

import json
from dataclasses import asdict

from catalogctl.release.freeze import FreezeResult
from catalogctl.release.releases import Releases, Verification
from catalogctl.render.common import table


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
        ]
        return "\n".join(lines) + "\n"
    if result.state == "already-frozen" and not result.pushed:
        return "\n".join(lines) + "\n"
    done = [f"committed {result.ruleset_path} and CHANGELOG.md in {(result.commit or '')[:12]}"]
    if result.tagged:
        done.append(f"tagged {result.cohort} (ruleset digest {result.ruleset_digest})")
    if result.pushed:
        done.append("pushed the branch and the tag")
    verb = "finished" if result.state == "resumed" else "froze" if result.state == "frozen" else "checked"
    lines.append(f"{verb} {result.cohort}: " + "; ".join(done))
    return "\n".join(lines) + "\n"


def cohorts_text(releases: Releases) -> str:
    """A table of frozen cohorts, then the next cohort."""
    rows = [
        [c.cohort, str(c.submission_date), str(len(c.benchmarks)), ", ".join(c.seed_sets), c.tag]
        for c in releases.cohorts
    ]
    head = table(["cohort", "date", "benchmarks", "seed sets", "tag"], rows) if rows else "no frozen cohort yet\n"
    return head + f"next: {releases.next} ({releases.next.submission_date})\n"


def cohorts_json(releases: Releases) -> str:
    """The list as JSON (`catalogctl/cohorts/v1`)."""
    data = {
        "schema": "catalogctl/cohorts/v1",
        "cohorts": [{**asdict(c), "submission_date": c.submission_date.isoformat()} for c in releases.cohorts],
        "next": {"cohort": releases.next.id, "submission_date": releases.next.submission_date.isoformat()},
    }
    return json.dumps(data, indent=2) + "\n"


def verify_text(result: Verification) -> str:
    """Each check, then the verdict."""
    lines = [f"ok    {line}" for line in result.passed] + [f"FAIL  {line}" for line in result.problems]
    against = f" (contracts at {result.checked_against})" if result.checked_against else ""
    verdict = "verified" if result.ok else f"NOT verified: {len(result.problems)} problem(s)"
    lines.append(f"{result.cohort}: {verdict}{against}")
    return "\n".join(lines) + "\n"


def verify_json(result: Verification) -> str:
    """The verification as JSON (`catalogctl/verify/v1`)."""
    return json.dumps({"schema": "catalogctl/verify/v1", "ok": result.ok, **asdict(result)}, indent=2) + "\n"
