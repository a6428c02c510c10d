"""A campaign of generated MLLOG logs, each judged by mlperf-logging's compliance checker and by
`catalogctl check`, with the agreement per rule.

    python bench/conformance_logs.py                      # 1,000 logs, seed 0, a Markdown table
    python bench/conformance_logs.py --count 200 --seed 7 --json

Freezes `llm-post-training` in a cohort of a copy of the shipped catalog and resolves a submission
at each batch size of the sample (in a temporary folder, a sealed home), then writes each log of
the sample of `--seed` (`tests/conformance/log_sample.py`), runs both judges in this process and
compares them on every rule both judge (`tests/conformance/log_differences.py`). Prints, per rule,
the judgements, the agreements and the disagreements no documented difference
(`tests/conformance/differences/training.yaml`) explains; then how often each documented difference
occurred, and the CPU time. Exit 1 when a disagreement is undocumented. The same seed gives the same
logs. Needs the test extra (`pip install -e '.[test]'`): the generator and the judges are the tests'.
"""

from __future__ import annotations

import argparse
import json
import logging
import platform
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # the tests' generator and judges

from tests.conformance import log_differences  # noqa: E402
from tests.conformance.log_cohort import resolved_at_each_batch, sealed_home  # noqa: E402
from tests.conformance.log_sample import sample  # noqa: E402


def main() -> int:
    """Run the campaign; 1 when a disagreement is not documented."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=1000, help="how many logs")
    parser.add_argument("--seed", type=int, default=0, help="the generator's seed (the same seed, the same logs)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    logging.getLogger().addHandler(logging.NullHandler())  # the checker logs its findings; they are read from it
    with tempfile.TemporaryDirectory(prefix="catalogctl-conformance-") as scratch:
        root = Path(scratch)
        with sealed_home(root / "home"):
            resolved = resolved_at_each_batch(root)
            known = log_differences.load()
            started = time.process_time()
            tally = log_differences.campaign(sample(args.seed, args.count), resolved, root, known)
            cpu = time.process_time() - started
    if args.json:
        print(json.dumps(_figures(tally, args.seed, cpu), indent=2))
    else:
        print(
            f"{tally.examples} logs, seed {args.seed}, {cpu:.1f} s of CPU ({platform.machine()}, Python "
            f"{platform.python_version()})\n"
        )
        print(log_differences.agreement_table(tally))
        for d in known:
            print(f"{d.id}: {tally.occurred.get(d.id, 0)}")
        for e, rule, theirs, ours in tally.undocumented[:20]:
            print(f"undocumented: log {e.number} {e.variants} {rule}: official {theirs}, catalogctl {ours}")
    return 1 if tally.undocumented else 0


def _figures(tally: log_differences.Tally, seed: int, cpu: float) -> dict[str, object]:
    rules = {
        rule: {
            "judgements": tally.judged.get(rule, 0),
            "agree": tally.agreed.get(rule, 0),
            "undocumented": sum(1 for _, r, _, _ in tally.undocumented if r == rule),
        }
        for rule in tally.judged
    }
    undocumented = [
        {"log": e.number, "variants": list(e.variants), "rule": r, "official": o, "catalogctl": c}
        for e, r, o, c in tally.undocumented
    ]
    return {
        "logs": tally.examples,
        "seed": seed,
        "cpu_s": round(cpu, 2),
        "judgements": sum(tally.judged.values()),
        "agree": sum(tally.agreed.values()),
        "rules": rules,
        "occurred": tally.occurred,
        "undocumented": undocumented,
    }


if __name__ == "__main__":
    sys.exit(main())
