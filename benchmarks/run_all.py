"""The benchmarks in one run: the speed table of issue 15 (parse, consecutive pairs, the 2013-2026 walk, the
2011 -> 2026 jump, whole-process diff, the full-corpus report and an incremental rebuild; beside the
quoted Academy Ruins figures, mightstone and the floor), then alignment quality (the mutation benchmark).
With --all, also the older per-area tables (parse, align speed, report rendering, archive and site).

    python benchmarks/run_all.py [--runs 5] [--corpus-runs 2] [--skip-corpus] [--seeds 5] [--all]

Needs ../shared/cr-corpus; mightstone is installed from PyPI into .venv-peers on first use.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time

import align
import archive
import identify
import parse
import report
import speed
from common import ROOT


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="samples per speed row (default 5)")
    ap.add_argument("--corpus-runs", type=int, default=2, help="samples of the whole-corpus rows (default 2)")
    ap.add_argument("--skip-corpus", action="store_true", help="leave out the whole-corpus report rows")
    ap.add_argument("--seeds", type=int, default=5, help="mutation benchmark seeds per release (default 5)")
    ap.add_argument("--all", action="store_true", help="also the older per-area tables")
    args = ap.parse_args()
    print(f"rulediff benchmarks on {platform.node()} ({platform.machine()}, Python {platform.python_version()})")
    print(f"source: {ROOT}\n")
    started = time.perf_counter()
    print("== speed (min / median of the runs)")
    sys.argv = [sys.argv[0], "--runs", str(args.runs), "--corpus-runs", str(args.corpus_runs)]
    if args.skip_corpus:
        sys.argv.append("--skip-corpus")
    speed.main()
    print("\n== alignment quality")
    print(align.quality(args.seeds, 40))
    if args.all:
        for name, module in (
            ("parse", parse),
            ("align", align),
            ("report", report),
            ("archive and site", archive),
            ("identify", identify),
        ):
            print(f"== {name}")
            sys.argv = [sys.argv[0], "--seeds", str(args.seeds)]
            module.main()
            print()
    print(f"all benchmarks: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
