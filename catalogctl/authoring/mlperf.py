"""`export mlperf`: what the official MLCommons submission checker (endpoints-submission-cli)
reads, written from a frozen cohort in the checker's own formats.

- `seed_sets.yaml`: the seed-set registry, shaped as endpoints_policies publishes it
  (`cohort: {version, cohort-id, seed_sets}`). The checker derives every set's window from
  `cohort-id` (§4.6: that cohort and the three after it) unless a set lists its own `cohorts`:
  when the cohort's sets have different windows each set lists its own, or the checker would
  accept a set past the window the ruleset gives it.
- `approved_drafters.yaml`: §2.9.4's list, keyed (`benchmark`) by the name the checker gives the
  benchmark's model, which is the name its submission folder and `model_name` carry.
- `models.yaml`: the model names the cohort's inference benchmarks allow, with the checkpoint
  and the revision each is pinned to.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from catalogctl.catalog.cohorts import Cohort
from catalogctl.catalog.config import layout_for
from catalogctl.catalog.contract import contract_digest
from catalogctl.catalog.diagnostics import errors_only
from catalogctl.catalog.index import Catalog
from catalogctl.catalog.layout import Layout
from catalogctl.catalog.loader import load_tree
from catalogctl.catalog.source import resolve_ref
from catalogctl.errors import CatalogError, CatalogInvalid, CheckFailed, UsageError
from catalogctl.io import gitrepo, gittree
from catalogctl.io.files import write_atomic, write_state
from catalogctl.io.yamlio import dump_yaml
from catalogctl.model import InferenceBenchmark, Ruleset, SeedSet
from catalogctl.model.reports.export import ExportedFile, ExportedModel, ExportedSeedSet, MlperfExport
from catalogctl.release.releases import require_cohort
from catalogctl.release.statement import require_release
from catalogctl.release.trust import SignatureFlags, trust_for

# The checker derives a set's window as §4.6 states it (four cohorts) and applies §2.9.4's lead
# time of two cohorts: neither is a field of its files.
CHECKER_WINDOW = 4
CHECKER_DRAFTER_LEAD = 2
SEED_SETS, DRAFTERS, MODELS = "seed_sets.yaml", "approved_drafters.yaml", "models.yaml"


def export_mlperf(
    path: Path,
    cohort: str,
    out_dir: Path,
    *,
    ref: str | None = None,
    force: bool = False,
    signature: SignatureFlags | None = None,
) -> MlperfExport:
    """Write the checker's files for `cohort` into `out_dir`, from its release commit (verified as
    `resolve` verifies it, its signature included) or from `ref`; a different existing file is
    replaced only with `force`. Read in the layout the repository at `path` configures."""
    layout, repo = layout_for(path), gitrepo.open_repository(path)
    require_cohort(repo, cohort, layout)
    _, commit = require_release(repo, cohort, layout, trust_for(repo, signature))
    if ref is not None:
        commit = _at_ref(repo, cohort, commit, ref, layout)
    catalog, ruleset = _frozen(repo, commit, cohort, layout)
    benches = [catalog.benchmarks[b.id] for b in ruleset.benchmarks]
    inference = [b for b in benches if isinstance(b, InferenceBenchmark)]
    seed_sets = [ExportedSeedSet(id=s.id, cohorts=_window(s)) for s in ruleset.seed_sets]
    drafters = _drafters(catalog, inference)
    models = _models(catalog, inference)
    header = f"# Exported by catalogctl from cohort {cohort} (catalog commit {str(commit.id)[:12]}); do not edit.\n"
    texts = {
        SEED_SETS: header + dump_yaml(_seed_registry(cohort, ruleset.seed_sets, seed_sets)),
        DRAFTERS: header + dump_yaml({"drafters": drafters}),
        MODELS: header + dump_yaml({"cohort": cohort, "models": [m.model_dump() for m in models]}),
    }
    files = _write(out_dir, {name: text.encode("utf-8") for name, text in texts.items()}, force)
    return MlperfExport(
        cohort=cohort, commit=str(commit.id), files=files, seed_sets=seed_sets, drafters=len(drafters), models=models
    )


def _at_ref(repo: gitrepo.Repository, cohort: str, release: gitrepo.Commit, ref: str, layout: Layout) -> gitrepo.Commit:
    """The commit `ref` names, whose ruleset of `cohort` must be the released one byte for byte:
    only the contracts are read there (and held to the frozen digests), never another ruleset."""
    commit = resolve_ref(repo, ref, layout).commit
    require_cohort(repo, cohort, layout, commit)
    where = layout.ruleset_path(cohort)
    if gitrepo.read_blob_or_none(commit, where) != gitrepo.read_blob(release, where):
        raise CheckFailed(
            "contract-mismatch",  # the frozen terms changed since the freeze: the same exit code
            f"{where} at {str(commit.id)[:12]} is not the one released at tag {cohort}: only its contracts may be "
            "read at another commit",
            "export the release commit (drop --ref)",
        )
    return commit


def _frozen(repo: gitrepo.Repository, commit: gitrepo.Commit, cohort: str, layout: Layout) -> tuple[Catalog, Ruleset]:
    """The catalog at `commit` and the cohort's ruleset, whose digests its contracts must match."""
    result = load_tree(gittree.GitTree(repo, commit, str(commit.id)[:12]), layout=layout)
    errors = errors_only(result.diagnostics)
    if errors:
        raise CatalogInvalid(f"the catalog at {str(commit.id)[:12]} is invalid: nothing was exported", errors)
    catalog = result.catalog
    ruleset = catalog.rulesets[cohort]  # require_cohort found it at this commit
    for bench in ruleset.benchmarks:
        digest = contract_digest(catalog, bench.id)
        if digest != bench.digest:
            raise CheckFailed(
                "contract-mismatch",
                f"the contract of `{bench.id}` at {str(commit.id)[:12]} has digest {digest}, but cohort {cohort} "
                f"froze {bench.digest}",
                "export the release commit (drop --ref)",
            )
    suite = catalog.suite
    assert suite is not None  # a valid catalog has one
    lead = suite.policies.drafter_approval_lead_cohorts
    if lead != CHECKER_DRAFTER_LEAD:
        raise CatalogError(
            f"the suite's drafter_approval_lead_cohorts is {lead}, but the checker applies §2.9.4's "
            f"{CHECKER_DRAFTER_LEAD}: its approved_drafters.yaml cannot state another",
        )
    return catalog, ruleset


def _window(seed_set: SeedSet) -> list[str]:
    """The cohorts in which a new submission may adopt `seed_set`, in order."""
    cohort, last = Cohort.parse(seed_set.introduced_in), Cohort.parse(seed_set.valid_through)
    window = [cohort.id]
    while cohort < last:
        cohort = cohort.next()
        window.append(cohort.id)
    return window


def _seed_registry(cohort: str, sets: list[SeedSet], exported: list[ExportedSeedSet]) -> dict[str, Any]:
    """The registry: each set lists its window unless all are the one the checker derives."""
    derived = [cohort]
    while len(derived) < CHECKER_WINDOW:
        derived.append(Cohort.parse(derived[-1]).next().id)
    explicit = any(e.cohorts != derived for e in exported)
    entries: list[dict[str, Any]] = []
    for seed_set, window in zip(sets, exported, strict=True):
        entry: dict[str, Any] = {"id": seed_set.id, **seed_set.seed_values().model_dump()}
        if explicit:
            entry["cohorts"] = window.cohorts
        entries.append(entry)
    return {"cohort": {"version": 1.0, "cohort-id": cohort, "seed_sets": entries}}


def _model_name(catalog: Catalog, bench: InferenceBenchmark) -> str:
    model = catalog.models[bench.model]
    return model.mlperf_name or model.id


def _drafters(catalog: Catalog, benches: list[InferenceBenchmark]) -> list[dict[str, Any]]:
    """Every approved drafter of the cohort's benchmarks, once per model name."""
    out: list[dict[str, Any]] = []
    for bench in benches:
        for drafter in bench.approved_drafters:
            entry = {"benchmark": _model_name(catalog, bench), **drafter.model_dump(exclude_none=True)}
            if entry not in out:
                out.append(entry)
    return out


def _models(catalog: Catalog, benches: list[InferenceBenchmark]) -> list[ExportedModel]:
    """The models of the cohort's benchmarks by the checker's name (frozen: nothing is pending)."""
    found: dict[str, ExportedModel] = {}
    for bench in benches:
        model = catalog.models[bench.model]
        name = _model_name(catalog, bench)
        known = found.get(name)
        users = [*(known.benchmarks if known else []), bench.id]
        found[name] = ExportedModel(
            name=name, checkpoint=str(model.reference_id), revision=str(model.sha), benchmarks=users
        )
    return list(found.values())


def _write(out_dir: Path, files: dict[str, bytes], force: bool) -> list[ExportedFile]:
    """Write every file atomically; first refuse, unless `force`, when one holds other bytes."""
    states = {
        name: write_state(out_dir / name, data, "nothing was exported", "name another folder with -o")
        for name, data in files.items()
    }
    other = [str(out_dir / name) for name, state in states.items() if state == "replaced"]
    if other and not force:
        raise UsageError(
            f"{', '.join(other)} already {'exists' if len(other) == 1 else 'exist'} with other content: "
            "nothing was exported",
            "pass --force to replace them, or name another folder with -o",
        )
    for name, data in files.items():
        if states[name] != "unchanged":
            write_atomic(out_dir / name, data)
    return [
        ExportedFile(path=str(out_dir / name), state=states[name], sha256=hashlib.sha256(data).hexdigest())
        for name, data in files.items()
    ]
