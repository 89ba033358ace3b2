"""Every benchmark in one run, one table each: parse (beside mightstone), alignment quality and speed
(beside mightstone's diff), report rendering, and the whole corpus archived into a site.

    python benchmarks/run_all.py            (needs ../shared/cr-corpus; mightstone goes to .venv-peers)
"""

from __future__ import annotations

import platform
import sys
import time

import align
import archive
import parse
import report
from common import ROOT


def main() -> None:
    print(f"rulediff benchmarks on {platform.node()} ({platform.machine()}, Python {platform.python_version()})")
    print(f"source: {ROOT}\n")
    started = time.perf_counter()
    for name, module in (("parse", parse), ("align", align), ("report", report), ("archive and site", archive)):
        print(f"== {name}")
        if module is align:
            sys.argv = [sys.argv[0], "--seeds", "5"]
        module.main()
        print()
    print(f"all benchmarks: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
