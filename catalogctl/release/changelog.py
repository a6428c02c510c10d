"""CHANGELOG.md: one section per frozen cohort, newest first, keyed by the cohort id; the section's
text (benchmarks, digests, seed sets and the catalog diff since the previous cohort).

A section is replaced in place when it exists (a rerun of a freeze), never duplicated; a new one
goes right after the "Unreleased" section, above older cohorts. What maintainers wrote under
"Unreleased" is released with the cohort, as keep-a-changelog does: a new section carries those
notes, and the "Unreleased" heading stays, empty, for the next ones.

The section's diff names the cohort being frozen, never a commit: the freeze commit is made after
the section is written, and a release merged by a squash is another commit again.
"""

from __future__ import annotations

import re

from catalogctl.catalog.index import Catalog
from catalogctl.catalog.layout import Layout
from catalogctl.catalog.source import resolve_ref
from catalogctl.diff.markdown import diff_markdown
from catalogctl.diff.trees import diff_trees
from catalogctl.io import gitrepo, gittree
from catalogctl.io.markdown import md_code, md_text
from catalogctl.model import Ruleset

_HEADING = re.compile(r"^## ")


def _heading_of(line: str) -> str | None:
    if not _HEADING.match(line):
        return None
    return line[3:].strip().split()[0] if line[3:].strip() else ""


def _unreleased_span(lines: list[str]) -> tuple[int, int] | None:
    """The lines of the "Unreleased" section's body (after its heading, up to the next one)."""
    headings = [i for i, line in enumerate(lines) if _heading_of(line) is not None]
    for position, start in enumerate(headings):
        if _heading_of(lines[start]) == "Unreleased":
            return start + 1, headings[position + 1] if position + 1 < len(headings) else len(lines)
    return None


def unreleased_notes(text: str) -> str:
    """What maintainers wrote under "Unreleased" ("" when nothing, or no such section)."""
    lines = text.splitlines(keepends=True)
    span = _unreleased_span(lines)
    return "".join(lines[span[0] : span[1]]).strip() if span else ""


def upsert_section(text: str, key: str, section: str) -> str:
    """`text` with the section whose heading starts with `key` replaced by `section` (which
    starts with its own `## key` heading), or inserted after "Unreleased", whose notes a new
    section has taken (see `changelog_section`): its body is emptied."""
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
        lines[unreleased + 1 : at] = ["\n"]
        at = unreleased + 2
    else:
        at = headings[0] if headings else len(lines)
    before = "".join(lines[:at])
    if before and not before.endswith("\n\n"):
        before = before.rstrip("\n") + "\n\n"
    return before + section + "".join(lines[at:])


def changelog_section(
    repo: gitrepo.Repository,
    catalog: Catalog,
    ruleset: Ruleset,
    previous: Ruleset | None,
    digest: str,
    notes: str = "",
    *,
    layout: Layout,
) -> str:
    """The CHANGELOG.md section of a cohort: the notes released with it (from "Unreleased"), its
    benchmarks and digests, its seed sets, and the semantic diff of the catalog (read in `layout`)
    since the previous cohort."""
    lines = [
        f"## {md_text(ruleset.cohort)}",
        "",
        f"Submissions on {ruleset.submission_date:%A %Y-%m-%d}"
        + (f" · previous cohort {md_text(ruleset.previous)}" if ruleset.previous else " · the first cohort")
        + f" · ruleset digest {md_code(digest)}",
        "",
        *([notes.strip(), ""] if notes.strip() else []),
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
        lines += ["", _catalog_diff(repo, previous.cohort, ruleset.cohort, layout)]
    return "\n".join(lines).rstrip() + "\n"


def _catalog_diff(repo: gitrepo.Repository, previous: str, cohort: str, layout: Layout) -> str:
    old = resolve_ref(repo, previous, layout)
    new = gittree.GitTree(repo, gitrepo.head(repo), "HEAD")
    new.label = cohort  # the release being written, not the commit it starts from (see the module docstring)
    report = diff_trees(gittree.GitTree(repo, old.commit, previous, old.note), new, previous, "HEAD", layout=layout)
    return diff_markdown(report, heading="###").rstrip()
