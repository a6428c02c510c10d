"""A fuzzing campaign of `catalogctl check` over every layout it reads.

    python bench/fuzz_check.py                    # 20,000 cases, seed 0, table
    python bench/fuzz_check.py --cases 500 --seed 7 --json

Builds a real input of each layout (a results file, a failing one, an endpoints run folder, a
submission point, a submission tree, an MLLOG file, a folder of MLLOG runs, and a real LoadGen
run when its wheel is installed) in a temporary folder, then mutates them case after case
(`tests/check_fuzz.py` says how) and runs `check` and its reporters on each, in this process.
Reports the cases, the outcomes by layout, and every crash (an exception other than the tool's
own errors: the CLI's exit 70) and forged verdict (a pass on an input that cannot pass), with
the first inputs that gave one. Exit 1 when there is any. The same generator seed gives the
same cases. Needs the test extra (`pip install -e '.[test]'`): the inputs are the tests'.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # the tests' builders of inputs

from tests.check_fuzz import campaign, make_seeds  # noqa: E402


def main() -> int:
    """Run the campaign; 1 when it found a crash or a forged verdict."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0, help="the generator's seed (the same seed, the same cases)")
    parser.add_argument("--no-loadgen", action="store_true", help="leave out the LoadGen layout (no real run)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="catalogctl-fuzz-") as scratch:
        root = Path(scratch)
        # As the tests: no user configuration, no cache written outside this folder.
        os.environ.update({"GIT_CONFIG_GLOBAL": os.devnull, "CATALOGCTL_CACHE_DIR": str(root / "cache")})
        seeds = make_seeds(root / "seeds", loadgen=not args.no_loadgen)
        tally = campaign(seeds, args.cases, root / "case", args.seed)
    figures = {
        "cases": tally.cases,
        "seed": args.seed,
        "layouts": [s.name for s in seeds],
        "crashes": tally.count("crash"),
        "forged": tally.count("forged"),
        "outcomes": tally.outcomes,
        "findings": tally.findings,
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"{tally.cases} cases (seed {args.seed}) over {len(seeds)} layouts: {', '.join(figures['layouts'])}")
        for name, counts in tally.outcomes.items():
            print(f"  {name:16} " + "  ".join(f"{k} {v}" for k, v in sorted(counts.items())))
        print(f"crashes: {figures['crashes']}, forged verdicts: {figures['forged']}")
        for finding in tally.findings:
            print(f"--- {finding}")
    return 1 if figures["crashes"] or figures["forged"] else 0


if __name__ == "__main__":
    sys.exit(main())
