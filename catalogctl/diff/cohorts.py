"""Between two cohorts: the benchmarks added, removed, identical and changed in their rulesets,
and the seed sets introduced, still valid and retired."""

from __future__ import annotations

from catalogctl.catalog.cohorts import Cohort, is_cohort_id
from catalogctl.catalog.seeds import is_valid_in
from catalogctl.diff.entities import Differ
from catalogctl.io import gittags, gittree, pgpsig, sshsig
from catalogctl.io.tree import Tree
from catalogctl.model import Ruleset
from catalogctl.model.reports.diff import CohortDelta, SeedSetDelta, SignerDelta


def cohort_delta(differ: Differ, old_ref: str, new_ref: str) -> CohortDelta | None:
    """The delta between the rulesets of two cohorts; None unless both refs name one."""
    if not (is_cohort_id(old_ref) and is_cohort_id(new_ref)):
        return None
    differ.old.want([("ruleset", old_ref)])
    differ.new.want([("ruleset", new_ref)])
    differ.check_valid()
    before = differ.old_catalog.rulesets.get(old_ref)
    after = differ.new_catalog.rulesets.get(new_ref)
    if before is None or after is None:
        return None
    old_digests = {b.id: b.digest for b in before.benchmarks}
    new_digests = {b.id: b.digest for b in after.benchmarks}
    common = sorted(old_digests.keys() & new_digests.keys())
    return CohortDelta(
        old=old_ref,
        new=new_ref,
        benchmarks_added=sorted(new_digests.keys() - old_digests.keys()),
        benchmarks_removed=sorted(old_digests.keys() - new_digests.keys()),
        benchmarks_identical=[b for b in common if old_digests[b] == new_digests[b]],
        benchmarks_changed=[b for b in common if old_digests[b] != new_digests[b]],
        seed_sets=_seed_set_delta(before, after),
        signers=_signers(differ.old_tree, old_ref, differ.new_tree, new_ref),
    )


def tag_signer(tree: Tree, cohort: str) -> str:
    """Who signed the release tag `tree` was read from: a key fingerprint (an OpenPGP signature's
    as it names its key, unchecked), or `unsigned`, `bad signature`, `no tag` (a clone without the
    tag reads the commit that added the ruleset)."""
    if not isinstance(tree, gittree.GitTree):
        return "no tag"
    tag = gittags.tag_state(tree.repo, cohort)
    if tag is None or tag.commit != str(tree.commit.id):
        return "no tag"
    tag_object = gittags.tag_object(tree.repo, cohort)
    signed = sshsig.split(tag_object.raw) if tag_object is not None else None
    if signed is None or signed.kind is None:
        return "unsigned"
    if signed.kind == "gpg":  # no keyring here: the key the signature names
        return pgpsig.issuer(signed) or "bad signature"
    return sshsig.fingerprint(signed) or "bad signature"


def _signers(old: Tree, old_ref: str, new: Tree, new_ref: str) -> SignerDelta | None:
    """The signers of both tags; None when neither is signed (nothing to name)."""
    before, after = tag_signer(old, old_ref), tag_signer(new, new_ref)
    if {before, after} <= {"unsigned", "no tag"}:
        return None
    return SignerDelta(old=before, new=after, changed=before != after)


def _seed_set_delta(before: Ruleset, after: Ruleset) -> SeedSetDelta:
    """Sets new in `after`, in both and still valid for its cohort, and gone or expired."""
    old_ids, new_ids = {s.id for s in before.seed_sets}, {s.id for s in after.seed_sets}
    cohort = Cohort.parse(after.cohort)
    retired = sorted(s.id for s in before.seed_sets if s.id not in new_ids or not is_valid_in(s, cohort))
    return SeedSetDelta(
        introduced=sorted(new_ids - old_ids),
        still_valid=sorted(i for i in new_ids & old_ids if i not in retired),
        retired=retired,
    )
