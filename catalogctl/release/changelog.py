"""CHANGELOG.md: one section per frozen cohort, newest first, keyed by the cohort id; the section's
text (benchmarks, digests, seed sets and the catalog diff since the previous cohort).

A section is replaced in place when it exists (a rerun of a freeze), never duplicated; a new one
goes right after the "Unreleased" section, above older cohorts.
"""

from __future__ import annotations

import re

from catalogctl.catalog.index import Catalog
from catalogctl.catalog.source import resolve_ref
from catalogctl.diff.markdown import diff_markdown
from catalogctl.diff.trees import diff_trees
from catalogctl.io import gitrepo
from catalogctl.io.markdown import md_code, md_text
from catalogctl.model import Ruleset

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


def changelog_section(
    repo: gitrepo.Repository, catalog: Catalog, ruleset: Ruleset, previous: Ruleset | None, digest: str
) -> str:
    """The CHANGELOG.md section of a cohort: its benchmarks and digests, its seed sets, and the
    semantic diff of the catalog since the previous cohort."""
    lines = [
        f"## {md_text(ruleset.cohort)}",
        "",
        f"Submissions on {ruleset.submission_date:%A %Y-%m-%d}"
        + (f" · previous cohort {md_text(ruleset.previous)}" if ruleset.previous else " · the first cohort")
        + f" · ruleset digest {md_code(digest)}",
        "",
        "| benchmark | contract digest | since the previous cohort |",
        "| --- | --- | --- |",
    ]
    before = {b.id: b.digest for b in previous.benchmarks} if previous else {}
    for entry in ruleset.benchmarks:
        if previous is None:
            since = "–"
        elif entry.id not in before:
            since = "added"
        else:
            since = "identical" if before[entry.id] == entry.digest else "contract changed"
        lines.append(f"| {md_code(entry.id)} | {md_code(entry.digest)} | {since} |")
    for ident in sorted(before.keys() - {b.id for b in ruleset.benchmarks}):
        lines.append(f"| {md_code(ident)} | – | removed |")
    sets = []
    for seed_set in ruleset.seed_sets:
        new = "new, " if seed_set.introduced_in == ruleset.cohort else ""
        sets.append(f"**{md_text(seed_set.id)}** ({new}{md_text(seed_set.introduced_in)} to {seed_set.valid_through})")
    lines += ["", "Seed sets: " + ", ".join(sets) + "."]
    if previous is not None:
        lines += ["", _catalog_diff(repo, previous.cohort)]
    return "\n".join(lines).rstrip() + "\n"


def _catalog_diff(repo: gitrepo.Repository, previous: str) -> str:
    old = resolve_ref(repo, previous)
    head = gitrepo.head(repo)
    report = diff_trees(
        gitrepo.GitTree(repo, old.commit, previous, old.note), gitrepo.GitTree(repo, head, "HEAD"), previous, "HEAD"
    )
    return diff_markdown(report, heading="###").rstrip()
