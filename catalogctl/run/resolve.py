"""`resolve`: a submission and its cohort's frozen contract become one resolved config.

The contract is read from the cohort's release (its tag's tree), never from the working tree.
The resolved config is the only input a runner needs: the contract with model, datasets and
recipes inlined and overrides merged, the chosen seeds, what the submitter owns, and where it
all came from.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Literal

from catalogctl.catalog.cohorts import Cohort
from catalogctl.catalog.config import layout_for
from catalogctl.catalog.contract import contract_digest, dataset_sources, resolve_contract
from catalogctl.catalog.diagnostics import errors_only
from catalogctl.catalog.index import Catalog
from catalogctl.catalog.layout import Layout
from catalogctl.catalog.loader import SubsetLoader
from catalogctl.catalog.seeds import valid_sets
from catalogctl.catalog.source import resolve_ref
from catalogctl.catalog.validation import read_user_document
from catalogctl.errors import CatalogInvalid, CheckFailed, UsageError
from catalogctl.io import gitrepo, gittags, gittree
from catalogctl.io.files import write_atomic
from catalogctl.io.yamlio import dump_yaml
from catalogctl.model import AnyBenchmark, Ruleset, SeedSet, Submission, TrainingBenchmark
from catalogctl.model.documents.resolved import Provenance, RemoteVerification, ResolvedConfig, ResolvedSeeds, Signer
from catalogctl.release.releases import require_cohort
from catalogctl.release.ruleset import ruleset_digest
from catalogctl.release.statement import ReleaseState, require_release
from catalogctl.release.trust import SignatureFlags, trust_for
from catalogctl.run.seal import sealed
from catalogctl.version import __version__


def read_submission(path: Path) -> Submission:
    """A submission file, validated with positions for every problem."""
    return read_user_document(path, Submission, "submission")


def resolve_at(
    repo: gitrepo.Repository,
    commit: gitrepo.Commit,
    submission: Submission,
    *,
    layout: Layout,
    label: str,
    tag: str | None,
    remote: RemoteVerification,
    now: dt.datetime | None = None,
) -> ResolvedConfig:
    """Resolve `submission` against the release tree at `commit`, read in `layout`."""
    ref = submission.submission_ref
    catalog = _load(repo, commit, submission, label, layout)
    ruleset = catalog.rulesets.get(ref.cohort)
    path = layout.ruleset_path(ref.cohort)
    if ruleset is None:
        raise CheckFailed("tag-invalid", f"{label} has no {path}: it is not the release of {ref.cohort}")
    frozen = _frozen_digest(ruleset, submission)
    seeds = _seed_set(ruleset, submission)
    digest = _contract_digest(catalog, submission, frozen, label)
    ruleset_text = gitrepo.read_blob(commit, path)  # there: the loader read it
    submission_data = submission.model_dump(mode="json", exclude_none=True)
    contract = resolve_contract(catalog, ref.benchmark, display=False)  # what the digest is of
    return ResolvedConfig(
        submission_ref=submission_data["submission_ref"],
        contract=contract,
        sources=dataset_sources(catalog, contract),
        seeds=ResolvedSeeds(id=seeds.id, **seeds.seed_values().model_dump(), qsl_rng_seed=seeds.qsl_rng_seed),
        endpoint_config=submission_data.get("endpoint_config"),
        settings=submission.settings,
        training=submission.training,
        submitter=submission_data.get("submitter"),
        provenance=Provenance(
            cohort=ref.cohort,
            tag=tag,
            commit=str(commit.id),
            ruleset_digest=ruleset_digest(ruleset_text),
            contract_digest=digest,
            tool_version=__version__,
            resolved_at=(now or dt.datetime.now(dt.UTC)).replace(microsecond=0).isoformat(),
            remote=remote,
        ),
    )


def _load(
    repo: gitrepo.Repository, commit: gitrepo.Commit, submission: Submission, label: str, layout: Layout
) -> Catalog:
    """The cohort's ruleset and the benchmark with what its contract needs, read at `commit`."""
    ref = submission.submission_ref
    loader = SubsetLoader(gittree.GitTree(repo, commit, label), layout=layout)
    loader.want([("ruleset", ref.cohort), ("benchmark", ref.benchmark)])
    catalog = loader.result.catalog
    if ref.benchmark in catalog.benchmarks:
        loader.want(catalog.sources_of(ref.benchmark))
    errors = errors_only(loader.result.diagnostics)
    if errors:
        raise CatalogInvalid(f"the catalog at {label} does not validate", errors)
    return catalog


def _frozen_digest(ruleset: Ruleset, submission: Submission) -> str:
    """The digest the cohort froze for the submission's benchmark."""
    ref = submission.submission_ref
    members = {b.id: b.digest for b in ruleset.benchmarks}
    if ref.benchmark not in members:
        raise CheckFailed(
            "submission-mismatch",
            f"benchmark `{ref.benchmark}` is not in cohort {ref.cohort}",
            f"the cohort's benchmarks: {', '.join(sorted(members))}",
        )
    return members[ref.benchmark]


def _seed_set(ruleset: Ruleset, submission: Submission) -> SeedSet:
    """The seed set the submission adopts, which must be valid for its cohort."""
    ref = submission.submission_ref
    seeds = next((s for s in ruleset.seed_sets if s.id == ref.seed_set_id), None)
    valid = [s.id for s in valid_sets(ruleset.seed_sets, Cohort.parse(ref.cohort))]
    if seeds is None or seeds.id not in valid:
        raise CheckFailed(
            "submission-mismatch",
            f"seed set `{ref.seed_set_id}` is not valid for cohort {ref.cohort}",
            f"valid seed sets: {', '.join(valid) or 'none'}",
        )
    return seeds


def _contract_digest(catalog: Catalog, submission: Submission, frozen: str, label: str) -> str:
    """The benchmark's contract digest at the release, which must be the frozen one, for the
    API type the submission serves."""
    ref = submission.submission_ref
    bench = catalog.benchmarks.get(ref.benchmark)
    if bench is None:
        raise CheckFailed("contract-mismatch", f"benchmark `{ref.benchmark}` of the ruleset has no contract at {label}")
    _require_run_kind(bench, submission)
    digest = contract_digest(catalog, ref.benchmark)
    if digest != frozen:
        raise CheckFailed(
            "contract-mismatch",
            f"the contract of `{ref.benchmark}` at {label} has digest {digest}, but cohort {ref.cohort} froze {frozen}",
            "the catalog was edited after the freeze: run exactly the release commit",
        )
    return digest


def _require_run_kind(bench: AnyBenchmark, submission: Submission) -> None:
    """An inference submission serves the benchmark's API type; a training one owns a batch size
    the benchmark admits (prompts per step x generations per prompt)."""
    ref = submission.submission_ref
    if isinstance(bench, TrainingBenchmark):
        if submission.training is None:
            raise CheckFailed(
                "submission-mismatch",
                f"benchmark `{ref.benchmark}` is a training benchmark: it has no endpoint_config or settings",
                "state `training: {system: ..., global_batch_size: ...}` instead",
            )
        gbs, per_prompt = submission.training.global_batch_size, bench.limits.generations_per_prompt
        below = gbs // per_prompt * per_prompt
        if gbs % per_prompt:
            raise CheckFailed(
                "submission-mismatch",
                f"training.global_batch_size is {gbs}, but benchmark `{ref.benchmark}` needs prompts per step "
                f"x {per_prompt} generations per prompt",
                f"a multiple of {per_prompt}: {below or per_prompt} or {below + per_prompt}",
            )
        return
    if submission.endpoint_config is None:
        raise CheckFailed(
            "submission-mismatch",
            f"benchmark `{ref.benchmark}` is an inference benchmark: the submission needs endpoint_config and settings",
        )
    api_type = submission.endpoint_config.api_type
    if bench.api_type != api_type:
        raise CheckFailed(
            "submission-mismatch",
            f"endpoint_config.api_type is {api_type}, but benchmark `{ref.benchmark}` uses {bench.api_type}",
        )


def signer_of(state: ReleaseState) -> Signer | None:
    """The signer a resolved config records: the release tag's, when its signature checked good."""
    checked = state.signature
    if checked is None or checked.state != "good" or not checked.principal or not checked.fingerprint:
        return None
    return Signer(principal=checked.principal, key_fingerprint=checked.fingerprint)


def resolve(
    path: Path, submission_file: Path, ref: str | None = None, signature: SignatureFlags | None = None
) -> ResolvedConfig:
    """Resolve a submission against its cohort's release (its signature held to the suite's
    policy and `signature`, as `preflight` holds it), or against `ref`, without the checkout and
    remote checks of `preflight`); in the layout the repository at `path` configures."""
    submission = read_submission(submission_file)
    layout, repo = layout_for(path), gitrepo.open_repository(path)
    cohort = submission.submission_ref.cohort
    target = ref or cohort
    if ref is None:
        require_cohort(repo, cohort, layout)  # before the ref: "no such cohort", not "unknown ref"
    found = resolve_ref(repo, target, layout)
    if ref is not None:
        require_cohort(repo, cohort, layout, found.commit)
    tag_state = gittags.tag_state(repo, cohort)
    tag = cohort if tag_state is not None and tag_state.commit == str(found.commit.id) else None
    signer = None
    if ref is None and tag is not None:
        signer = signer_of(require_release(repo, cohort, layout, trust_for(repo, signature))[0])
    note = "not checked: resolve does not contact the remote (preflight does)"
    if found.note:
        note = f"{found.note}; {note}"
    config = resolve_at(
        repo,
        found.commit,
        submission,
        layout=layout,
        label=f"{target} ({str(found.commit.id)[:12]})",
        tag=tag,
        remote=RemoteVerification(verified=False, note=note),
    )
    return sealed(config.model_copy(update={"provenance": config.provenance.model_copy(update={"signer": signer})}))


def render_resolved(config: ResolvedConfig, fmt: Literal["yaml", "json"]) -> str:
    """The resolved config as YAML or JSON text."""
    data = config.to_data()
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return dump_yaml(data)


def output_format(output: Path) -> Literal["yaml", "json"]:
    """YAML or JSON by the output file's extension (checked before any work is done)."""
    suffix = output.suffix.lower()
    if suffix not in (".json", ".yaml", ".yml"):
        raise UsageError(f"{output}: write the resolved config to a .yaml, .yml or .json file")
    return "json" if suffix == ".json" else "yaml"


def write_resolved(config: ResolvedConfig, output: Path) -> None:
    """Write atomically, YAML or JSON by the file's extension."""
    write_atomic(output, render_resolved(config, output_format(output)).encode("utf-8"))
