"""The release policy's rules on rulesets (see `policy`).

A frozen ruleset (one the base has) is never modified or deleted. A new ruleset is exactly what
`freeze` writes: canonical text, a cohort later than every frozen one, the right date and
previous cohort, seed sets that follow the rotation policy and the published sets, and contract
digests equal to the contracts at the head.
"""

from __future__ import annotations

from catalogctl.catalog.cohorts import Calendar, Cohort
from catalogctl.catalog.contract import contract_digest
from catalogctl.catalog.index import Catalog
from catalogctl.catalog.seeds import advance, is_valid_in, rotation_due, set_id, set_index, unique_sets
from catalogctl.diff.entities import Differ
from catalogctl.diff.fields import fingerprint
from catalogctl.errors import CatalogError
from catalogctl.model import Ruleset, SeedSet
from catalogctl.model.documents.suite import SeedRotation
from catalogctl.model.reports.diff import Change
from catalogctl.model.reports.review import Finding
from catalogctl.review.findings import subject_fingerprint
from catalogctl.review.sides import PolicyInput


def _first_difference(old: bytes, new: bytes) -> int:
    """The 1-based line where two texts first differ."""
    a, b = old.decode("utf-8", "replace").splitlines(), new.decode("utf-8", "replace").splitlines()
    for number, (x, y) in enumerate(zip(a, b, strict=False), start=1):
        if x != y:
            return number
    return min(len(a), len(b)) + 1


# -- frozen rulesets ------------------------------------------------------------------------------


def frozen_rulesets(given: PolicyInput) -> list[Finding]:
    """Edits and deletions of rulesets the base already has."""
    out: list[Finding] = []
    folder = given.layout.rulesets_dir
    before, after = given.base.file_ids(folder), given.head.file_ids(folder)
    for path in sorted(before):
        if not path.endswith(".yaml") or before[path] == after.get(path):
            continue
        cohort = path.rsplit("/", 1)[-1][: -len(".yaml")]
        if path not in after or given.head.kind(path) != "file":  # gone, or a folder or a link now
            out.append(
                Finding(
                    severity="error",
                    code="ruleset-deleted",
                    message=f"frozen ruleset {cohort} was deleted: a cohort's ruleset is never removed",
                    file=path,
                    line=1,
                    column=1,
                    where="base",
                    hint="restore the file; to stop offering a benchmark, freeze a new cohort with --remove",
                    fingerprint=fingerprint("ruleset", cohort, "removed", "", None, None),
                )
            )
        else:
            out += _modified(given, path, cohort, after[path])
    return out


def _modified(given: PolicyInput, path: str, cohort: str, file_id: str) -> list[Finding]:
    """A finding per field the head changed in a frozen ruleset, or one for its text."""
    hint = "revert the edit; a cohort changes only by freezing the next one"
    changes = _field_changes(given, cohort)
    out = [
        Finding(
            severity="error",
            code="ruleset-modified",
            message=f"frozen ruleset {cohort} was modified: {change.path} changed",
            file=path,
            line=change.line,
            column=change.column,
            hint=hint,
            fingerprint=change.fingerprint,
        )
        for change in changes
    ]
    if not changes:  # comments or formatting, or a side the diff could not read
        out.append(
            Finding(
                severity="error",
                code="ruleset-modified",
                message=f"frozen ruleset {cohort} was modified: its text changed",
                file=path,
                line=_first_difference(given.base.read(path), given.head.read(path)),
                column=1,
                hint=hint,
                fingerprint=subject_fingerprint("ruleset-modified", path, file_id),
            )
        )
    return out


def _field_changes(given: PolicyInput, cohort: str) -> list[Change]:
    """The fields of a frozen ruleset the head changed, compared on their own: the catalog's
    diff is skipped when anything else fails to validate, and a finding's fingerprint must not
    depend on what else the pull request does."""
    before, after = given.base_rulesets.rulesets.get(cohort), given.head_rulesets.rulesets.get(cohort)
    if before is None or after is None or before == after:
        return []
    differ = Differ(given.base, given.head, layout=given.layout)
    location = given.head_rulesets.locations.get(("ruleset", cohort))
    differ.compare("ruleset", cohort, Ruleset, before, after, location)
    return differ.changes


# -- new rulesets ---------------------------------------------------------------------------------


def new_rulesets(given: PolicyInput) -> list[Finding]:
    """Rulesets the head adds must be what `freeze` writes for them."""
    base = given.base_rulesets
    base_files = {p.rsplit("/", 1)[-1][: -len(".yaml")] for p in given.base.file_ids(given.layout.rulesets_dir)}
    frozen = base.rulesets.keys() | base_files
    added = sorted(Cohort.parse(c) for c in given.head_rulesets.rulesets if c not in frozen)
    if not added:
        return []
    head = given.head_catalog  # contract digests: the head's whole catalog
    previous = max((Cohort.parse(c) for c in base.rulesets), default=None)
    published = unique_sets(s for r in base.rulesets.values() for s in r.seed_sets)
    out: list[Finding] = []
    for cohort in added:
        new = _NewRuleset(head, cohort, out, given.calendar, given.layout.ruleset_path(cohort.id))
        new.canonical()
        new.order(previous)
        new.digests()
        if head.suite is not None:
            # The previous cohort is a frozen one (the base's, authoritative) or one this pull
            # request adds too (the head's): a second new ruleset must carry the first one's sets.
            previous_ruleset = (base.rulesets.get(previous.id) or head.rulesets.get(previous.id)) if previous else None
            new.seed_sets(head.suite.policies.seed_rotation, previous_ruleset, published)
        previous, published = cohort, unique_sets([*published, *new.ruleset.seed_sets])
    return out


class _NewRuleset:
    """The checks of one ruleset the head adds; findings are located in its file."""

    def __init__(self, head: Catalog, cohort: Cohort, out: list[Finding], calendar: Calendar, path: str) -> None:
        self.head, self.cohort, self.out, self.calendar, self.path = head, cohort, out, calendar, path
        self.ruleset = head.rulesets[cohort.id]

    def add(self, code: str, message: str, *at: str | int, hint: str = "", subject: object = "") -> None:
        """An error at the key or value `at` of the ruleset (its start when absent)."""
        line, column = 1, 1
        if ("ruleset", self.cohort.id) in self.head.locations:
            line, column = self.head.locate("ruleset", self.cohort.id, *at).position()
        self.out.append(
            Finding(
                severity="error",
                code=code,
                message=f"new ruleset {self.cohort}: {message}",
                file=self.path,
                line=line,
                column=column,
                hint=hint,
                fingerprint=subject_fingerprint(code, self.cohort, subject or message),
            )
        )

    def canonical(self) -> None:
        """The text is byte for byte what `freeze` writes."""
        from catalogctl.release.ruleset import render_ruleset

        text = self.head.locate("ruleset", self.cohort.id).document.text
        expected = render_ruleset(self.ruleset, self.path)
        if text == expected:
            return
        line = _first_difference(expected.encode(), text.encode())
        self.out.append(
            Finding(
                severity="error",
                code="ruleset-not-canonical",
                message=f"new ruleset {self.cohort}: line {line} differs from what `catalogctl freeze` writes",
                file=self.path,
                line=line,
                column=1,
                hint="write rulesets with `catalogctl freeze`, never by hand",
                fingerprint=subject_fingerprint("ruleset-not-canonical", self.cohort),
            )
        )

    def order(self, previous: Cohort | None) -> None:
        """Later than the last frozen cohort, which it names as previous; the right date."""
        ruleset, cohort = self.ruleset, self.cohort
        if previous is not None and cohort <= previous:
            self.add("ruleset-order", f"not later than {previous}, the last frozen cohort", "cohort")
        elif previous is not None and self.calendar.skipped(previous, cohort)[0]:
            # As `freeze --skip-cohorts`: a gap is a decision, recorded by accepting this finding.
            self.add(
                "ruleset-cohort-gap",
                f"skips {self.calendar.skipped(previous, cohort)[1]} after {previous}, the last frozen cohort",
                "cohort",
                hint=f"the next cohort is {self.calendar.next(previous)}; if the gap is meant, accept this finding",
            )
        wanted = previous.id if previous is not None else None
        if ruleset.previous != wanted:
            self.add(
                "ruleset-order",
                f"previous is {ruleset.previous or 'null'}, but the last frozen cohort is {wanted or 'none'}",
                "previous",
            )
        day = self.calendar.date_of(cohort)
        if day is None:
            self.add("ruleset-order", "the cohort calendar has no such cohort", "cohort")
        elif ruleset.submission_date != day:
            self.add(
                "ruleset-order",
                f"submission_date is {ruleset.submission_date}, but {cohort} submits on {day}",
                "submission_date",
            )

    def digests(self) -> None:
        """Every benchmark exists, pinned at its contract's digest at the head."""
        for index, entry in enumerate(self.ruleset.benchmarks):
            if entry.id not in self.head.benchmarks:
                message = f"benchmark `{entry.id}` is not in the catalog"
                self.add("ruleset-unknown-benchmark", message, "benchmarks", index, "id", subject=entry.id)
                continue
            try:
                actual = contract_digest(self.head, entry.id)
            except CatalogError:
                continue  # the benchmark's dependencies are invalid: validation reports it
            if actual != entry.digest:
                self.add(
                    "ruleset-digest-mismatch",
                    f"benchmark `{entry.id}` is pinned at {entry.digest}, but its contract at the head is {actual}",
                    "benchmarks",
                    index,
                    "digest",
                    hint="freeze again from the head: the contract changed after the ruleset was written",
                    subject=entry.id,
                )

    def seed_sets(self, rotation: SeedRotation, previous: Ruleset | None, published: list[SeedSet]) -> None:
        """The sets still valid carried over, published sets unchanged, and a new one only when
        rotation is due, named and dated as `freeze` would."""
        known = {s.id: s for s in published}
        index_of = {s.id: i for i, s in enumerate(self.ruleset.seed_sets)}
        mine = set(index_of)
        for carried in previous.seed_sets if previous is not None else []:
            if is_valid_in(carried, self.cohort) and carried.id not in mine:
                self.add("ruleset-seed-sets", f"seed set {carried.id} is still valid but not carried over", "seed_sets")
        for seed_set in self.ruleset.seed_sets:
            if seed_set.id in known and seed_set != known[seed_set.id]:
                self.add(
                    "ruleset-seed-sets",
                    f"seed set {seed_set.id} differs from the one already published: a set never changes",
                    "seed_sets",
                    index_of[seed_set.id],
                )
        new = [s for s in self.ruleset.seed_sets if s.id not in known]
        self._new_sets(rotation, published, new, index_of)

    def _new_sets(
        self, rotation: SeedRotation, published: list[SeedSet], new: list[SeedSet], index_of: dict[str, int]
    ) -> None:
        """One new set when rotation is due, none otherwise, with the next id and its window."""
        due = rotation_due(rotation, self.cohort, published)
        if due and not new:
            self.add(
                "ruleset-seed-sets", "a new seed set is due by the rotation policy, but none was added", "seed_sets"
            )
        if not due and new:
            every = f"a new set every {rotation.rotate_every} cohorts"
            self.add(
                "ruleset-seed-sets",
                f"seed set {new[0].id} is new, but no rotation is due ({every})",
                "seed_sets",
                index_of[new[0].id],
            )
        expected_id = set_id(max((set_index(s.id) for s in published), default=-1) + 1)
        through = advance(self.cohort, rotation.valid_for - 1).id
        for seed_set in new[:1] if due else []:
            if (seed_set.id, seed_set.introduced_in, seed_set.valid_through) != (expected_id, self.cohort.id, through):
                self.add(
                    "ruleset-seed-sets",
                    f"new seed set {seed_set.id} should be {expected_id}, introduced in {self.cohort} and valid "
                    f"through {through} (it says {seed_set.id}, {seed_set.introduced_in}, {seed_set.valid_through})",
                    "seed_sets",
                    index_of[seed_set.id],
                )
        for extra in new[1:]:
            self.add("ruleset-seed-sets", f"seed set {extra.id}: a freeze adds one new set at most", "seed_sets")
