"""The resolved config (`catalogctl/resolved/v1`): the one input a runner needs, written by
`resolve` and `preflight`, read by `check`; and the typed shape of its contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,  # pydantic validates these on Python 3.11
    cast,
)

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator, with_config
from typing_extensions import TypedDict

from catalogctl.model.common import PositiveInt
from catalogctl.model.documents.benchmark import Scale, check_tier_bounds
from catalogctl.model.documents.metrics import Unit
from catalogctl.model.documents.seeds import Seed, SeedSetName, SeedValues
from catalogctl.model.documents.submission import Settings, TrainingRun

RESOLVED_SCHEMA: Literal["catalogctl/resolved/v1"] = "catalogctl/resolved/v1"


class _Out(BaseModel):
    model_config = ConfigDict(populate_by_name=True, frozen=True, extra="forbid")


class RemoteVerification(_Out):
    """Whether the release was confirmed on the remote, and how."""

    verified: bool
    remote: str | None = None
    methods: list[str] = Field(default_factory=list, description="git (ls-remote), github (REST API)")
    note: str = ""


class Signer(_Out):
    """Who signed the release tag, as `preflight` verified it against the allowed-signers file."""

    principal: str = Field(description="the signer, as the allowed-signers file names it")
    key_fingerprint: str = Field(description="the SHA256 fingerprint of the key that signed the tag")


class Provenance(_Out):
    """Where a resolved config came from."""

    cohort: str
    tag: str | None = Field(default=None, description="the release tag, or absent when found by its ruleset's commit")
    commit: str
    ruleset_digest: str
    contract_digest: str
    tool_version: str
    resolved_at: str
    remote: RemoteVerification
    signer: Signer | None = Field(
        default=None, description="the release tag's verified signer; absent when no signature was checked"
    )
    config_digest: str | None = Field(
        default=None,
        description="sha256 of the canonical JSON of the whole resolved config without this field: `check` "
        "refuses a file edited after `resolve` wrote it (against a deliberate forgery, `check --catalog` proves "
        "the contract and seeds against the release itself)",
    )


class ResolvedSeeds(SeedValues, SeedSetName):
    """The seed set the submission adopted."""

    qsl_rng_seed: Seed | None = Field(
        None,
        description="LoadGen's QSL seed, in a set imported from a LoadGen release's mlperf.conf; absent otherwise, "
        "when LoadGen is given the set's sample_index_rng_seed",
    )


class ResolvedConfig(_Out):
    """The documented shape of a resolved config (`catalogctl/resolved/v1`)."""

    schema_: Literal["catalogctl/resolved/v1"] = Field(RESOLVED_SCHEMA, alias="schema")
    type: Literal["resolved_config"] = "resolved_config"
    submission_ref: dict[str, str]
    contract: dict[str, Any] = Field(
        description="the benchmark's contract with nothing left to look up, without display copy: exactly "
        "what `provenance.contract_digest` is the digest of"
    )
    sources: dict[str, str] = Field(
        default_factory=dict,
        description="where to download each dataset of the contract (by id): display copy, not part of the "
        "contract, since a mirror may move while the sha256 the contract pins stays",
    )
    seeds: ResolvedSeeds
    endpoint_config: dict[str, Any] | None = Field(default=None, description="an inference submission's endpoint")
    settings: Settings | None = Field(default=None, description="an inference submission's settings: its load pattern")
    training: TrainingRun | None = Field(default=None, description="a training submission's system and batch size")
    submitter: dict[str, Any] | None = None
    provenance: Provenance

    @model_validator(mode="after")
    def _one_kind_of_run(self) -> ResolvedConfig:
        serving = self.endpoint_config is not None, self.settings is not None
        if serving != ((True, True) if self.training is None else (False, False)):
            raise ValueError("hold endpoint_config and settings (an inference run) or training (a training run)")
        return self

    def to_data(self) -> dict[str, Any]:
        """Plain data, keys in the documented order (64-bit seeds stay exact integers)."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


# -- the contract's shape, for the code that reads it ----------------------------------------------
# The contract stays plain data (what `catalog.contract.resolve_contract` gives), written and
# read unchanged. These TypedDicts describe the parts the gates and readers index, so that mypy
# sees a mistyped key. A key `resolve_contract` leaves out when unset is NotRequired; a pending
# value (`<TBD>`) is a str where a number is expected.

RepeatMethod = Literal["mean_of_k", "best_of_k", "pass_at_k"]
DatasetMethod = Literal["single_dataset", "micro_average", "unweighted_mean", "per_dataset"]
Weighting = Literal["base_questions", "samples"]


@with_config(ConfigDict(extra="forbid"))  # the catalog's Generation has exactly these: the gates compare each key
class ContractGeneration(TypedDict, total=False):
    """Sampling parameters (a block states only the ones it sets)."""

    temperature: float
    top_p: float
    top_k: int
    max_new_tokens: int
    min_new_tokens: int
    reasoning_effort: Literal["low", "medium", "high"]


class ContractSource(TypedDict):
    """The sha256 of a dataset's bytes (where to download them is in the config's `sources`)."""

    sha256: str


class ContractDataset(TypedDict):
    """A dataset as the contract inlines it."""

    id: str
    samples: int | str
    source: ContractSource
    aliases: NotRequired[list[str]]


class ContractModel(TypedDict):
    """The model as the contract inlines it."""

    id: str
    sha: str
    reference_id: NotRequired[str]
    mlperf_name: NotRequired[str]


class ContractTier(TypedDict):
    """A tier of a load-dependent value: `value` up to concurrency `up_to` (the last: above all)."""

    up_to: NotRequired[PositiveInt]
    value: PositiveInt


def _ascending(tiers: list[ContractTier]) -> list[ContractTier]:
    check_tier_bounds([t.get("up_to") for t in tiers])
    return tiers


class ContractByConcurrency(TypedDict):
    """A value by the submitter's concurrency, tiers ascending (`documents.benchmark.ByConcurrency`)."""

    # As the catalog's model holds them: a gate indexes the last tier and compares up_to in order.
    by_concurrency: Annotated[list[ContractTier], Field(min_length=1), AfterValidator(_ascending)]


class ContractPerformanceRequirements(TypedDict, total=False):
    """The performance phase's bounds (each optional)."""

    min_duration_ms: int | str | ContractByConcurrency
    min_sample_count: int | str
    min_context_length: int | str
    max_ttft_latency_ms: float | str
    max_tpot_latency_ms: float | str


class ContractPerformance(TypedDict):
    """The measured phase."""

    datasets: list[ContractDataset]
    generation: ContractGeneration
    requirements: ContractPerformanceRequirements


class ContractRepeatAggregation(TypedDict):
    """How one dataset's repeats become one score."""

    method: RepeatMethod
    k: PositiveInt  # of no repeat there is no score: the catalog's model refuses 0 too


class ContractEvaluationRecipe(TypedDict):
    """How a dataset's answers are scored (the scorer gives a score's scale)."""

    name: str
    scorer: str


class ContractAccuracyDataset(TypedDict):
    """One dataset of the accuracy phase, its override merged into `generation`."""

    dataset: ContractDataset
    evaluation_recipe: NotRequired[ContractEvaluationRecipe]
    num_repeats: PositiveInt
    generation: ContractGeneration
    repeat_aggregation: ContractRepeatAggregation


class ContractDatasetAggregation(TypedDict):
    """How per-dataset scores become the benchmark's score."""

    method: DatasetMethod
    weighting: NotRequired[Weighting]
    components: NotRequired[list[str]]


class ContractThreshold(TypedDict):
    """A bound of reference x factor."""

    reference: float
    lower_factor: NotRequired[float]
    upper_factor: NotRequired[float]
    scale: Scale


class ContractAccuracyRequirements(TypedDict):
    """What a valid accuracy run must show."""

    min_accuracy_sample_count: int | str


class ContractAccuracy(TypedDict):
    """The scored phase."""

    datasets: list[ContractAccuracyDataset]
    generation: ContractGeneration
    dataset_aggregation: ContractDatasetAggregation
    thresholds: NotRequired[dict[str, ContractThreshold]]
    requirements: ContractAccuracyRequirements
    reported_metrics: NotRequired[list[str]]


class ContractMetric(TypedDict):
    """A metric of the registry, inlined."""

    key: str
    unit: Unit
    direction: Literal["higher", "lower", "neutral"]
    ratio: bool


class ContractRunner(TypedDict):
    """The harness that runs the benchmark (`runner`), inlined; absent: the endpoints client."""

    name: Literal["endpoints", "lm-eval", "evalscope", "inspect", "external"]
    tasks: NotRequired[list[str]]
    version: NotRequired[str]
    batch_size: NotRequired[int | str]
    extra_args: NotRequired[list[str]]
    task_versions: NotRequired[dict[str, str]]
    task_hashes: NotRequired[dict[str, str]]
    rubric: NotRequired[str]


class ContractValidation(TypedDict):
    """How a training benchmark's quality is measured."""

    split: str
    attempts_per_task: int
    generation: ContractGeneration


class ContractQualityTarget(TypedDict):
    """The quality a training run must reach."""

    metric: str
    target: float
    scale: Scale
    bound: NotRequired[Literal[">", ">="]]


class ContractEvaluationSchedule(TypedDict):
    """When a training run first evaluates (a formula of gbs)."""

    first_evaluation_samples: str


class ContractLimits(TypedDict):
    """A training benchmark's budgets (what the training_rules gate compares and multiplies)."""

    max_context_tokens: PositiveInt
    max_turns: PositiveInt
    generations_per_prompt: PositiveInt


class ContractTrainingPhase(TypedDict):
    """What a training benchmark's policy trains on (the keys the training_rules gate reads)."""

    generation: NotRequired[ContractGeneration]
    init_checkpoint_step: NotRequired[int]


class ContractOptimizer(TypedDict):
    """The optimizer and schedule a training benchmark fixes; two formulas of gbs and a tolerance."""

    name: str
    beta_1: float
    beta_2: float
    epsilon: float
    weight_decay: float
    schedule: str
    warmup_steps: int
    learning_rate: str
    gradient_clip_norm: str
    tolerance: float


class ContractPostprocessing(TypedDict):
    """The gates that decide a run, by name."""

    gates: list[str]


class ResolvedContract(TypedDict):
    """A benchmark's resolved contract: the keys of both kinds, those of one kind NotRequired."""

    kind: Literal["inference", "training"]
    id: str
    model: ContractModel
    postprocessing: ContractPostprocessing
    metrics: dict[str, ContractMetric]
    api_type: NotRequired[str]
    runner: NotRequired[ContractRunner]
    performance: NotRequired[ContractPerformance]
    accuracy: NotRequired[ContractAccuracy]
    dataset: NotRequired[ContractDataset]
    validation: NotRequired[ContractValidation]
    quality_target: NotRequired[ContractQualityTarget]
    evaluation_schedule: NotRequired[ContractEvaluationSchedule]
    mlperf_name: NotRequired[str]  # a training benchmark's MLPerf name (training_rules compares it)
    limits: NotRequired[ContractLimits]
    training: NotRequired[ContractTrainingPhase]
    optimizer: NotRequired[ContractOptimizer]


def contract_terms(contract: Mapping[str, Any]) -> ResolvedContract:
    """A resolved config's contract, typed: a view of the same data (nothing is checked or copied)."""
    return cast(ResolvedContract, contract)


def performance_datasets(contract: ResolvedContract) -> list[ContractDataset]:
    """The performance phase's datasets ([] without the phase)."""
    performance = contract.get("performance")
    return performance.get("datasets", []) if performance else []


def accuracy_datasets(contract: ResolvedContract) -> list[ContractAccuracyDataset]:
    """The accuracy phase's datasets ([] without the phase)."""
    accuracy = contract.get("accuracy")
    return accuracy.get("datasets", []) if accuracy else []


def contract_datasets(contract: Mapping[str, Any]) -> dict[str, Any]:
    """Every dataset the contract inlines, by id: the performance phase's, the accuracy phase's,
    a training benchmark's."""
    terms = contract_terms(contract)
    found: list[Any] = [*performance_datasets(terms), *(e["dataset"] for e in accuracy_datasets(terms))]
    if isinstance(contract.get("dataset"), dict):
        found.append(contract["dataset"])
    return {d["id"]: d for d in found}
