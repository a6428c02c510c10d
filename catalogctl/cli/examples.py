"""The examples every command's help ends with, by command path (`""` is `catalogctl` itself).

One or two each, the common case first; each is a whole command line a reader can copy, and a
test parses every one with the command itself, so a renamed option or command fails it.
"""

from __future__ import annotations

from catalogctl.cli.helptext import epilog

EXAMPLES: dict[str, tuple[str, ...]] = {
    "": ("catalogctl validate", "catalogctl diff 2026-10-C1 2026-11-C0"),
    "validate": ("catalogctl validate", "catalogctl validate -C catalog --ref 2026-10-C1 --errors-only"),
    "ls": ("catalogctl ls models", "catalogctl ls benchmarks --ref 2026-10-C1 --format json"),
    "show": ("catalogctl show gpt-oss-120b --resolved", "catalogctl show model/llama3-1-8b --format json"),
    "diff": ("catalogctl diff 2026-10-C1 2026-11-C0", "catalogctl diff main --fail-on contract --format markdown"),
    "freeze": (
        "catalogctl freeze 2026-10-C1 --add gsm8k --seeds seedset.yaml --dry-run",
        "catalogctl freeze 2026-11-C0 --sign --push origin",
    ),
    "tag": ("catalogctl tag 2026-11-C0 --push origin", "catalogctl tag 2026-11-C0 --sign --dry-run"),
    "cohorts": ("catalogctl cohorts", "catalogctl cohorts --allowed-signers allowed_signers"),
    "verify": (
        "catalogctl verify 2026-11-C0",
        "catalogctl verify 2026-11-C0 --require-signature --gpg-keyring keyring.gpg",
    ),
    "site": ("catalogctl site -o _site", "catalogctl site -o _site --ref 2026-11-C0"),
    "resolve": ("catalogctl resolve submission.yaml -o resolved.json", "catalogctl resolve submission.yaml -f json"),
    "preflight": (
        "catalogctl preflight submission.yaml -o run/resolved.json",
        "catalogctl preflight submission.yaml --offline",
    ),
    "check": (
        "catalogctl check resolved.json run-folder/ --catalog .",
        "catalogctl check resolved.json results/ --format markdown",
    ),
    "runner-config": ("catalogctl runner-config resolved.json -o r8/",),
    "compare": (
        "catalogctl compare base=runs/base/ tuned=runs/tuned/",
        "catalogctl compare base.json tuned.json --all-metrics --format markdown",
    ),
    "gates": ("catalogctl gates", "catalogctl gates --format json"),
    "metrics": ("catalogctl metrics", "catalogctl metrics --ref 2026-10-C1 --format json"),
    "ci": ("catalogctl ci --base main", "catalogctl ci --base origin/main --format github --today 2026-10-01"),
    "comment": ("catalogctl comment --repo mlcommons/catalog --pr 42 --body comment.md",),
    "schema": ("catalogctl schema -o schemas",),
    "new": (
        "catalogctl new model qwen3-8b",
        "catalogctl new benchmark qwen3-8b-gsm8k --model qwen3-8b --dataset gsm8k",
    ),
    "datasets": ("catalogctl datasets verify gsm8k", "catalogctl datasets pin gsm8k test.jsonl"),
    "datasets verify": ("catalogctl datasets verify", "catalogctl datasets verify gsm8k --local downloads/"),
    "datasets pin": (
        "catalogctl datasets pin gsm8k test.jsonl",
        "catalogctl datasets pin gsm8k https://example.org/gsm8k/test.jsonl",
    ),
    "export": ("catalogctl export mlperf 2026-10-C1 -o mlperf/",),
    "export mlperf": (
        "catalogctl export mlperf 2026-10-C1 -o mlperf/",
        "catalogctl export mlperf 2026-10-C1 -o mlperf/ --force --format json",
    ),
}


def examples_of(path: str) -> str:
    """The epilog of the command at `path` (`"datasets verify"`): its examples."""
    return epilog(*EXAMPLES[path])
