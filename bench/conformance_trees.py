"""A conformance campaign over generated submission trees: the official Endpoints checker against
`catalogctl check`, rule by rule.

    python bench/conformance_trees.py --count 1000 --seed 0     # a table
    python bench/conformance_trees.py --count 50 --seed 3 --json

Freezes one cohort, draws `--count` DeepSeek-R1 submission trees from the real v6.1 endpoints
files (`tests/conformance/trees.py`: generator seeds `seed * 100000 + i`), runs each through
`submission_checker` (endpoints-submission-cli, as a library) and through `check`, in this process,
and prints per row of catalogctl's the official rule it maps to, the judgements both sides made
(pass, fail or unknown on each), how many agree, and the disagreements: documented in
tests/conformance/differences/inference.yaml, or not. Exit 1 when any is undocumented. Needs the
test extra (`pip install -e '.[test]'`): the trees and the table are the tests'.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # the tests' builders of trees

from tests.conformance.tree_cohort import freeze_cohort  # noqa: E402
from tests.conformance.tree_differences import load_differences, run_campaign  # noqa: E402
from tests.conformance.tree_verdicts import ROWS  # noqa: E402


def main() -> int:
    """Run the campaign; 1 when a disagreement is not documented."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=1000, help="trees to draw")
    parser.add_argument("--seed", type=int, default=0, help="the generator's seed (the same seed, the same trees)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    table = load_differences()
    with tempfile.TemporaryDirectory(prefix="catalogctl-trees-") as scratch:
        root = Path(scratch)
        # As the tests: no user configuration, no cache or checker state written outside this folder.
        os.environ.update({"HOME": str(root / "home"), "CATALOGCTL_CACHE_DIR": str(root / "cache")})
        for name in ("MLPERF_ENDPOINTS_SEED_SETS", "MLPERF_ENDPOINTS_APPROVED_DRAFTERS"):
            os.environ.pop(name, None)
        cohort = freeze_cohort(root / "cohort")
        started = time.process_time()
        campaign = run_campaign(args.count, args.seed, root, cohort, table)
        cpu = time.process_time() - started
    rows: list[dict[str, Any]] = []
    for row in ROWS:
        tally = campaign.rows[row.name]
        rows.append(
            {
                "row": row.name,
                "official": ", ".join(row.rules) or "none",
                "judgements": tally.judgements,
                "agree": tally.agree,
                "percent": round(100 * tally.agree / tally.judgements, 1) if tally.judgements else None,
                "documented": sum(tally.documented.values()),
                "undocumented": len(tally.undocumented),
                "differences": tally.documented,
            }
        )
    judged = sum(r["judgements"] for r in rows)
    agreed = sum(r["agree"] for r in rows)
    figures: dict[str, Any] = {
        "trees": campaign.trees,
        "seed": args.seed,
        "cpu_s": round(cpu, 1),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "judgements": judged,
        "agree": agreed,
        "undocumented": len(campaign.undocumented),
        "unseen_differences": sorted({d.id for d in table} - campaign.seen()),
        "rows": rows,
        "undocumented_examples": campaign.undocumented[:20],
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"{campaign.trees} trees (seed {args.seed}), {cpu:.1f} s of CPU on {figures['machine']}")
        print(f"{'row':40} {'official rule':40} {'judged':>6} {'agree':>6} {'%':>6} {'documented':>10} {'undoc.':>6}")
        for r in rows:
            percent = f"{r['percent']:.1f}" if r["percent"] is not None else "-"
            print(
                f"{r['row']:40} {r['official'][:40]:40} {r['judgements']:6} {r['agree']:6} {percent:>6} "
                f"{r['documented']:10} {r['undocumented']:6}"
            )
        total = f"{100 * agreed / judged:.1f}" if judged else "-"
        print(f"{'all rows':81} {judged:6} {agreed:6} {total:>6}")
        print(f"undocumented disagreements: {len(campaign.undocumented)}")
        for line in campaign.undocumented[:20]:
            print(f"  {line}")
        if figures["unseen_differences"]:
            print(f"documented differences not seen: {', '.join(figures['unseen_differences'])}")
    return 1 if campaign.undocumented else 0


if __name__ == "__main__":
    sys.exit(main())
