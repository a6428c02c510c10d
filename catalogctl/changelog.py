"""CHANGELOG.md: one section per frozen cohort, newest first, keyed by the cohort id.

A section is replaced in place when it exists (a rerun of a freeze), never duplicated; a new one
goes right after the "Unreleased" section, above older cohorts.
"""

from __future__ import annotations

import re

CHANGELOG = "CHANGELOG.md"
_HEADING = re.compile(r"^## ")


def _heading_of(line: str) -> str | None:
    if not _HEADING.match(line):
        return None
    return line[3:].strip().split()[0] if line[3:].strip() else ""


def upsert_section(text: str, key: str, section: str) -> str:
    """`text` with the section whose heading starts with `key` replaced by `section` (which
    starts with its own `## key` heading), or inserted after "Unreleased"."""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    section = section.rstrip("\n") + "\n\n"
    headings = [i for i, line in enumerate(lines) if _heading_of(line) is not None]
    for position, start in enumerate(headings):
        if _heading_of(lines[start]) == key:
            end = headings[position + 1] if position + 1 < len(headings) else len(lines)
            return "".join(lines[:start]) + section + "".join(lines[end:])
    unreleased = next((i for i in headings if _heading_of(lines[i]) == "Unreleased"), None)
    if unreleased is not None:
        later = [i for i in headings if i > unreleased]
        at = later[0] if later else len(lines)
    else:
        at = headings[0] if headings else len(lines)
    before = "".join(lines[:at])
    if before and not before.endswith("\n\n"):
        before = before.rstrip("\n") + "\n\n"
    return before + section + "".join(lines[at:])
