"""Rendering of the PR review's result: text, JSON, Markdown (job summary and PR comment) and
GitHub workflow commands within GitHub's caps."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Literal

from catalogctl import words
from catalogctl.io.files import write_atomic
from catalogctl.io.markdown import md_code, md_text
from catalogctl.model.reports.review import Finding, ReviewResult
from catalogctl.render.common import as_json, github_command, location, within_caps
from catalogctl.review.accepted import ACCEPTED_FILE

COMMENT_MARKER = "<!-- catalogctl-gate -->"
STEP_SUMMARY_CAP = 1024 * 1024  # bytes GitHub accepts in a step summary
COMMENT_CAP = 65536  # characters GitHub accepts in a comment body


def _state(f: Finding) -> str:
    return {"open": "", "accepted": " [accepted]", "expired": " [acceptance expired]"}.get(
        f.status, " [acceptance pending]"
    )


def verdict(result: ReviewResult) -> str:
    """`gate: failed (2 errors, 1 warning, 1 accepted)`."""
    word = "passed" if result.passed else "failed"
    return f"gate {word}: {result.base.label} -> {result.head.label} ({_counts(result)})"


def _counts(result: ReviewResult) -> str:
    """`2 errors, 1 warning, 1 accepted`: each finding in one of the three; the expired acceptances
    (failing findings, counted among the errors or warnings) after them."""
    s = result.summary
    counts = f"{words.count(s.errors, 'error')}, {words.count(s.warnings, 'warning')}, {s.accepted} accepted"
    return counts + (f"; {words.count(s.expired, 'acceptance')} expired" if s.expired else "")


def review_text(result: ReviewResult) -> str:
    """One line per finding, notes, then the verdict."""
    lines = []
    for f in result.findings:
        hint = f" ({f.hint})" if f.hint else ""
        note = f" — {f.note}" if f.note else ""
        where = location(f.file, f.line, f.column)
        lines.append(f"{where}: {f.severity} {f.code}{_state(f)}: {f.message}{hint} [{f.fingerprint}]{note}")
    lines += [f"note: {n}" for n in result.notes]
    lines.append(verdict(result))
    return "\n".join(lines) + "\n"


def review_markdown(result: ReviewResult, *, heading: str = "###") -> str:
    """The full report in Markdown (job summary, PR comment)."""
    icon = "✅" if result.passed else "❌"
    out = [f"{heading} {icon} Catalog gate {'passed' if result.passed else 'failed'}", ""]
    out.append(f"{md_code(result.base.label)} → {md_code(result.head.label)} · {_counts(result)}")
    out += ["", *[f"> {md_text(n)}" for n in result.notes]] if result.notes else []
    if result.findings:
        out += ["", "| | code | finding | where | fingerprint |", "| --- | --- | --- | --- | --- |"]
        for f in result.findings:
            mark = {"open": "❌" if f.severity == "error" else "⚠️", "accepted": "☑️"}.get(f.status, "❌")
            text = md_text(f.message + (f" ({f.hint})" if f.hint else "") + (f" — {f.note}" if f.note else ""))
            where = md_code(location(f.file, f.line, f.column))
            code = md_code(f.code) + md_text(_state(f))
            out.append(f"| {mark} | {code} | {text} | {where} | {md_code(f.fingerprint)} |")
    else:
        out += ["", "No findings."]
    if any(f.failing and f.acceptable for f in result.findings):
        out += [
            "",
            "To accept a finding on purpose, add its fingerprint to `.catalogctl/accepted.yaml` with a reason, an "
            "approver and an expiry date (`catalogctl ci --base BASE --write-accepted` drafts the entries).",
        ]
    elif not result.passed:
        out += [
            "",
            "No finding that fails this gate can be accepted in `.catalogctl/accepted.yaml`: fix each one.",
        ]
    return "\n".join(out) + "\n"


def _command(f: Finding) -> str:
    message = f.message + (f" ({f.hint})" if f.hint else "") + f" [fingerprint {f.fingerprint}]"
    if f.status == "expired":
        message += f" — {f.note}"
    # Only a file of the head is in the pull request: a finding in the base gets no position.
    file, line, column = (f.file, f.line, f.column) if f.where == "head" else ("", 0, 0)
    level: Literal["error", "warning"] = "error" if f.severity == "error" else "warning"
    return github_command(level, f"catalogctl {f.code}", message, file, line, column)


def review_github(result: ReviewResult) -> str:
    """Workflow commands for the most severe findings within GitHub's caps (accepted findings
    get none), one line for what was left out, then the verdict."""
    errors = [f for f in result.findings if f.failing]
    warnings = [f for f in result.findings if f.severity == "warning" and f.status != "accepted"]
    lines = within_caps([_command(f) for f in errors], [_command(f) for f in warnings], "see the job summary")
    lines.append(verdict(result))
    return "\n".join(lines) + "\n"


SUMMARY_CUT = "\n\n… cut to fit GitHub's limit: run `catalogctl ci` locally for the full report.\n"
COMMENT_CUT = (
    f"\n\n… cut to fit GitHub's limit of {COMMENT_CAP} characters: the rest is in the gate job's summary and "
    "annotations, and `catalogctl ci` prints the full report.\n"
)


def fit(text: str, cap: int, *, unit: str = "bytes", tail: str = SUMMARY_CUT) -> str:
    """`text`, cut at a line so that it fits `cap` (bytes or characters), ending in `tail` to
    say it was cut."""
    size = len(text.encode("utf-8")) if unit == "bytes" else len(text)
    if size <= cap:
        return text
    budget = cap - len(tail.encode("utf-8")) - 16
    kept: list[str] = []
    used = 0
    for line in text.splitlines(keepends=True):
        cost = len(line.encode("utf-8")) if unit == "bytes" else len(line)
        if used + cost > budget:
            break
        kept.append(line)
        used += cost
    return "".join(kept) + tail


def fit_comment(text: str) -> str:
    """A PR comment body within GitHub's limit, cut at a line with a note; the marker the comment
    job finds its comment by is kept, first, even when it stood past the cut."""
    if len(text) <= COMMENT_CAP:
        return text
    cut = fit(text, COMMENT_CAP - len(COMMENT_MARKER) - 1, unit="characters", tail=COMMENT_CUT)
    return cut if COMMENT_MARKER in cut or COMMENT_MARKER not in text else f"{COMMENT_MARKER}\n{cut}"


def comment_body(result: ReviewResult) -> str:
    """The PR comment: the marker the comment job finds it by, then the report."""
    return fit_comment(f"{COMMENT_MARKER}\n{review_markdown(result)}")


def publish_github(result: ReviewResult, summary_path: str | None, comment_path: Path | None) -> list[str]:
    """Append the report to the step summary (within the cap left) and write the comment body;
    returns what was written, for the log."""
    done: list[str] = []
    if summary_path:
        summary = Path(summary_path)
        used = summary.stat().st_size if summary.exists() else 0
        text = fit(review_markdown(result), max(0, STEP_SUMMARY_CAP - used))
        with summary.open("a", encoding="utf-8") as out:
            out.write(text)
        done.append(f"appended the report to the step summary ({words.count(len(text.encode('utf-8')), 'byte')})")
    if comment_path is not None:
        write_atomic(comment_path, comment_body(result).encode("utf-8"))
        done.append(f"wrote the PR comment body to {comment_path}")
    return done


REPORTERS: dict[str, Callable[[ReviewResult], str]] = {
    "text": review_text,
    "github": review_github,
    "markdown": review_markdown,
    "json": as_json,
}


def drafts_text(count: int) -> str:
    """What `ci --write-accepted` says on stderr of the entries it drafted."""
    if not count:
        return f"{ACCEPTED_FILE}: nothing to draft"
    return (
        f"drafted {words.count(count, 'entry', 'entries')} in {ACCEPTED_FILE}: "
        "fill in reason and approver (until then they accept nothing)"
    )
